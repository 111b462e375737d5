// How much each place that takes text holds (docs/architecture.md, "Sizes: every input has a
// limit"). A limit is checked before anything else looks at the text, so that no validation,
// filter, measure or request ever sees more: a large paste into a field used to be validated,
// segmented and sent until the heap gave out (docs/performance.md, "What a hostile input cost").
// What goes over a limit is refused whole and said so with the numbers; nothing is cut in silence.
import {countGraphemes} from '../../common/graphemes.js';

/** What one line of text may hold: UTF-16 units always (the cost bound), characters where 0.7.36 counts them. */
export interface TextLimit {
  /** The most UTF-16 code units: what bounds the work done on each key. */
  units: number;
  /** The most characters (grapheme clusters, as 0.7.36's Ecto counts them, after trimming). */
  chars?: number;
}

/**
 * A form field 0.7.36 sets no length on (an email, a URL, a client secret, an address): far more
 * than any real one, far less than a paste can carry.
 */
export const FIELD_UNITS_MAX = 8 * 1024;
/** A field that holds a list (allowed IPs, DNS servers) or a document (SAML metadata): as much as one paste. */
export const LONG_FIELD_UNITS_MAX = 1024 * 1024;
/** The `/` filter: a filter of more terms than this is no longer something typed. */
export const FILTER_LIMIT: TextLimit = {units: 1024};
export const FILTER_TERMS_MAX = 32;
/** The `:` command bar: its longest real lines are a `:trace` with a destination, a `:profile` name. */
export const COMMAND_LIMIT: TextLimit = {units: 1024};
/** A prompt's line (a file name, a token, an `:undo` number). */
export const PROMPT_LIMIT: TextLimit = {units: 8 * 1024};
/** The picker's and the help's searches: a few letters of an email or a key's help. */
export const SEARCH_LIMIT: TextLimit = {units: 256};

/** Whether `value` holds more than `limit` allows. Costs at most the limit, whatever the value's length. */
export function overLimit(value: string, limit: TextLimit): boolean {
  if (value.length > limit.units) return true;
  // A character is at least one unit: a value no longer than the limit in units cannot pass it in characters.
  if (limit.chars === undefined || value.length <= limit.chars) return false;
  return countGraphemes(value.trim(), limit.chars) > limit.chars;
}

/** Code points in `text`, as the console counts what was typed or pasted (one pass, no array). */
export function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** "2048 characters" for a character limit, else the units as a size. */
export function describeLimit(limit: TextLimit): string {
  if (limit.chars !== undefined) return `${limit.chars.toLocaleString('en-US')} characters (0.7.36's limit)`;
  return `${limit.units.toLocaleString('en-US')} characters`;
}

/** Why a paste went nowhere: it would make `label` longer than it may be. */
export function pasteTooLong(label: string, limit: TextLimit, pasted: string): string {
  return `Paste ignored: ${label} holds at most ${describeLimit(limit)}, and with this paste (${codePoints(pasted).toLocaleString('en-US')} characters) it would hold more; nothing was inserted`;
}

/** Why a typed key (or a run of them) went nowhere. */
export function typedTooLong(label: string, limit: TextLimit): string {
  return `${label} holds at most ${describeLimit(limit)}: what was typed was not inserted`;
}
