// A small Ecto.Changeset (3.9) lookalike, so validation code can be written in the same order as
// 0.7.36's changesets and produce the same 422 bodies (docs/firezone-0.7.36.md, "Validation errors (422)"):
//   * cast: a key absent from params is no change; "" becomes the field's schema default; nil stays
//     nil; a value equal to the current data is no change; a failed cast adds its error first and
//     records no change (so later validations of that field do not run);
//   * errors are prepended (most recent first per field); a validator returning several messages
//     keeps their internal order;
//   * validate_required never adds "can't be blank" to a field that already has an error, and
//     drops the change of a field it reports.

import {isParamsMap, type Params} from './json.js';
import {sameInet, type Inet} from './inet.js';
import {countGraphemes} from '../common/graphemes.js';

export type CastResult = {ok: true; value: unknown} | {ok: false; message?: string};

export const cast = {
  ok: (value: unknown): CastResult => ({ok: true, value}),
  invalid: (message?: string): CastResult => (message === undefined ? {ok: false} : {ok: false, message}),
};

function isInet(value: unknown): value is Inet {
  return typeof value === 'object' && value !== null && 'ip' in value && 'netmask' in value;
}

/** Ecto.Type.equal? for the value shapes the sandbox stores. */
export function valueEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => valueEquals(x, b[i]));
  if (isInet(a) && isInet(b)) return sameInet(a, b);
  if (typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a as object);
    const kb = Object.keys(b as object);
    return ka.length === kb.length && ka.every((k) => valueEquals((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

export const trimString = (value: string): string => value.trim();

export class Changeset {
  readonly changes = new Map<string, unknown>();
  private readonly errors: Array<{field: string; message: string}> = [];
  private readonly nested = new Map<string, unknown>();

  constructor(
    readonly data: Readonly<Record<string, unknown>>,
    readonly params: Params,
  ) {}

  /** Whether the request supplied this key at all. */
  supplied(field: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.params, field);
  }

  get(field: string): unknown {
    return this.changes.has(field) ? this.changes.get(field) : this.data[field];
  }

  hasChange(field: string): boolean {
    return this.changes.has(field);
  }

  change(field: string): unknown {
    return this.changes.get(field);
  }

  /** Ecto put_change: a value equal to the data is not a change. */
  put(field: string, value: unknown): void {
    if (valueEquals(value, this.data[field])) this.changes.delete(field);
    else this.changes.set(field, value);
  }

  /** Replaces a change's value (Ecto update_change), keeping "no change" semantics. */
  update(field: string, fn: (value: unknown) => unknown): void {
    if (!this.changes.has(field)) return;
    this.put(field, fn(this.changes.get(field)));
  }

  drop(field: string): void {
    this.changes.delete(field);
  }

  addError(field: string, message: string): void {
    this.errors.unshift({field, message});
  }

  /** Several messages from one validator: prepended as a block, internal order kept. */
  addErrors(field: string, messages: readonly string[]): void {
    this.errors.unshift(...messages.map((message) => ({field, message})));
  }

  hasError(field: string): boolean {
    return this.errors.some((e) => e.field === field) || this.nested.has(field);
  }

  setNested(field: string, value: unknown): void {
    this.nested.set(field, value);
  }

  get valid(): boolean {
    return this.errors.length === 0 && this.nested.size === 0;
  }

  /** traverse_errors: field → messages in error-list order; embeds → their nested shape. */
  errorsJson(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const {field, message} of this.errors) {
      const list = (out[field] as string[] | undefined) ?? [];
      list.push(message);
      out[field] = list;
    }
    for (const [field, value] of this.nested) out[field] = value;
    return out;
  }

  /**
   * Casts params[field]. `caster` sees neither nil nor "" ("" is replaced by `defaultValue`, nil
   * stays nil); `equals` decides whether the cast value is a change.
   */
  cast(field: string, caster: (value: unknown) => CastResult, defaultValue: unknown = null): void {
    if (!this.supplied(field)) return;
    let value = this.params[field];
    const viaDefault = value === '';
    if (viaDefault) value = defaultValue;
    let result: CastResult;
    if (value === null || value === undefined) result = {ok: true, value: null};
    else if (viaDefault) result = {ok: true, value};
    else result = caster(value);
    if (!result.ok) {
      this.addError(field, result.message ?? 'is invalid');
      return;
    }
    this.put(field, result.value);
  }

  /** Runs `validator` on a non-nil change; its messages are prepended as one block. */
  validateChange(field: string, validator: (value: unknown) => readonly string[]): void {
    if (!this.changes.has(field)) return;
    const value = this.changes.get(field);
    if (value === null || value === undefined) return;
    const messages = validator(value);
    if (messages.length > 0) this.addErrors(field, messages);
  }

  validateRequired(fields: readonly string[], message = "can't be blank"): void {
    const missing = fields.filter((field) => {
      const value = this.get(field);
      const blank = value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
      return blank && !this.hasError(field);
    });
    for (const field of missing) this.changes.delete(field);
    this.errors.unshift(...missing.map((field) => ({field, message})));
  }

  validateLength(field: string, opts: {min?: number; max?: number; is?: number}): void {
    this.validateChange(field, (value) => {
      const isList = Array.isArray(value);
      // Counted no further than the largest bound: an 8 MB value is not segmented whole to learn it is too long.
      const cap = Math.max(opts.is ?? 0, opts.min ?? 0, opts.max ?? 0);
      const length = isList ? value.length : typeof value === 'string' ? countGraphemes(value, cap) : 0;
      const unit = (n: number, kind: 'is' | 'min' | 'max'): string => {
        if (isList)
          return kind === 'is' ? `should have ${n} item(s)` : kind === 'min' ? `should have at least ${n} item(s)` : `should have at most ${n} item(s)`;
        return kind === 'is' ? `should be ${n} character(s)` : kind === 'min' ? `should be at least ${n} character(s)` : `should be at most ${n} character(s)`;
      };
      if (opts.is !== undefined && length !== opts.is) return [unit(opts.is, 'is')];
      if (opts.min !== undefined && length < opts.min) return [unit(opts.min, 'min')];
      if (opts.max !== undefined && length > opts.max) return [unit(opts.max, 'max')];
      return [];
    });
  }

  validateNumber(field: string, opts: {gte?: number; lte?: number; gt?: number}): void {
    this.validateChange(field, (value) => numberErrors(value as number, opts));
  }

  validateFormat(field: string, pattern: RegExp, message: string): void {
    this.validateChange(field, (value) => (typeof value === 'string' && pattern.test(value) ? [] : [message]));
  }

  validateInclusion(field: string, allowed: readonly unknown[], message = 'is invalid'): void {
    this.validateChange(field, (value) => (allowed.includes(value) ? [] : [message]));
  }

  validateExclusion(field: string, reserved: readonly unknown[], message = 'is reserved'): void {
    this.validateChange(field, (value) => (reserved.includes(value) ? [message] : []));
  }
}

/** Ecto validate_number: the first failing bound only (checked in the order they are declared). */
export function numberErrors(value: number, opts: {gte?: number; lte?: number; gt?: number}): string[] {
  if (opts.gt !== undefined && !(value > opts.gt)) return [`must be greater than ${opts.gt}`];
  if (opts.gte !== undefined && !(value >= opts.gte)) return [`must be greater than or equal to ${opts.gte}`];
  if (opts.lte !== undefined && !(value <= opts.lte)) return [`must be less than or equal to ${opts.lte}`];
  return [];
}

// ---------------------------------------------------------------- Ecto primitive casts

export function castString(value: unknown): CastResult {
  return typeof value === 'string' ? cast.ok(value) : cast.invalid();
}

/** Ecto :boolean accepts true/false and the strings "true", "false", "1", "0". */
export function castBoolean(value: unknown): CastResult {
  if (typeof value === 'boolean') return cast.ok(value);
  if (value === 'true' || value === '1') return cast.ok(true);
  if (value === 'false' || value === '0') return cast.ok(false);
  return cast.invalid();
}

/** Ecto :integer accepts JSON integers and strings that parse completely (`Integer.parse/1`); floats are invalid. */
export function castInteger(value: unknown): CastResult {
  if (typeof value === 'number' && Number.isInteger(value)) return cast.ok(value);
  if (typeof value === 'string' && /^[+-]?\d+$/.test(value)) return cast.ok(Number(value));
  return cast.invalid();
}

export function castEnum(values: readonly string[]): (value: unknown) => CastResult {
  return (value) => (typeof value === 'string' && values.includes(value) ? cast.ok(value) : cast.invalid());
}

/**
 * Ecto {:array, type}: the value must be a list and every element must cast; empty-string elements
 * are dropped first (docs/firezone-0.7.36.md, "Validation errors (422)"; quirk 17).
 */
export function castArray(element: (value: unknown) => CastResult): (value: unknown) => CastResult {
  return (value) => {
    if (!Array.isArray(value)) return cast.invalid();
    const out: unknown[] = [];
    for (const item of value) {
      if (item === '') continue;
      if (item === null) return cast.invalid();
      const r = element(item);
      if (!r.ok) return cast.invalid();
      out.push(r.value);
    }
    return cast.ok(out);
  };
}

export {isParamsMap};
