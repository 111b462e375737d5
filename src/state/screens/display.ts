// What a screen shows, apart from what it does: its columns (by priority), detail lines, title and
// the value `c` copies. The list model, the body and the context read screens through this; what
// a screen does is its `actions` (src/state/screens/spec.ts).
import type {ActivityTracker} from '../tracking/tracker.js';
import type {MarkedType} from '../tracking/highlights.js';
import type {ConsoleSettings} from '../core/settings.js';
import type {TrafficHistory} from '../tracking/traffic-history.js';
import type {ColumnSpec, SortSpec} from '../lists/columns.js';
import type {FilterFields} from '../lists/filter-query.js';
import type {Snapshot} from '../data/snapshot.js';
import type {ListScreenId} from '../core/state.js';
import type {Tone} from '../core/tone.js';

export type ColumnWidth = number | {min: number; max?: number; flex: number};

export interface ScreenColumn<T> extends ColumnSpec<T> {
  header: string;
  /** 1 = kept longest; columns are dropped from the highest number down when the width runs out. */
  priority: number;
  width: ColumnWidth;
  align?: 'left' | 'right';
  /** Sorting starts descending (▼) on this column: traffic, rates, counts, most recent first. */
  defaultDesc?: boolean;
  /** The cell text, raw: the UI makes it display-safe. */
  cell: (row: T) => string;
  /** How a cell too long for its width is cut: at its end (default), or an email in its local part, so the domain stays. */
  cut?: 'end' | 'email';
  tone?: (row: T) => Tone | undefined;
}

export interface DetailLine {
  label?: string;
  value: string;
  tone?: Tone;
  heading?: boolean;
  /** A cursor entry: a Configuration section or provider, or a user's device (`device:<id>`, Enter opens it). */
  entry?: string;
  /**
   * The value made for a row of `width` cells, for a value that can be drawn narrower rather than
   * wrap (a sparkline and its peak); `value` is the full-width one.
   */
  fit?: (width: number) => string;
}

export interface DetailContext {
  snapshot: Snapshot;
  now: number;
  reveal: boolean;
  /** Traffic over the session, for a device's sparklines. */
  history?: TrafficHistory;
}

/** A row as an export file holds it (src/state/lists/export.ts writes CSV or JSON). */
export type ExportRecord = Record<string, string | number | boolean | null | readonly string[]>;

/** `x` (and `X`): what a list's rows are in an export file. */
export interface ScreenExport<T> {
  /** The rows' records, in their order: the server's fields and what the console derives; `secrets` only when asked (`X`). */
  records(rows: readonly T[], snapshot: Snapshot, secrets: boolean): ExportRecord[];
  /** The secrets its records can hold, when asked; none: the export says nothing of secrets. */
  secrets?: {
    /** "preshared keys". */
    what: string;
    /** What the file then lets anyone do who has it, said before it is written. */
    risk: string;
  };
}

/** How the console was started, as a list reads it (the Devices list: `--stale-days`). */
export type ListSettings = Readonly<Partial<ConsoleSettings>>;

/** Where a list's items come from. */
export type ItemSource<T> =
  | {
      /** A list of the server's, as the last poll read it. */
      readonly from: 'poll';
      items(snapshot: Snapshot): readonly T[];
      /**
       * Its rows deleted a moment ago stay on it, marked ×, until they fade: the tracker's record of
       * this type (src/state/tracking/highlights.ts), made a row by `row` where the list shows
       * something else than the API's object.
       */
      deleted: {type: MarkedType; row?(removed: unknown): T};
    }
  | {
      /** What the console saw happen: the tracker's events (Activity), newest first. */
      readonly from: 'tracker';
      items(tracker: ActivityTracker): readonly T[];
    };

/** The items of a list of the server's as the last poll read them (what marks and bulk delete act on); none for the others. */
export function polledItems<T>(spec: ScreenDisplay<T>, snapshot: Snapshot): readonly T[] {
  return spec.source.from === 'poll' ? spec.source.items(snapshot) : [];
}

/**
 * A view of a list of its own, on its own key (the Devices list's stale devices, `S`): other items
 * in place of all of them, in their own order, without rows deleted a moment ago. The list's state
 * says whether it is on (`ListUiState.ownView`; src/state/lists/own-view.ts turns it on and off).
 */
export interface OwnView<T> {
  items(snapshot: Snapshot, now: number, settings: ListSettings): readonly T[];
  /** What the info line calls them: "stale devices (no handshake for 30 days, or never connected since; S shows all)". */
  noun(settings: ListSettings): string;
  /** Said on turning it on, and off. */
  entered(settings: ListSettings): string;
  left: string;
}

export interface ScreenDisplay<T> {
  id: ListScreenId;
  noun: string;
  source: ItemSource<T>;
  getId(item: T): string;
  /**
   * Sort values and search text depend on the snapshot only (a sorted list of 50k rows must not be
   * re-sorted every second); cells and tones read `now()`, the live clock, so ages keep counting
   * and states follow them while the server is unreachable.
   */
  columns(snapshot: Snapshot, now: () => number): ScreenColumn<T>[];
  /**
   * The `/` filter's fields and flags (`state:online`, `rx>1GiB`, `stale`), built once per
   * snapshot like the columns; without them every filter term is text.
   */
  filters?(snapshot: Snapshot, settings: ListSettings): FilterFields<T>;
  defaultSort: SortSpec | null;
  /** What the list is called unsorted, in the order it comes in ("unsorted"; the rules: "firewall order"). */
  ownOrder?: string;
  title(item: T, snapshot: Snapshot): string;
  detail(item: T, ctx: DetailContext): DetailLine[];
  copyValue(item: T): {label: string; value: string} | null;
  /** The item as the server sent it (`y`, src/state/interactions/raw-view.ts); a list without one has no raw view. */
  raw?(item: T): unknown;
  /** Whether the detail has secrets behind `v`. */
  revealable?: boolean;
  export: ScreenExport<T>;
  /**
   * What the info line says after the counts, of all the items whatever the filter shows (the
   * devices online, the rules that never decide), at the poll's time; null: nothing. Not in the
   * list's own view, whose name says what it shows.
   */
  summary?(snapshot: Snapshot, now: number): string | null;
  /** The list's own view, if it has one (`S` on Devices). */
  ownView?: OwnView<T>;
  /**
   * Its id index is made ahead of every poll whatever the screen (src/state/lists/screen-lists.ts,
   * `prepare`): a list of 50k devices switched to must not build one in the frame.
   */
  indexAhead?: true;
}
