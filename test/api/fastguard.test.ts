import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {Device, isDeviceFast, isRuleFast, isUserFast, Rule, User} from '../../src/api/schemas.js';
import {device, rule, user} from '../fixtures/data.js';

// Values of every JSON type, to put in any field.
const anyJson = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.array(fc.string(), {maxLength: 3}),
  fc.array(fc.integer(), {maxLength: 2}),
  fc.constant({}),
  fc.constant('2026-01-01T00:00:00.000000Z'),
  fc.constant(undefined),
);
const keys = Object.keys(device()) as Array<keyof ReturnType<typeof device>>;

describe('isDeviceFast', () => {
  it('accepts exactly what the zod Device schema accepts (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...keys), anyJson), {maxLength: 3}), fc.boolean(), (edits, extra) => {
        const candidate: Record<string, unknown> = {...device()};
        for (const [key, value] of edits) {
          if (value === undefined) delete candidate[key];
          else candidate[key] = value;
        }
        if (extra) candidate.unknown_field = 1;
        expect(isDeviceFast(candidate)).toBe(Device.safeParse(candidate).success);
      }),
      {numRuns: 3000},
    );
  });

  it('rejects non-objects and a float where an integer belongs', () => {
    expect(isDeviceFast(null)).toBe(false);
    expect(isDeviceFast([])).toBe(false);
    expect(isDeviceFast({...device(), rx_bytes: 1.5})).toBe(false);
    expect(isDeviceFast({...device(), latest_handshake: 'yesterday'})).toBe(false);
    expect(isDeviceFast(device())).toBe(true);
  });
});

// The user and rule guards, the same way; their enums get the values either side of the line.
const enumish = fc.oneof(anyJson, fc.constantFrom('admin', 'unprivileged', 'Admin', 'accept', 'drop', 'tcp', 'udp', 'TCP', 'reject'));

describe.each([
  {name: 'isUserFast', guard: isUserFast, schema: User, base: user() as Record<string, unknown>},
  {name: 'isRuleFast', guard: isRuleFast, schema: Rule, base: rule() as Record<string, unknown>},
])('$name', ({guard, schema, base}) => {
  it('accepts exactly what the zod schema accepts (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...Object.keys(base)), enumish), {maxLength: 3}), fc.boolean(), (edits, extra) => {
        const candidate: Record<string, unknown> = {...base};
        for (const [key, value] of edits) {
          if (value === undefined) delete candidate[key];
          else candidate[key] = value;
        }
        if (extra) candidate.unknown_field = 1;
        expect(guard(candidate)).toBe(schema.safeParse(candidate).success);
      }),
      {numRuns: 3000},
    );
    expect(guard(base)).toBe(true);
    expect(guard(null)).toBe(false);
    expect(guard([])).toBe(false);
  });
});
