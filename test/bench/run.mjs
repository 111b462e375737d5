// `npm run bench`: the performance figures of README.md, "Performance", against sandbox processes seeded
// with 1k, 10k and 50k devices (plus 2k users and 1k rules). Prints a table; with
// --write-readme also replaces the table in README.md.
//
// How each figure is measured:
// - start → first frame: wall time from Enter on `fz-console` in a 120×40 tmux pane to the
//   pane showing the device list (polled with capture-pane every 5 ms); median of 5. The floor
//   is a bare Node script that fetches (node:http) and JSON.parses the same four lists, run and
//   timed the same way (Enter → its last line on the screen), a run of each in turn.
// - keystroke → frame: in a fresh process the real App renders into a fake 120×40 terminal
//   (Ink, incremental rendering, 30 fps cap); time from writing the key to stdin to Ink's next
//   write to stdout. 60 cursor moves; 25 filter keystrokes (typing and backspace), 36 of a field filter. Keys are
//   spaced 40 ms apart so each gets its own frame.
// - refresh cycle CPU: process CPU from `r` until the terminal is quiet: the console's own client
//   receives and decodes the four lists from the sandbox (another process, whose stats collector
//   changes about a third of the devices every 2 s, as `--stats-interval 2`), derives and renders;
//   median of 12 cycles after the first 4 after start, which are shown on their own (their code is
//   not yet optimised, and each device's first change is parsed whole). When nothing changed: the same against a second sandbox with the same data and
//   its stats off, in a fresh process; the median of 12 cycles after 4 that warm the code up.
// - longest main-thread task while refreshing: the largest event-loop delay (monitorEventLoopDelay)
//   over the refresh cycles and the live keys. Beside it, over the same window and per second: the
//   main thread's time on a CPU and runnable but waiting for one (/proc/thread-self/schedstat), and
//   the process's CPU with the part of it on other threads (V8's helpers; /proc/self/task). A task
//   is wall time: on 2 cores shared with the sandbox and V8's helpers, part of it is waiting.
// - sort: `>` steps the sort column round all 12 positions twice (24 keys); key → frame p95 and
//   the slowest key. After the refresh cycles (paused), once more round: the slowest key (the
//   volatile columns are not ordered ahead, src/state/lists/column-order.ts).
// - keys while live: 200 cursor moves 73 ms apart while `r` refreshes every second, p99 (the third
//   slowest), against 200 moves 73 ms apart with nothing refreshing (paused).
// - VmRSS and VmHWM from /proc/self/status after 10+ refresh cycles, no forced GC (what the system
//   sees), and process.memoryUsage() at the same moment (rss, heapUsed, external, arrayBuffers);
//   RSS after a forced GC for comparison; idle CPU over 3 s with updates paused, from 2 s after
//   pausing. Memory per device: the same in-process run with 90 devices (the demo's count) and the
//   same users and rules, subtracted, divided by the devices above 90.
// - bytes to the terminal: test/bench/bytes.mjs (the real binary on --demo in tmux, pipe-pane).
// - keys as the admin feels them: test/bench/keys-real.mjs, the built binary in tmux beside the
//   sandbox process, refreshing every second: 200 cursor moves at random gaps live, then 200
//   paused, then 200 paused while another client reads the device list every second (the
//   server's share), each key's frame read from the pane's bytes; p99 of each, median of 3 runs
//   (BENCH_REAL_RUNS). Before the keys, the same process's CPU (/proc/PID/stat, all its threads)
//   over 20 s of refreshing with no key, divided by the device-list polls its --debug log says
//   were answered meanwhile; after the live keys, its VmRSS and VmHWM.
import {execFileSync, spawn} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {cpus, tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {build} from 'esbuild';
import {commonOptions, requireShim} from '../../scripts/esbuild-common.mjs';
import {terminalBytes} from './bytes.mjs';
import {keysInTerminal, quantile} from './keys-real.mjs';
import {benchPane, BIN, root, startSandbox, writeReadmeSection} from './common.mjs';

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,50000').split(',').map(Number);
const writeReadme = process.argv.includes('--write-readme');
const REAL_RUNS = Number(process.env.BENCH_REAL_RUNS ?? 3);

const work = mkdtempSync(join(tmpdir(), 'fzc-bench-'));
// With FZ_POLL_WORKER=1 the in-process half polls long lists on the executable's worker thread (src/api/poll-worker.ts).
process.env.BENCH_POLL_WORKER = pathToFileURL(join(root, 'dist/devices-worker.js')).href;
// The in-process bundle's folder goes when the run ends, a failed one too (every child run is over by then).
process.on('exit', () => rmSync(work, {recursive: true, force: true}));
const inproc = join(work, 'inproc.mjs');
await build({
  ...commonOptions,
  entryPoints: [join(root, 'test/bench/inproc.tsx')],
  outfile: inproc,
  define: {'process.env.NODE_ENV': '"production"'},
  banner: {js: requireShim},
});

function timeChild(args, env = process.env) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    // stderr is kept, not passed through: Ink's exit writes a cursor-show sequence there, and the
    // table must print no escape codes. It is shown when the child fails.
    const child = spawn(process.execPath, args, {stdio: ['ignore', 'pipe', 'pipe'], env});
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('exit', (code) =>
      code === 0 ? resolve({ms: performance.now() - t0, out}) : reject(new Error(`${args.join(' ')} exited ${code}: ${err.replace(ESCAPES, '')}`)),
    );
  });
}

// eslint-disable-next-line no-control-regex -- escape sequences are what it removes
const ESCAPES = /\x1b\[[0-9;?]*[a-zA-Z]/g;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Wall time from Enter on `command` in a fresh 120×40 tmux pane to `pattern` on the screen
 * (capture-pane every 5 ms): what the admin waits for, the shell and the terminal included.
 */
async function inPane(url, token, command, pattern) {
  // A socket per run: a tmux server that is still shutting down cannot be reused at once.
  const socket = `fzc-bench-${process.pid}-${paneRuns++}`;
  const tmux = benchPane(socket, {FZ_URL: url, FZ_API_TOKEN: token});
  await sleep(200);
  tmux('send-keys', '-t', 'b', '-l', command);
  const t0 = performance.now();
  tmux('send-keys', '-t', 'b', 'Enter');
  let ms = null;
  while (performance.now() - t0 < 60_000) {
    if (pattern.test(tmux('capture-pane', '-p', '-t', 'b'))) {
      ms = performance.now() - t0;
      break;
    }
    await sleep(5);
  }
  tmux('kill-server');
  if (ms === null) throw new Error(`${command.split(' ').slice(0, 2).join(' ')}: nothing matching ${pattern} on screen within 60 s`);
  return ms;
}
let paneRuns = 0;

/**
 * Start → first frame, and the floor timed the same way in the same kind of pane (the bare script
 * prints its count when done): a run of each in turn, so that the machine's drift falls on both;
 * the median of 5 of each.
 */
async function startAndFloor(url, token, devices) {
  const start = [];
  const floor = [];
  for (let i = 0; i < 5; i++) {
    floor.push(
      await inPane(
        url,
        token,
        `${process.execPath} ${join(root, 'test/bench/floor.mjs')} "$FZ_URL" "$FZ_API_TOKEN"`,
        new RegExp(`^floor: ${devices} devices`, 'm'),
      ),
    );
    start.push(await inPane(url, token, `${process.execPath} ${BIN} --refresh 0`, new RegExp(`1/${devices} devices`)));
  }
  return {start: median(start), floor: median(floor)};
}

// Other work on the machine slows every figure; the table says how busy it was.
const loads = [];
const sampleLoad = () => loads.push(Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]));
const loadTimer = setInterval(sampleLoad, 10_000);
sampleLoad();

// The baseline for memory per device: 90 devices, the same users and rules.
process.stderr.write('bench: 90 devices (memory baseline)…\n');
let baseline;
{
  const sandbox = await startSandbox(['--seed', 'demo', '--devices', '90', '--users', '2000', '--rules', '1000', '--stats-interval', '2']);
  try {
    baseline = JSON.parse((await timeChild(['--expose-gc', inproc, sandbox.url, sandbox.token])).out.trim().split('\n').pop());
  } finally {
    sandbox.child.kill('SIGTERM');
  }
}
process.stderr.write('bench: bytes to the terminal (--demo)…\n');
const bytes = await terminalBytes();

const results = [];
for (const devices of SIZES) {
  process.stderr.write(`bench: ${devices} devices…\n`);
  const sandbox = await startSandbox(['--seed', 'demo', '--devices', String(devices), '--users', '2000', '--rules', '1000', '--stats-interval', '2']);
  try {
    const {start, floor} = await startAndFloor(sandbox.url, sandbox.token, devices);
    const {out} = await timeChild(['--expose-gc', inproc, sandbox.url, sandbox.token]);
    const real = [];
    for (let i = 0; i < REAL_RUNS; i++) {
      const {live, paused, serverBusy, liveCpu, vmRssMb, vmHwmMb} = await keysInTerminal({url: sandbox.url, token: sandbox.token, devices});
      real.push({
        live: quantile(live, 0.99),
        paused: quantile(paused, 0.99),
        serverBusy: quantile(serverBusy, 0.99),
        cpuPerPoll: liveCpu.msPerPoll,
        vmRssMb,
        vmHwmMb,
      });
    }
    results.push({devices, floor, start, real, ...JSON.parse(out.trim().split('\n').pop())});
  } finally {
    sandbox.child.kill('SIGTERM');
  }
  // The same data with the stats collector off: refreshes that change nothing.
  const still = await startSandbox(['--seed', 'demo', '--devices', String(devices), '--users', '2000', '--rules', '1000', '--stats-interval', '0']);
  try {
    const {out} = await timeChild([inproc, still.url, still.token], {...process.env, BENCH_UNCHANGED: '1'});
    Object.assign(results.at(-1), JSON.parse(out.trim().split('\n').pop()));
  } finally {
    still.child.kill('SIGTERM');
  }
}

clearInterval(loadTimer);
sampleLoad();
const fmt = (n, d = 1) => n.toFixed(d);
const byN = Object.fromEntries(results.map((r) => [r.devices, r]));
const rows = [
  [
    'start → first frame: Enter → the list on screen in tmux (ms; floor: a bare fetch and `JSON.parse` of the same lists, timed the same way)',
    (r) => `${fmt(r.start, 0)} (floor ${fmt(r.floor, 0)}, ×${fmt(r.start / r.floor, 2)})`,
    '≤ 1.5× floor at 10k',
  ],
  ['keystroke → frame, cursor p95 (ms)', (r) => fmt(r.moveP95), '≤ 16 at 50k, ≤ 1.25× the 1k figure'],
  ['keystroke → frame, filter p95 (ms)', (r) => fmt(r.filterP95), '≤ 50 at 50k'],
  ['keystroke → frame, field filter `state:online rx>1GiB` p95 (ms)', (r) => fmt(r.fieldFilterP95), '≤ 50 at 50k'],
  ['keystroke → frame, sort by a column p95 (ms; slowest)', (r) => `${fmt(r.sortP95)} (${fmt(r.sortMax)})`, '≤ 50 at 50k'],
  ['keystroke → frame, sort by a column after polls, slowest (ms)', (r) => fmt(r.sortAfterPollsMax), '≤ 50 at 50k'],
  [
    'keystroke → frame while live, p99 (ms; paused p99)',
    (r) => `${fmt(r.liveP99)} (${fmt(r.pausedP99)}, ×${fmt(r.liveP99 / r.pausedP99, 2)})`,
    '≤ 2× paused at 50k',
  ],
  [
    'in a terminal beside the server: key → frame p99 live (ms; paused p99; median of runs, each run)',
    (r) =>
      r.real.length === 0
        ? 'not run (BENCH_REAL_RUNS=0)'
        : `${fmt(median(r.real.map((x) => x.live)))} (${fmt(median(r.real.map((x) => x.paused)))}, ×${fmt(median(r.real.map((x) => x.live)) / median(r.real.map((x) => x.paused)), 2)}; ${r.real.map((x) => `${fmt(x.live, 0)}/${fmt(x.paused, 0)}`).join(', ')})`,
    '≤ 50 and ≤ 1.5× paused at 50k',
  ],
  [
    'the same, paused while another client reads the device list every second: the server’s share (p99 ms; median, each run)',
    (r) => (r.real.length === 0 ? 'not run' : `${fmt(median(r.real.map((x) => x.serverBusy)))} (${r.real.map((x) => fmt(x.serverBusy, 0)).join(', ')})`),
    '',
  ],
  [
    'the binary beside the server, refreshing every second, no key: the whole process’s CPU per poll (ms; median of runs, each run)',
    (r) =>
      r.real.length === 0 || r.real.some((x) => x.cpuPerPoll === null)
        ? 'not run'
        : `${fmt(median(r.real.map((x) => x.cpuPerPoll)))} (${r.real.map((x) => fmt(x.cpuPerPoll, 0)).join(', ')})`,
    '',
  ],
  [
    'the binary’s VmRSS / VmHWM after its live keys (MB; each run)',
    (r) => (r.real.length === 0 ? 'not run' : r.real.map((x) => `${fmt(x.vmRssMb, 0)} / ${fmt(x.vmHwmMb, 0)}`).join(', ')),
    '≤ 200 / ≤ 250 at 50k',
  ],
  ['refresh cycle CPU in process, receiving included (ms)', (r) => fmt(r.cycleCpuMs), '≤ 50 at 10k'],
  ['the first 4 refreshes after start (ms each)', (r) => r.firstCyclesCpuMs.map((ms) => fmt(ms, 0)).join(', '), ''],
  ['the same when nothing changed (stats off: most polls of a 0.7.36 server, which writes them once a minute) (ms)', (r) => fmt(r.unchangedCycleCpuMs), ''],
  ['longest main-thread task while refreshing (ms)', (r) => fmt(r.longestTaskMs), '≤ 16 at 10k, ≤ 50 at 50k'],
  [
    'meanwhile, per second: main thread on a CPU / waiting for one; process CPU (of it, other threads) (ms)',
    (r) =>
      r.threads.mainRunMsPerSec === null
        ? 'n/a'
        : `${fmt(r.threads.mainRunMsPerSec, 0)} / ${fmt(r.threads.mainWaitMsPerSec, 0)}; ${fmt(r.threads.processCpuMsPerSec, 0)} (${r.threads.otherThreadsCpuMsPerSec === null ? 'n/a' : fmt(r.threads.otherThreadsCpuMsPerSec, 0)})`,
    '',
  ],
  ['VmRSS / VmHWM after 10+ refreshes, no forced GC (MB)', (r) => `${fmt(r.vmRssMb, 0)} / ${fmt(r.vmHwmMb, 0)}`, '≤ 200 / ≤ 300 at 50k'],
  [
    '`process.memoryUsage()` at that moment: rss / heapUsed / external (arrayBuffers) (MB)',
    (r) => `${fmt(r.memory.rss, 0)} / ${fmt(r.memory.heapUsed, 0)} / ${fmt(r.memory.external, 0)} (${fmt(r.memory.arrayBuffers, 0)})`,
    '',
  ],
  [
    'memory per device above the 90-device figure: VmRSS / heapUsed / external (KB)',
    (r) =>
      [r.vmRssMb - baseline.vmRssMb, r.memory.heapUsed - baseline.memory.heapUsed, r.memory.external - baseline.memory.external]
        .map((mb) => fmt((mb * 1024) / (r.devices - 90), 1))
        .join(' / '),
    '',
  ],
  ['resident memory after GC (MB)', (r) => fmt(r.rssMb, 0), ''],
  ['a device with 10,000 allowed IPs: open its detail; scroll p95 (ms)', (r) => `${fmt(r.detailOpenMs)}; ${fmt(r.detailScrollP95)}`, 'like a cursor move'],
  ['idle CPU, updates paused (ms/s; frames)', (r) => `${fmt(r.idleCpuMsPerSec, 2)}; ${r.idleFrames}`, '~0'],
];
const header = `| figure | ${results.map((r) => `${r.devices / 1000}k devices`).join(' | ')} | budget |`;
const lines = [header, `|---|${results.map(() => '---').join('|')}|---|`];
for (const [name, cell, budget] of rows) lines.push(`| ${name} | ${results.map(cell).join(' | ')} | ${budget} |`);
const cpu = execFileSync('sh', ['-c', "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], {encoding: 'utf8'}).trim();
const table = `${lines.join('\n')}\n\nNode ${process.version}, ${cpu}, 120×40 terminal, ${new Date().toISOString().slice(0, 10)}; load average ${fmt(Math.min(...loads))}–${fmt(Math.max(...loads))} on ${cpus().length} cores during the run. Cursor p95 at 50k vs 1k: ×${byN[50000] && byN[1000] ? fmt(byN[50000].moveP95 / byN[1000].moveP95, 2) : 'n/a'}. The 90-device baseline (2k users, 1k rules): VmRSS ${fmt(baseline.vmRssMb, 0)} MB, rss ${fmt(baseline.memory.rss, 0)} / heapUsed ${fmt(baseline.memory.heapUsed, 0)} / external ${fmt(baseline.memory.external, 0)} (arrayBuffers ${fmt(baseline.memory.arrayBuffers, 0)}) MB.

| bytes to the terminal, \`--demo\` at 120×40 in tmux (\`pipe-pane\`) | result | budget |
|---|---|---|
| a cursor move (bytes; median, p95) | ${fmt(bytes.moveBytesMedian, 0)}, ${fmt(bytes.moveBytesP95, 0)} | ≤ 1,000 |
| live updates, refresh 1 s (bytes/s) | ${fmt(bytes.liveBytesPerSec, 0)} | ≤ 5,000 |
| paused (bytes/s) | ${fmt(bytes.pausedBytesPerSec, 0)} | |`;
console.log(table);
if (writeReadme) writeReadmeSection('bench', table);
