// What the UI measured of the frame, for handlers that page and clamp: the terminal size (hence the
// body's rows), how far the open help can scroll and how many report lines fit; and, for the
// mouse, where the tabs, the list's rows and the form's fields were drawn. The UI reports
// them through the Controller's `measured…` calls as it renders; handlers read them through
// `ConsoleContext.layout`.
import type {LayoutReadings} from './context.js';
import {NOTHING_DRAWN, type DrawnEntries, type DrawnForm, type DrawnGeometry, type DrawnTab, type DrawnTable} from './drawn.js';
import type {ListScreenId} from './state.js';

/** Where a list's table is drawn, but for its scroll offset, which the table reports once it has drawn (Table's onTopChange). */
export type TablePlacement = Omit<DrawnTable, 'top' | 'rows'> & {
  /** Item rows the table has room for. */
  capacity: number;
  /** Items in the list as shown (filtered). */
  total: number;
};

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

  // What the last frame drew where, for the mouse (src/state/core/drawn.ts).
  private tabs: readonly DrawnTab[] = [];
  private table: TablePlacement | null = null;
  private tableTop: {screen: ListScreenId; top: number} | null = null;
  private form: DrawnForm | null = null;
  private entries: DrawnEntries | null = null;

  measuredTabs(tabs: readonly DrawnTab[]): void {
    this.tabs = tabs;
  }

  measuredTable(placement: TablePlacement): void {
    this.table = placement;
  }

  measuredTableTop(screen: ListScreenId, top: number): void {
    this.tableTop = {screen, top};
  }

  measuredForm(form: DrawnForm): void {
    this.form = form;
  }

  measuredEntries(entries: DrawnEntries): void {
    this.entries = entries;
  }

  get drawn(): DrawnGeometry {
    const placed = this.table;
    const top = this.tableTop;
    // A table whose offset is not known yet (or is another list's) is not clicked into.
    const table: DrawnTable | null =
      placed && top?.screen === placed.screen
        ? {
            screen: placed.screen,
            firstRow: placed.firstRow,
            left: placed.left,
            width: placed.width,
            top: top.top,
            rows: Math.max(0, Math.min(placed.capacity, placed.total - top.top)),
          }
        : null;
    if (this.tabs.length === 0 && table === null && this.form === null && this.entries === null) return NOTHING_DRAWN;
    return {tabs: this.tabs, table, form: this.form, entries: this.entries};
  }
}
