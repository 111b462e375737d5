// The `/` filter's grammar (issue #25): terms separated by spaces, all of which must hold.
//
//   laptop             a plain word: a substring of the row's search text, case-insensitive
//   "my laptop"        a quoted text is one plain term, spaces and all, and never a field term;
//   "rosa""s laptop"   inside quotes `""` is one quote (as in CSV), so any text can be quoted
//   state:online       a field of the screen: text fields by substring, choices exactly
//   rx>1GiB  seen<7d   numbers with units: sizes (1024- and 1000-based), ages, counts
//   stale              a flag of the screen, by its word alone ("stale" in quotes is the text)
//   !term              any term negated
//
// A term is a field term only when its key (up to the first `:`, `>` or `<`) is letters only, so
// addresses, ports and emails (`fd00::3:2:2`, `10.0.0.1:53`) stay text. A letters-only key the
// screen does not know, or a value its field cannot read, is an error rather than zero matches:
// a typo must not look like "nothing matches". The term is then left out, the others still
// filter, and the error is shown under the list.
//
// Narrowing. The list view reuses an earlier query's matches when the new query implies it: every
// row matching the new one matches the old, so only the old matches need testing (typing one more
// letter at 50k rows then tests the few rows left, not all of them). `impliesQuery` decides that from
// the terms alone: each earlier term must follow from a term of the new query: the same term, or a
// text term whose needle contains the earlier needle ("devi" implies "dev"; "!dev" implies
// "!devi"). Anything else does not narrow: "lap" → "a" is a new search, since rows with "a" and
// no "lap" are not among the earlier matches. Field terms imply only themselves, and only for the
// same field table and time (the list view checks those).
import {cidrSortKeyRange, parseCidr} from '../../common/cidr.js';
import {ipSortKey} from '../../common/ip-literal.js';

export type FilterOp = ':' | '>' | '<';

// ---------------------------------------------------------------------------------------------
// Tokens

export interface FilterToken {
  /** The term without its `!` and with its quotes removed. */
  readonly text: string;
  readonly negate: boolean;
  /** It began with a quote: plain text whatever it holds. */
  readonly quoted: boolean;
  /** Where in `text` the first quoted part began, or -1: a field's key and operator come before it (`name:"my laptop"`). */
  readonly quoteAt: number;
}

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === '\u00a0';
}

/**
 * The terms of a filter. Spaces separate terms except inside double quotes, which are removed; a
 * quote left open runs to the end (the admin is still typing it); inside quotes `""` is one
 * literal quote. One leading `!` negates. A term left empty (`""`, a lone `!`) is dropped.
 */
export function tokenizeFilter(input: string): FilterToken[] {
  const tokens: FilterToken[] = [];
  let i = 0;
  const n = input.length;
  while (i < n) {
    while (i < n && isSpace(input[i]!)) i++;
    if (i >= n) break;
    let negate = false;
    if (input[i] === '!') {
      negate = true;
      i++;
    }
    const quoted = input[i] === '"';
    let text = '';
    let quoteAt = -1;
    let inQuotes = false;
    // Copied a run at a time (up to a quote or the term's end): a pasted megabyte is one term.
    let from = i;
    for (; i < n && (inQuotes || !isSpace(input[i]!)); i++) {
      if (input[i] !== '"') continue;
      text += input.slice(from, i);
      if (inQuotes && input[i + 1] === '"') {
        text += '"';
        i++;
        from = i + 1;
        continue;
      }
      from = i + 1;
      if (quoteAt === -1) quoteAt = text.length;
      inQuotes = !inQuotes;
    }
    text += input.slice(from, i);
    if (text !== '') tokens.push({text, negate, quoted, quoteAt});
  }
  return tokens;
}

/**
 * `text` as one plain term that reads back as exactly `text` (tokenizeFilter): in quotes, its
 * quotes doubled. How a name becomes a filter (`:devices NAME` with several of that name).
 */
export function quoteFilterTerm(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * A filter as messages quote it: in quotes, unless it holds quotes of its own, when it is shown as
 * typed (quoting it again gave `filter ""rosa-laptop""`).
 */
export function quotedFilter(filter: string): string {
  return filter.includes('"') ? filter : `"${filter}"`;
}

// ---------------------------------------------------------------------------------------------
// Values

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
  tb: 1000 ** 4,
};

const NUMBER_AND_UNIT = /^(\d+(?:\.\d*)?|\.\d+)([a-z]*)$/i;

/** Bytes: `500MB`, `1.5GiB`, `2048` (a bare number is bytes); units in any case. Null if it is not a size. */
export function parseSize(text: string): number | null {
  const m = NUMBER_AND_UNIT.exec(text);
  const unit = m ? SIZE_UNITS[m[2]!.toLowerCase()] : undefined;
  return m && unit !== undefined ? Number(m[1]) * unit : null;
}

const AGE_UNITS: Record<string, number> = {s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000};

/** Milliseconds: `90s`, `15m`, `12h`, `30d`, `2w` (a unit is required: `30` could be anything). Null if it is not an age. */
export function parseAge(text: string): number | null {
  const m = NUMBER_AND_UNIT.exec(text);
  const unit = m ? AGE_UNITS[m[2]!.toLowerCase()] : undefined;
  return m && unit !== undefined ? Number(m[1]) * unit : null;
}

/** `a`, `a or b`, `a, b or c`. */
export function orList(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]!}`;
}

// ---------------------------------------------------------------------------------------------
// Fields

/** A row test, or why the value cannot be read (said after the term: `rx>1XB: <why>`). */
export type FieldCompile<T> = (op: FilterOp, value: string, now: number) => ((row: T) => boolean) | {error: string};

export interface FilterField<T> {
  /** Lower-case letters: what the admin types before the operator. */
  readonly key: string;
  readonly ops: readonly FilterOp[];
  /** A term that works, for the error messages: `handshake>30d`. */
  readonly example: string;
  /** Called with an operator of `ops` and a non-empty value. */
  readonly compile: FieldCompile<T>;
}

/** A word that stands alone for a property of the row: `stale`. */
export interface FilterFlag<T> {
  readonly word: string;
  readonly test: (row: T, now: number) => boolean;
}

/** What a screen's filter knows besides text; built once per snapshot (src/state/screens/<screen>/filters.ts). */
export interface FilterFields<T> {
  /** The rows' plural noun for the errors: "devices know: …". */
  readonly noun: string;
  readonly fields: readonly FilterField<T>[];
  readonly flags: readonly FilterFlag<T>[];
}

export function field<T>(key: string, ops: readonly FilterOp[], example: string, compile: FieldCompile<T>): FilterField<T> {
  return {key, ops, example, compile};
}

export function flag<T>(word: string, test: (row: T, now: number) => boolean): FilterFlag<T> {
  return {word, test};
}

/**
 * `key:text`, a case-insensitive substring of the field. `lowered`: `get` already gives lower
 * case (the rows keep lowercased names and owners for sorting), so no row pays for it again.
 */
export function textField<T>(key: string, example: string, get: (row: T) => string | null, lowered = false): FilterField<T> {
  return field(key, [':'], example, (_op, value) => {
    const needle = value.toLowerCase();
    return lowered
      ? (row) => get(row)?.includes(needle) ?? false
      : (row) => {
          const text = get(row);
          return text !== null && text.toLowerCase().includes(needle);
        };
  });
}

/** `key:value`, one of `values` (lower case), exactly, in any case. */
export function enumField<T>(key: string, values: readonly string[], get: (row: T, now: number) => string): FilterField<T> {
  return field(key, [':'], `${key}:${values[0]!}`, (_op, value, now) => {
    const wanted = value.toLowerCase();
    if (!values.includes(wanted)) return {error: `${key} is ${orList(values)}`};
    return (row) => get(row, now) === wanted;
  });
}

function compare(op: FilterOp, value: number, bound: number): boolean {
  return op === '>' ? value > bound : op === '<' ? value < bound : value === bound;
}

/** `key>size` / `key<size` in bytes; `perSecond` also takes a trailing `/s` (`rate>1MB/s`). A null value never matches. */
export function sizeField<T>(key: string, example: string, get: (row: T, now: number) => number | null, perSecond = false): FilterField<T> {
  return field(key, ['>', '<'], example, (op, value, now) => {
    const bytes = parseSize(perSecond && /\/s$/i.test(value) ? value.slice(0, -2) : value);
    if (bytes === null) return {error: perSecond ? 'not a rate (e.g. 500KB, 1.5MiB/s)' : 'not a size (e.g. 500MB, 1.5GiB)'};
    return (row) => {
      const v = get(row, now);
      return v !== null && compare(op, v, bytes);
    };
  });
}

/**
 * `key>age`: longer ago than; `key<age`: more recently than. A time that never was (no handshake,
 * never signed in) is longer ago than any age: it matches `>` and never `<`.
 */
export function ageField<T>(key: string, example: string, get: (row: T) => number | null): FilterField<T> {
  return field(key, ['>', '<'], example, (op, value, now) => {
    const ms = parseAge(value);
    if (ms === null) return {error: 'not an age (e.g. 90s, 15m, 12h, 30d, 2w)'};
    const cutoff = now - ms;
    return op === '>'
      ? (row) => {
          const at = get(row);
          return at === null || at < cutoff;
        }
      : (row) => {
          const at = get(row);
          return at !== null && at > cutoff;
        };
  });
}

/** `key:n`, `key>n`, `key<n`: a whole number. */
export function countField<T>(key: string, example: string, get: (row: T) => number | null): FilterField<T> {
  return field(key, [':', '>', '<'], example, (op, value) => {
    if (!/^\d+$/.test(value)) return {error: `not a count (e.g. ${example})`};
    const bound = Number(value);
    return (row) => {
      const v = get(row);
      return v !== null && compare(op, v, bound);
    };
  });
}

/** One address of a row, and optionally its `ipSortKey` kept with the row (so a keystroke does not read the text). */
export interface AddressSource<T> {
  readonly text: (row: T) => string | null;
  readonly sortKey?: (row: T) => number | string | null;
}

/**
 * `key:ADDRESS` or `key:CIDR`: one of the row's addresses lies in it (`ip:10.3.0.0/16` finds
 * 10.3.2.2; `ip:10.3.2.2` that address only). Any other value is a substring of an address, as
 * text (`ip:10.3.`, `ip:fd00`). Addresses are compared as `ipSortKey` writes them (numbers,
 * fixed-width hex), two comparisons a row: parsing every address into a bigint per keystroke was
 * far slower (docs/performance.md, "Filtering 50k rows").
 */
export function addressField<T>(key: string, example: string, sources: readonly AddressSource<T>[]): FilterField<T> {
  return field(key, [':'], example, (_op, value) => {
    const block = parseCidr(value);
    if (block === null) {
      const needle = value.toLowerCase();
      return (row) =>
        sources.some((s) => {
          const text = s.text(row);
          return text !== null && text.toLowerCase().includes(needle);
        });
    }
    const range = cidrSortKeyRange(block);
    const keyOf = (s: AddressSource<T>, row: T) => (s.sortKey ? s.sortKey(row) : ipSortKey(s.text(row)));
    if (range.family === 4) {
      // ipSortKey gives a number only for a dotted quad.
      return (row) =>
        sources.some((s) => {
          const k = keyOf(s, row);
          return typeof k === 'number' && k >= range.first && k <= range.last;
        });
    }
    // 32 hex digits only for an IPv6 it read; text it could not read comes back as it was, and
    // text without a colon (which could be 32 hex digits) is not an IPv6.
    return (row) =>
      sources.some((s) => {
        const k = keyOf(s, row);
        return typeof k === 'string' && k.length === 32 && k >= range.first && k <= range.last && (s.text(row)?.includes(':') ?? false);
      });
  });
}

// ---------------------------------------------------------------------------------------------
// Compiling a filter

export interface TextTerm {
  readonly kind: 'text';
  /** Lower case, as the haystacks are. */
  readonly needle: string;
  readonly negate: boolean;
  /** The term's identity, for narrowing (see the header). */
  readonly canon: string;
}

export interface PredicateTerm<T> {
  readonly kind: 'predicate';
  /** The test, its negation included. */
  readonly test: (row: T) => boolean;
  readonly canon: string;
}

export type FilterTerm<T> = TextTerm | PredicateTerm<T>;

export interface CompiledFilter<T> {
  readonly texts: readonly TextTerm[];
  readonly predicates: readonly PredicateTerm<T>[];
  /** The first term that could not be read, and why; that term is left out. */
  readonly error: string | null;
  /** Every term's `canon`, sorted and unique: equal keys filter alike (for one field table and time). */
  readonly key: string;
  /** Whether anything in the filter read the field table: its result then depends on the table and the time. */
  readonly readsFields: boolean;
}

const FIELD_KEY = /^[a-z]+$/i;

/** Terms are quoted in errors up to this many characters: a pasted line must not become a screenful of error. */
const SHOWN_TERM = 40;

function shown(term: string): string {
  if (term.length <= SHOWN_TERM) return term;
  // By code point, so a cut never splits a surrogate pair.
  const head = Array.from(term.slice(0, 2 * SHOWN_TERM)).slice(0, SHOWN_TERM - 1);
  return `${head.join('')}…`;
}

function firstOperator(text: string, before: number): number {
  const end = before === -1 ? text.length : before;
  for (let i = 0; i < end; i++) {
    const c = text[i];
    if (c === ':' || c === '>' || c === '<') return i;
  }
  return -1;
}

/**
 * The terms of `text` against a screen's fields (null: every term is text, as for a list with no
 * field table). `now` is the time ages and states are measured at; the list passes the
 * snapshot's time so a result stays the same between polls.
 */
export function compileFilter<T>(text: string, fields: FilterFields<T> | null, now: number): CompiledFilter<T> {
  const texts: TextTerm[] = [];
  const predicates: PredicateTerm<T>[] = [];
  let error: string | null = null;
  let moreErrors = 0;
  let readsFields = false;
  // The first problem is said in full; the others are counted, so no term is left out unsaid.
  const fail = (message: string) => {
    if (error === null) error = message;
    else moreErrors++;
  };
  for (const token of tokenizeFilter(text)) {
    const neg = token.negate ? '!' : '';
    const plain = () => {
      const needle = token.text.toLowerCase();
      texts.push({kind: 'text', needle, negate: token.negate, canon: `${neg}"${needle}`});
    };
    if (fields === null || token.quoted) {
      plain();
      continue;
    }
    const at = firstOperator(token.text, token.quoteAt);
    const key = at > 0 ? token.text.slice(0, at) : '';
    if (!FIELD_KEY.test(key)) {
      const word = token.text.toLowerCase();
      const found = token.quoteAt === -1 ? fields.flags.find((f) => f.word === word) : undefined;
      if (!found) {
        plain();
        continue;
      }
      readsFields = true;
      const test = found.test;
      predicates.push({kind: 'predicate', test: token.negate ? (row) => !test(row, now) : (row) => test(row, now), canon: `${neg}#${word}`});
      continue;
    }
    readsFields = true;
    const name = key.toLowerCase();
    const op = token.text[at] as FilterOp;
    const value = token.text.slice(at + 1);
    const target = fields.fields.find((f) => f.key === name);
    if (!target) {
      if (fields.flags.some((f) => f.word === name)) fail(`${shown(token.text)}: ${name} takes no value (type ${name} alone)`);
      else
        fail(
          `unknown filter key "${shown(key)}" — ${fields.noun} know: ${[...fields.fields.map((f) => f.key), ...fields.flags.map((f) => f.word)].join(', ')}`,
        );
      continue;
    }
    if (!target.ops.includes(op)) {
      // `handshake:` alone reads better without the term in front ("handshake:: …").
      fail(`${value === '' ? '' : `${shown(token.text)}: `}${name} takes ${orList(target.ops)} (e.g. ${target.example})`);
      continue;
    }
    if (value === '') {
      fail(`${name}${op} needs a value (e.g. ${target.example})`);
      continue;
    }
    const compiled = target.compile(op, value, now);
    if (typeof compiled !== 'function') {
      fail(`${shown(token.text)}: ${compiled.error}`);
      continue;
    }
    predicates.push({kind: 'predicate', test: token.negate ? (row) => !compiled(row) : compiled, canon: `${neg}${name}${op}${value}`});
  }
  const key = [...new Set([...texts, ...predicates].map((t) => t.canon))].sort().join('\u0000');
  if (error !== null && moreErrors > 0) error = `${error} (and ${moreErrors} more term${moreErrors === 1 ? '' : 's'} left out)`;
  return {texts, predicates, error, key, readsFields};
}

/** Whether every row passing `term` passes `earlier` (see the header). */
function termImplies<T>(term: FilterTerm<T>, earlier: FilterTerm<T>): boolean {
  if (term.canon === earlier.canon) return true;
  if (term.kind !== 'text' || earlier.kind !== 'text' || term.negate !== earlier.negate) return false;
  // A text holding "devi" holds "dev"; a text without "dev" has no "devi".
  return term.negate ? earlier.needle.includes(term.needle) : term.needle.includes(earlier.needle);
}

/** Whether every row matching `query` matches `earlier`, so the query may test only the earlier matches. */
export function impliesQuery<T>(query: CompiledFilter<T>, earlier: CompiledFilter<T>): boolean {
  const terms: FilterTerm<T>[] = [...query.texts, ...query.predicates];
  const needs: FilterTerm<T>[] = [...earlier.texts, ...earlier.predicates];
  return needs.every((e) => terms.some((t) => termImplies(t, e)));
}
