// The headless audit recorder (`fz-console activity --follow --log FILE`): the console's polling,
// change detection and activity log without a terminal. Its first poll is the baseline (no
// events), as the console's is. A poll that fails is not observed; the next good one is compared
// with the last good one, so a gap loses and duplicates nothing that both polls show — but a
// change made and undone while the server could not be reached, or the time a change happened
// inside the gap, cannot be known (the events are stamped at the poll that saw them, as always).
// It stops rather than keep a trail with holes or silence (issue #44): when a batch cannot be
// written (the batch is then not in the file at all: activity-log.ts), and when no token has been
// accepted for `graceMs` after the server rejected one — the token is read again where it came
// from before each retry, so a rotated token file is picked up, and a service manager restarts a
// recorder that gave up, and tells someone.
import {ApiError} from '../../api/index.js';
import {errorText} from '../core/state.js';
import type {ListingClient} from '../data/fetch.js';
import {fetchAll} from '../data/fetch.js';
import {Poller, type PollStatus} from '../data/poller.js';
import {buildSnapshot, type Snapshot} from '../data/snapshot.js';
import {notRecordedText, type AppendFailure} from './activity-log.js';
import type {ActivityEvent} from './events.js';
import {listedTwiceText} from './id-pairing.js';
import {ActivityTracker} from './tracker.js';

/** Where the token came from, read again after a 401 (src/recorder.ts: the connection resolved again). */
export interface TokenSource {
  /** The token polls send now. */
  readonly current: string;
  /** Its file read again, or its command run again; rejects with why not. */
  reload(): Promise<string>;
  /** Polls from now on send this token. */
  use(token: string): void;
  /** How long polls may go without an accepted token after a 401 before the recorder gives up. */
  readonly graceMs: number;
}

export interface RecorderOptions {
  client: ListingClient;
  /** Appends a batch, whole or not at all; null when written (src/state/tracking/activity-log.ts). */
  append: (events: readonly ActivityEvent[]) => AppendFailure | null;
  intervalMs: number;
  /** One line about the recorder's own state, for stderr. */
  say: (line: string) => void;
  /** The recorder cannot go on (a batch not written; no token accepted): it has stopped, and says why. */
  failed: (why: string) => void;
  /** Without it, a rejected token is retried with the back-off, as any failure. */
  token?: TokenSource;
  now?: () => number;
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

export class ActivityRecorder {
  private readonly tracker: ActivityTracker;
  private poller: Poller<Snapshot> | null = null;
  private last: Snapshot | null = null;
  /** When the server stopped answering, while it does not. */
  private downSince: number | null = null;
  private recorded = 0;
  /** The failure count last said, so that one failure is said once. */
  private saidFailures = 0;
  /** The last thing said about repeated ids, so that a server that keeps repeating one is said once. */
  private saidTwice = '';
  /** Since when the server rejects the token, while it does; the timer that gives up. */
  private rejectedSince: number | null = null;
  private giveUp: ReturnType<typeof setTimeout> | null = null;
  private tokenInUse: string | null;
  private reloading = false;
  /** What the last read of the token gave that was said (the rejected token again, or why it could not be read), so that it is said once. */
  private saidReload = '';
  private stopped = false;

  constructor(private readonly options: RecorderOptions) {
    this.tokenInUse = options.token?.current ?? null;
    this.tracker = new ActivityTracker({
      onEvents: (events) => {
        const failure = options.append(events);
        if (failure !== null) {
          this.stop();
          options.failed(notRecordedText(failure, events.length));
          return;
        }
        this.recorded += events.length;
        options.say(`recorded ${events.length} event${events.length === 1 ? '' : 's'} (${this.recorded} since start)`);
      },
    });
  }

  /** Events in the log: a batch counts only once it is written whole. */
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
    this.stopped = true;
    this.poller?.stop();
    this.poller = null;
    if (this.giveUp) clearTimeout(this.giveUp);
    this.giveUp = null;
  }

  private observe(snapshot: Snapshot, at: number): void {
    const first = this.last === null;
    if (this.downSince !== null) {
      this.options.say(
        `reachable again after ${Math.round((at - this.downSince) / 1000)} s: what changed meanwhile is recorded now, as of this poll (a change made and undone while away cannot be seen)`,
      );
      this.downSince = null;
    }
    if (this.rejectedSince !== null) {
      this.options.say(`the token is accepted again, ${seconds(at - this.rejectedSince)} after the server first rejected it`);
      this.rejectedSince = null;
      if (this.giveUp) clearTimeout(this.giveUp);
      this.giveUp = null;
    }
    this.last = snapshot;
    this.tracker.observe(snapshot, at);
    if (first) {
      this.options.say(
        `baseline: ${snapshot.devices.length} devices, ${snapshot.users.length} users, ${snapshot.rules.length} rules; recording changes from the next poll on`,
      );
      // A token of a user who is not an admin sees devices only (src/state/data/fetch.ts).
      const hidden = [...snapshot.hidden].map((list) => `/v0/${list}`);
      if (hidden.length > 0) this.options.say(`not visible to this token (its user is not an admin), so not recorded: ${hidden.join(', ')}`);
    }
    // A list that repeats an id is the server's error and gives no events (ActivityTracker): said
    // when it starts or changes, and when it ends.
    const twice = this.tracker.listedTwice.map((t) => listedTwiceText(t.twice, t.baseline));
    const said = twice.join('\n');
    if (said !== this.saidTwice) {
      if (said === '') this.options.say('every list holds each id once again: changes are recorded from this poll on');
      for (const line of twice) this.options.say(line);
      this.saidTwice = said;
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
    if (status.lastError instanceof ApiError && status.lastError.isAuthFailure) this.tokenRejected(at);
  }

  /** A 401: the token is read again where it came from, and a new one tried at once; none accepted within graceMs ends the recording. */
  private tokenRejected(at: number): void {
    const source = this.options.token;
    if (!source) return;
    if (this.rejectedSince === null) {
      this.rejectedSince = at;
      this.saidReload = '';
      this.options.say(
        `the server rejects the token: it is read again from where it came from (its file or command) before each retry; if none is accepted within ${seconds(source.graceMs)}, the recorder exits 1`,
      );
      const since = new Date(at).toISOString();
      this.giveUp = setTimeout(() => {
        this.giveUp = null;
        this.stop();
        this.options.failed(
          `no token accepted for ${seconds(source.graceMs)} (the server rejects it since ${since}): giving up, so that a service manager restarts the recorder and someone looks at its token`,
        );
      }, source.graceMs);
      this.giveUp.unref?.();
    }
    if (this.reloading) return;
    this.reloading = true;
    source.reload().then(
      (token) => {
        this.reloading = false;
        if (this.stopped) return;
        if (token === this.tokenInUse) {
          this.sayReload(
            'the token read again is the one the server rejects: waiting for a new one in its file or command (FZ_API_TOKEN cannot change while the recorder runs)',
          );
          return;
        }
        this.tokenInUse = token;
        this.saidReload = '';
        source.use(token);
        this.options.say('a new token was read: polling with it now');
        this.poller?.refreshNow();
      },
      (err: unknown) => {
        this.reloading = false;
        if (!this.stopped) this.sayReload(`cannot read the token again: ${errorText(err)}`);
      },
    );
  }

  private sayReload(line: string): void {
    if (line === this.saidReload) return;
    this.saidReload = line;
    this.options.say(line);
  }
}
