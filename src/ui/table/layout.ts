// Pure table layout: which columns fit a width, how wide each is, and the text of header and
// row lines. No React here so it can be unit-tested and reused (e.g. a plain-text dump).

import type {Tone} from '../../state/core/tone.js';
import {glyphs} from '../../state/core/glyphs.js';
import {displayWidth, fitCell, padEnd, shortenEmail, truncate} from '../text.js';
import {color as colorOf} from '../theme.js';

/** Fixed cells, or a flexible column that starts at `min` and takes a `flex` share of the spare width up to `max`. */
export type ColumnWidth = number | {min: number; max?: number; flex: number};

export interface TableColumn<T> {
  key: string;
  header: string;
  /** 1 = kept longest. Columns are dropped from the highest number down when the width runs out. */
  priority: number;
  width: ColumnWidth;
  align?: 'left' | 'right';
  /** The cell text, plain (no ANSI). Unsafe characters are drawn as visible escapes, overlong text ends in `…`. */
  cell: (row: T) => string;
  /** Where overlong text is cut: at its end, or an email in its name (`shortenEmail`). */
  cut?: 'end' | 'email';
  /** The cell's colour role (not applied on the selected row, which is drawn inverse). */
  tone?: (row: T) => Tone | undefined;
}

export interface FittedColumn<T> {
  readonly column: TableColumn<T>;
  /** Cells given to the column. */
  readonly width: number;
}

/** Cells between two columns. */
export const COLUMN_GAP = 1;

function minWidth(width: ColumnWidth): number {
  return Math.max(0, Math.floor(typeof width === 'number' ? width : width.min));
}

/**
 * The columns shown in `width` cells, in their declared order, with their widths.
 *
 * Columns are admitted by priority, a whole priority level at a time (so `RX` never shows
 * without `TX`), each at its fixed or minimum width plus one gap, until a level does not fit;
 * nothing after that level is shown, so the set of columns only depends on the width. The spare
 * width then goes to flexible columns in proportion to `flex`, capped at `max`. What no column
 * can take is left unused at the right.
 */
export function fitColumns<T>(columns: readonly TableColumn<T>[], width: number): FittedColumn<T>[] {
  const avail = Math.max(0, Math.floor(width));
  const order = columns.map((_, i) => i).sort((a, b) => columns[a]!.priority - columns[b]!.priority || a - b);
  const widths = new Map<number, number>();
  let used = 0;

  const cost = (i: number) => minWidth(columns[i]!.width) + (widths.size > 0 ? COLUMN_GAP : 0);

  for (let g = 0; g < order.length;) {
    const priority = columns[order[g]!]!.priority;
    let end = g;
    while (end < order.length && columns[order[end]!]!.priority === priority) end++;
    const level = order.slice(g, end);
    let need = 0;
    for (let k = 0; k < level.length; k++) need += minWidth(columns[level[k]!]!.width) + (widths.size > 0 || k > 0 ? COLUMN_GAP : 0);
    if (used + need <= avail) {
      for (const i of level) widths.set(i, minWidth(columns[i]!.width));
      used += need;
      g = end;
      continue;
    }
    if (widths.size === 0) {
      // Not even the most important level fits: show as much of it as fits, column by column.
      for (const i of level) {
        if (used + cost(i) > avail) break;
        used += cost(i);
        widths.set(i, minWidth(columns[i]!.width));
      }
      if (widths.size === 0 && avail > 0) {
        // A first column wider than the whole table: show it cut to the width.
        widths.set(level[0]!, avail);
        used = avail;
      }
    }
    break;
  }

  // Spare width to flexible columns, water-filling so a column capped at `max` passes its share on.
  let spare = avail - used;
  const flexible = order.filter((i) => widths.has(i) && typeof columns[i]!.width !== 'number' && (columns[i]!.width as {flex: number}).flex > 0);
  while (spare > 0) {
    const growable = flexible.filter((i) => {
      const max = (columns[i]!.width as {max?: number}).max;
      return max === undefined || widths.get(i)! < Math.floor(max);
    });
    if (growable.length === 0) break;
    const totalFlex = growable.reduce((s, i) => s + (columns[i]!.width as {flex: number}).flex, 0);
    let given = 0;
    for (const i of growable) {
      const spec = columns[i]!.width as {max?: number; flex: number};
      const room = spec.max === undefined ? Infinity : Math.floor(spec.max) - widths.get(i)!;
      const add = Math.min(Math.floor((spare * spec.flex) / totalFlex), room);
      widths.set(i, widths.get(i)! + add);
      given += add;
    }
    if (given === 0) {
      // Fewer spare cells than shares: one each, most important column first.
      for (const i of growable) {
        if (given === spare) break;
        widths.set(i, widths.get(i)! + 1);
        given++;
      }
    }
    spare -= given;
  }

  const fitted: FittedColumn<T>[] = [];
  for (let i = 0; i < columns.length; i++) {
    const w = widths.get(i);
    if (w !== undefined) fitted.push({column: columns[i]!, width: w});
  }
  return fitted;
}

/** Cells a row of these columns occupies. */
export function fittedWidth<T>(fitted: readonly FittedColumn<T>[]): number {
  let w = 0;
  for (const f of fitted) w += f.width;
  return fitted.length > 0 ? w + COLUMN_GAP * (fitted.length - 1) : 0;
}

/** The sort arrow: ▲ ascending, ▼ descending (^ and v on plain terminals). */
export function sortMarker(desc: boolean): string {
  return desc ? glyphs().descending : glyphs().ascending;
}

/** The header line; the sorted column's title ends in ▲/▼, kept visible however narrow the column. */
/**
 * The header line. With `letters` (a column's sort letter and where it is in its title, after `s`),
 * `marks` receives the positions in the line of the letters shown, to underline.
 */
export function headerText<T>(
  fitted: readonly FittedColumn<T>[],
  sort?: {key: string; desc: boolean} | null,
  letters?: ReadonlyMap<string, {at: number}>,
  marks?: number[],
): string {
  let line = '';
  // A full-width left-aligned title puts its arrow into the gap after it: that gap is one shorter.
  let gapTaken = false;
  for (let k = 0; k < fitted.length; k++) {
    const {column, width} = fitted[k]!;
    const align = column.align ?? 'left';
    const title = column.header.trimEnd();
    let gap = k > 0 ? ' '.repeat(gapTaken ? COLUMN_GAP - 1 : COLUMN_GAP) : '';
    gapTaken = false;
    let cell: string;
    if (sort && sort.key === column.key) {
      const marker = sortMarker(sort.desc);
      if (displayWidth(title, width) + 1 <= width) {
        cell = fitCell(`${title}${marker}`, width, align);
      } else if (align === 'right' && gap.length > 0) {
        // HANDSHAKE keeps every letter: the arrow takes the gap before it.
        gap = `${gap.slice(1)}${marker}`;
        cell = fitCell(title, width, align);
      } else if (align === 'left' && k < fitted.length - 1) {
        cell = `${fitCell(title, width, align)}${marker}`;
        gapTaken = true;
      } else {
        cell = fitCell(`${truncate(title, width - 1)}${marker}`, width, align);
      }
    } else {
      cell = fitCell(title, width, align);
    }
    const letter = letters?.get(column.key);
    if (letter && marks && letter.at >= 0) {
      // Titles are ASCII: where the title starts in its cell, then the letter in it, if shown.
      const start = cell.indexOf(title.slice(0, Math.min(title.length, Math.max(1, width - 1))));
      const at = start + letter.at;
      if (start >= 0 && at < cell.length && cell[at]!.toLowerCase() === title[letter.at]!.toLowerCase()) marks.push(line.length + gap.length + at);
    }
    line += gap + cell;
  }
  return line.trimEnd();
}

/** A run of a row line: plain text, or text in a colour. */
export interface Segment {
  text: string;
  color?: string;
}

/**
 * The cells of one row as runs of text, each cell cut or padded to its column. Adjacent
 * uncoloured cells are merged so a row is usually one or two strings. Trailing blanks are
 * dropped (fewer bytes per frame).
 */
export function rowSegments<T>(row: T, fitted: readonly FittedColumn<T>[], withColor = true, after?: (columnKey: string) => string | undefined): Segment[] {
  const segments: Segment[] = [];
  let plain = '';
  let mark: string | undefined;
  for (let k = 0; k < fitted.length; k++) {
    const {column, width} = fitted[k]!;
    if (k > 0) plain += mark === undefined ? ' '.repeat(COLUMN_GAP) : `${mark}${' '.repeat(COLUMN_GAP - 1)}`;
    // A cell's ↑/↓ (cellChange, src/state/tracking/highlights.ts) goes next to its value inside the
    // cell's own padding (before a right-aligned number, after left-aligned text), so it never
    // reads as part of the next column; only a full cell lends it the first cell of the gap.
    const value = column.cell(row);
    let text = fitCell(column.cut === 'email' ? shortenEmail(value, width) : value, width, column.align ?? 'left');
    mark = after?.(column.key);
    if (mark !== undefined) {
      const placed = markInCell(text, mark, column.align ?? 'left');
      if (placed !== null) {
        text = placed;
        mark = undefined;
      }
    }
    const tone = withColor && column.tone ? column.tone(row) : undefined;
    const color = tone ? colorOf(tone) : undefined;
    if (color === undefined) {
      plain += text;
    } else {
      if (plain !== '') segments.push({text: plain});
      plain = '';
      segments.push({text, color});
    }
  }
  if (mark !== undefined) plain += mark;
  if (plain !== '') segments.push({text: plain});
  const last = segments[segments.length - 1];
  if (last && last.color === undefined) {
    last.text = last.text.trimEnd();
    if (last.text === '') segments.pop();
  }
  return segments;
}

/** `text` (a fitted cell) with `mark` in its padding next to the value; null when the cell is full. */
function markInCell(text: string, mark: string, align: 'left' | 'right'): string | null {
  if (align === 'right') {
    const start = text.length - text.trimStart().length;
    return start > 0 ? `${text.slice(0, start - 1)}${mark}${text.slice(start)}` : null;
  }
  const end = text.trimEnd().length;
  return end < text.length ? `${text.slice(0, end)}${mark}${text.slice(end + 1)}` : null;
}

/** The row as one plain string (no colours), `width` cells wide when given. */
export function rowText<T>(row: T, fitted: readonly FittedColumn<T>[], width?: number): string {
  let s = '';
  for (const seg of rowSegments(row, fitted, false)) s += seg.text;
  return width === undefined ? s : padEnd(s, width);
}
