// Sorting ahead of time (docs/architecture.md, "Sorting 50k rows"): when new items are on screen (a
// poll, another list, the stale view), a long list's columns are ordered one per timer step, so the
// sort key the admin presses next finds its order made. A timer, not a loop: keys that arrive
// meanwhile are handled between two columns.
import type {ListScreenId} from '../core/state.js';
import type {ResourceColumn} from '../screens/display.js';
import type {ListViewCache} from './view-state.js';

/** Lists this long have their columns ordered ahead of time; shorter ones sort well within a frame. */
export const WARM_SORT_MIN_ITEMS = 5000;
/** How long a step may read a column's values; the ordering itself is one more step (5–30 ms at 50k). */
export const WARM_SORT_STEP_MS = 6;

interface Target {
  screen: ListScreenId;
  items: readonly unknown[];
  columns: ResourceColumn<unknown>[];
}

export class WarmSorter {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private target: Target | null = null;

  constructor(private readonly cacheOf: (screen: ListScreenId) => ListViewCache<unknown>) {}

  /** The items on screen now; a new array (or screen, or columns) starts ordering it. */
  notice(screen: ListScreenId, items: readonly unknown[], columns: ResourceColumn<unknown>[]): void {
    const t = this.target;
    if (t && t.screen === screen && t.items === items && t.columns === columns) return;
    this.target = {screen, items, columns};
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
      if (t && t.items.length >= WARM_SORT_MIN_ITEMS && !this.cacheOf(t.screen).warm(t.items, t.columns, WARM_SORT_STEP_MS)) this.schedule();
    }, 0);
    this.timer.unref?.();
  }
}
