// Keys as the admin feels them (README, "Performance"): the built binary in a 120×40 tmux pane,
// beside a sandbox process on the same machine, every byte it writes to the pane read as it comes
// (`pipe-pane` into a FIFO this process reads). A key is sent with `tmux send-keys` at a random
// moment (gaps of 40–160 ms, so keys land anywhere in a poll's work), and its frame is the first
// output after it that shows the cursor's new position (`n/N devices` under the list); the
// time between is what the admin waits, tmux's own hop included (the same in both halves).
// Measured: `keys` cursor moves while the console refreshes every second (live), then as many
// paused (`p`), then paused while another client reads the device list every second (the
// server's share of the wait); p99 of each. Run alone:
//   node test/bench/keys-real.mjs URL TOKEN DEVICES [KEYS] [path/to/fz-console.js]
import {execFile, execFileSync, spawn} from 'node:child_process';
import {createReadStream, existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {benchPane, BIN} from './common.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** How long the console's CPU is read while it refreshes with no key coming. */
const LIVE_CPU_WINDOW_MS = 20_000;

/** Another client of the server: reads the device list, whole, every second until killed. */
const READER = `
const [url, token] = process.argv.slice(1);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
for (;;) {
  const started = Date.now();
  try {
    await (await fetch(url + '/v0/devices', {headers: {authorization: 'Bearer ' + token}})).arrayBuffer();
  } catch {}
  await sleep(Math.max(0, 1000 - (Date.now() - started)));
}`;

/** The CPU time (user + system, ms) the process `pid` has used, from /proc (clock ticks of 10 ms). */
function processCpuMs(pid) {
  // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** VmRSS and VmHWM of the process `pid` (MB), from /proc. */
function processMemoryMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return {vmRssMb: kb('VmRSS') / 1024, vmHwmMb: kb('VmHWM') / 1024};
}

/** The console's process: the child of the pane's shell. */
function consolePid(tmux) {
  const shell = tmux('display-message', '-p', '-t', 'b', '#{pane_pid}').trim();
  const children = readFileSync(`/proc/${shell}/task/${shell}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  if (children.length !== 1) throw new Error(`keys bench: the pane's shell has ${children.length} children, not the console alone`);
  return Number(children[0]);
}

/** How many device-list polls the debug log at `path` says were answered between two times (ms since the epoch). */
function pollsBetween(path, from, to) {
  if (!existsSync(path)) return 0;
  let n = 0;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^(\S+) GET \/v0\/devices -> 200 /.exec(line);
    if (!m) continue;
    const t = Date.parse(m[1]);
    if (t >= from && t <= to) n++;
  }
  return n;
}

/** The q-quantile of `values` (nearest rank). */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * q) - 1))];
}

/**
 * One row of the pane as the bytes written to it draw it. The console writes a frame as the cells
 * that changed (cursor moves `ESC[r;cH`, colours, text; a cursor move may rewrite a single digit
 * of `12/50000`), so its output is read as a terminal would, for the one row that shows the
 * position; anything else it writes (colours, modes) moves no cell.
 */
class RowWatcher {
  row = 1;
  col = 1;
  /** The pane's cells by row (1-based), as far as written. */
  screen = new Map();
  /** The row `next` waits on. */
  watched = 1;
  pending = '';
  waiter = null;

  constructor(fifo) {
    this.stream = createReadStream(fifo, {encoding: 'utf8'});
    this.stream.on('data', (chunk) => {
      this.feed(chunk);
      if (this.waiter && this.waiter.pattern.test(this.text())) {
        const w = this.waiter;
        this.waiter = null;
        w.resolve(performance.now());
      }
    });
  }

  text(row = this.watched) {
    return (this.screen.get(row) ?? []).join('');
  }

  cells() {
    let cells = this.screen.get(this.row);
    if (!cells) this.screen.set(this.row, (cells = []));
    return cells;
  }

  feed(chunk) {
    const s = this.pending + chunk;
    this.pending = '';
    let i = 0;
    while (i < s.length) {
      const ch = s[i];
      if (ch === '\x1b') {
        // A sequence cut by the read is finished by the next one.
        // eslint-disable-next-line no-control-regex -- an escape sequence is what it reads
        const m = /^\x1b(?:\[([0-9;?]*)([@-~])|[^[])/.exec(s.slice(i, i + 64));
        if (!m) {
          this.pending = s.slice(i);
          return;
        }
        if (m[2]) this.csi(m[1], m[2]);
        i += m[0].length;
      } else if (ch === '\r') {
        this.col = 1;
        i++;
      } else if (ch === '\n') {
        this.row++;
        i++;
      } else {
        this.cells()[this.col - 1] = ch;
        this.col++;
        i++;
      }
    }
  }

  csi(params, final) {
    const n = params.split(';').map((x) => Number(x) || 0);
    if (final === 'H') {
      this.row = n[0] || 1;
      this.col = n[1] || 1;
    } else if (final === 'J' && n[0] === 2) this.screen.clear();
    else if (final === 'K') {
      const cells = this.cells();
      if (n[0] === 2) cells.length = 0;
      else if (n[0] === 0) cells.length = Math.min(cells.length, this.col - 1);
    } else if (final === 'C') this.col += n[0] || 1;
  }

  /** When (performance.now()) the row first matches `pattern` after this call. */
  next(pattern, ms = 20_000) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        reject(new Error(`keys bench: row ${this.watched} showed no ${pattern} within ${ms} ms; it shows ${JSON.stringify(this.text())}`));
      }, ms);
      this.waiter = {
        pattern,
        resolve: (t) => {
          clearTimeout(timer);
          resolve(t);
        },
      };
    });
  }

  close() {
    this.stream.destroy();
  }
}

/**
 * `keys` random cursor moves live (refreshing every second), then `keys` paused, in one console
 * process against the sandbox at `url`; resolves with each half's key → frame times (ms).
 */
export async function keysInTerminal({url, token, devices, keys = 200, bin = BIN}) {
  const work = mkdtempSync(join(tmpdir(), 'fzc-keys-'));
  const fifo = join(work, 'pane.fifo');
  execFileSync('mkfifo', ['-m', '600', fifo]);
  const socket = `fzc-keys-${process.pid}-${devices}-${Date.now()}`;
  const tmux = benchPane(socket, {
    FZ_URL: url,
    FZ_API_TOKEN: token,
    LANG: 'C.UTF-8',
    // --debug writes a line per request here: the polls answered while live are counted from it.
    XDG_STATE_HOME: work,
    ...(process.env.FZ_POLL_WORKER ? {FZ_POLL_WORKER: process.env.FZ_POLL_WORKER} : {}),
  });
  // send-keys without blocking this process's loop: the frame's bytes are stamped as they arrive.
  const send = (key) =>
    new Promise((resolve, reject) => execFile('tmux', ['-L', socket, 'send-keys', '-t', 'b', key], (err) => (err ? reject(err) : resolve())));
  const screen = () => tmux('capture-pane', '-p', '-t', 'b');
  let output = null;
  try {
    tmux('set-option', '-t', 'b', 'status', 'off');
    // The reader opens the FIFO first (the open waits for a writer), then tmux starts writing it.
    output = new RowWatcher(fifo);
    tmux('pipe-pane', '-o', '-t', 'b', `exec cat > ${fifo}`);
    tmux('send-keys', '-t', 'b', '-l', `node ${bin} --refresh 1 --debug`);
    tmux('send-keys', '-t', 'b', 'Enter');
    // The row that shows the position, found on the pane once the list is there.
    const first = new RegExp(`(?<!\\d)1/\\d+ devices`);
    const deadline0 = Date.now() + 60_000;
    let rows = screen().split('\n');
    while (!rows.some((l) => first.test(l))) {
      if (Date.now() > deadline0) throw new Error(`keys bench: no device list; screen:\n${rows.join('\n')}`);
      await sleep(50);
      rows = screen().split('\n');
    }
    output.watched = rows.findIndex((l) => first.test(l)) + 1;
    // The pane and what its bytes drew agree (the bytes may still be on their way here), or this
    // would read the wrong cells.
    if (!first.test(output.text())) await output.next(first, 5000);
    // Past the first polls (their code not yet optimised), as an admin is a few seconds in.
    await sleep(5000);
    let position = 1;
    async function moves(count) {
      const times = [];
      for (let i = 0; i < count; i++) {
        await sleep(40 + Math.random() * 120);
        // Down, and up now and then, never above the first row.
        const down = position === 1 || Math.random() < 0.7;
        position += down ? 1 : -1;
        const shown = output.next(new RegExp(`(?<!\\d)${position}/\\d+ devices`));
        const t0 = performance.now();
        await send(down ? 'j' : 'k');
        times.push((await shown) - t0);
      }
      return times;
    }
    // The whole process's CPU while it refreshes every second and no key comes (its threads, V8's
    // collector among them), per device-list poll answered in that time: what a poll costs the
    // machine, as top sees it.
    const pid = consolePid(tmux);
    const cpu0 = processCpuMs(pid);
    const wall0 = Date.now();
    await sleep(LIVE_CPU_WINDOW_MS);
    const cpuMs = processCpuMs(pid) - cpu0;
    const wall1 = Date.now();
    const live = await moves(keys);
    // Its memory after the live keys: the most it has held (VmHWM) and holds.
    const memory = processMemoryMb(pid);
    await send('p');
    const deadline = Date.now() + 10_000;
    while (!/paused/i.test(screen())) {
      if (Date.now() > deadline) throw new Error(`keys bench: not paused; screen:\n${screen()}`);
      await sleep(50);
    }
    // A poll in flight when `p` came finishes first.
    await sleep(2000);
    const paused = await moves(keys);
    // Paused again, while another client reads the device list every second: what the server's
    // own work (and the reader's) costs the keys on the same CPUs, which no change in the console
    // can take away. Live minus this is the console's own share.
    // The reader is a process of its own: reading 43 MB in this one would delay the stamps.
    const reader = spawn(process.execPath, ['--input-type=module', '-e', READER, url, token], {stdio: 'ignore'});
    let serverBusy;
    try {
      serverBusy = await moves(keys);
    } finally {
      reader.kill('SIGTERM');
    }
    await send('q');
    const polls = pollsBetween(join(work, 'fz-console', 'debug.log'), wall0, wall1);
    return {
      live,
      paused,
      serverBusy,
      // Polls overlap the window's edges: a poll's CPU is counted when it falls in the window, and a
      // poll when its answer does; over 20 s that is within a poll.
      liveCpu: {msPerPoll: polls > 0 ? cpuMs / polls : null, msPerSec: cpuMs / ((wall1 - wall0) / 1000), polls},
      ...memory,
    };
  } finally {
    output?.close();
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
    rmSync(work, {recursive: true, force: true});
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [url, token, devices, keys, bin] = process.argv.slice(2);
  const {live, paused, serverBusy, liveCpu, vmRssMb, vmHwmMb} = await keysInTerminal({
    url,
    token,
    devices: Number(devices),
    keys: Number(keys ?? 200),
    bin: bin ?? BIN,
  });
  const p99 = (xs) => Math.round(quantile(xs, 0.99) * 10) / 10;
  console.log(JSON.stringify({liveP99: p99(live), pausedP99: p99(paused), serverBusyP99: p99(serverBusy), liveCpu, vmRssMb, vmHwmMb}));
}
