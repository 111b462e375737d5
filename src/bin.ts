// The executable's entry. It answers --version and --help, and starts the sandbox, without
// loading React, Ink or the API client: each part is a separate chunk loaded on demand.
import {HELP_TEXT} from './config/args.js';
import {tuneHeap} from './config/heap-tuning.js';
import {enableCompileCache} from './config/compile-cache.js';
import {FIRST_DATA_WAIT_MS, settledWithin} from './common/settled-within.js';
import {setPollWorkerScript} from './api/poll-worker-script.js';
import {existsSync} from 'node:fs';

// Node ≥ 22.1 keeps the compiled bytecode of the chunks loaded below (React, Ink: most of the
// start time) between runs, in a folder of this user's own, never in the shared temporary folder
// (src/config/compile-cache.ts says where, and why).
enableCompileCache();

// Long device lists may be decoded on a worker thread (src/api/poll-worker.ts; FZ_POLL_WORKER=1),
// whose script is built beside this file.
const pollWorker = new URL('./devices-worker.js', import.meta.url);
if (pollWorker.protocol === 'file:' && existsSync(pollWorker)) setPollWorkerScript(pollWorker);

const argv = process.argv.slice(2);
const first = argv[0];

async function run(): Promise<number> {
  if (argv.length === 1 && (first === '--version' || first === '-V')) {
    process.stdout.write(`${process.env.FZ_CONSOLE_VERSION ?? '0.0.0-dev'}\n`);
    return 0;
  }
  if (argv.length === 1 && (first === '--help' || first === '-h')) {
    process.stdout.write(HELP_TEXT);
    return 0;
  }
  // The headless recorder: no terminal, no UI chunk.
  if (first === 'activity') {
    tuneHeap();
    const {recorderMain} = await import('./recorder.js');
    return recorderMain(argv);
  }
  // The server as a file: no terminal, no UI chunk.
  if (first === 'export' || first === 'plan' || first === 'apply') {
    const {serverFileMain} = await import('./server-file.js');
    return serverFileMain(argv);
  }
  if (first === 'completion') {
    const {runCompletion} = await import('./config/completion.js');
    return runCompletion(argv.slice(1));
  }
  if (first === 'sandbox') {
    const {runSandboxCli} = await import('./sandbox/index.js');
    await runSandboxCli(argv.slice(1));
    return 0;
  }
  // In a terminal, the connection is resolved here, once (a profile's tokenCommand runs once),
  // and handed to main() with its error if it failed.
  // Before the first poll is decoded: the young generation grows while it is.
  tuneHeap();
  const {startEarly} = await import('./early.js');
  const early = await startEarly(argv);
  // The UI chunk loads while the first poll is received and decoded; the console starts drawing
  // once both are done (or after FIRST_DATA_WAIT_MS of a slow server), so that its first frame
  // shows the data. Drawing a "loading" frame first costs more than the wait: every render
  // starves the decoding of the bodies that are arriving meanwhile.
  const [{main}] = await Promise.all([import('./cli.js'), early?.started ? settledWithin(early.started.firstData, FIRST_DATA_WAIT_MS) : null]);
  const code = await main(argv, early);
  // The console owns the process: once its UI has gone, nothing else may keep it alive.
  process.exit(code);
}

run().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`fz-console: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
