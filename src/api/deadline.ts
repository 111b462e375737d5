// A request's timeout counted in the time the console was free to read the answer, not in wall
// time (docs/architecture.md, "A timeout blames the server only for the server's time"). A timer
// is a promise about the earliest moment it runs, not the latest: with the event loop blocked for
// seconds (a costly filter, a huge paste measured), the request's timer ran after the block, in
// the timers phase, which comes before the poll phase that would have read the answer already
// waiting in the socket. The request was aborted and the status line blamed the server, which had
// answered at once.
//
// So the deadline ticks: a timer at most every `tick` ms, and the time each tick ran later than
// asked — time the loop was busy with something else — is not counted against the server. A tick
// late by a block (BLOCK_MS or more) does not count the time since it was armed either: the block
// may have begun any time after that, and an answer that came meanwhile is still unread. So after
// a block the request always gets one more tick, and the poll phase before it reads what arrived.
// Only a block after a tick that was on time gets that: a loop blocked at every tick would
// otherwise hold a request for ever, and this way its time still runs by a tick at every other.

export interface DeadlineClock {
  now(): number;
  setTimer(run: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
}

const REAL_CLOCK: DeadlineClock = {
  now: () => performance.now(),
  setTimer: (run, ms) => setTimeout(run, ms),
  clearTimer: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

/** The longest a tick waits; a quarter of a shorter timeout, so that a block within it is seen. */
const TICK_MS = 1000;
/** A tick this late (or a whole tick late, if less) was held up by a block of the loop. */
const BLOCK_MS = 100;

/** When and why a deadline expired. */
export interface Expiry {
  /** Wall time since the request started. */
  wallMs: number;
  /** Of that, the time the event loop was seen busy (not counted against the server). */
  busyMs: number;
}

export class LoopDeadline {
  private busy = 0;
  /** The last tick was held up by a block: the next one is not given the time since it was armed. */
  private blocked = false;
  private armedAt = 0;
  private due = 0;
  private timer: unknown = null;
  private readonly tick: number;

  /**
   * Calls `expire` once `timeoutMs` have passed since `startedAt`, not counting the time the event
   * loop was seen busy meanwhile (time before the deadline was made counts whole).
   */
  constructor(
    private readonly timeoutMs: number,
    private readonly expire: (expiry: Expiry) => void,
    private readonly startedAt: number = REAL_CLOCK.now(),
    private readonly clock: DeadlineClock = REAL_CLOCK,
  ) {
    this.tick = Math.max(1, Math.min(TICK_MS, timeoutMs / 4));
    this.arm();
  }

  cancel(): void {
    if (this.timer !== null) this.clock.clearTimer(this.timer);
    this.timer = null;
  }

  private arm(): void {
    const now = this.clock.now();
    const wall = now - this.startedAt;
    const left = this.timeoutMs - (wall - this.busy);
    if (left <= 0) {
      this.timer = null;
      this.expire({wallMs: wall, busyMs: Math.min(this.busy, wall)});
      return;
    }
    const wait = Math.min(left, this.tick);
    this.armedAt = now;
    this.due = now + wait;
    this.timer = this.clock.setTimer(() => this.fired(), wait);
  }

  private fired(): void {
    const now = this.clock.now();
    const late = Math.max(0, now - this.due);
    const graced = late >= Math.min(BLOCK_MS, this.tick) && !this.blocked;
    this.blocked = late >= Math.min(BLOCK_MS, this.tick);
    this.busy += graced ? now - this.armedAt : late;
    this.arm();
  }
}
