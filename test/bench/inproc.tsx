// In-process half of `npm run bench`: renders the real App into a fake 120×40 terminal and
// measures keystroke→frame latency, refresh-cycle CPU, memory and idle CPU. Bundled and run
// by test/bench/run.mjs in a fresh Node process per data size. Prints one JSON line.
import {EventEmitter} from 'node:events';
import {readdirSync, readFileSync} from 'node:fs';
import {monitorEventLoopDelay, performance} from 'node:perf_hooks';
import React from 'react';
import {render} from 'ink';
import {FirezoneClient} from '../../src/api/client.js';
import {generateKeyPair} from '../../src/wireguard/index.js';
import {App} from '../../src/ui/App.js';
import {FrameWriter} from '../../src/ui/frame-writer.js';
import {FRAME_OPTIONS} from '../../src/ui/render-options.js';
import {tuneHeap} from '../../src/config/heap-tuning.js';

// The heap as the console's executable sets it (src/bin.ts), before anything is decoded.
tuneHeap();

const [url, token] = process.argv.slice(2) as [string, string];

// Where the main thread's time goes while refreshing (Linux; null elsewhere): on a CPU, or runnable
// and waiting for one (/proc/thread-self/schedstat: ns on CPU, ns waiting on a run queue). A long
// task on a machine with fewer free cores than runnable threads is partly the second.
function mainThreadTimes(): {runMs: number; waitMs: number} | null {
  try {
    const [run, wait] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    return Number.isFinite(run) && Number.isFinite(wait) ? {runMs: run! / 1e6, waitMs: wait! / 1e6} : null;
  } catch {
    return null;
  }
}

// CPU of the process's other threads (V8's collector and compiler helpers, libuv's pool), from
// /proc/self/task (clock ticks of 10 ms); null where there is none.
function otherThreadsCpuMs(): number | null {
  try {
    let ticks = 0;
    for (const tid of readdirSync('/proc/self/task')) {
      if (Number(tid) === process.pid) continue;
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks * 10;
  } catch {
    return null;
  }
}
const COLUMNS = 120;
const ROWS = 40;

class FakeStdout extends EventEmitter {
  readonly columns = COLUMNS;
  readonly rows = ROWS;
  readonly isTTY = true;
  writes = 0;
  // As in the real process (src/cli.tsx), each write from Ink goes through the frame writer, so a
  // key's time includes turning its frame into changes; 'frame' carries Ink's whole frame.
  private readonly frames = new FrameWriter(() => ({columns: COLUMNS, rows: ROWS}));
  write = (chunk: string): boolean => {
    this.writes++;
    this.frames.write(chunk);
    this.emit('frame', chunk);
    return true;
  };
}

class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  private data: string | null = null;
  write(data: string): void {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  }
  read = (): string | null => {
    const d = this.data;
    this.data = null;
    return d;
  };
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

/**
 * The console's own client against the sandbox (which changes the stats of about a third of the
 * devices every 2 s, as 0.7.36's collector does): the whole cycle as an admin's console runs it,
 * receiving and decoding the bodies included. Only the sandbox's work is in another process.
 */
function benchClient() {
  const delivered = new EventEmitter();
  const client = new FirezoneClient({
    baseUrl: url,
    token,
    timeoutMs: 120_000,
    // The built worker script, as the executable uses it with FZ_POLL_WORKER=1 (run.mjs says where).
    pollWorker: process.env.BENCH_POLL_WORKER && process.env.FZ_POLL_WORKER === '1' ? new URL(process.env.BENCH_POLL_WORKER) : null,
    onRequest: (event) => {
      if (event.path === '/v0/devices') setImmediate(() => delivered.emit('devices'));
    },
  });
  return Object.assign(client, {delivered});
}

function nextFrame(stdout: FakeStdout, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no frame')), timeoutMs);
    stdout.once('frame', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function quiet(stdout: FakeStdout, ms: number): Promise<void> {
  return new Promise((resolve) => {
    let timer = setTimeout(done, ms);
    function onFrame() {
      clearTimeout(timer);
      timer = setTimeout(done, ms);
    }
    function done() {
      stdout.off('frame', onFrame);
      resolve();
    }
    stdout.on('frame', onFrame);
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Cursor moves timed while live and while paused, each. */
const LATENCY_KEYS = 200;

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
}

function pct(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)]!;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function keyLatency(stdin: FakeStdin, stdout: FakeStdout, keys: string[], spacingMs = 40, expect?: (i: number) => RegExp): Promise<number[]> {
  const samples: number[] = [];
  for (const [i, key] of keys.entries()) {
    // Spaced past Ink's 30 fps throttle so every key gets its own leading-edge frame.
    await pause(spacingMs);
    const pattern = expect?.(i);
    const frame = pattern ? frameMatching(stdout, pattern) : nextFrame(stdout);
    const t0 = performance.now();
    stdin.write(key);
    await frame;
    samples.push(performance.now() - t0);
  }
  return samples;
}

function frameMatching(stdout: FakeStdout, pattern: RegExp, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stdout.off('frame', onFrame);
      reject(new Error(`no frame matching ${pattern}`));
    }, timeoutMs);
    function onFrame(chunk: string) {
      if (!pattern.test(chunk)) return;
      clearTimeout(timer);
      stdout.off('frame', onFrame);
      resolve();
    }
    stdout.on('frame', onFrame);
  });
}

async function main() {
  const client = benchClient();
  const stdout = new FakeStdout();
  const stdin = new FakeStdin();
  const stderr = new FakeStdout();
  const firstFrame = new Promise<void>((resolve) => {
    const onFrame = (chunk: string) => {
      if (/1\/\d+ devices/.test(chunk)) {
        stdout.off('frame', onFrame);
        resolve();
      }
    };
    stdout.on('frame', onFrame);
  });
  const instance = render(
    <App client={client} settings={{label: 'bench', refreshSeconds: 0, readOnly: false, insecure: false, demo: false}} writeRaw={() => undefined} />,
    {
      // The fakes carry what Ink reads of the real streams.
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      stderr: stderr as unknown as NodeJS.WriteStream,
      debug: false,
      exitOnCtrlC: false,
      patchConsole: false,
      ...FRAME_OPTIONS,
    },
  );
  await firstFrame;
  await pause(200);

  // CPU of one refresh cycle each: from the key to the moment the terminal has been quiet for
  // 300 ms (validation, derivation and every frame the cycle causes; the idle tail costs ~nothing).
  async function refreshCycles(n: number): Promise<number[]> {
    const cpu: number[] = [];
    for (let i = 0; i < n; i++) {
      await pause(100);
      const before = process.cpuUsage();
      const delivered = new Promise((resolve) => client.delivered.once('devices', resolve));
      stdin.write('r');
      await delivered;
      await quiet(stdout, 300);
      const used = process.cpuUsage(before);
      cpu.push((used.user + used.system) / 1000);
    }
    return cpu;
  }

  // BENCH_UNCHANGED=1, against a sandbox whose stats are off: refreshes that bring back the bytes
  // of the last one, as most polls of a 0.7.36 server do (it writes stats once a minute). Four
  // cycles first, so that the figure is the steady state's, not the first polls' code being
  // optimised; then the median of twelve.
  if (process.env.BENCH_UNCHANGED === '1') {
    const cycles = await refreshCycles(16);
    instance.unmount();
    console.log(JSON.stringify({unchangedCycleCpuMs: median(cycles.slice(4)), unchangedCycles: cycles}));
    process.exit(0);
  }

  const move = await keyLatency(
    stdin,
    stdout,
    Array.from({length: 60}, (_, i) => (i % 20 < 10 ? 'j' : 'k')),
  );
  stdin.write('/');
  await pause(100);
  const filter = await keyLatency(
    stdin,
    stdout,
    [...'laptop'].concat(Array(6).fill('\x7f'), [...'phone'], Array(5).fill('\x7f'), [...'10.'], Array(3).fill('\x7f')),
  );
  stdin.write('\x1b');
  await pause(200);
  // A field filter (README, "Filtering lists"): state and a size compared on every row.
  stdin.write('/');
  await pause(100);
  const fieldFilter = await keyLatency(stdin, stdout, [...'state:online rx>1GiB'].concat(Array(8).fill('\x7f'), [...' rx>1GiB']));
  stdin.write('\x1b');
  await pause(200);

  // Sorting: `>` steps the sort column (name, owner, IPv4, handshake, RX, TX, RX/S, TX/S, RATE,
  // remote IP, IPv6, created, none), twice round: every column twice, 24 keys, so that p95 is a
  // percentile and not simply the slowest key (it is with 10). The slowest is reported too.
  const sort = await keyLatency(stdin, stdout, Array(24).fill('>'));
  stdin.write('g');
  await pause(200);

  // Refresh cycles: `r` → receive, decode, validate, derive, render; CPU time of the whole process.
  // The event-loop delay over them and the live keys below is the longest task on the main thread.
  const loop = monitorEventLoopDelay({resolution: 1});
  loop.enable();
  const windowStart = performance.now();
  const mainBefore = mainThreadTimes();
  const cpuBefore = process.cpuUsage();
  const othersBefore = otherThreadsCpuMs();
  // 16 cycles: the first 4 after start are reported on their own. They run code V8 has not yet
  // optimised, and each device's first change after start is parsed whole (its later ones are
  // read by the stats path, src/api/device-decoder.ts): 300–600 ms at 10k, then ~40–150. In a
  // median of 8 they decided the figure by where they fell (80 and 112 ms at 10k, same code).
  const cycleCpu = await refreshCycles(16);

  // Keys while live: a refresh every second (as --refresh 1 does) and cursor moves at their own
  // pace; the same moves with nothing refreshing are the paused figure. 200 of each, so that the
  // 99th percentile is the third slowest key, not the slowest (with 40, whether one key landed on
  // the 1 s clock's frame and waited for Ink's throttle decided it). Both 73 ms apart: keys 40 ms
  // apart come 25 to a second, at the same place against the clock's frame every second, so
  // either every second's frame held a key up in Ink's throttle or none did, and the paused p99
  // was ~19 or ~5 ms from run to run (the live/paused ratio at 50k ×1.13 in one run, ×3.71 in another).
  const paused = await keyLatency(
    stdin,
    stdout,
    Array.from({length: LATENCY_KEYS}, (_, i) => (i % 20 < 10 ? 'j' : 'k')),
    73,
  );
  // The cursor is back where it started (row 1 after `g`): the live moves start from there.
  const base = 0;
  let refreshing = true;
  const refresher = (async () => {
    while (refreshing) {
      stdin.write('r');
      await pause(1000);
    }
  })();
  // A refresh draws frames of its own: a key counts as drawn when the frame shows where it moved the cursor.
  const live = await keyLatency(
    stdin,
    stdout,
    Array.from({length: LATENCY_KEYS}, (_, i) => (i % 20 < 10 ? 'j' : 'k')),
    73,
    (i) => new RegExp(`(?<!\\d)${(i % 20 < 10 ? (i % 20) + 2 : 20 - (i % 20)) + base}/\\d+ devices`),
  );
  refreshing = false;
  await refresher;
  await quiet(stdout, 300);
  loop.disable();
  // The histogram counts from the timer's due time; a task of t ms shows as a delay of ~t ms.
  const longestTaskMs = loop.max / 1e6;
  const windowSec = (performance.now() - windowStart) / 1000;
  const mainAfter = mainThreadTimes();
  const cpuUsed = process.cpuUsage(cpuBefore);
  const othersAfter = otherThreadsCpuMs();
  // Per second of the window: the main thread on a CPU and waiting for one; the process's CPU and
  // the part of it on threads other than the main one.
  const threads = {
    mainRunMsPerSec: mainBefore && mainAfter ? (mainAfter.runMs - mainBefore.runMs) / windowSec : null,
    mainWaitMsPerSec: mainBefore && mainAfter ? (mainAfter.waitMs - mainBefore.waitMs) / windowSec : null,
    processCpuMsPerSec: (cpuUsed.user + cpuUsed.system) / 1000 / windowSec,
    otherThreadsCpuMsPerSec: othersBefore !== null && othersAfter !== null ? (othersAfter - othersBefore) / windowSec : null,
  };

  // Memory as the admin's system sees it: no forced GC, after the ≥ 10 refreshes above.
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  const vmRssMb = kb('VmRSS') / 1024;
  const vmHwmMb = kb('VmHWM') / 1024;
  // Where it goes, at the same moment (README, "Performance": heap, memory outside the heap, and
  // the part of that in ArrayBuffers such as response bodies).
  const usage = process.memoryUsage();
  const mb = (bytes: number) => bytes / 1024 / 1024;
  const memory = {rss: mb(usage.rss), heapUsed: mb(usage.heapUsed), external: mb(usage.external), arrayBuffers: mb(usage.arrayBuffers)};

  (globalThis as {gc?: () => void}).gc?.();
  await pause(200);
  const rssMb = process.memoryUsage().rss / 1024 / 1024;

  stdin.write('p');
  // Steady idle, as a console left paused is: the garbage collector finishes the work of the
  // refreshes above in the first second or two (with 500 ms here it counted 1–2.5 ms/s).
  await pause(2000);
  const idleBefore = process.cpuUsage();
  const writesBefore = stdout.writes;
  await pause(3000);
  const idle = process.cpuUsage(idleBefore);
  const idleFrames = stdout.writes - writesBefore;

  // Sorting after polls: the columns whose values change on most devices every poll (traffic,
  // rates, handshake) are not ordered ahead (src/state/lists/column-order.ts, volatile columns),
  // so after a poll a sort by one is made on the key. Still paused, on the last poll's rows:
  // every column once round.
  const sortAfterPolls = await keyLatency(stdin, stdout, Array(12).fill('>'));

  // A device whose detail holds 10,000 allowed IPs (an unprivileged user who may configure their
  // devices can set them; the detail took 47 s to draw before #24): opening it and scrolling it
  // are keys like any other. Still paused: `r` fetches it, and no refresh draws in between.
  // A user of its own: at 10k and 50k every seeded user already has the most devices allowed.
  const owner = (await client.createUser({email: 'bench-many-routes@example.com', role: 'unprivileged'})).data.id;
  const allowed = Array.from({length: 10_000}, (_, i) => `10.${(i >> 8) & 255}.${i & 255}.0/24`);
  await client.createDevice({
    user_id: owner,
    name: '0-many-routes',
    public_key: generateKeyPair().publicKey,
    use_default_allowed_ips: false,
    allowed_ips: allowed,
  });
  const fetched = new Promise((resolve) => client.delivered.once('devices', resolve));
  stdin.write('r');
  await fetched;
  await quiet(stdout, 300);
  stdin.write('/');
  for (const ch of '0-many-routes') stdin.write(ch);
  await frameMatching(stdout, /1\/1 of \d+ devices/);
  stdin.write('\r');
  await pause(100);
  const detailOpen = await keyLatency(stdin, stdout, ['\r'], 40, () => /Allowed IPs\s+10\.0\.0\.0\/24/);
  const detailScroll = await keyLatency(
    stdin,
    stdout,
    Array.from({length: 40}, (_, i) => (i % 20 < 10 ? 'j' : 'k')),
  );

  instance.unmount();
  console.log(
    JSON.stringify({
      moveP95: p95(move),
      moveMedian: median(move),
      filterP95: p95(filter),
      filterMedian: median(filter),
      fieldFilterP95: p95(fieldFilter),
      sortP95: p95(sort),
      sortMax: Math.max(...sort),
      sortAfterPollsMax: Math.max(...sortAfterPolls),
      pausedP99: pct(paused, 0.99),
      liveP99: pct(live, 0.99),
      vmRssMb,
      vmHwmMb,
      memory,
      cycleCpuMs: median(cycleCpu.slice(4)),
      firstCyclesCpuMs: cycleCpu.slice(0, 4),
      longestTaskMs,
      threads,
      rssMb,
      idleCpuMsPerSec: (idle.user + idle.system) / 1000 / 3,
      idleFrames,
      detailOpenMs: detailOpen[0]!,
      detailScrollP95: p95(detailScroll),
    }),
  );
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
