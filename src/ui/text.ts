// Display-width text helpers. Terminal cells, not UTF-16 units: CJK and emoji take two cells,
// combining marks none. Widths come from `string-width@8`, the same function (and major) Ink 6.8
// measures and truncates with, so a line we fit to N cells is also N cells for Ink and is never
// wrapped or cut a second time. Printable ASCII, nearly all of the data, skips it entirely.

import stringWidth from 'string-width';
import {isNarrow, narrowWidth} from './narrow-width.js';
import {displaySafe, ESCAPE_CLOSE, ESCAPE_OPEN} from '../common/display-safe.js';
import {graphemes} from '../common/graphemes.js';
import {glyphs} from '../state/core/glyphs.js';

// Every function here takes RAW text and works on its display-safe form (src/common/display-safe.ts):
// unsafe characters are measured, cut and padded as the visible escapes they will be drawn as, and an
// escape token is never split. Callers therefore never escape first; the Text component
// (src/ui/SafeText.tsx) applies the same boundary to whatever reaches Ink.

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * The widths of clusters already measured. string-width costs microseconds per call (a segmenter
 * and Unicode regexes), and text repeats its clusters (an alphabet, a script's syllables): a
 * measure is a Map lookup after the first. Cleared when full, so it never holds more than this.
 */
const CLUSTER_WIDTHS = new Map<string, number>();
const CLUSTER_CACHE_MAX = 4096;

function clusterWidth(unit: string): number {
  if (unit.length === 1 && isNarrow(unit.charCodeAt(0))) return 1;
  let width = CLUSTER_WIDTHS.get(unit);
  if (width === undefined) {
    width = stringWidth(unit.includes(ESCAPE_OPEN) || unit.includes(ESCAPE_CLOSE) ? unit.replace(/[\ue000\ue001]/g, '') : unit);
    if (CLUSTER_WIDTHS.size >= CLUSTER_CACHE_MAX) CLUSTER_WIDTHS.clear();
    CLUSTER_WIDTHS.set(unit, width);
  }
  return width;
}

/**
 * Display-safe text longer than this is measured unit by unit, never by one string-width call:
 * string-width segments its whole input at once, which V8 does in time far worse than linear
 * (docs/performance.md, "Text measured only as far as it shows").
 */
const WHOLE_MEASURE_MAX = 256;

/**
 * The cells display-safe text takes, or a number above `limit` as soon as it is known to pass
 * it: what cannot be shown is not measured.
 */
function safeWidth(safe: string, limit = Number.POSITIVE_INFINITY): number {
  const narrow = narrowWidth(safe);
  if (narrow !== null) return narrow;
  if (safe.length <= WHOLE_MEASURE_MAX) {
    // Markers are dropped before Ink sees the text; the token between them is printable ASCII.
    return stringWidth(safe.includes(ESCAPE_OPEN) || safe.includes(ESCAPE_CLOSE) ? safe.replace(/[\ue000\ue001]/g, '') : safe);
  }
  const {text, cut} = visiblePrefix(safe, limit);
  let width = 0;
  for (const unit of units(text)) {
    width += clusterWidth(unit);
    if (width > limit) return width;
  }
  // Past the prefix nothing can be drawn: more than the limit, as far as anyone can see.
  return cut ? Math.max(width, Math.floor(limit) + 1) : width;
}

/**
 * Terminal cells `s` occupies once made display-safe (ANSI escape sequences of ours count 0, as for
 * Ink). With a `limit`, the answer is exact up to it and only "more than `limit`" beyond: the
 * measure stops there, so its cost follows what can be shown, not the length of `s`.
 */
export function displayWidth(s: string, limit = Number.POSITIVE_INFINITY): number {
  return PRINTABLE_ASCII.test(s) ? s.length : safeWidth(displaySafe(s), limit);
}

/** Units that truncation never splits: one escape token, or one grapheme cluster. */
function* units(safe: string): Generator<string> {
  let i = 0;
  while (i < safe.length) {
    const open = safe.indexOf(ESCAPE_OPEN, i);
    const end = open === -1 ? safe.length : open;
    if (end > i) for (const cluster of graphemes(safe.slice(i, end))) yield* pieces(cluster);
    if (open === -1) return;
    const close = safe.indexOf(ESCAPE_CLOSE, open);
    const stop = close === -1 ? safe.length : close + 1;
    yield safe.slice(open, stop);
    i = stop;
  }
}

/**
 * The most units one cell is drawn from. displaySafe keeps a cluster to a base and MAX_MARKS marks,
 * but a joined emoji sequence or a run of Hangul jamo is one cluster however long it runs (a
 * megabyte of `👩‍💻` joined): no terminal draws it as one glyph, and measured whole, a few cells
 * of it would read the whole text. It is drawn in pieces of at most this many units.
 */
const UNIT_MAX = 64;

function* pieces(cluster: string): Generator<string> {
  if (cluster.length <= UNIT_MAX) {
    yield cluster;
    return;
  }
  for (let i = 0; i < cluster.length;) {
    let end = Math.min(cluster.length, i + UNIT_MAX);
    // Never cut between the halves of a surrogate pair.
    const last = cluster.charCodeAt(end - 1);
    if (end < cluster.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield cluster.slice(i, end);
    i = end;
  }
}

/**
 * How much of display-safe text can matter for `cells` cells: a cluster is a base and at most
 * MAX_MARKS marks or a piece of at most UNIT_MAX units, an escape token a dozen characters. Beyond this
 * prefix nothing can be drawn, so nothing beyond it is measured.
 */
function visiblePrefix(safe: string, cells: number): {text: string; cut: boolean} {
  const room = (Math.max(0, cells) + 1) * UNIT_MAX;
  if (safe.length <= room) return {text: safe, cut: false};
  let text = safe.slice(0, /[\ud800-\udbff]/.test(safe[room - 1]!) ? room - 1 : room);
  // Never leave half an escape token at the end.
  const open = text.lastIndexOf(ESCAPE_OPEN);
  if (open > text.lastIndexOf(ESCAPE_CLOSE)) text = text.slice(0, open);
  return {text, cut: true};
}

/**
 * `s` made display-safe and cut to at most `width` cells, ending in `…` when something was cut. A
 * wide character or an escape token that would straddle the limit is dropped whole, so the result
 * may be a little short: pad it when alignment matters (`fitCell`).
 */
export function truncate(s: string, width: number): string {
  const max = Math.floor(width);
  if (max <= 0) return '';
  if (PRINTABLE_ASCII.test(s)) return s.length <= max ? s : `${s.slice(0, max - 1)}${glyphs().ellipsis}`;
  // Escaping is one linear pass (and says truly how many marks a flood holds); measuring and
  // segmenting, the costly part, only ever see what can be visible.
  const prefix = visiblePrefix(displaySafe(s), max);
  const safe = prefix.text;
  if (!prefix.cut && safeWidth(safe, max) <= max) return safe;
  const room = max - 1; // the ellipsis is one cell
  let out = '';
  let used = 0;
  for (const unit of units(safe)) {
    const w = clusterWidth(unit);
    if (used + w > room) break;
    out += unit;
    used += w;
  }
  return `${out}${glyphs().ellipsis}`;
}

/** `s` (display-safe) followed by spaces up to `width` cells; not cut when it is wider. */
export function padEnd(s: string, width: number): string {
  const safe = displaySafe(s);
  const gap = Math.floor(width) - safeWidth(safe, width);
  return gap > 0 ? safe + ' '.repeat(gap) : safe;
}

/** Spaces then `s` (display-safe), right-aligned in `width` cells; not cut when it is wider. */
export function padStart(s: string, width: number): string {
  const safe = displaySafe(s);
  const gap = Math.floor(width) - safeWidth(safe, width);
  return gap > 0 ? ' '.repeat(gap) + safe : safe;
}

/**
 * An email cut in the middle rather than at the end, so that its domain stays: `maria.r…@example.com`
 * (an owner's domain tells more than the end of their name). Text that is not a plain ASCII email,
 * or whose domain leaves fewer than three cells of the name, is cut at the end.
 */
export function shortenEmail(s: string, width: number): string {
  const max = Math.floor(width);
  const at = s.lastIndexOf('@');
  if (s.length <= max || at <= 0 || !PRINTABLE_ASCII.test(s)) return truncate(s, max);
  const domain = s.slice(at);
  const room = max - 1 - domain.length;
  return room >= 3 ? `${s.slice(0, room)}${glyphs().ellipsis}${domain}` : truncate(s, max);
}

/** Exactly `width` cells: display-safe, truncated with `…` or padded, on the side `align` says. */
export function fitCell(s: string, width: number, align: 'left' | 'right' = 'left'): string {
  const cut = truncate(s, width);
  return align === 'right' ? padStart(cut, width) : padEnd(cut, width);
}

/**
 * Text broken into lines of at most `width` cells (at spaces where possible), each display-safe.
 * With `maxLines`, wrapping stops once that many lines are full: a status line that shows two
 * lines of a 100 MB error reads no further than its third.
 */
export function wrapLines(s: string, width: number, maxLines = Number.POSITIVE_INFINITY): string[] {
  const max = Math.max(1, Math.floor(width));
  // Printable ASCII (nearly all data: 10,000 allowed IPs are 200 KB of it) needs no segmenter:
  // every character is a unit of one cell.
  const ascii = PRINTABLE_ASCII.test(s);
  const safe = ascii ? s : displaySafe(s);
  const lines: string[] = [];
  let line = '';
  let used = 0;
  let lastSpace = -1; // index in `line` after the last space
  let usedAtSpace = 0;
  for (const unit of ascii ? safe : units(safe)) {
    const w = ascii ? 1 : clusterWidth(unit);
    if (used + w > max && line !== '') {
      if (lines.length + 1 >= maxLines) {
        lines.push(lastSpace > 0 && unit !== ' ' ? line.slice(0, lastSpace).trimEnd() : line.trimEnd());
        return lines;
      }
      if (lastSpace > 0 && unit !== ' ') {
        lines.push(line.slice(0, lastSpace).trimEnd());
        line = line.slice(lastSpace);
        used -= usedAtSpace;
      } else {
        lines.push(line.trimEnd());
        line = '';
        used = 0;
      }
      lastSpace = -1;
      if (unit === ' ' && line === '') continue;
    }
    line += unit;
    used += w;
    if (unit === ' ') {
      lastSpace = line.length;
      usedAtSpace = used;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}
