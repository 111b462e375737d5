// The headless audit recorder (`fz-console activity --follow --log FILE`): the console's polling,
// change detection and activity log without a terminal. Its first poll is the baseline (no
// events), as the console's is. A poll that fails is not observed; the next good one is compared
// with the last good one, so a gap loses and duplicates nothing that both polls show — but a
// change made and undone while the server could not be reached, or the time a change happened
// inside the gap, cannot be known (the events are stamped at the poll that saw them, as always).
import {errorText} from '../core/state.js';
import type {ListingClient} from '../data/fetch.js';
import {fetchAll} from '../data/fetch.js';
import {Poller, type PollStatus} from '../data/poller.js';
import {buildSnapshot, type Snapshot} from '../data/snapshot.js';
import type {ActivityEvent} from './events.js';
import {ActivityTracker} from './tracker.js';

export interface RecorderOptions {
  client: ListingClient;
  /** Appends a batch; null when written, else why not (src/state/tracking/activity-log.ts). */
  append: (events: readonly ActivityEvent[]) => string | null;
  intervalMs: number;
  /** One line about the recorder's own state, for stderr. */
  say: (line: string) => void;
  /** Writing the log failed: the recorder stops (an audit trail with holes is worse than none). */
  failed: (why: string) => void;
  now?: () => number;
}

export class ActivityRecorder {
  private readonly tracker: ActivityTracker;
  private poller: Poller<Snapshot> | null = null;
  private last: Snapshot | null = null;
  /** When the server stopped answering, while it does not. */
  private downSince: number | null = null;
  private recorded = 0;
  /** The failure count last said, so that one failure is said once. */
  private saidFailures = 0;

  constructor(private readonly options: RecorderOptions) {
    this.tracker = new ActivityTracker({
      onEvents: (events) => {
        const why = options.append(events);
        if (why !== null) {
          this.stop();
          options.failed(why);
          return;
        }
        this.recorded += events.length;
        options.say(`recorded ${events.length} event${events.length === 1 ? '' : 's'} (${this.recorded} since start)`);
      },
    });
  }

  get eventsRecorded(): number {
    return this.recorded;
  }

  start(): void {
    const now = this.options.now ?? Date.now;
    const poller = new Poller<Snapshot>({
      intervalMs: this.options.intervalMs,
      now,
      fetch: async () => buildSnapshot(await fetchAll(this.options.client), this.last, now()),
      onData: (snapshot) => this.observe(snapshot, now()),
      onStatus: (status) => this.statusChanged(status, now()),
    });
    this.poller = poller;
    poller.start();
  }

  stop(): void {
    this.poller?.stop();
    this.poller = null;
  }

  private observe(snapshot: Snapshot, at: number): void {
    const first = this.last === null;
    if (this.downSince !== null) {
      this.options.say(
        `reachable again after ${Math.round((at - this.downSince) / 1000)} s: what changed meanwhile is recorded now, as of this poll (a change made and undone while away cannot be seen)`,
      );
      this.downSince = null;
    }
    this.last = snapshot;
    this.tracker.observe(snapshot, at);
    if (first) {
      this.options.say(
        `baseline: ${snapshot.devices.length} devices, ${snapshot.users.length} users, ${snapshot.rules.length} rules; recording changes from the next poll on`,
      );
      // A token of a user who is not an admin sees devices only (src/state/data/fetch.ts).
      const hidden = snapshot.issues.filter((i) => i.message.startsWith('not visible')).map((i) => i.path);
      if (hidden.length > 0) this.options.say(`not visible to this token (its user is not an admin), so not recorded: ${hidden.join(', ')}`);
    }
  }

  private statusChanged(status: PollStatus, at: number): void {
    if (status.failures === 0) this.saidFailures = 0;
    if (status.inFlight || status.lastError === null || status.failures === 0 || status.failures === this.saidFailures) return;
    if (status.nextAt === null && !status.retryStopped) return; // the retry is being scheduled: said with it
    this.saidFailures = status.failures;
    const retry = status.nextAt === null ? 'not retried by itself' : `retrying in ${Math.max(1, Math.round((status.nextAt - at) / 1000))} s`;
    if (this.downSince === null) this.downSince = at;
    this.options.say(`poll failed (${status.failures} in a row): ${errorText(status.lastError)}; ${retry}`);
  }
}
