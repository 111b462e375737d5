// The console's side of the device poll's worker thread (docs/performance-poll.md, "The poll on a
// worker thread"): FirezoneClient.pollDevices hands a poll to it, when it is on (FZ_POLL_WORKER=1,
// poll-worker-script.ts), once the list is long enough that decoding it would hold keys back
// (POLL_WORKER_MIN_DEVICES). The worker fetches and decodes; this
// side receives the table as its difference from the last (src/api/device-delta.ts), a piece per
// message, so that keys are read between two, and rebuilds it from its own copy.
//
// When the worker cannot serve (it failed to start, stopped, or the two sides no longer agree on
// the table), the poll is said to have failed in words, and the client decodes on this thread again
// from the next poll on: a worker is a way to be faster, never a way to stop showing devices.
import {Worker} from 'node:worker_threads';
import {YOUNG_GENERATION_CAP_BYTES} from '../config/heap-tuning.js';
import type {ApiResult, RequestEvent} from './results.js';
import {DeviceColumns, type DevicePools} from './device-columns.js';
import {applyDelta, DeltaMismatch, internTold, type ToldSlots} from './device-delta.js';
import {ApiError} from './errors.js';
import type {FromWorker, ToWorker, WorkerClientOptions} from './poll-worker-protocol.js';

export {pollWorkerScript, setPollWorkerScript} from './poll-worker-script.js';

/** From this many devices on, polls are decoded on the worker thread (below it, decoding on the console's thread costs a few ms). */
export const POLL_WORKER_MIN_DEVICES = 5000;

interface Pending {
  pieces: ToldSlots[];
  resolve: (result: ApiResult<DeviceColumns>) => void;
  reject: (err: unknown) => void;
}

const failure = (message: string): ApiError => new ApiError({kind: 'network', method: 'GET', path: '/v0/devices', message});

export class PollWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private seq = 0;
  /** This side's copy of the table the worker told last. */
  private mine: DeviceColumns = DeviceColumns.EMPTY;
  /** Why it stopped serving, once it has. */
  private broken: string | null = null;
  /** Polls asked in order: a table is told against the one before it. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    script: URL,
    options: WorkerClientOptions,
    private readonly pools: DevicePools,
    onRequest?: (event: RequestEvent) => void,
  ) {
    // The young generation held as the console's own is (src/config/heap-tuning.ts).
    this.worker = new Worker(script, {workerData: options, resourceLimits: {maxYoungGenerationSizeMb: YOUNG_GENERATION_CAP_BYTES / (1024 * 1024)}});
    // The worker alone keeps the process alive no longer than the console does.
    this.worker.unref();
    this.worker.on('message', (message: FromWorker) => {
      if (message.type === 'request') {
        onRequest?.(message.event);
        return;
      }
      const p = this.pending.get(message.seq);
      if (!p) return;
      if (message.type === 'piece') {
        p.pieces.push(internTold(message.piece, this.pools));
        return;
      }
      this.pending.delete(message.seq);
      if (message.type === 'error') {
        p.reject(new ApiError(message.error));
      } else if (message.type === 'same') p.resolve({data: this.mine, issues: message.issues});
      else {
        try {
          this.mine = applyDelta(this.mine, {head: message.head, pieces: p.pieces});
          p.resolve({data: this.mine, issues: message.issues});
        } catch (err) {
          // The two sides no longer agree: the worker tells the next table whole.
          this.mine = DeviceColumns.EMPTY;
          this.post({type: 'reset'});
          p.reject(
            failure(
              `The device list from the worker thread did not fit (${err instanceof DeltaMismatch ? err.message : String(err)}); the next poll reads it whole`,
            ),
          );
        }
      }
    });
    const stop = (why: string) => {
      this.broken ??= why;
      for (const p of this.pending.values()) p.reject(failure(`Polling the devices stopped: ${why}; the next poll decodes on the console's thread`));
      this.pending.clear();
    };
    this.worker.on('error', (err) => stop(`its worker thread failed (${err.message})`));
    this.worker.on('exit', (code) => stop(`its worker thread exited (code ${code})`));
  }

  /** Whether it still serves polls (false once its thread failed or exited). */
  get serving(): boolean {
    return this.broken === null;
  }

  /** One poll of the device list, decoded on the worker thread. */
  poll(): Promise<ApiResult<DeviceColumns>> {
    const result = this.queue.then(
      () =>
        new Promise<ApiResult<DeviceColumns>>((resolve, reject) => {
          if (this.broken) {
            reject(failure(`Polling the devices stopped: ${this.broken}`));
            return;
          }
          const seq = ++this.seq;
          this.pending.set(seq, {pieces: [], resolve, reject});
          this.post({type: 'poll', seq});
        }),
    );
    this.queue = result.catch(() => undefined);
    return result;
  }

  setToken(token: string): void {
    this.post({type: 'token', token});
  }

  close(): Promise<void> {
    this.broken ??= 'the client is closed';
    return this.worker.terminate().then(
      () => undefined,
      () => undefined,
    );
  }

  private post(message: ToWorker): void {
    this.worker.postMessage(message);
  }
}
