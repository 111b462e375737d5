// The line editor of every text field, filter and prompt, as a pure function of (line, key). The
// console edits text itself instead of using ink-text-input, which inserts the letter of Ctrl-key
// chords (Ctrl-S would type "s" into the field before the form could save). The keys are
// readline's, where a terminal user's fingers expect them (docs/architecture.md, "The line editor").
// Positions count code points, as the field draws them.
import {overLimit, type TextLimit} from './limits.js';

export interface TextEdit {
  value: string;
  cursor: number;
}

/** A line with what Ctrl-_ can take back. `typing` joins a run of typed characters into one undo step. */
export interface LineEdit extends TextEdit {
  undo?: readonly TextEdit[];
  typing?: boolean;
  /**
   * Set on the result (never stored) when text was refused because the line would pass its
   * limit: the line is as it was, and the caller says why (src/state/input/limits.ts).
   */
  overLimit?: true;
}

/** How many edits undo remembers per line. */
export const UNDO_DEPTH = 100;

/** Keys that move the caret or edit, by normalised name; with their help text (the help and README list them). */
export const EDIT_KEYS: ReadonlyArray<{keys: string[]; help: string}> = [
  {keys: ['left', 'ctrl+b'], help: 'caret one character left'},
  {keys: ['right', 'ctrl+f'], help: 'caret one character right'},
  {keys: ['alt+b', 'ctrl+left', 'alt+left'], help: 'caret one word left'},
  {keys: ['alt+f', 'ctrl+right', 'alt+right'], help: 'caret one word right'},
  {keys: ['home', 'ctrl+a'], help: 'caret to the start'},
  {keys: ['end', 'ctrl+e'], help: 'caret to the end'},
  {keys: ['backspace'], help: 'delete the character before the caret'},
  {keys: ['delete', 'ctrl+d'], help: 'delete the character under the caret'},
  {keys: ['ctrl+w', 'alt+backspace'], help: 'delete the word before the caret'},
  {keys: ['alt+d'], help: 'delete the word after the caret'},
  {keys: ['ctrl+u'], help: 'delete everything before the caret'},
  {keys: ['ctrl+k'], help: 'delete everything from the caret on'},
  {keys: ['ctrl+_'], help: 'undo the last edit (Ctrl-/ on most terminals)'},
];

const EDIT_KEY_NAMES = new Set(EDIT_KEYS.flatMap((k) => k.keys));

/** Whether a key is a line-editing key (not text, not a command). */
export function isEditKey(name: string): boolean {
  return EDIT_KEY_NAMES.has(name);
}

/** Text a key press may insert: no control bytes (tab and newline are a paste's, flattened later). */
export function isPrintable(input: string): boolean {
  if (input.length === 0) return false;
  for (let i = 0; i < input.length; i++) {
    const code = input.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return false;
  }
  return true;
}

/** A key that types text: printable characters, not a named key such as `tab` or `enter`. */
export function isTypedKey(name: string, input: string): boolean {
  return name === input && isPrintable(input) && !/[\t\r\n]/.test(input);
}

/**
 * A paste as one line: a paste copied from a terminal or a password manager often ends in a line
 * break, which is not part of a one-line value (a trailing space in a client secret would break
 * sign-in); breaks and tabs inside become spaces.
 */
export function oneLineOf(text: string): string {
  return text.replace(/^[\r\n]+|[\r\n]+$/g, '').replace(/[\r\n\t]+/g, ' ');
}

/** A word character for Alt-B/F and Alt-D (readline's: letters and digits); Ctrl-W stops at spaces only. */
function isWordChar(ch: string): boolean {
  return /[\p{L}\p{N}]/u.test(ch);
}

function wordLeft(chars: readonly string[], from: number): number {
  let i = from;
  while (i > 0 && !isWordChar(chars[i - 1]!)) i--;
  while (i > 0 && isWordChar(chars[i - 1]!)) i--;
  return i;
}

function wordRight(chars: readonly string[], from: number): number {
  let i = from;
  while (i < chars.length && !isWordChar(chars[i]!)) i++;
  while (i < chars.length && isWordChar(chars[i]!)) i++;
  return i;
}

/** A new value: the old line goes on the undo stack (a run of typing is one step). */
function changed(state: LineEdit, value: string, cursor: number, typing = false): LineEdit {
  if (value === state.value) return {...state, cursor, typing: false};
  const joins = typing && state.typing === true;
  const undo = joins ? (state.undo ?? []) : [...(state.undo ?? []), {value: state.value, cursor: state.cursor}].slice(-UNDO_DEPTH);
  return {value, cursor, undo, typing};
}

/**
 * Applies one key (normalised name + raw input) to the line; returns null if the key is neither an
 * edit nor text. A paste is the name `paste` with the text as input.
 */
export function editText(state: LineEdit, name: string, input: string, opts: {multiline?: boolean; limit?: TextLimit} = {}): LineEdit | null {
  const chars = [...state.value];
  const cursor = Math.max(0, Math.min(state.cursor, chars.length));
  const move = (to: number): LineEdit => ({...state, cursor: to, typing: false});
  const cut = (from: number, to: number): LineEdit => changed(state, [...chars.slice(0, from), ...chars.slice(to)].join(''), from);
  switch (name) {
    case 'left':
    case 'ctrl+b':
      return move(Math.max(0, cursor - 1));
    case 'right':
    case 'ctrl+f':
      return move(Math.min(chars.length, cursor + 1));
    case 'alt+b':
    case 'ctrl+left':
    case 'alt+left':
      return move(wordLeft(chars, cursor));
    case 'alt+f':
    case 'ctrl+right':
    case 'alt+right':
      return move(wordRight(chars, cursor));
    case 'home':
    case 'ctrl+a':
      return move(0);
    case 'end':
    case 'ctrl+e':
      return move(chars.length);
    case 'backspace':
      return cursor === 0 ? move(0) : cut(cursor - 1, cursor);
    case 'delete':
    case 'ctrl+d':
      return cursor === chars.length ? move(cursor) : cut(cursor, cursor + 1);
    case 'ctrl+u':
      return cut(0, cursor);
    case 'ctrl+k':
      return cut(cursor, chars.length);
    case 'ctrl+w': {
      // unix-word-rubout: back over spaces, then over everything that is not a space.
      let start = cursor;
      while (start > 0 && chars[start - 1] === ' ') start--;
      while (start > 0 && chars[start - 1] !== ' ') start--;
      return cut(start, cursor);
    }
    case 'alt+backspace':
      return cut(wordLeft(chars, cursor), cursor);
    case 'alt+d':
      return cut(cursor, wordRight(chars, cursor));
    case 'ctrl+_': {
      const undo = state.undo ?? [];
      const last = undo[undo.length - 1];
      if (!last) return move(cursor);
      return {value: last.value, cursor: last.cursor, undo: undo.slice(0, -1), typing: false};
    }
    default:
      break;
  }
  // Printable text, possibly several characters at once (paste); control bytes never enter a field.
  if (name.startsWith('ctrl+') || name.startsWith('alt+') || !isPrintable(input)) return null;
  // A paste into a one-line field becomes one line; a multi-line field (SAML metadata) keeps its lines.
  const text = opts.multiline ? input.replace(/\r\n?/g, '\n').replace(/\t/g, ' ') : input.replace(/[\r\n\t]+/g, ' ');
  // Over the limit, the text is refused whole before it is split or joined (the cost bound), and
  // before any check of characters, which costs at most the limit.
  const refused: LineEdit = {...state, cursor, typing: false, overLimit: true};
  if (opts.limit && state.value.length + text.length > opts.limit.units) return refused;
  const insert = [...text];
  const value = [...chars.slice(0, cursor), ...insert, ...chars.slice(cursor)].join('');
  if (opts.limit && overLimit(value, opts.limit)) return refused;
  // A typed run undoes as one step; a paste is a step of its own.
  return changed(state, value, cursor + insert.length, name !== 'paste' && !/\s/.test(input));
}

/**
 * Why a paste went nowhere, truly: a field that takes no text, or text holding control characters
 * (an escape sequence copied from a terminal), which no field takes. Nothing is lost without a word.
 */
export function pasteRefused(label: string, text: string, kind: string | undefined): string {
  if (kind !== undefined && kind !== 'text' && kind !== 'secret') return `Paste ignored: ${label} does not take text`;
  // eslint-disable-next-line no-control-regex -- control characters are what is counted
  const controls = text.match(/[\x00-\x08\x0b-\x1f\x7f]/g)?.length ?? 0;
  if (controls > 0) {
    const esc = text.includes('\x1b') ? ' (such as ESC)' : '';
    return `Paste ignored: it holds ${controls} control character${controls === 1 ? '' : 's'}${esc}, which ${label} does not take; nothing was inserted`;
  }
  return `Paste ignored: ${label} does not take it`;
}
