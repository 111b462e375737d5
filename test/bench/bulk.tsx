// In-process half of the bulk figures of `npm run bench` (test/bench/bulk.mjs): the real App, the
// console's own client, a sandbox process answering every /v0 request 20 ms late. Keys are sent
// as an admin types them; the clock runs from the confirming key to the summary on screen.
// Prints one JSON line.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {performance} from 'node:perf_hooks';
import React from 'react';
import {render} from 'ink-testing-library';
import {FirezoneClient} from '../../src/api/client.js';
import {App} from '../../src/ui/App.js';

const [mode, url, token, countText] = process.argv.slice(2) as ['import' | 'delete', string, string, string];
const count = Number(countText);

// eslint-disable-next-line no-control-regex
const strip = (s: string | undefined) => (s ?? '').replace(/\x1b\[[0-9;]*m/g, '');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Counts the writes in flight at once: "at most a handful" is part of the budget. */
function countingClient(client: FirezoneClient) {
  const stats = {inFlight: 0, peak: 0, requests: 0};
  const wrap = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    (async (...args: A) => {
      stats.inFlight++;
      stats.requests++;
      stats.peak = Math.max(stats.peak, stats.inFlight);
      try {
        return await fn(...args);
      } finally {
        stats.inFlight--;
      }
    }) as (...args: A) => Promise<R>;
  client.createUser = wrap(client.createUser.bind(client));
  client.createDevice = wrap(client.createDevice.bind(client));
  client.deleteDevice = wrap(client.deleteDevice.bind(client));
  return stats;
}

const client = new FirezoneClient({baseUrl: url, token, timeoutMs: 60_000});
const stats = countingClient(client);
const ui = render(<App client={client} settings={{label: 'bench', refreshSeconds: 0, readOnly: false, insecure: false, demo: false}} />);

async function waitFor(test: RegExp, timeoutMs = 120_000): Promise<string> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const frame = strip(ui.lastFrame());
    if (test.test(frame)) return frame;
    await sleep(5);
  }
  throw new Error(`timed out waiting for ${test}: ${strip(ui.lastFrame())}`);
}

async function key(data: string): Promise<void> {
  ui.stdin.write(data);
  await sleep(5);
}

/** Progress values seen while the job runs: the bar must move, not jump from 0 to done. */
async function runUntil(done: RegExp): Promise<{seconds: number; progressSteps: number}> {
  const t0 = performance.now();
  const seen = new Set<string>();
  for (;;) {
    const frame = strip(ui.lastFrame());
    const bar = /\] (\d+)\/\d+/.exec(frame);
    if (bar) seen.add(bar[1]!);
    if (done.test(frame)) break;
    if (performance.now() - t0 > 300_000) throw new Error(`no summary after 300 s: ${frame}`);
    await sleep(20);
  }
  return {seconds: (performance.now() - t0) / 1000, progressSteps: seen.size};
}

const work = mkdtempSync(join(tmpdir(), 'fzc-bench-bulk-'));
try {
  await waitFor(/Devices \d+/);
  let result;
  if (mode === 'import') {
    const file = join(work, 'team.csv');
    writeFileSync(file, ['email,role,devices', ...Array.from({length: count}, (_, i) => `bench${i}@example.com,unprivileged,laptop`)].join('\n'));
    await key('2');
    await waitFor(/EMAIL/);
    await key('I');
    await waitFor(/Import from file:/);
    await key(`\x1b[200~${file}\x1b[201~`);
    await key('\r');
    await waitFor(new RegExp(`${count} new users`));
    await key('y');
    await waitFor(/Folder for the client configs:/);
    await key('\x15');
    await key(`\x1b[200~${join(work, 'configs')}\x1b[201~`);
    ui.stdin.write('\r');
    result = await runUntil(/Import finished/);
    const frame = strip(ui.lastFrame());
    if (!new RegExp(`Created ${count} users and ${count} devices`).test(frame.replace(/\n/g, ' '))) throw new Error(`import incomplete: ${frame}`);
  } else {
    await waitFor(new RegExp(`/${count} devices`));
    await key('*');
    await waitFor(new RegExp(`${count} marked`));
    await key('d');
    await waitFor(/Delete \d+ devices/);
    ui.stdin.write('y');
    result = await runUntil(/Deleted \d+ devices|Deleted \d+ of/);
    const frame = strip(ui.lastFrame());
    if (!new RegExp(`Deleted ${count} of ${count} devices; 0 failed`).test(frame)) throw new Error(`delete incomplete: ${frame}`);
  }
  console.log(JSON.stringify({mode, count, ...result, peakInFlight: stats.peak, requests: stats.requests}));
} finally {
  ui.unmount();
  await client.close();
  rmSync(work, {recursive: true, force: true});
}
process.exit(0);
