// The list screens as the body draws them: each screen's columns and filter fields (once per
// snapshot), its items (its own view's when that is on; rows deleted a moment ago kept, marked,
// until they fade), and the filtered, sorted view with its selection, memoised per (items, filter,
// sort). Which screen is which is its spec's business: nothing here names one.
import type {ListDerived} from '../core/context.js';
import type {ConsoleState, ListScreenId, ScreenId} from '../core/state.js';
import type {Snapshot} from '../data/snapshot.js';
import type {ListSettings, ScreenColumn, ScreenDisplay} from '../screens/display.js';
import {GhostRows} from '../tracking/live-activity.js';
import type {ActivityTracker} from '../tracking/tracker.js';
import type {FilterFields} from './filter-query.js';
import {effectiveSelection, ListViewCache, type ListUiState} from './view-state.js';
import type {ListView} from './list-view.js';

export class ScreenLists {
  private readonly caches: Record<ListScreenId, ListViewCache<unknown>>;
  private readonly columnsCache = new WeakMap<Snapshot, Map<ListScreenId, ScreenColumn<unknown>[]>>();
  private readonly fieldsCache = new WeakMap<Snapshot, Map<ListScreenId, FilterFields<unknown> | null>>();
  private readonly ghosts = new GhostRows();

  constructor(
    private readonly screens: Readonly<Record<ListScreenId, ScreenDisplay<unknown>>>,
    private readonly tracker: ActivityTracker,
    /** The live clock, read when a cell is drawn (ages keep counting between polls). */
    private readonly clock: () => number,
    private readonly settings: ListSettings = {},
  ) {
    const cache = (spec: ScreenDisplay<unknown>) => new ListViewCache<unknown>((item) => spec.getId(item));
    this.caches = {devices: cache(screens.devices), users: cache(screens.users), rules: cache(screens.rules), activity: cache(screens.activity)};
  }

  /** Whether a list shows rows deleted a moment ago, which fade with the clock (as its items were last made). */
  fades(screen: ListScreenId): boolean {
    return this.ghosts.count(screen) > 0;
  }

  /** The view cache of a screen: sorting ahead warms its orders. */
  cache(screen: ListScreenId): ListViewCache<unknown> {
    return this.caches[screen];
  }

  columns(screen: ListScreenId, snapshot: Snapshot): ScreenColumn<unknown>[] {
    let perSnap = this.columnsCache.get(snapshot);
    if (!perSnap) {
      perSnap = new Map();
      this.columnsCache.set(snapshot, perSnap);
    }
    let cols = perSnap.get(screen);
    if (!cols) {
      cols = this.screens[screen].columns(snapshot, this.clock);
      perSnap.set(screen, cols);
    }
    return cols;
  }

  /** The screen's filter fields and flags for this snapshot (the same object until the next poll), or null if it has none. */
  filterFields(screen: ListScreenId, snapshot: Snapshot): FilterFields<unknown> | null {
    let perSnap = this.fieldsCache.get(snapshot);
    if (!perSnap) {
      perSnap = new Map();
      this.fieldsCache.set(snapshot, perSnap);
    }
    let fields = perSnap.get(screen);
    if (fields === undefined) {
      fields = this.screens[screen].filters?.(snapshot, this.settings) ?? null;
      perSnap.set(screen, fields);
    }
    return fields;
  }

  /**
   * The list on screen for a poll not shown yet, made ahead as far as it can be
   * (src/state/lists/list-view.ts, prepareListView) with its filter and sort as they are now. Only
   * a list of the server's, as the poll read it: a list's own view lists other rows, and while rows
   * deleted a moment ago are shown the items are another array; those are left to the frame, as a
   * filter or sort changed meanwhile is (a poll that deletes a row shown makes its list once for
   * nothing). The id index of a list that asks for it (`indexAhead`: the devices) is made whatever
   * the screen, so that switching to it after polls elsewhere finds it.
   */
  async prepare(screen: ScreenId, snapshot: Snapshot, state: ConsoleState): Promise<void> {
    const shown = Object.values(this.screens).find((spec) => spec.id === screen);
    let prepared: ScreenDisplay<unknown> | null = null;
    if (shown && shown.source.from === 'poll' && !state.lists[shown.id].ownView && this.ghosts.count(shown.id) === 0) {
      const items = shown.source.items(snapshot);
      await this.caches[shown.id].prepare(
        items,
        state.lists[shown.id],
        this.columns(shown.id, snapshot),
        this.filterFields(shown.id, snapshot),
        snapshot.fetchedAt,
      );
      prepared = shown;
    }
    for (const spec of Object.values(this.screens)) {
      if (spec.indexAhead && spec !== prepared && spec.source.from === 'poll') await this.caches[spec.id].prepareIndex(spec.source.items(snapshot));
    }
  }

  /** Whether a list shows its rows deleted a moment ago: a list of the server's, all of it (not its own view). */
  private showsDeleted(spec: ScreenDisplay<unknown>, st: ListUiState): boolean {
    return spec.source.from === 'poll' && !(st.ownView && spec.ownView);
  }

  /** A list's items: its own view's, or all of them with rows deleted a moment ago, marked, until they fade. */
  items(screen: ListScreenId, state: ConsoleState): readonly unknown[] {
    const snap = state.snapshot;
    if (!snap) return [];
    const spec = this.screens[screen];
    if (state.lists[screen].ownView && spec.ownView) return spec.ownView.items(snap, state.clock, this.settings);
    const source = spec.source;
    if (source.from === 'tracker') return source.items(this.tracker);
    return this.ghosts.items(screen, source.deleted, source.items(snap), this.tracker, state.clock, (x) => spec.getId(x));
  }

  /** The list, its selection and open detail for a screen; memoised per (items, filter, sort, and the fields a filter reads). */
  list(screen: ListScreenId, state: ConsoleState): ListDerived | null {
    const snap = state.snapshot;
    if (!snap) return null;
    const spec = this.screens[screen];
    const st = state.lists[screen];
    const columns = this.columns(screen, snap);
    const items = this.items(screen, state);
    // Field terms are measured at the snapshot's time, so the rows a filter shows change with a poll, not every second.
    const view = this.caches[screen].get(items, st, columns, this.filterFields(screen, snap), snap.fetchedAt);
    const withDeleted = this.showsDeleted(spec, st);
    const ghosts = withDeleted ? this.ghosts.ids(screen) : NO_GHOSTS;
    const selection = liveSelection(view, st, ghosts);
    let detailItem: unknown = null;
    if (st.detailId) {
      // The view's index finds it without a scan; a detail filtered out of the view falls back to one.
      const at = view.indexOf(st.detailId);
      detailItem = at >= 0 ? view.rows[at] : (items.find((x: unknown) => spec.getId(x) === st.detailId) ?? null);
    }
    // Rows deleted a moment ago stay on screen, marked ×, but are no longer among the items counted.
    const deleted = withDeleted ? this.ghosts.count(screen) : 0;
    return {spec, state: st, columns, view, selection, detailItem, total: items.length - deleted, deleted, ghosts, filterError: view.filterError};
  }
}

const NO_GHOSTS: ReadonlySet<string> = new Set();

/**
 * The selection, off the rows deleted a moment ago: when the row under the cursor is deleted it
 * stays on the list, marked ×, at its end, and the cursor went with it. It stays where it was
 * instead, on the row that took the deleted one's place (the next), or the nearest live row.
 * A ghost is never under the cursor: moving onto one leaves it on the nearest live row; a detail
 * open on an item deleted meanwhile refuses to act on it (actions.ts).
 */
function liveSelection(view: ListView<unknown>, st: ListUiState, ghosts: ReadonlySet<string>): {id: string | null; index: number} {
  const selection = effectiveSelection(view, st);
  if (selection.id === null || !ghosts.has(selection.id)) return selection;
  const n = view.rows.length;
  const from = Math.min(Math.max(Number.isFinite(st.selectedIndex) ? Math.trunc(st.selectedIndex) : 0, 0), n - 1);
  for (let i = from; i < n; i++) {
    const id = view.idAt(i);
    if (id !== null && !ghosts.has(id)) return {id, index: i};
  }
  for (let i = from - 1; i >= 0; i--) {
    const id = view.idAt(i);
    if (id !== null && !ghosts.has(id)) return {id, index: i};
  }
  return {id: null, index: -1};
}
