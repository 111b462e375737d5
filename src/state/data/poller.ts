// Live polling with pause, hold (while a dialog or form is open), manual refresh and
// exponential back-off on errors. One data callback per successful cycle.
import {formatTimestamp} from './format.js';

type PollMode = 'loading' | 'live' | 'paused' | 'manual' | 'backoff';

export interface PollStatus {
  mode: PollMode;
  /** When the last successful cycle finished (wall clock ms). */
  lastOkAt: number | null;
  /** When the next automatic cycle is due, if one is scheduled. */
  nextAt: number | null;
  failures: number;
  lastError: unknown;
  inFlight: boolean;
  /** Automatic cycles are suspended while a dialog or form is open. */
  held: boolean;
  paused: boolean;
  intervalMs: number;
  /** The last error would only come again (a body over the size limit): no retry by itself, `r` tries. */
  retryStopped: boolean;
}

interface PollerOptions<T> {
  /** One cycle's fetch. Must reject on failure. */
  fetch: () => Promise<T>;
  onData: (data: T) => void;
  onStatus: (status: PollStatus) => void;
  /** 0 = manual refresh only. */
  intervalMs: number;
  now?: () => number;
  /**
   * Whether back-off should retry after this error by itself. Not for one that would only come
   * again at full cost: a response over the body limit is downloaded up to the limit every time.
   */
  retryable?: (err: unknown) => boolean;
  /**
   * Wraps what one cycle's end does (its data, then its status): given the store's batch, a poll
   * is one change of the store, one render.
   */
  batch?: (work: () => void) => void;
}

const BACKOFF_STEPS_MS = [1000, 2000, 4000, 8000, 16000, 32000, 60000];

export function backoffDelay(failures: number): number {
  return BACKOFF_STEPS_MS[Math.min(Math.max(failures, 1), BACKOFF_STEPS_MS.length) - 1]!;
}

export class Poller<T> {
  private readonly opts: PollerOptions<T>;
  private readonly now: () => number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private generation = 0;
  private stopped = false;
  /** `refreshNow` came while a cycle was in flight: one more cycle follows it at once. */
  private again = false;
  private status: PollStatus;

  constructor(opts: PollerOptions<T>) {
    this.opts = opts;
    this.now = opts.now ?? Date.now;
    this.status = {
      mode: 'loading',
      lastOkAt: null,
      nextAt: null,
      failures: 0,
      lastError: null,
      inFlight: false,
      held: false,
      paused: false,
      intervalMs: opts.intervalMs,
      retryStopped: false,
    };
  }

  get current(): PollStatus {
    return this.status;
  }

  start(): void {
    void this.cycle();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimer();
  }

  /**
   * A write's refresh: fetch now, even while paused or held. A cycle in flight may have
   * fetched before the write it follows, so one more cycle runs as soon as it ends (requests made
   * meanwhile share that one; no two cycles run at once).
   */
  refreshNow(): void {
    if (this.status.inFlight) this.again = true;
    else this.cycleNow();
  }

  /**
   * `r`: a cycle now unless one is in flight, which brings data as fresh as a look asks for (at
   * large server a poll takes a while; `r` pressed twice does not fetch everything twice).
   */
  refreshIfIdle(): void {
    this.cycleNow();
  }

  /** A cycle now unless one is in flight. */
  private cycleNow(): void {
    if (this.status.inFlight) return;
    this.clearTimer();
    void this.cycle();
  }

  setPaused(paused: boolean): void {
    if (paused === this.status.paused) return;
    this.changeThenSay({paused}, !paused && this.stale());
  }

  /** Data older than one interval: resuming (or closing a form) refreshes at once, as htop and k9s do. */
  private stale(): boolean {
    const last = this.status.lastOkAt;
    return this.opts.intervalMs > 0 && this.status.failures === 0 && last !== null && this.now() - last >= this.opts.intervalMs;
  }

  togglePause(): void {
    this.setPaused(!this.status.paused);
  }

  setHeld(held: boolean): void {
    if (held === this.status.held) return;
    this.changeThenSay({held}, !held && !this.status.paused && this.stale());
  }

  /**
   * A pause or a hold changed: one status says it with what follows, a cycle started at once
   * (`refresh`, unless one is in flight) or the next one's time. Said once, not once for the
   * change and again for the schedule: each status is a change of the store that subscribers see.
   */
  private changeThenSay(patch: Partial<PollStatus>, refresh: boolean): void {
    this.status = {...this.status, ...patch};
    // cycle() says `inFlight` before it awaits anything; reschedule() always says where it is.
    if (refresh && !this.status.inFlight && !this.stopped) this.cycleNow();
    else this.reschedule();
  }

  private async cycle(): Promise<void> {
    if (this.stopped) return;
    const generation = ++this.generation;
    this.update({inFlight: true, nextAt: null});
    let ended: () => void;
    try {
      const data = await this.opts.fetch();
      if (this.stopped || generation !== this.generation) return;
      this.status = {...this.status, inFlight: false, failures: 0, lastError: null, lastOkAt: this.now(), retryStopped: false};
      ended = () => {
        this.opts.onData(data);
        this.next();
      };
    } catch (err) {
      if (this.stopped || generation !== this.generation) return;
      const retryStopped = !(this.opts.retryable?.(err) ?? true);
      this.status = {...this.status, inFlight: false, failures: this.status.failures + 1, lastError: err, retryStopped};
      ended = () => this.next();
    }
    if (this.opts.batch) this.opts.batch(ended);
    else ended();
  }

  /** After a cycle: another at once if one was asked for meanwhile, else the next in its time. */
  private next(): void {
    if (this.again) {
      this.again = false;
      this.cycleNow();
    } else {
      this.reschedule();
    }
  }

  private modeFor(): PollMode {
    if (this.status.failures > 0) return 'backoff';
    if (this.status.lastOkAt === null) return 'loading';
    if (this.status.paused) return 'paused';
    if (this.opts.intervalMs === 0) return 'manual';
    return 'live';
  }

  private reschedule(): void {
    this.clearTimer();
    if (this.stopped || this.status.inFlight) {
      this.update({mode: this.modeFor()});
      return;
    }
    let delay: number | null = null;
    if (this.status.failures > 0) {
      // Errors retry by themselves (GETs only) even in manual mode, so the console recovers.
      delay = this.status.paused || this.status.held || this.status.retryStopped ? null : backoffDelay(this.status.failures);
    } else if (!this.status.paused && !this.status.held && this.opts.intervalMs > 0) {
      delay = this.opts.intervalMs;
    }
    if (delay === null) {
      this.update({mode: this.modeFor(), nextAt: null});
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.cycle();
    }, delay);
    // A pending poll must not keep the process alive after the UI has exited.
    this.timer.unref?.();
    this.update({mode: this.modeFor(), nextAt: this.now() + delay});
  }

  private clearTimer(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }

  private update(patch: Partial<PollStatus>): void {
    this.status = {...this.status, ...patch};
    this.opts.onStatus(this.status);
  }
}

/** The header's live-state text: `live 5s · updated 2s ago`, `PAUSED · updated 1m ago`, `offline · retry in 8s`. */
export function liveLabel(status: PollStatus, nowMs: number): string {
  const updated = status.lastOkAt === null ? '' : ` · updated ${ageText(nowMs - status.lastOkAt)} ago`;
  switch (status.mode) {
    case 'loading':
      return status.inFlight ? 'loading…' : 'connecting…';
    case 'backoff': {
      if (status.inFlight) return `offline · retrying now${updated}`;
      if (status.retryStopped) return `stopped · r retries${updated}`;
      if (status.nextAt === null) return `offline · ${status.paused ? 'paused' : 'on hold'}${updated}`;
      const seconds = Math.max(0, Math.ceil((status.nextAt - nowMs) / 1000));
      return `offline · retry in ${seconds}s${updated}`;
    }
    case 'paused':
      // Nothing ticks while paused (no renders, no CPU), so a moving "ago" would lie: the time of the data.
      return status.lastOkAt === null ? 'PAUSED' : `PAUSED · data of ${formatTimestamp(status.lastOkAt).slice(11)}`;
    case 'manual':
      return `manual refresh (r)${updated}`;
    case 'live':
      return `${status.held ? 'on hold' : `live ${status.intervalMs / 1000}s`}${status.inFlight ? ' · refreshing' : ''}${updated}`;
  }
}

function ageText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  return `${Math.floor(s / 3600)}h`;
}

/** Whether the header's clock must tick: only while something time-based is on screen. */
export function needsClock(status: PollStatus): boolean {
  return status.mode === 'live' || status.mode === 'backoff' || status.mode === 'manual';
}
