// Sorting ahead of time (docs/performance.md, "Sorting 50k rows"): when new items are on screen (a
// poll, another list, the stale view), a long list's columns are ordered one per timer step, so the
// sort key the admin presses next finds its order made; then the rows' filter text. A timer, not a
// loop: keys that arrive meanwhile are handled between two steps, and a step spends from the turn's
// budget that sliced passes share (src/common/turn-budget.ts).
import type {ConsoleState, ListScreenId} from '../core/state.js';
import type {Snapshot} from '../data/snapshot.js';
import type {ScreenColumn} from '../screens/display.js';
import type {ListViewCache} from './view-state.js';
import {warmSearch} from './search.js';
import {turnBudgetLeft, turnSpent} from '../../common/turn-budget.js';

/** Lists this long have their columns ordered ahead of time; shorter ones sort well within a frame. */
export const WARM_SORT_MIN_ITEMS = 5000;
/** How long a step may read a column's values; the ordering itself is one more step. */
export const WARM_SORT_STEP_MS = 6;

/** Rows whose filter text is made per step once the orders are made. */
export const WARM_SEARCH_STEP_ROWS = 4000;

interface Target {
  screen: ListScreenId;
  items: readonly unknown[];
  columns: ScreenColumn<unknown>[];
  /** Every sortable column is ordered. */
  sorted: boolean;
  /** How many rows have their filter text made (after the orders). */
  searched: number;
}

export class WarmSorter {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private target: Target | null = null;
  /** Lists whose filter text has been made ahead once (see notice). */
  private readonly searchWarmed = new Set<ListScreenId>();
  /** What the items on screen were last made of (noticeState). */
  private seen: {snapshot: Snapshot; screen: ListScreenId; ownView: boolean; clock: number} | null = null;

  constructor(private readonly cacheOf: (screen: ListScreenId) => ListViewCache<unknown>) {}

  /**
   * After any change of the console's state: the items on screen are looked at again only when
   * what they are made of changed (a poll, another screen, its own view, and the clock while rows
   * deleted a moment ago fade: `fades`), not on a cursor move, a keystroke in a field or a modal
   * opening (which holds the poller, and sets the clock).
   */
  noticeState(
    state: Pick<ConsoleState, 'snapshot' | 'screen' | 'lists' | 'clock'>,
    itemsOf: (screen: ListScreenId) => readonly unknown[],
    columnsOf: (screen: ListScreenId, snapshot: Snapshot) => ScreenColumn<unknown>[],
    fades: (screen: ListScreenId) => boolean = () => true,
  ): void {
    const {snapshot, screen} = state;
    if (!snapshot || screen === 'configuration') return;
    const clock = fades(screen) ? state.clock : 0;
    const ownView = state.lists[screen].ownView;
    const seen = this.seen;
    if (seen && seen.snapshot === snapshot && seen.screen === screen && seen.ownView === ownView && seen.clock === clock) return;
    this.seen = {snapshot, screen, ownView, clock};
    this.notice(screen, itemsOf(screen), columnsOf(screen, snapshot));
  }

  /** The items on screen now; a new array (or screen, or columns) starts ordering it. */
  notice(screen: ListScreenId, items: readonly unknown[], columns: ScreenColumn<unknown>[]): void {
    const t = this.target;
    if (t && t.screen === screen && t.items === items && t.columns === columns) return;
    // The filter text is made ahead for a list's first items only. After a poll only changed rows
    // lack it (it is kept per row object), and making it for them every poll — a third of 50k
    // devices with new traffic — cost time and strings every refresh, for a filter nobody may type;
    // the first filter keystroke after a poll makes it for them instead.
    const searched = this.searchWarmed.has(screen) ? items.length : 0;
    this.target = {screen, items, columns, sorted: false, searched};
    if (items.length >= WARM_SORT_MIN_ITEMS && !this.timer) this.schedule();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      const t = this.target;
      if (!t || t.items.length < WARM_SORT_MIN_ITEMS) return;
      // Sliced work under way (a refresh) has this turn's budget: a step waits for the next turn.
      if (turnSpent()) {
        this.schedule();
        return;
      }
      if (!t.sorted) {
        t.sorted = this.cacheOf(t.screen).warm(t.items, t.columns, Math.min(WARM_SORT_STEP_MS, turnBudgetLeft()));
        this.schedule();
        return;
      }
      // Then the text the `/` filter searches, a slice per step: the first keystroke of a filter
      // would otherwise make it for every row at once (a long task at 50k devices). Only new or
      // changed rows cost anything after a poll (it is cached per row object).
      if (t.searched < t.items.length) {
        warmSearch(t.items.slice(t.searched, t.searched + WARM_SEARCH_STEP_ROWS), t.columns);
        t.searched += WARM_SEARCH_STEP_ROWS;
        if (t.searched >= t.items.length) this.searchWarmed.add(t.screen);
        this.schedule();
      }
    }, 0);
    this.timer.unref?.();
  }
}
