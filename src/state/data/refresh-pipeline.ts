// The refresh pipeline: from a poll's four lists to the snapshot the store shows (docs/architecture.md,
// "From an HTTP response to a frame"; docs/performance-poll.md, "Refreshing 50k devices"). It owns the live polling: the poller's cycles call `poll()`,
// where the lists are fetched (the first poll's may have been fetched before the console loaded),
// derived once into a Snapshot, and every pass over every row that applying them needs — change
// detection, traffic history, the list on screen's id index, sort order and filter text — is made
// ahead, in slices, while the poll is still in flight. When a cycle ends, `observe()` only writes
// what those passes found, and the console's sink shows the snapshot and the poller's status as
// one change of the store, so the frame that shows the new data shows its highlights too.
import {ApiError} from '../../api/index.js';
import type {ActivityTracker} from '../tracking/tracker.js';
import type {TrafficHistory} from '../tracking/traffic-history.js';
import {fetchAll, type ListingClient} from './fetch.js';
import {Poller, type PollStatus} from './poller.js';
import type {SavedConfiguration} from './saved-configuration.js';
import {buildSnapshot, type FetchedData, type Snapshot} from './snapshot.js';

/** What is read ahead of applying a poll, and written when it is applied. */
export interface RefreshPasses {
  tracker: Pick<ActivityTracker, 'prepare' | 'observe'>;
  history: Pick<TrafficHistory, 'prepare' | 'record'>;
  /** The list on screen as the frame that shows the poll will: its id index, sorted rows and filter text (ScreenLists.prepare). */
  shownList: {prepare(next: Snapshot): Promise<void>};
}

/** Where the polls go: the console's store (Controller). */
export interface PollSink {
  /** The snapshot on screen: a poll is derived against it. */
  shownSnapshot(): Snapshot | null;
  /** A poll's snapshot, derived and observed: to be shown. */
  showPoll(next: Snapshot): void;
  /** The poller's state: live, paused, failing, in flight. */
  showStatus(status: PollStatus): void;
  /** One change of the store for all that a cycle's end does (Store.batch). */
  batch(work: () => void): void;
}

export class RefreshPipeline {
  private poller: Poller<{snapshot: Snapshot; began: number}> | null = null;

  constructor(
    private readonly client: ListingClient,
    private readonly passes: RefreshPasses,
    /** A configuration saved by this console, shown over a poll that began before the save. */
    private readonly saved: SavedConfiguration,
    /** The first poll's data when it was fetched before the console loaded (src/early.ts). */
    private firstData: Promise<FetchedData> | null = null,
    private readonly now: () => number = Date.now,
  ) {}

  /** Live polling into `sink`, every `intervalMs` (0: when asked). */
  start(sink: PollSink, intervalMs: number): void {
    this.poller = new Poller<{snapshot: Snapshot; began: number}>({
      intervalMs,
      fetch: async () => {
        const began = this.saved.mark;
        return {snapshot: await this.poll(sink.shownSnapshot()), began};
      },
      // A list over the body limit would be downloaded again, up to the limit, on every retry.
      retryable: (err) => !(err instanceof ApiError && err.kind === 'too_large'),
      onData: ({snapshot, began}) => {
        // Not shown yet, so set in place: the passes made ahead for this snapshot stay valid.
        snapshot.configuration = this.saved.over(snapshot.configuration, began);
        this.observe(snapshot);
        sink.showPoll(snapshot);
      },
      onStatus: (status) => sink.showStatus(status),
      batch: (work) => sink.batch(work),
    });
    this.poller.start();
  }

  stop(): void {
    this.poller?.stop();
  }

  /** A poll now; one asked for while a poll is in flight runs once that one ends (it may have read the server before a write). */
  refresh(options: {ifIdle?: boolean} = {}): void {
    if (options.ifIdle) this.poller?.refreshIfIdle();
    else this.poller?.refreshNow();
  }

  /** Pauses or resumes live polling; whether it is paused now (null before it started). */
  togglePause(): boolean | null {
    if (!this.poller) return null;
    this.poller.togglePause();
    return this.poller.current.paused;
  }

  /** Live updates hold while help, a form or a dialog is open, so nothing moves under the admin. */
  setHeld(held: boolean): void {
    this.poller?.setHeld(held);
  }

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
