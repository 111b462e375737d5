// What is under a cell of the terminal, from what the last frame drew there (src/state/core/drawn.ts),
// and whether two presses make a double-click. Pure: the geometry and the time are passed in, so
// the mouse's decisions are tested without a terminal or a clock (test/state/mouse.test.ts).
import {TABS_ROW, type DrawnEntries, type DrawnForm, type DrawnTab, type DrawnTable} from '../core/drawn.js';
import type {ScreenId} from '../core/state.js';

/** Two presses on the same cell this close together are a double-click (a desktop's usual 400–500 ms). */
export const DOUBLE_CLICK_MS = 400;

/** Lines (or rows) one notch of the wheel scrolls, as the arrow key three times. */
export const WHEEL_LINES = 3;

/** A press of the left button: where and when. */
export interface Press {
  col: number;
  row: number;
  /** Milliseconds, from the same clock as the press it is compared with. */
  at: number;
}

const isCell = (n: number) => Number.isInteger(n) && n >= 0;

/** The screen whose tab is drawn at the cell, or null. */
export function tabAt(tabs: readonly DrawnTab[], col: number, row: number): ScreenId | null {
  if (row !== TABS_ROW || !isCell(col)) return null;
  return tabs.find((t) => col >= t.from && col < t.to)?.screen ?? null;
}

/** The list position of the row drawn at the cell (a table's item row, not its header), or null. */
export function rowAt(table: DrawnTable | null, col: number, row: number): number | null {
  if (!table || !isCell(col) || !isCell(row)) return null;
  if (col < table.left || col >= table.left + table.width) return null;
  const line = row - table.firstRow;
  if (line < 0 || line >= table.rows) return null;
  return table.top + line;
}

/** The index of the form field drawn at the cell's row (its line, its errors or its help), or null. */
export function fieldAt(form: DrawnForm | null, col: number, row: number): number | null {
  if (!form || !isCell(col) || !isCell(row)) return null;
  return form.rows.find((r) => r.row === row)?.field ?? null;
}

/** The entry drawn on the cell's row (any of its wrapped lines), or null. */
export function entryAt(entries: DrawnEntries | null, col: number, row: number): string | null {
  if (!entries || !isCell(col) || !isCell(row)) return null;
  return entries.rows.find((r) => r.row === row)?.entry ?? null;
}

/** Whether `press` is the second of a double-click after `last`: the same cell, soon enough after it. */
export function isDoubleClick(last: Press | null, press: Press): boolean {
  if (!last) return false;
  const gap = press.at - last.at;
  return last.col === press.col && last.row === press.row && gap >= 0 && gap <= DOUBLE_CLICK_MS;
}
