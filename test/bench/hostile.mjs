// What a hostile or broken input costs (README, "Performance"; issue #44), measured as the admin
// meets it: the real binary in a 120×40 tmux pane, beside a sandbox process (the demo's 90
// devices), keys sent by tmux and the screen read back with capture-pane every 2 ms.
// - a 1 MB paste into a device's Description (bracketed, `paste-buffer -p`), then Ctrl-S: the
//   time from the paste to the refusal on screen, from Ctrl-S to the form's answer, and the
//   console's peak resident memory (VmHWM) before and after. It once took 4 GB and the heap gave out.
// - a 120 KB non-ASCII field error in a 422 (a proxy in front of the sandbox answers every device
//   update so, as a broken server or proxy could): key → frame for 20 characters typed into another
//   field while the error shows, against the same 20 typed before it (a normal key). It once made
//   each key take ~93 s.
// Run alone: `node test/bench/hostile.mjs [--write-readme]`.
import {execFileSync} from 'node:child_process';
import {readFileSync, rmSync, mkdtempSync, writeFileSync} from 'node:fs';
import {createServer, request} from 'node:http';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {benchPane, BIN, startSandbox, writeReadmeSection} from './common.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * q) - 1)];
const fmt = (n, d = 1) => n.toFixed(d);

/** A proxy to `target` that answers device updates with a 422 whose Description error is `error`. */
function brokenProxy(target, error) {
  const body = JSON.stringify({errors: {description: [error]}});
  const server = createServer((req, res) => {
    if (req.method === 'PATCH' && /^\/v0\/devices\/[^/]+$/.test(req.url ?? '')) {
      req.resume();
      req.on('end', () => {
        res.writeHead(422, {'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body)});
        res.end(body);
      });
      return;
    }
    const url = new URL(req.url ?? '/', target);
    const upstream = request(url, {method: req.method, headers: {...req.headers, host: url.host}}, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({server, url: `http://127.0.0.1:${server.address().port}`})));
}

/** The console in a pane of its own, with what a measure needs. */
async function consoleIn(url, token, socket) {
  const tmux = benchPane(socket, {FZ_URL: url, FZ_API_TOKEN: token, LANG: 'C.UTF-8', NO_COLOR: '1'});
  tmux('set-option', '-t', 'b', 'status', 'off');
  const screen = () => tmux('capture-pane', '-p', '-t', 'b');
  const flat = () => screen().replace(/\s+/g, ' ');
  /** ms from now until `test` holds for the screen (lines joined), read every 2 ms. */
  const until = async (test, what, ms = 120_000) => {
    const t0 = performance.now();
    while (performance.now() - t0 < ms) {
      if (test(flat())) return performance.now() - t0;
      await sleep(2);
    }
    throw new Error(`hostile bench: no ${what} within ${ms} ms; screen:\n${screen()}`);
  };
  const keys = (...names) => {
    for (const k of names) tmux('send-keys', '-t', 'b', k);
  };
  /** The peak resident memory of the console's process so far (MB). */
  const peakMb = () => {
    const shell = tmux('display-message', '-p', '-t', 'b', '#{pane_pid}').trim();
    const pid = execFileSync('pgrep', ['-P', shell], {encoding: 'utf8'}).trim().split('\n')[0];
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmHWM:'));
    return Number(/\d+/.exec(line)[0]) / 1024;
  };
  tmux('send-keys', '-t', 'b', '-l', `node ${BIN} --refresh 0`);
  tmux('send-keys', '-t', 'b', 'Enter');
  await until((s) => /(?<!\d)1\/\d+ devices/.test(s), 'device list', 30_000);
  return {tmux, flat, until, keys, peakMb};
}

/** Types `count` letters into the focused Name field, which holds `before`; ms from each key to its frame. */
async function typed(c, count, before) {
  const times = [];
  let value = before;
  for (let i = 0; i < count; i++) {
    const letter = String.fromCharCode(97 + (i % 26));
    value += letter;
    const shown = `› Name ${value}`;
    c.tmux('send-keys', '-t', 'b', '-l', letter);
    times.push(await c.until((s) => s.includes(shown), `"${shown}"`, 120_000));
    await sleep(30);
  }
  return {times, value};
}

/** Key → frame in the Name field before a device update's 422, and again while it shows. */
async function keysWithError(url, token, socket, shown) {
  const c = await consoleIn(url, token, socket);
  c.keys('e');
  await c.until((s) => s.includes('Edit device'), 'the edit form');
  c.keys('C-u');
  await c.until((s) => s.includes('› Name Description'), 'Name emptied');
  await sleep(200);
  const normal = await typed(c, 20, '');
  c.keys('C-s');
  const errorMs = await c.until((s) => s.includes(shown), 'the 422 on screen');
  // The form may put the caret on the field in error: back to Name, whose typing leaves that error shown.
  if (!c.flat().includes(`› Name ${normal.value}`)) c.keys('BTab');
  await c.until((s) => s.includes(`› Name ${normal.value}`), 'Name focused');
  await sleep(200);
  const withError = await typed(c, 20, normal.value);
  if (!c.flat().includes(shown)) throw new Error('hostile bench: the error was no longer on screen while typing');
  c.tmux('kill-server');
  return {
    errorMs,
    normalP50: pct(normal.times, 0.5),
    normalP95: pct(normal.times, 0.95),
    errorP50: pct(withError.times, 0.5),
    errorP95: pct(withError.times, 0.95),
  };
}

export async function hostileFigures() {
  const work = mkdtempSync(join(tmpdir(), 'fzc-hostile-'));
  const sandbox = await startSandbox(['--seed', 'demo', '--stats-interval', '0']);
  const proxyBig = await brokenProxy(sandbox.url, 'ü'.repeat(30_000) + '漢'.repeat(30_000) + '👩‍💻'.repeat(6_000));
  const proxySmall = await brokenProxy(sandbox.url, 'ü'.repeat(2_000) + '漢'.repeat(800));
  const socket = `fzc-hostile-${process.pid}`;
  try {
    // 1. A megabyte pasted into Description, then Ctrl-S.
    let c = await consoleIn(sandbox.url, sandbox.token, `${socket}-paste`);
    c.keys('e');
    await c.until((s) => s.includes('Edit device'), 'the edit form');
    c.keys('Tab');
    await c.until((s) => /› Description/.test(s), 'Description focused');
    await sleep(300);
    const peakBefore = c.peakMb();
    const file = join(work, 'paste.txt');
    writeFileSync(file, 'ü'.repeat(512 * 1024));
    c.tmux('load-buffer', file);
    c.tmux('paste-buffer', '-p', '-t', 'b');
    const refusedMs = await c.until((s) => s.includes('Paste ignored: Description holds at most'), 'the refusal');
    c.keys('C-s');
    const savedMs = await c.until((s) => !s.includes('Edit device'), 'the form closed');
    const peakAfter = c.peakMb();
    c.tmux('kill-server');

    // 2. Keys while a server's 422 shows, against the same keys before it: a field error of 120 KB
    // of non-ASCII text (its body is cut to 16 KiB at the edge, and said to be), and one of 7 KB
    // (its body read whole, the message cut to what a status line holds).
    const big = await keysWithError(proxyBig.url, sandbox.token, `${socket}-error`, 'Rejected by the server (422)');
    const small = await keysWithError(proxySmall.url, sandbox.token, `${socket}-error-small`, 'üüü');
    return {
      pasteRefusedMs: refusedMs,
      pasteSaveMs: savedMs,
      pastePeakBeforeMb: peakBefore,
      pastePeakAfterMb: peakAfter,
      big,
      small,
    };
  } finally {
    proxyBig.server.close();
    proxySmall.server.close();
    sandbox.child.kill('SIGTERM');
    rmSync(work, {recursive: true, force: true});
  }
}

export function hostileTable(r) {
  return `| a hostile input, the binary in tmux beside a sandbox process (90 devices) | result | budget |
|---|---|---|
| a 1 MB paste into Description: paste → the refusal on screen; Ctrl-S → the form's answer (ms) | ${fmt(r.pasteRefusedMs, 0)}; ${fmt(r.pasteSaveMs, 0)} | like a normal key |
| the same: peak resident memory before → after (VmHWM, MB) | ${fmt(r.pastePeakBeforeMb, 0)} → ${fmt(r.pastePeakAfterMb, 0)} | no growth beyond a normal key's |
| a 422 whose field error is 120 KB of non-ASCII text (its body cut to 16 KiB, said so): Ctrl-S → on screen (ms) | ${fmt(r.big.errorMs, 0)} | like a normal save |
| then a key typed into another field → frame, median / p95 (ms; the same key before the error) | ${fmt(r.big.errorP50)} / ${fmt(r.big.errorP95)} (${fmt(r.big.normalP50)} / ${fmt(r.big.normalP95)}) | like a normal key |
| a 422 whose field error is 7 KB of non-ASCII text (read, the message cut): Ctrl-S → on screen (ms) | ${fmt(r.small.errorMs, 0)} | like a normal save |
| then a key typed into another field → frame, median / p95 (ms; the same key before the error) | ${fmt(r.small.errorP50)} / ${fmt(r.small.errorP95)} (${fmt(r.small.normalP50)} / ${fmt(r.small.normalP95)}) | like a normal key |

Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; screen read back with capture-pane every 2 ms (each read takes a few ms, in every figure alike).`;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const table = hostileTable(await hostileFigures());
  console.log(table);
  if (process.argv.includes('--write-readme')) writeReadmeSection('bench-hostile', table);
}
