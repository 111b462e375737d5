// Running many writes against the server (bulk delete, onboarding from a file): a bounded number
// in flight, because a real 0.7.36 server rewrites its WireGuard and nftables state on every write;
// each item started at most once; a stop that lets what is in flight finish and starts nothing
// new; and a stop of its own when the server is gone, so a dead server gives one clear line
// instead of a thousand failures.
import {ApiError} from '../../api/index.js';
import {errorText} from '../core/state.js';

/** Requests in flight at once: enough to hide 20 ms of latency, few enough not to queue up a real server. */
export const JOB_CONCURRENCY = 4;

export interface JobFailure<T> {
  item: T;
  reason: string;
  /** What was thrown: whether the server may have applied the write depends on it. */
  error?: unknown;
  /** No answer came and checking afterwards failed too: it may have been applied. */
  unknown?: true;
}

export interface JobOutcome<T, R> {
  done: Array<{item: T; result: R}>;
  failed: JobFailure<T>[];
  /** Never started: the admin stopped the job, or the server stopped answering. */
  notStarted: T[];
  stoppedBy: 'admin' | 'server' | null;
  /** The error that made the job stop by itself. */
  serverError: string | null;
}

export interface JobProgress {
  total: number;
  started: number;
  finished: number;
  /** Refused or failed with an answer. */
  failed: number;
  /** No answer came (outcomeUnknown): the write may have been applied; settled by reading the data again. */
  unknown: number;
}

export interface JobOptions {
  concurrency?: number;
  onProgress?: (progress: JobProgress) => void;
}

/**
 * A write that failed this way may still have been applied: the request may have reached the
 * server before the connection broke, the time ran out or the admin cancelled it. Its outcome is
 * unknown until the data is read again.
 */
export function outcomeUnknown(err: unknown): boolean {
  return err instanceof ApiError && (err.kind === 'network' || err.kind === 'timeout' || err.kind === 'cancelled');
}

/** Errors after which further requests cannot succeed either: stop instead of failing every item. */
export function isServerGone(err: unknown): boolean {
  return (
    err instanceof ApiError && (err.kind === 'network' || err.kind === 'timeout' || err.kind === 'forbidden' || err.kind === 'cancelled' || err.isAuthFailure)
  );
}

export class Job<T, R> {
  private stopRequested = false;

  constructor(
    private readonly items: readonly T[],
    private readonly work: (item: T) => Promise<R>,
    private readonly options: JobOptions = {},
  ) {}

  /** Starts nothing new; what is in flight finishes and is reported. */
  stop(): void {
    this.stopRequested = true;
  }

  get stopping(): boolean {
    return this.stopRequested;
  }

  /** Runs every item once; `onProgress` (or the constructor's) hears each one finish. */
  async run(onProgress?: (progress: JobProgress) => void): Promise<JobOutcome<T, R>> {
    const outcome: JobOutcome<T, R> = {done: [], failed: [], notStarted: [], stoppedBy: null, serverError: null};
    const progress: JobProgress = {total: this.items.length, started: 0, finished: 0, failed: 0, unknown: 0};
    let next = 0;
    const listener = onProgress ?? this.options.onProgress;
    const report = () => listener?.({...progress});
    const worker = async () => {
      while (next < this.items.length && !this.stopRequested && outcome.stoppedBy === null) {
        const item = this.items[next++]!;
        progress.started++;
        try {
          outcome.done.push({item, result: await this.work(item)});
        } catch (err) {
          outcome.failed.push({item, reason: errorText(err), error: err});
          if (outcomeUnknown(err)) progress.unknown++;
          else progress.failed++;
          if (isServerGone(err) && outcome.stoppedBy === null) {
            outcome.stoppedBy = 'server';
            outcome.serverError = errorText(err);
          }
        }
        progress.finished++;
        report();
      }
    };
    report();
    const workers = Math.max(1, Math.min(this.options.concurrency ?? JOB_CONCURRENCY, this.items.length));
    await Promise.all(Array.from({length: workers}, worker));
    outcome.notStarted = this.items.slice(next);
    if (outcome.stoppedBy === null && this.stopRequested && outcome.notStarted.length > 0) outcome.stoppedBy = 'admin';
    return outcome;
  }
}

/** The bar's full and empty cells on a plain terminal. */
export const PROGRESS_ASCII: readonly [string, string] = ['#', '.'];

/** `[██████░░░░]  120/500`: the bar of a running job, in `width` cells. */
export function progressBar(finished: number, total: number, width: number, ascii: boolean): string {
  const count = `${finished}/${total}`;
  const cells = Math.max(4, width - count.length - 3);
  const filled = total === 0 ? cells : Math.round((finished / total) * cells);
  const [full, empty] = ascii ? PROGRESS_ASCII : ['█', '░'];
  return `[${full.repeat(filled)}${empty.repeat(cells - filled)}] ${count}`;
}
