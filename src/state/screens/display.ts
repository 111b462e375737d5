// What a screen shows, apart from what it does: its columns (by priority), detail lines, title and
// the value `c` copies. The list model, the body and the context read screens through this; what
// a screen does is its `actions` (src/state/screens/spec.ts).
import type {ActivityEvent} from '../tracking/events.js';
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

/** What a screen's filter fields need besides the snapshot. */
export interface FilterOptions {
  /** What `stale` means on Devices: no handshake for this many days (--stale-days). */
  staleDays: number;
}

/** What lists are made of besides the snapshot: the events of the Activity screen. */
export interface ListSources {
  events: readonly ActivityEvent[];
}

export interface ScreenDisplay<T> {
  id: ListScreenId;
  noun: string;
  items(snapshot: Snapshot, sources: ListSources): readonly T[];
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
  filters?(snapshot: Snapshot, options: FilterOptions): FilterFields<T>;
  defaultSort: SortSpec | null;
  title(item: T, snapshot: Snapshot): string;
  detail(item: T, ctx: DetailContext): DetailLine[];
  copyValue(item: T): {label: string; value: string} | null;
  /** Whether the detail has secrets behind `v`. */
  revealable?: boolean;
}
