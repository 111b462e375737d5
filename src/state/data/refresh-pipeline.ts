// The refresh pipeline: from a poll's four lists to the snapshot the store shows (docs/architecture.md,
// "From an HTTP response to a frame"; docs/performance.md, "Refreshing 50k devices"). The poller
// calls `poll()`: the
// lists are fetched (the first poll's may have been fetched before the console loaded), derived
// once into a Snapshot, and every pass over every row that applying them needs — change detection,
// traffic history, the list on screen's id index, sort order and filter text — is made ahead, in
// slices, while the poll is still in flight. `observe()` then only writes what those passes found,
// just before the store changes, so the frame that shows the new data shows its highlights too.
import type {ActivityTracker} from '../tracking/tracker.js';
import type {TrafficHistory} from '../tracking/traffic-history.js';
import {fetchAll, type ListingClient} from './fetch.js';
import {buildSnapshot, type FetchedData, type Snapshot} from './snapshot.js';

/** What is read ahead of applying a poll, and written when it is applied. */
export interface RefreshPasses {
  tracker: Pick<ActivityTracker, 'prepare' | 'observe'>;
  history: Pick<TrafficHistory, 'prepare' | 'record'>;
  /** The list on screen as the frame that shows the poll will: its id index, sorted rows and filter text (ScreenLists.prepare). */
  shownList: {prepare(next: Snapshot): Promise<void>};
}

export class RefreshPipeline {
  constructor(
    private readonly client: ListingClient,
    private readonly passes: RefreshPasses,
    /** The first poll's data when it was fetched before the console loaded (src/early.ts). */
    private firstData: Promise<FetchedData> | null = null,
    private readonly now: () => number = Date.now,
  ) {}

  /** One poll: fetched, derived against the snapshot shown now, and its passes made ahead. */
  async poll(previous: Snapshot | null): Promise<Snapshot> {
    const pending = this.firstData;
    this.firstData = null;
    const data = await (pending ?? fetchAll(this.client));
    // Derivation happens here, once per cycle, so a render never redoes it.
    const next = buildSnapshot(data, previous, this.now());
    await this.passes.tracker.prepare(next, next.fetchedAt);
    await this.passes.history.prepare(next, next.fetchedAt);
    await this.passes.shownList.prepare(next);
    return next;
  }

  /** Right before the store shows `next`: change detection and history take what the passes found. */
  observe(next: Snapshot): void {
    this.passes.tracker.observe(next, next.fetchedAt);
    this.passes.history.record(next, next.fetchedAt);
  }
}
