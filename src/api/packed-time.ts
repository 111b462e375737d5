// Times as the compact device store holds them (device-columns.ts): 0.7.36's
// `YYYY-MM-DDTHH:MM:SS.ffffffZ` packed as microseconds since the epoch in a column of doubles, read
// from a string or straight from a body's bytes; any other text kept as text beside the column,
// so that it comes back exactly as sent (docs/performance-poll.md, "The compact device store").
import {cutColumn, numberColumn, type NumberColumn} from '../common/number-column.js';

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Microseconds stay exact in a double (2^53) until 2255-06-05T23:47:34.740991Z: checked exactly below. */
const LAST_EXACT_YEAR = 2255;

function digits(src: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = src[i]! - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

// `-`, `-`, `T`, `:`, `:`, `.` and `Z` at their places in `YYYY-MM-DDTHH:MM:SS.ffffffZ`. Written
// out, not a table of pairs: destructuring each pair took half of packCodes's time.
const hasTimePunctuation = (src: Uint8Array, at: number): boolean =>
  src[at + 4] === 0x2d &&
  src[at + 7] === 0x2d &&
  src[at + 10] === 0x54 &&
  src[at + 13] === 0x3a &&
  src[at + 16] === 0x3a &&
  src[at + 19] === 0x2e &&
  src[at + 26] === 0x5a;

/**
 * Days since 1970-01-01 of a date of the proleptic Gregorian calendar, by H. Hinnant's
 * days-from-civil arithmetic (Date.UTC took a third of packCodes's time).
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

/** packTime of the 27 bytes of `src` from `at` (the caller knows there are 27). */
function packCodes(src: Uint8Array, at: number): number {
  if (!hasTimePunctuation(src, at)) return NaN;
  const y = digits(src, at, at + 4);
  const mo = digits(src, at + 5, at + 7);
  const d = digits(src, at + 8, at + 10);
  const h = digits(src, at + 11, at + 13);
  const mi = digits(src, at + 14, at + 16);
  const sec = digits(src, at + 17, at + 19);
  const frac = digits(src, at + 20, at + 26);
  if (y < 1970 || y > LAST_EXACT_YEAR || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59 || frac < 0) return NaN;
  const leap = mo === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (d > DAYS_IN_MONTH[mo - 1]! + (leap ? 1 : 0)) return NaN;
  const us = (daysFromCivil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + sec) * 1_000_000 + frac;
  // Past 2^53 a double no longer holds every microsecond: such a time is kept as text.
  return us <= Number.MAX_SAFE_INTEGER ? us : NaN;
}

/**
 * `YYYY-MM-DDTHH:MM:SS.ffffffZ` (the form 0.7.36 writes) as microseconds since the epoch, or NaN
 * for any other text (kept as text instead, so it comes back exactly as sent).
 */
export function packTime(s: string): number {
  if (s.length !== 27) return NaN;
  // Read as bytes, as packTimeBytes reads a body (one reader); a character past Latin-1 is no digit.
  for (let i = 0; i < 27; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) return NaN;
    timeScratch[i] = c;
  }
  return packCodes(timeScratch, 0);
}

const timeScratch = new Uint8Array(27);

/** packTime of the text in `buf[from, to)`, read from the bytes (no string made). */
export function packTimeBytes(buf: Uint8Array, from: number, to: number): number {
  return to - from === 27 ? packCodes(buf, from) : NaN;
}

/** The text packTime read. */
export function unpackTime(us: number): string {
  const seconds = Math.floor(us / 1_000_000);
  const frac = us - seconds * 1_000_000;
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}.${String(frac).padStart(6, '0')}Z`;
}

/** A packed time column: microseconds, NaN for none, and the slots whose text was not in 0.7.36's form. */
export interface TimeColumn {
  readonly us: readonly number[];
  readonly text: ReadonlyMap<number, string>;
}

/** Milliseconds since the epoch, as Date.parse reads the text; null for none (or a date that does not exist). */
export function timeMs(column: TimeColumn, i: number): number | null {
  const us = column.us[i]!;
  if (us === us) return Math.floor(us / 1000);
  const text = column.text.get(i);
  if (text === undefined) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

export function timeText(column: TimeColumn, i: number): string | null {
  const us = column.us[i]!;
  if (us === us) return unpackTime(us);
  return column.text.get(i) ?? null;
}

/**
 * The first `length` elements of a builder's array: a view when the array is at most 1,024
 * elements longer (the usual case: a poll's builder is sized to the last table, plus 64), else a
 * copy (after growing by doubling), so that little memory is held for nothing either way.
 */
export function fitted<A extends Int32Array | Uint8Array>(array: A, length: number): A {
  return (array.length - length <= 1024 ? array.subarray(0, length) : array.slice(0, length)) as A;
}

/** A time column being built, slot by slot (DeviceColumnsBuilder). */
export class TimeBuilder {
  /** Grows by itself: a builder writes its slots in order, so a slot past the end is the next one. */
  readonly us: NumberColumn;
  readonly text = new Map<number, string>();
  constructor(capacity: number) {
    this.us = numberColumn(capacity);
  }
  set(i: number, value: string | number | null): void {
    if (value === null) {
      this.us[i] = NaN;
      return;
    }
    if (typeof value === 'number') {
      this.us[i] = value;
      return;
    }
    const us = packTime(value);
    this.us[i] = us;
    if (us !== us) this.text.set(i, value);
  }
  copy(i: number, from: TimeColumn, j: number): void {
    const us = from.us[j]!;
    this.us[i] = us;
    if (us !== us) {
      const text = from.text.get(j);
      if (text !== undefined) this.text.set(i, text);
    }
  }
  finish(length: number): TimeColumn {
    return {us: cutColumn(this.us, length), text: this.text};
  }
}
