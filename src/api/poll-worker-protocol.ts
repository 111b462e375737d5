// What the device poll's worker thread and the console's thread say to each other
// (src/api/poll-worker.ts, src/api/devices-worker.ts; docs/performance-poll.md, "The poll on a worker
// thread"). Everything here crosses postMessage: plain data and typed arrays only.
import type {RequestEvent} from './results.js';
import type {DeltaHead, ToldSlots} from './device-delta.js';
import type {ApiErrorInit} from './errors.js';
import type {SchemaIssue} from './validate.js';

/** The client options a worker makes its own client with (no callbacks: they cannot cross). */
export interface WorkerClientOptions {
  baseUrl: string;
  token: string;
  timeoutMs?: number;
  caFile?: string;
  insecure?: boolean;
  maxBodyBytes?: number;
}

export type ToWorker =
  | {type: 'poll'; seq: number}
  | {type: 'token'; token: string}
  /** Forget the table told last: the next poll tells every slot whole. */
  | {type: 'reset'};

/** An ApiError as data: what it is made from, less its cause (its class does not cross). */
export type ErrorData = Omit<ApiErrorInit, 'cause'>;

export type FromWorker =
  | {type: 'request'; event: RequestEvent}
  | {type: 'piece'; seq: number; piece: ToldSlots}
  | {type: 'table'; seq: number; head: DeltaHead; issues: SchemaIssue[]}
  /** The table told last, unchanged: the same table, which everything after recognises by identity. */
  | {type: 'same'; seq: number; issues: SchemaIssue[]}
  | {type: 'error'; seq: number; error: ErrorData};
