// One form mechanism for every create/edit: fields, focus, toggles and choices, dirty
// tracking, client-side validation and server 422s mapped onto fields. Pure functions;
// the UI only renders a FormState and forwards keys.
import type {FieldErrors} from '../../api/index.js';
import {FIELD_UNITS_MAX, LONG_FIELD_UNITS_MAX, type TextLimit} from '../input/limits.js';
import {editText, type LineEdit} from '../input/textedit.js';

export type FieldValue = string | boolean;
export type Values = Record<string, FieldValue>;

export interface Choice {
  value: string;
  label: string;
}

export interface FieldSpec {
  key: string;
  label: string;
  /** text: free text · secret: masked text · toggle: yes/no (Space) · choice: ←/→ among values · picker: filterable list (Enter). */
  kind: 'text' | 'secret' | 'toggle' | 'choice' | 'picker';
  choices?: readonly Choice[];
  placeholder?: string;
  /** Text that keeps its line breaks (SAML metadata XML); every other text field is one line. */
  multiline?: boolean;
  /** Help under the field; may depend on the other values (e.g. "Default: 1280"). */
  help?: string | ((values: Values) => string);
  /** A reason string disables the field and is shown instead of its input. */
  disabledWhen?: (values: Values) => string | null;
  /** How a picker's value (an id) reads on screen, e.g. the user's email. */
  display?: (value: FieldValue) => string;
  /** Client-side checks with the server's messages; `values` holds every field. */
  validate?: (value: FieldValue, values: Values) => string[];
  /** The most characters 0.7.36 accepts (its validate_length), where it sets one. */
  maxLength?: number;
  /** A list or a document (allowed IPs, SAML metadata): holds as much as one paste, not FIELD_UNITS_MAX. */
  long?: boolean;
}

/** What the field holds at most (src/state/input/limits.ts): typing or pasting past it is refused. */
export function fieldLimit(spec: FieldSpec): TextLimit {
  const units = spec.long === true || spec.multiline === true ? LONG_FIELD_UNITS_MAX : FIELD_UNITS_MAX;
  return spec.maxLength === undefined ? {units} : {units, chars: spec.maxLength};
}

export interface FormState {
  specs: readonly FieldSpec[];
  values: Values;
  initial: Values;
  focus: number;
  /** Cursor position in the focused text field. */
  cursor: number;
  /** The focused field's undo steps (Ctrl-_); moving to another field starts afresh. */
  undo?: LineEdit['undo'];
  typing?: boolean;
  errors: Record<string, string[]>;
  /** Record-level messages (`base`) and errors for fields the form does not show. */
  formErrors: string[];
  submitting: boolean;
  /** Set after Esc/q on a dirty form: the next y discards, anything else returns to the form. */
  confirmingDiscard: boolean;
}

export function createForm(specs: readonly FieldSpec[], initial: Values): FormState {
  const values: Values = {};
  for (const spec of specs) values[spec.key] = initial[spec.key] ?? (spec.kind === 'toggle' ? false : '');
  const focus = firstEnabled(specs, values);
  return withCursorAtEnd({specs, values, initial: {...values}, focus, cursor: 0, errors: {}, formErrors: [], submitting: false, confirmingDiscard: false});
}

function withCursorAtEnd(form: FormState): FormState {
  const value = form.values[form.specs[form.focus]?.key ?? ''];
  return {...form, cursor: typeof value === 'string' ? [...value].length : 0, undo: [], typing: false};
}

export function isDisabled(spec: FieldSpec, values: Values): string | null {
  return spec.disabledWhen ? spec.disabledWhen(values) : null;
}

function firstEnabled(specs: readonly FieldSpec[], values: Values): number {
  const i = specs.findIndex((s) => isDisabled(s, values) === null);
  return i === -1 ? 0 : i;
}

export function focusedSpec(form: FormState): FieldSpec | undefined {
  return form.specs[form.focus];
}

/** Tab/↓ and Shift-Tab/↑: skips disabled fields, wraps around. */
export function moveFocus(form: FormState, delta: 1 | -1): FormState {
  const n = form.specs.length;
  for (let step = 1; step <= n; step++) {
    const i = (form.focus + delta * step + n * n) % n;
    if (isDisabled(form.specs[i]!, form.values) === null) return withCursorAtEnd({...form, focus: i});
  }
  return form;
}

/** A click on a field: the focus there, as Tab would land on it; a disabled field (or the one focused) leaves the form as it is. */
export function focusField(form: FormState, index: number): FormState {
  const spec = form.specs[index];
  if (!spec || index === form.focus || isDisabled(spec, form.values) !== null) return form;
  return withCursorAtEnd({...form, focus: index});
}

export function setValue(form: FormState, key: string, value: FieldValue): FormState {
  const values = {...form.values, [key]: value};
  // An edited field's old error no longer describes it.
  const errors = {...form.errors};
  delete errors[key];
  return {...form, values, errors, confirmingDiscard: false};
}

/** A key or a paste in the focused field: the form it made, or the limit it would have passed. */
export type FieldEdit = {form: FormState} | {overLimit: TextLimit; label: string};

/** Typing in the focused text field; null when the key is not a text edit there. */
export function editFocused(form: FormState, name: string, input: string): FieldEdit | null {
  const spec = focusedSpec(form);
  if (!spec || (spec.kind !== 'text' && spec.kind !== 'secret') || isDisabled(spec, form.values) !== null) return null;
  const value = String(form.values[spec.key] ?? '');
  const limit = fieldLimit(spec);
  const next = editText({value, cursor: form.cursor, undo: form.undo ?? [], typing: form.typing ?? false}, name, input, {
    multiline: spec.multiline === true,
    limit,
  });
  if (!next) return null;
  if (next.overLimit) return {overLimit: limit, label: spec.label.trim()};
  const moved = {...form, cursor: next.cursor, undo: next.undo ?? [], typing: next.typing ?? false};
  // A caret move keeps the field's error: only a changed value no longer matches it.
  return {form: next.value === value ? moved : {...setValue(moved, spec.key, next.value), cursor: next.cursor}};
}

/** Space on a toggle. */
export function toggle(form: FormState): FormState {
  const spec = focusedSpec(form);
  if (!spec || spec.kind !== 'toggle' || isDisabled(spec, form.values) !== null) return form;
  return setValue(form, spec.key, !form.values[spec.key]);
}

/** ←/→ on a choice. */
export function cycleChoice(form: FormState, delta: 1 | -1): FormState {
  const spec = focusedSpec(form);
  if (!spec || spec.kind !== 'choice' || !spec.choices?.length || isDisabled(spec, form.values) !== null) return form;
  const i = spec.choices.findIndex((c) => c.value === form.values[spec.key]);
  const next = spec.choices[(i + delta + spec.choices.length) % spec.choices.length]!;
  return setValue(form, spec.key, next.value);
}

export function isDirty(form: FormState): boolean {
  return form.specs.some((s) => form.values[s.key] !== form.initial[s.key]);
}

/** Runs every enabled field's client-side checks. Returns the form with errors set. */
export function validateForm(form: FormState): FormState {
  const errors: Record<string, string[]> = {};
  for (const spec of form.specs) {
    if (!spec.validate || isDisabled(spec, form.values) !== null) continue;
    const messages = spec.validate(form.values[spec.key]!, form.values);
    if (messages.length > 0) errors[spec.key] = messages;
  }
  return {...form, errors, formErrors: []};
}

export function hasErrors(form: FormState): boolean {
  return form.formErrors.length > 0 || Object.values(form.errors).some((m) => m.length > 0);
}

/** Moves the focus to the first field with an error, so the admin lands on what to fix. */
export function focusFirstError(form: FormState): FormState {
  const i = form.specs.findIndex((s) => (form.errors[s.key]?.length ?? 0) > 0);
  return i === -1 ? form : withCursorAtEnd({...form, focus: i});
}

/**
 * Maps a server 422 onto the form. `aliases` maps server paths to form fields (0.7.36 reports a
 * duplicate device name under `user_id`); `base` and unknown paths become form-level messages.
 * Every value the admin typed is kept.
 */
export function applyServerErrors(form: FormState, fieldErrors: FieldErrors, aliases: Record<string, {field: string; note?: string}> = {}): FormState {
  const errors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  const keys = new Set(form.specs.map((s) => s.key));
  for (const [path, messages] of Object.entries(fieldErrors)) {
    const alias = aliases[path];
    const field = alias?.field ?? path;
    const texts = alias?.note ? messages.map((m) => `${m} (${alias.note})`) : messages;
    if (path !== 'base' && keys.has(field)) (errors[field] ??= []).push(...texts);
    else formErrors.push(...(path === 'base' ? texts : texts.map((m) => `${path}: ${m}`)));
  }
  return focusFirstError({...form, errors, formErrors, submitting: false});
}

export function fieldHelp(spec: FieldSpec, values: Values): string | null {
  if (!spec.help) return null;
  return typeof spec.help === 'function' ? spec.help(values) : spec.help;
}

export function str(values: Values, key: string): string {
  const v = values[key];
  return typeof v === 'string' ? v : '';
}

export function bool(values: Values, key: string): boolean {
  return values[key] === true;
}
