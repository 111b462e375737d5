// Where the last frame put what a click can land on, as the UI reports it while it draws
// (src/ui/Tabs.tsx, src/ui/views/ListScreen.tsx, src/ui/FormView.tsx, src/ui/views/DetailView.tsx) and the mouse reads it
// (src/state/input/mouse-hit.ts). Cells count from 0 at the terminal's top left, as the decoder
// gives a click's. Plain data, so that hit-testing is a pure function of it.
import type {ListScreenId, ScreenId} from './state.js';

/** Rows above the body: the header, then the tabs (src/ui/App.tsx draws them in this order, one line each). */
export const TABS_ROW = 1;
export const BODY_TOP_ROW = 2;

/** One tab: the cells from `from` to before `to` on the tabs line. */
export interface DrawnTab {
  screen: ScreenId;
  from: number;
  to: number;
}

/** A list's table: its rows of items, below its header line. */
export interface DrawnTable {
  screen: ListScreenId;
  /** The terminal row of the first item row drawn (the one under the header). */
  firstRow: number;
  /** How many item rows are drawn from there (the window, less what the list lacks to fill it). */
  rows: number;
  /** The cells the table spans (the list's share, with the detail beside it). */
  left: number;
  width: number;
  /** The position in the list of the first row drawn: the table's scroll offset. */
  top: number;
}

/** A form's lines: each terminal row that shows a field (its line, its errors, its help) and that field's index. */
export interface DrawnForm {
  /** The key of the form modal drawn (ModalBase.key). */
  modal: number | undefined;
  rows: ReadonlyArray<{row: number; field: number}>;
}

/** The lines a cursor can stand on (the Configuration's entries, a user's devices in their detail), as drawn: each row with its entry. */
export interface DrawnEntries {
  /** Whose lines: the Configuration screen, or the detail of that list. */
  owner: ScreenId;
  rows: ReadonlyArray<{row: number; entry: string}>;
}

export interface DrawnGeometry {
  tabs: readonly DrawnTab[];
  /** The list table last drawn, null before one was. */
  table: DrawnTable | null;
  /** The form last drawn, null before one was. */
  form: DrawnForm | null;
  /** The entries of the Configuration or of a detail last drawn, null before any were. */
  entries: DrawnEntries | null;
}

export const NOTHING_DRAWN: DrawnGeometry = {tabs: [], table: null, form: null, entries: null};
