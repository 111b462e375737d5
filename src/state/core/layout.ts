// What the UI measured of the frame, for handlers that page and clamp: the terminal size (hence the
// body's rows), how far the open help can scroll and how many report lines fit. The UI reports
// them through the Controller's `measured…` calls as it renders; handlers read them through
// `ConsoleContext.layout`.
import type {LayoutReadings} from './context.js';

/**
 * Rows the shell takes besides the body: header, tabs, info line, status bar, and the one spare
 * row that keeps Ink 6 from clearing the whole screen on every frame (docs/terminal-notes.md).
 */
export const CHROME_ROWS = 4;

/** The smallest terminal the console draws in; below it the screen says "terminal too small". */
export const MIN_COLUMNS = 80;
export const MIN_ROWS = 24;

/** From this width a list can keep the detail of its cursor row open beside it (`P`). */
export const SIDE_PANEL_MIN_COLUMNS = 160;

export class Layout implements LayoutReadings {
  private columns = 100;
  private rows = 30;
  helpMaxScroll = 0;
  reportPage = 1;
  reportLastPage = Number.POSITIVE_INFINITY;

  setViewport(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
  }

  get width(): number {
    return this.columns;
  }

  get tooSmall(): boolean {
    return this.columns < MIN_COLUMNS || this.rows < MIN_ROWS;
  }

  bodyHeight(): number {
    return Math.max(1, this.rows - 1 - CHROME_ROWS);
  }
}
