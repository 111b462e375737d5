import {describe, expect, it} from 'vitest';
import {
  applyServerErrors,
  createForm,
  cycleChoice,
  isDirty,
  moveFocus,
  setValue,
  toggle,
  validateForm,
  type FieldSpec,
} from '../../src/state/interactions/form.js';
import {validateMtu} from '../../src/state/data/validators.js';

const specs: FieldSpec[] = [
  {key: 'name', label: 'Name', kind: 'text', validate: (v) => (String(v).trim() === '' ? ["can't be blank"] : [])},
  {key: 'use_default_mtu', label: 'Use default MTU', kind: 'toggle'},
  {key: 'mtu', label: 'MTU', kind: 'text', disabledWhen: (v) => (v.use_default_mtu ? 'uses the default' : null), validate: (v) => validateMtu(String(v))},
  {
    key: 'action',
    label: 'Action',
    kind: 'choice',
    choices: [
      {value: 'drop', label: 'DROP'},
      {value: 'accept', label: 'ACCEPT'},
    ],
  },
];

describe('form', () => {
  it('opens on the first field and skips disabled fields', () => {
    let f = createForm(specs, {use_default_mtu: true, action: 'drop'});
    expect(f.focus).toBe(0);
    f = moveFocus(f, 1);
    expect(f.focus).toBe(1);
    f = moveFocus(f, 1);
    expect(f.focus).toBe(3); // MTU is disabled while the default is used
    f = moveFocus(f, 1);
    expect(f.focus).toBe(0);
    f = moveFocus(f, -1);
    expect(f.focus).toBe(3);
  });

  it('toggles, choices and dirty tracking', () => {
    let f = createForm(specs, {use_default_mtu: true, action: 'drop'});
    expect(isDirty(f)).toBe(false);
    f = toggle(moveFocus(f, 1));
    expect(f.values.use_default_mtu).toBe(false);
    expect(isDirty(f)).toBe(true);
    f = toggle(f);
    expect(isDirty(f)).toBe(false);
    f = {...f, focus: 3};
    f = cycleChoice(f, 1);
    expect(f.values.action).toBe('accept');
    f = cycleChoice(f, 1);
    expect(f.values.action).toBe('drop');
  });

  it('validates enabled fields only, and editing a field clears its error', () => {
    let f = createForm(specs, {use_default_mtu: true, mtu: '100', action: 'drop'});
    f = validateForm(f);
    expect(f.errors).toEqual({name: ["can't be blank"]});
    f = setValue(f, 'use_default_mtu', false);
    f = validateForm(f);
    expect(f.errors).toEqual({name: ["can't be blank"], mtu: ['must be greater than or equal to 576']});
    f = setValue(f, 'name', 'x');
    expect(f.errors.name).toBeUndefined();
  });

  it('maps server errors: aliases, base, unknown fields; keeps values; focuses the first error', () => {
    let f = createForm(specs, {name: 'phone', use_default_mtu: true, action: 'drop'});
    f = {...f, focus: 3};
    f = applyServerErrors(
      f,
      {user_id: ['has already been taken'], base: ['Maximum device limit reached.'], ipv4: ['is invalid']},
      {user_id: {field: 'name', note: 'this user already has a device with this name'}},
    );
    expect(f.errors).toEqual({name: ['has already been taken (this user already has a device with this name)']});
    expect(f.formErrors).toEqual(['Maximum device limit reached.', 'ipv4: is invalid']);
    expect(f.values.name).toBe('phone');
    expect(f.focus).toBe(0);
  });
});
