// "See change as it happens" (issue #14): what changed between two consecutive polls, as events for
// the Activity screen and the --activity-log file, and as per-row marks the lists use to highlight
// new, changed and deleted rows for a few seconds. Plain TypeScript; the refresh pipeline
// (src/state/data/refresh-pipeline.ts) feeds it every good snapshot through ActivityTracker.observe().
import {type Snapshot} from '../data/snapshot.js';
import {runSliced} from '../core/slices.js';
import type {ActivityEvent} from './events.js';
import type {ConfigurationSave, LocalWrite} from './local-writes.js';
import {LocalWrites} from './local-writes.js';
import {Highlights} from './highlights.js';
import {DeviceScan, diffSnapshots} from './snapshot-diff.js';
import {EventRing} from './event-ring.js';

// ---- the tracker: what the refresh pipeline feeds and the lists read ----------------------------

export interface ActivityTrackerOptions {
  capacity?: number;
  highlightMs?: number;
  /** Called with each non-empty batch (the --activity-log appender). */
  onEvents?: (events: readonly ActivityEvent[]) => void;
}

/**
 * Diffs each good snapshot against the previous good one. The first snapshot gives no events; a
 * failed poll never reaches `observe`, and observing the same snapshot twice gives nothing, so an
 * error and the recovery after it cannot report a change twice.
 */
export class ActivityTracker {
  readonly events: EventRing;
  readonly highlights: Highlights;
  private readonly local = new LocalWrites();
  private last: Snapshot | null = null;
  private lastAt = 0;

  constructor(private readonly options: ActivityTrackerOptions = {}) {
    this.events = new EventRing(options.capacity);
    this.highlights = new Highlights(options.highlightMs);
  }

  private prepared: DeviceScan | null = null;

  /**
   * Makes observe()'s pass over the devices ahead, in slices (the refresh pipeline calls it while the
   * poll is in flight): at 50k devices it was one 20–30 ms task. Nothing changes until observe().
   */
  async prepare(next: Snapshot, now: number = next.fetchedAt): Promise<void> {
    const prev = this.last;
    if (prev === null || next === prev) return;
    const scan = new DeviceScan(prev.devices, next.devices, this.lastAt, now);
    await runSliced(scan, next.devices.length);
    this.prepared = scan;
  }

  observe(next: Snapshot, now: number = next.fetchedAt): readonly ActivityEvent[] {
    const scan = this.prepared ?? undefined;
    this.prepared = null;
    if (next === this.last) return [];
    const prev = this.last;
    const prevNow = this.lastAt;
    this.last = next;
    this.lastAt = now;
    if (prev === null) return [];
    const events = diffSnapshots(prev, next, now, {prevNow, highlights: this.highlights, local: this.local, scan});
    this.events.push(events);
    if (events.length > 0) this.options.onEvents?.(events);
    return events;
  }

  /**
   * A write of this console: the poll that shows it reports it "by you". Call it when the write
   * succeeds, or — where the id is known (update, delete) — just before sending it, and
   * `forgetLocalWrite` if it fails: a poll whose response overtakes the write's own cannot then
   * report it as someone else's.
   */
  noteLocalWrite(write: LocalWrite, now: number = Date.now()): void {
    this.local.note(write, now);
  }

  /** A configuration save that succeeded: what it was built on and what it made, so that a poll tells this console's change from others'. */
  noteConfigurationSave(save: ConfigurationSave, now: number = Date.now()): void {
    this.local.noteConfigurationSave(save, now);
  }

  forgetLocalWrite(write: LocalWrite): void {
    this.local.forget(write);
  }

  /** Forgets the last snapshot: the next one is a first poll again (no events), e.g. after switching to another server or token. */
  reset(): void {
    this.last = null;
  }

  /** Writes not yet seen by a poll (for tests). */
  get pendingLocalWrites(): number {
    return this.local.size;
  }
}
