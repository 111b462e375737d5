// What an input can cost, in a real terminal (#44): the built console beside a sandbox process,
// bytes written by tmux as a terminal writes them.
//  - a 315 KB paste into a device's Description, then Ctrl-S: the heap gave out after ~2 min at
//    4 GB (exit 134, the terminal left in the alternate screen); now it is refused at once;
//  - one unbracketed write of `hello yes`, or `ESC[31m y`, with a delete question open deleted
//    the device;
//  - `/owner:dana` typed fast in a device's detail opened Edit with its `e`;
//  - Esc then q arriving together were read as Alt-q and dropped.
import {readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {BIN, hasBinary, hasTmux, startSandboxProcess, Terminal, type SandboxProcess} from './harness.js';

const enabled = hasTmux() && hasBinary();
let sandbox: SandboxProcess;
const terms: Terminal[] = [];

async function deviceCount(): Promise<number> {
  const res = await fetch(`${sandbox.url}/v0/devices`, {headers: {authorization: `Bearer ${sandbox.adminToken}`}});
  return ((await res.json()) as {data: unknown[]}).data.length;
}

/** The console in a terminal of its own, on the first device of the list. */
async function consoleOn(): Promise<{t: Terminal; hex: (bytes: string) => void}> {
  const t = Terminal.start({width: 120, height: 40, env: {FZ_URL: sandbox.url, FZ_API_TOKEN: sandbox.adminToken, NO_COLOR: '1'}});
  terms.push(t);
  // One write of exactly these bytes: what a terminal without bracketed paste sends for a paste.
  const hex = (bytes: string) => t.tmux('send-keys', '-t', t.name, '-H', ...[...Buffer.from(bytes, 'utf8')].map((b) => b.toString(16).padStart(2, '0')));
  t.run(`node ${BIN} --refresh 0`);
  await t.waitFor(/1\/\d+ devices/);
  return {t, hex};
}

/** The peak resident memory of the console's process, in MB (its /proc status). */
function peakMb(t: Terminal): number {
  const pid = t.childPid();
  if (pid === null) throw new Error('no console process');
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'))!;
  return Number(/\d+/.exec(line)![0]) / 1024;
}

describe.skipIf(!enabled)('what an input may cost, end to end (tmux)', {timeout: 60_000}, () => {
  beforeAll(async () => {
    sandbox = await startSandboxProcess(['--seed', 'demo', '--stats-interval', '0']);
  });
  afterAll(async () => {
    for (const t of terms.splice(0)) t.kill();
    await sandbox?.stop();
  });

  it('a 315 KB paste into Description is refused at once, Ctrl-S sends nothing of it, and the console stays small', async () => {
    const {t} = await consoleOn();
    t.keys('e');
    await t.waitFor('Edit device');
    t.keys('Tab');
    await t.waitFor(/› Description/);
    const file = join(tmpdir(), 'description-paste.txt');
    writeFileSync(file, 'ü'.repeat(157_500));
    t.tmux('load-buffer', file);
    t.tmux('paste-buffer', '-p', '-t', t.name);
    await t.waitFor("Paste ignored: Description holds at most 2,048 characters (0.7.36's limit)", 10_000);
    t.keys('C-s');
    // Nothing was changed: the form closes on an unchanged save, or says nothing to save.
    await t.waitFor((s) => !s.includes('Edit device'), 10_000);
    expect(peakMb(t)).toBeLessThan(400);
    t.keys('q');
    await t.waitFor('SHELL-READY$');
  });

  it('a delete question is answered by neither "hello yes" nor "ESC[31m y" written at once, only by y alone', async () => {
    const {t, hex} = await consoleOn();
    const before = await deviceCount();
    t.keys('d');
    await t.waitFor(/Delete device/);
    hex('hello yes');
    // The message wraps at 120 columns: read it as one line.
    const said = async (text: RegExp) => t.waitFor((s) => text.test(s.replace(/\s+/g, ' ')));
    await said(/"h" does nothing here, and the 8 keys that came after it in the same read were not run/);
    expect(t.screen()).toMatch(/Delete device/);
    // A colour code, a space (which a question does not take) and y: the y is not run.
    hex('\x1b[31m y');
    await said(/Space does nothing here, and the key that came after it in the same read was not run/);
    // A colour code glued to y: y is handled, and refused as one of several keys in one read.
    hex('\x1b[31my');
    await said(/Not done: that key came with other keys in one read/);
    expect(await deviceCount()).toBe(before);
    t.keys('n');
    await t.waitFor((s) => !/Delete device/.test(s));
    expect(await deviceCount()).toBe(before);
    t.keys('q');
    await t.waitFor('SHELL-READY$');
  });

  it('"/owner:dana" typed fast in a detail runs none of its keys after the /, and Esc q together leave the detail and quit', async () => {
    const {t, hex} = await consoleOn();
    t.keys('Enter');
    await t.waitFor(/Device › /);
    hex('/owner:dana');
    await t.waitFor((s) =>
      s
        .replace(/\s+/g, ' ')
        .includes('/ does nothing here (filter is on the list; Esc goes back to it); the 10 keys that came after it in the same read were not run'),
    );
    expect(t.screen()).not.toContain('Edit device');
    hex('\x1bq');
    await t.waitFor('SHELL-READY$');
  });
});
