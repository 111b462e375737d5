// Where the device poll's worker script is (src/api/poll-worker.ts): known to the executable's
// entry alone (src/bin.ts sets it to the file built beside it). Unset (tests, the single
// executable) the polls are decoded on the console's thread. Nothing else in this module, so that
// the entry sets it without loading the client.
let script: URL | null = null;

export function setPollWorkerScript(url: URL | null): void {
  script = url;
}

export function pollWorkerScript(): URL | null {
  // Off unless FZ_POLL_WORKER=1: measured at 50k devices, the worker's own copy of the table and
  // heap cost ~100 MB of resident memory for a small gain in keys while live (docs/performance-poll.md,
  // "The poll on a worker thread"), over the memory budget. Kept, tested, to be made lean.
  return process.env.FZ_POLL_WORKER === '1' ? script : null;
}
