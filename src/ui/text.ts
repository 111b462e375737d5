// Display-width text helpers. Terminal cells, not UTF-16 units: CJK and emoji take two cells,
// combining marks none. Widths come from `string-width@8`, the same function (and major) Ink 6.8
// measures and truncates with, so a line we fit to N cells is also N cells for Ink and is never
// wrapped or cut a second time. Printable ASCII, nearly all of the data, skips it entirely.

import stringWidth from 'string-width';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// C0/C1 controls including ESC, TAB, CR, LF; DEL.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f-\x9f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_ALL = /[\x00-\x1f\x7f-\x9f]/g;

export const ELLIPSIS = '…';

const segmenter = new Intl.Segmenter();

/** Terminal cells `s` occupies (ANSI escape sequences count 0, as for Ink). */
export function displayWidth(s: string): number {
  return PRINTABLE_ASCII.test(s) ? s.length : stringWidth(s);
}

/**
 * `s` cut to at most `width` cells, ending in `…` when something was cut. A wide character that
 * would straddle the limit is dropped whole, so the result may be one cell short: pad it when
 * alignment matters (`fitCell`).
 */
export function truncate(s: string, width: number): string {
  const max = Math.floor(width);
  if (max <= 0) return '';
  if (PRINTABLE_ASCII.test(s)) return s.length <= max ? s : `${s.slice(0, max - 1)}${ELLIPSIS}`;
  if (stringWidth(s) <= max) return s;
  const room = max - 1; // the ellipsis is one cell
  let out = '';
  let used = 0;
  for (const {segment} of segmenter.segment(s)) {
    const w = PRINTABLE_ASCII.test(segment) ? segment.length : stringWidth(segment);
    if (used + w > room) break;
    out += segment;
    used += w;
  }
  return `${out}${ELLIPSIS}`;
}

/** `s` followed by spaces up to `width` cells; unchanged when it is already that wide. */
export function padEnd(s: string, width: number): string {
  const gap = Math.floor(width) - displayWidth(s);
  return gap > 0 ? s + ' '.repeat(gap) : s;
}

/** Spaces then `s`, right-aligned in `width` cells; unchanged when it is already that wide. */
export function padStart(s: string, width: number): string {
  const gap = Math.floor(width) - displayWidth(s);
  return gap > 0 ? ' '.repeat(gap) + s : s;
}

/** Exactly `width` cells: truncated with `…` or padded, on the side `align` says. */
export function fitCell(s: string, width: number, align: 'left' | 'right' = 'left'): string {
  const cut = truncate(s, width);
  return align === 'right' ? padStart(cut, width) : padEnd(cut, width);
}

/**
 * One safe line of server-supplied text: control characters (newline, tab, ESC…) become spaces.
 * A newline in a device description would otherwise add a row to the frame, and an ESC could
 * inject terminal escape sequences into the admin's terminal.
 */
export function sanitizeLine(s: string): string {
  return CONTROL.test(s) ? s.replace(CONTROL_ALL, ' ') : s;
}
