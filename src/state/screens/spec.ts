// What a resource module provides to the generic list, detail and form hosts: its columns (by
// priority), detail lines, the value `c` copies, and its actions. A new action on a screen is a
// new function in that resource's module (see docs/architecture.md, "Adding an action").
import type {ActivityEvent} from '../tracking/events.js';
import type {TrafficHistory} from '../tracking/traffic-history.js';
import type {ColumnSpec} from '../lists/columns.js';
import type {Snapshot} from '../data/snapshot.js';
import type {ConsoleClient} from '../core/context.js';
import type {ConsoleState, ListScreenId, StatusMessage, Tone} from '../core/state.js';
import type {DialogModal, FormModal, ResultModal} from '../core/modals.js';

export type ColumnWidth = number | {min: number; max?: number; flex: number};

export interface ResourceColumn<T> extends ColumnSpec<T> {
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
}

export interface DetailContext {
  snapshot: Snapshot;
  now: number;
  reveal: boolean;
  /** Traffic over the session, for a device's sparklines. */
  history?: TrafficHistory;
}

/** What lists are made of besides the snapshot: the events of the Activity screen. */
export interface ListSources {
  events: readonly ActivityEvent[];
}

/** What actions may do; implemented by the Controller. */
export interface ActionContext {
  readonly state: ConsoleState;
  readonly snapshot: Snapshot;
  readonly client: ConsoleClient;
  openForm(modal: Omit<FormModal, 'kind'>): void;
  openDialog(modal: Omit<DialogModal, 'kind'>): void;
  openResult(modal: Omit<ResultModal, 'kind'>): void;
  /** Closes the innermost modal. */
  close(): void;
  message(message: StatusMessage): void;
  /** After a successful write: the message, a refresh, and (for a new item) the cursor on it. */
  afterWrite(text: string, select?: {screen: ListScreenId; id: string}): void;
  /** Leaves a detail whose item was deleted. */
  leaveDetail(screen: ListScreenId): void;
  openDetail(screen: ListScreenId, id: string): void;
}

export interface ResourceSpec<T> {
  id: ListScreenId;
  noun: string;
  items(snapshot: Snapshot, sources: ListSources): readonly T[];
  getId(item: T): string;
  /**
   * Sort values and search text depend on the snapshot only (a sorted list of 50k rows must not be
   * re-sorted every second); cells and tones read `now()`, the live clock, so ages keep counting
   * and states follow them while the server is unreachable.
   */
  columns(snapshot: Snapshot, now: () => number): ResourceColumn<T>[];
  defaultSort: {key: string; desc: boolean} | null;
  title(item: T, snapshot: Snapshot): string;
  detail(item: T, ctx: DetailContext): DetailLine[];
  copyValue(item: T): {label: string; value: string} | null;
  /** Whether the detail has secrets behind `v`. */
  revealable?: boolean;
  actions: {
    new?: (ctx: ActionContext) => void;
    edit?: (ctx: ActionContext, item: T) => void;
    delete?: (ctx: ActionContext, item: T) => void;
    role?: (ctx: ActionContext, item: T) => void;
    /** `n` in the detail view. */
    newFromDetail?: (ctx: ActionContext, item: T) => void;
  };
}

export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
