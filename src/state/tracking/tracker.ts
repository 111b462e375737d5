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
import {DeviceScan, diffPolls} from './snapshot-diff.js';
import {EventRing} from './event-ring.js';
import {repeatsIn, type ListedTwice, type TrackedList} from './id-pairing.js';

// ---- the tracker: what the refresh pipeline feeds and the lists read ----------------------------

export interface ActivityTrackerOptions {
  capacity?: number;
  highlightMs?: number;
  /** Called with each non-empty batch (the --activity-log appender). */
  onEvents?: (events: readonly ActivityEvent[]) => void;
}

const NO_LISTS: ReadonlySet<TrackedList> = new Set();

const ITEMS_OF: Record<TrackedList, (s: Snapshot) => readonly {readonly id: string}[]> = {
  devices: (s) => s.devices,
  users: (s) => s.users,
  rules: (s) => s.rules,
};
const itemsOf = (s: Snapshot, list: TrackedList): readonly {readonly id: string}[] => ITEMS_OF[list](s);

/**
 * The baseline after a poll whose `kept` lists repeated an id: those lists (and what is derived
 * from them alone) as they were, the rest as the poll has them.
 */
function keepLists(prev: Snapshot, next: Snapshot, kept: ReadonlySet<TrackedList>): Snapshot {
  return {
    ...next,
    ...(kept.has('devices') ? {devices: prev.devices, deviceCountByUser: prev.deviceCountByUser} : {}),
    ...(kept.has('users') ? {users: prev.users, usersById: prev.usersById, userRows: prev.userRows} : {}),
    ...(kept.has('rules') ? {rules: prev.rules, ruleCountByUser: prev.ruleCountByUser} : {}),
  };
}

/**
 * Diffs each good snapshot against the previous good one. The first snapshot gives no events; a
 * failed poll never reaches `observe`, and observing the same snapshot twice gives nothing, so an
 * error and the recovery after it cannot report a change twice. A list that repeats an id (the
 * server's error: src/state/tracking/id-pairing.ts) gives no events and is not the next poll's
 * baseline: the last list that held each id once stays it, as a failed poll leaves the whole
 * snapshot. `listedTwice` says what the last observe found, for the status line or stderr.
 */
export class ActivityTracker {
  readonly events: EventRing;
  readonly highlights: Highlights;
  private readonly local = new LocalWrites();
  /** Each list as last seen holding each id once (a list that repeated one is kept from before). */
  private last: Snapshot | null = null;
  /** The snapshot observed last: observing it again gives nothing. */
  private seen: Snapshot | null = null;
  /** When `last.devices` was observed (the online/idle transitions are decided from then). */
  private lastAt = 0;
  /** Lists without a baseline yet: the first poll repeated an id in them. */
  private unbased: ReadonlySet<TrackedList> = NO_LISTS;
  /** The lists the last observed poll repeated ids in (the server's error), and whether an earlier list is kept for each. */
  listedTwice: readonly {twice: ListedTwice; baseline: boolean}[] = [];

  constructor(private readonly options: ActivityTrackerOptions = {}) {
    this.events = new EventRing(options.capacity);
    this.highlights = new Highlights(options.highlightMs);
  }

  private prepared: DeviceScan | null = null;

  /**
   * Makes observe()'s pass over the devices ahead, in slices (the refresh pipeline calls it while the
   * poll is in flight): at 50k devices it was one long task. Nothing changes until observe().
   */
  async prepare(next: Snapshot, now: number = next.fetchedAt): Promise<void> {
    const prev = this.last;
    if (prev === null || next === this.seen || this.unbased.has('devices')) return;
    const scan = new DeviceScan(prev.devices, next.devices, this.lastAt, now);
    await runSliced(scan, next.devices.length);
    this.prepared = scan;
  }

  observe(next: Snapshot, now: number = next.fetchedAt): readonly ActivityEvent[] {
    const scan = this.prepared ?? undefined;
    this.prepared = null;
    if (next === this.seen) return [];
    this.seen = next;
    const prev = this.last;
    if (prev === null) {
      // The baseline: each list checked whole once (linear), since there is nothing to pair it with.
      const found: ListedTwice[] = [];
      for (const list of ['devices', 'users', 'rules'] as const) {
        const twice = repeatsIn(list, itemsOf(next, list));
        if (twice !== null) found.push(twice);
      }
      this.listedTwice = found.map((twice) => ({twice, baseline: false}));
      this.unbased = found.length > 0 ? new Set(found.map((f) => f.list)) : NO_LISTS;
      this.last = next;
      this.lastAt = now;
      return [];
    }
    const unbased = this.unbased;
    const diff = diffPolls(prev, next, now, {prevNow: this.lastAt, highlights: this.highlights, local: this.local, scan, skip: unbased});
    // A list without a baseline takes this poll's, if it holds each id once.
    const stillUnbased: ListedTwice[] = [];
    for (const list of unbased) {
      const twice = repeatsIn(list, itemsOf(next, list));
      if (twice !== null) stillUnbased.push(twice);
    }
    this.listedTwice = [...diff.listedTwice.map((twice) => ({twice, baseline: true})), ...stillUnbased.map((twice) => ({twice, baseline: false}))];
    this.unbased = stillUnbased.length > 0 ? new Set(stillUnbased.map((f) => f.list)) : NO_LISTS;
    const kept = new Set(diff.listedTwice.map((f) => f.list));
    this.last = kept.size === 0 ? next : keepLists(prev, next, kept);
    if (!kept.has('devices')) this.lastAt = now;
    const events = diff.events;
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
    this.seen = null;
    this.unbased = NO_LISTS;
    this.listedTwice = [];
  }

  /** Writes not yet seen by a poll (for tests). */
  get pendingLocalWrites(): number {
    return this.local.size;
  }
}
