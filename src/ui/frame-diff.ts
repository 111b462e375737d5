// The pure half of the console's frame writer (src/ui/frame-writer.ts): what the terminal shows is
// modelled as a grid of cells (a grapheme and the SGR state it was drawn with), a frame from Ink is
// parsed into the same grid, and the bytes that turn one into the other are computed here — only
// the changed spans of the changed rows, with absolute cursor positioning and the SGR state each
// span needs. No I/O, no Ink: the tests drive it against a virtual terminal
// (test/ui/frame-diff.test.ts). The terminal facts it relies on are in
// (docs/terminal-notes.md, "Frames that send only what changed").

import stringWidth from 'string-width';
import {narrowWidth} from './narrow-width.js';

const ESC = '\x1b';

/** One row: per cell, its text ('' for the right half of a wide character) and its SGR key. */
export interface Row {
  chars: string[];
  sgr: string[];
}

/**
 * What a frame puts on the screen, from the top-left cell: `rows` (trailing default blanks
 * trimmed) and whether Ink ended it with a newline (it parks the cursor below the last line then).
 */
export interface Screen {
  rows: Row[];
  trailingNewline: boolean;
}

// ---------------------------------------------------------------------------------------------
// SGR state. A state is kept as its canonical key: the parameters that set it from a reset, in a
// fixed order ('' is the default). Two cells look the same exactly when their keys are equal, and
// `ESC[0;<key>m` sets a state whatever the terminal's state was before — a span never depends on
// what the previous span left behind, so no colour can bleed into it.

// The attributes chalk (and so Ink) writes, and the code that turns each off.
const FLAG_ON = [1, 2, 3, 4, 5, 7, 8, 9, 53] as const;
const FLAG_OFF: Record<number, readonly number[]> = {22: [1, 2], 23: [3], 24: [4], 25: [5], 27: [7], 28: [8], 29: [9], 55: [53]};

interface SgrState {
  flags: Set<number>;
  fg: string;
  bg: string;
}

function keyOf(state: SgrState): string {
  const parts: string[] = [];
  for (const f of FLAG_ON) if (state.flags.has(f)) parts.push(String(f));
  if (state.fg) parts.push(state.fg);
  if (state.bg) parts.push(state.bg);
  return parts.join(';');
}

function stateOf(key: string): SgrState {
  const state: SgrState = {flags: new Set(), fg: '', bg: ''};
  if (key) applySgr(state, key);
  return state;
}

/** Applies the parameters of one `ESC[…m` to `state`; false for any it does not know (the frame is then not modelled). */
function applySgr(state: SgrState, params: string): boolean {
  const p = params === '' ? [0] : params.split(';').map((s) => (s === '' ? 0 : Number(s)));
  for (let i = 0; i < p.length; i++) {
    const n = p[i]!;
    if (n === 0) {
      state.flags.clear();
      state.fg = '';
      state.bg = '';
    } else if ((FLAG_ON as readonly number[]).includes(n)) state.flags.add(n);
    else if (FLAG_OFF[n]) for (const f of FLAG_OFF[n]) state.flags.delete(f);
    else if ((n >= 30 && n <= 37) || (n >= 90 && n <= 97)) state.fg = String(n);
    else if (n === 39) state.fg = '';
    else if ((n >= 40 && n <= 47) || (n >= 100 && n <= 107)) state.bg = String(n);
    else if (n === 49) state.bg = '';
    else if (n === 38 || n === 48) {
      // 256 colours (38;5;n) or true colour (38;2;r;g;b).
      const mode = p[i + 1];
      const count = mode === 5 ? 1 : mode === 2 ? 3 : -1;
      if (count < 0 || i + 1 + count >= p.length) return false;
      const values = p.slice(i + 2, i + 2 + count);
      if (values.some((v) => !Number.isInteger(v) || v > 255)) return false;
      const colour = `${n};${mode};${values.join(';')}`;
      if (n === 38) state.fg = colour;
      else state.bg = colour;
      i += 1 + count;
    } else return false;
  }
  return true;
}

// Transitions are few (a frame uses a handful of states): memoised by (key, parameters).
const transitions = new Map<string, string | null>();

function nextKey(key: string, params: string): string | null {
  const memo = `${key}|${params}`;
  let next = transitions.get(memo);
  if (next === undefined) {
    const state = stateOf(key);
    next = applySgr(state, params) ? keyOf(state) : null;
    if (transitions.size > 10_000) transitions.clear();
    transitions.set(memo, next);
  }
  return next;
}

/** The sequence that sets `key` from any state. */
export function sgrFor(key: string): string {
  return key === '' ? `${ESC}[m` : `${ESC}[0;${key}m`;
}

// ---------------------------------------------------------------------------------------------
// Parsing a frame.

const segmenter = new Intl.Segmenter();

/**
 * The grid a frame from Ink draws from the top-left cell on an empty screen, or null when it holds
 * anything this model cannot account for: an escape other than SGR, a control character other than
 * the newline, an SGR parameter it does not know, a line wider than `columns`, more lines than
 * `rows`, or a zero-width character with nothing before it on its line.
 */
export function parseFrame(text: string, columns: number, rows: number): Screen | null {
  const trailingNewline = text.endsWith('\n');
  const lines = (trailingNewline ? text.slice(0, -1) : text).split('\n');
  // A frame with a trailing newline as tall as the terminal would scroll it by one line.
  if (lines.length + (trailingNewline ? 1 : 0) > rows) return null;
  const out: Row[] = [];
  let key = '';
  for (const line of lines) {
    const parsed = parseLine(line, key);
    // Wider than the terminal (trailing blanks included: the terminal would wrap them).
    if (parsed === null || parsed.cells > columns) return null;
    out.push(parsed.row);
    key = parsed.endKey;
  }
  return {rows: out, trailingNewline};
}

/**
 * Lines parsed recently, by the SGR state they start in and their text. Most lines of a frame are
 * the last frame's (a cursor move changes two of forty): their rows are taken from here, the same
 * objects, which diffScreens then passes over at once. Rows are never changed once made. Bounded:
 * a few screens of lines; cleared when full.
 */
let parsedLines = new Map<string, ParsedLine>();
const PARSED_LINES_MAX = 512;

interface ParsedLine {
  /** Trailing blanks trimmed. */
  row: Row;
  /** The cells the line covers, trailing blanks included. */
  cells: number;
  /** The SGR state after it. */
  endKey: string;
}

/** One line of a frame, drawn from SGR state `key`; null as parseFrame. */
function parseLine(line: string, key: string): ParsedLine | null {
  const memoKey = `${key}\u0000${line}`;
  const known = parsedLines.get(memoKey);
  if (known !== undefined) return known;
  const chars: string[] = [];
  const sgr: string[] = [];
  let i = 0;
  while (i < line.length) {
    const esc = line.indexOf(ESC, i);
    const end = esc === -1 ? line.length : esc;
    if (end > i && !addText(line.slice(i, end), key, chars, sgr)) return null;
    if (esc === -1) break;
    // Only `ESC [ params m`; anything else is not ours to model.
    // eslint-disable-next-line no-control-regex -- an escape sequence is what it reads
    const m = /^\x1b\[([0-9;]*)m/.exec(line.slice(esc, esc + 64));
    if (!m) return null;
    const next = nextKey(key, m[1]!);
    if (next === null) return null;
    key = next;
    i = esc + m[0].length;
  }
  const cells = chars.length;
  trimRow(chars, sgr);
  const parsed = {row: {chars, sgr}, cells, endKey: key};
  if (parsedLines.size >= PARSED_LINES_MAX) parsedLines = new Map();
  parsedLines.set(memoKey, parsed);
  return parsed;
}

/** Appends the cells of `text` (no escapes) drawn in `key`; false on a control character or an orphan zero-width one. */
function addText(text: string, key: string, chars: string[], sgr: string[]): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  if (/[\x00-\x1f\x7f-\x9f]/.test(text)) return false;
  if (narrowWidth(text) !== null) {
    // One cell per code unit (src/ui/narrow-width.ts): nearly every line of the console.
    for (let i = 0; i < text.length; i++) {
      chars.push(text[i]!);
      sgr.push(key);
    }
    return true;
  }
  for (const {segment} of segmenter.segment(text)) {
    const width = stringWidth(segment);
    if (width === 0) {
      // A combining mark or joiner that the segmenter could not attach (it followed an escape).
      let last = chars.length - 1;
      while (last >= 0 && chars[last] === '') last--;
      if (last < 0) return false;
      chars[last] += segment;
      continue;
    }
    if (width > 2) return false;
    chars.push(segment);
    sgr.push(key);
    if (width === 2) {
      chars.push('');
      sgr.push(key);
    }
  }
  return true;
}

/** Drops trailing cells that look like an erased cell (a space in the default state). */
function trimRow(chars: string[], sgr: string[]): void {
  let n = chars.length;
  while (n > 0 && chars[n - 1] === ' ' && sgr[n - 1] === '') n--;
  chars.length = n;
  sgr.length = n;
}

// ---------------------------------------------------------------------------------------------
// Writing. The origin is the top-left cell of the screen: the console draws in the alternate
// screen, entered with the cursor sent home (ENTER_ALT_SCREEN in src/ui/terminal.ts).

/** Builds the bytes of one update while tracking where the cursor and the SGR state are. */
class Out {
  text = '';
  row = -1;
  // The column the cursor is at; `columns` means the last column with a wrap pending.
  col = -1;
  key: string | null = null;

  constructor(private readonly columns: number) {}

  moveTo(row: number, col: number): void {
    if (this.row === row && this.col === col) return;
    if (this.row === row && this.col < col && this.col < this.columns) {
      const n = col - this.col;
      this.text += n === 1 ? `${ESC}[C` : `${ESC}[${n}C`;
    } else if (this.row === row) {
      this.text += col === 0 ? '\r' : `${ESC}[${col + 1}G`;
    } else if (row === this.row + 1 && col === 0 && this.row >= 0) {
      // Never on the last row of the screen: rows are within the frame, which is not taller than it.
      this.text += '\r\n';
    } else {
      this.text += col === 0 ? `${ESC}[${row + 1}H` : `${ESC}[${row + 1};${col + 1}H`;
    }
    this.row = row;
    this.col = col;
  }

  setKey(key: string): void {
    if (this.key === key) return;
    this.text += sgrFor(key);
    this.key = key;
  }

  /** Writes `row`'s cells [from, to), `from` being the cursor's column. */
  cells(row: Row, from: number, to: number): void {
    for (let c = from; c < to; c++) {
      const ch = row.chars[c];
      if (ch === '') continue; // the right half of a wide character, drawn with its left half
      this.setKey(row.sgr[c] ?? '');
      this.text += ch ?? ' ';
    }
    this.col = Math.min(to, this.columns);
  }

  /** Erase to the end of the line, in the default state (an erase paints the current background). */
  eraseLine(): void {
    this.setKey('');
    this.text += `${ESC}[K`;
  }
}

/** A full draw of `next`: home, erase the screen, every row. */
export function fullDraw(next: Screen, columns: number): string {
  const out = new Out(columns);
  out.text = `${ESC}[H${ESC}[m${ESC}[2J`;
  out.row = 0;
  out.col = 0;
  out.key = '';
  next.rows.forEach((row, r) => {
    if (row.chars.length === 0) return;
    out.moveTo(r, 0);
    out.cells(row, 0, row.chars.length);
  });
  out.setKey('');
  return out.text;
}

// Rewriting a few unchanged cells is cheaper than a cursor move over them (`ESC[nC` is 4–5 bytes).
const MERGE_GAP = 4;

/**
 * The bytes that turn a screen showing `prev` into one showing `next`: for each row, the spans of
 * cells that differ (none splits a wide character: writing over half of one makes the terminal
 * blank the other half), and an erase to the end of a row that got shorter. Rows below a shorter frame are erased. The SGR state is the default at the end.
 */
export function diffScreens(prev: Screen, next: Screen, columns: number): string {
  const out = new Out(columns);
  // Every write of the writer ends in the default state, so a diff starts from it.
  out.key = '';
  const height = Math.max(prev.rows.length, next.rows.length);
  for (let r = 0; r < next.rows.length; r++) {
    diffRow(out, r, prev.rows[r] ?? EMPTY, next.rows[r]!);
  }
  if (next.rows.length < height) {
    // Everything below the new frame goes: one erase from the first row it leaves.
    let first = next.rows.length;
    while (first < height && (prev.rows[first]?.chars.length ?? 0) === 0) first++;
    if (first < height) {
      out.moveTo(first, 0);
      out.setKey('');
      out.text += `${ESC}[J`;
    }
  }
  out.setKey('');
  return out.text;
}

const EMPTY: Row = {chars: [], sgr: []};

function diffRow(out: Out, r: number, prev: Row, next: Row): void {
  // A line parsed once is one row object (parseLine): the same row, nothing to send.
  if (prev === next) return;
  const pl = prev.chars.length;
  const nl = next.chars.length;
  const width = Math.max(pl, nl);
  // The right half of a wide character ('') is the same only when its left half is: the right
  // halves of two different wide characters in one place are both '' (a span ending on one would
  // leave the cursor a cell short of where the writer thinks it is).
  const same = (c: number): boolean => prev.chars[c] === next.chars[c] && prev.sgr[c] === next.sgr[c] && (next.chars[c] !== '' || c === 0 || same(c - 1));
  let c = 0;
  let span: [number, number] | null = null;
  const flush = (s: number, e: number) => {
    out.moveTo(r, s);
    out.cells(next, s, Math.min(e, nl));
    if (e > nl) out.eraseLine();
  };
  while (c < width) {
    if (same(c)) {
      c++;
      continue;
    }
    // A span of changed cells never splits a wide character on either side, with no widening:
    // the right half of one is the same on both sides exactly when its left half is (`same`), so
    // a span cannot start on one; and where it ends on one, both sides have a wide character just
    // before it, which is written whole. Past the new row's end every cell of a
    // longer old row differs, so such a span runs to the end and is finished by an erase.
    const s = c;
    let e = c + 1;
    while (e < width && !same(e)) e++;
    if (span && s - span[1] <= MERGE_GAP) span[1] = Math.max(span[1], e);
    else {
      if (span) flush(span[0], span[1]);
      span = [s, e];
    }
    c = e;
  }
  if (span) flush(span[0], span[1]);
}
