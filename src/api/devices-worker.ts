// The device poll's worker thread (docs/performance-poll.md, "The poll on a worker thread"): its own
// client fetches and decodes the device list (the 43 MB body at 50k devices, the digests, the
// stats read without a parse, zod for what the fast guard refuses), keeps the table, and tells
// the console's thread only how the new table differs from the one it told last
// (src/api/device-delta.ts). Started by src/api/poll-worker.ts; built as its own entry
// (scripts/build.mjs), so it loads the client and nothing of the console.
import {parentPort, workerData} from 'node:worker_threads';
import {ApiError} from './errors.js';
import {FirezoneClient} from './client.js';
import {encodeDelta} from './device-delta.js';
import type {DeviceColumns} from './device-columns.js';
import type {ErrorData, FromWorker, ToWorker, WorkerClientOptions} from './poll-worker-protocol.js';

const port = parentPort;
if (!port) throw new Error('devices-worker.js runs as a worker thread only');
const say = (message: FromWorker): void => port.postMessage(message);

const client = new FirezoneClient({...(workerData as WorkerClientOptions), onRequest: (event) => say({type: 'request', event})});
let told: DeviceColumns | null = null;
// One poll at a time, in the order asked: each is told against the table the one before told.
let queue: Promise<void> = Promise.resolve();

function errorData(err: unknown): ErrorData {
  if (err instanceof ApiError) {
    const {kind, message, method, path, status, fieldErrors, requestId} = err;
    return {kind, message, method, path, fieldErrors, ...(status === undefined ? {} : {status}), ...(requestId === undefined ? {} : {requestId})};
  }
  return {
    kind: 'network',
    message: `Polling the devices failed in its worker thread: ${err instanceof Error ? err.message : String(err)}`,
    method: 'GET',
    path: '/v0/devices',
  };
}

async function poll(seq: number): Promise<void> {
  try {
    const {data: table, issues} = await client.pollDevices();
    if (table === told) {
      say({type: 'same', seq, issues});
      return;
    }
    const {head, pieces} = encodeDelta(told, table);
    for (const piece of pieces) say({type: 'piece', seq, piece});
    say({type: 'table', seq, head, issues});
    told = table;
  } catch (err) {
    say({type: 'error', seq, error: errorData(err)});
  }
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'token') client.setToken(message.token);
  else if (message.type === 'reset') queue = queue.then(() => void (told = null));
  else queue = queue.then(() => poll(message.seq));
});
