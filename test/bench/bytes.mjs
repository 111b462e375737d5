// Bytes to the terminal (README, "Performance"): the real binary on `--demo --refresh 1` in a
// 120×40 tmux pane, every byte it writes to the pane counted with `pipe-pane` (after the tty's
// newline translation, as an SSH session would carry them). Measured:
// - live: bytes/s over 10 s of updates every second;
// - paused (`p`): bytes/s over 5 s, from 2 s after pausing;
// - a cursor move (paused, so no update is in it): from the key to the pane showing the new
//   position and the output quiet for 150 ms; 40 moves down and up, median and p95.
// Run alone: `node test/bench/bytes.mjs [path/to/fz-console.js]` prints one JSON line.
import {execFileSync} from 'node:child_process';
import {mkdtempSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {benchPane, BIN} from './common.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function pct(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)];
}

export async function terminalBytes(bin = BIN) {
  const work = mkdtempSync(join(tmpdir(), 'fzc-bytes-'));
  const log = join(work, 'pane.bytes');
  const socket = `fzc-bytes-${process.pid}`;
  const tmux = (...args) => execFileSync('tmux', ['-L', socket, ...args], {encoding: 'utf8'});
  const size = () => {
    try {
      return statSync(log).size;
    } catch {
      return 0;
    }
  };
  const screen = () => tmux('capture-pane', '-p', '-t', 'b');
  async function waitFor(pattern, what, ms = 30_000) {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (pattern.test(screen())) return;
      await sleep(20);
    }
    throw new Error(`bytes bench: no ${what} within ${ms} ms; screen:\n${screen()}`);
  }
  async function quiet(ms) {
    let last = size();
    let since = Date.now();
    while (Date.now() - since < ms) {
      await sleep(25);
      const now = size();
      if (now !== last) {
        last = now;
        since = Date.now();
      }
    }
    return last;
  }
  try {
    benchPane(socket, {LANG: 'C.UTF-8'});
    tmux('set-option', '-t', 'b', 'status', 'off');
    tmux('pipe-pane', '-o', '-t', 'b', `cat >> ${log}`);
    tmux('send-keys', '-t', 'b', '-l', `node ${bin} --demo --refresh 1`);
    tmux('send-keys', '-t', 'b', 'Enter');
    await waitFor(/(?<!\d)1\/\d+ devices/, 'device list');
    // Past the first polls, then 10 s of live updates.
    await sleep(3000);
    let t0 = Date.now();
    let b0 = size();
    await sleep(10_000);
    const liveBytesPerSec = ((size() - b0) * 1000) / (Date.now() - t0);

    tmux('send-keys', '-t', 'b', 'p');
    await sleep(2000);
    t0 = Date.now();
    b0 = size();
    await sleep(5000);
    const pausedBytesPerSec = ((size() - b0) * 1000) / (Date.now() - t0);

    const moves = [];
    for (let i = 0; i < 40; i++) {
      const down = i % 20 < 10;
      const position = down ? (i % 20) + 2 : 20 - (i % 20);
      const before = await quiet(150);
      tmux('send-keys', '-t', 'b', down ? 'j' : 'k');
      await waitFor(new RegExp(`(?<!\\d)${position}/\\d+ devices`), `cursor at ${position}`, 10_000);
      moves.push((await quiet(150)) - before);
    }
    tmux('send-keys', '-t', 'b', 'q');
    return {moveBytesMedian: pct(moves, 0.5), moveBytesP95: pct(moves, 0.95), liveBytesPerSec, pausedBytesPerSec};
  } finally {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
    rmSync(work, {recursive: true, force: true});
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await terminalBytes(process.argv[2])));
}
