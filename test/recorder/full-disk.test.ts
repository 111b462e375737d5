// The recorder on a full disk (issue #44), for real: the log on a tmpfs of a few pages filled to
// the last bytes (root only: mounting needs it; skipped with the reason otherwise), and the log
// under a file size limit (prlimit --fsize: any user; the write fails as on a full disk, with
// EFBIG, after a short write). Either way the line being written is cut short by the kernel, and
// the recorder must leave the log exactly as it was (whole batches only), say how many events it
// did not record, count only what is in the file, and exit 1; restarted once there is room, its
// next event is a line of its own. A half line it cannot even end with a newline keeps it from
// starting (exit 2), the file untouched.
import {execFileSync} from 'node:child_process';
import {mkdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {hasBinary} from '../e2e/harness.js';
import {TempDirs} from '../helpers/tmp.js';
import {logLines, Rig, until} from './harness.js';

const rig = new Rig();
const tmp = new TempDirs();
let dir: string;

/** Valid JSON lines of exactly `bytes` bytes (ASCII), as an earlier recording would have left. */
function earlierLines(bytes: number): string {
  let out = '';
  let n = 0;
  while (bytes - out.length >= 60) out += `${JSON.stringify({earlier: n++})}\n`;
  const last = `{"earlier":${n},"pad":""}\n`;
  return `${out}{"earlier":${n},"pad":"${'p'.repeat(bytes - out.length - last.length)}"}\n`;
}

function why(what: 'tmpfs' | 'prlimit'): string | null {
  if (!hasBinary()) return 'no built binary (npm run build)';
  try {
    if (what === 'prlimit') {
      execFileSync('prlimit', ['--version'], {stdio: 'ignore'});
      return null;
    }
    if (process.getuid?.() !== 0) return 'not root (mounting a tmpfs needs it)';
    const probe = tmp.make('fz-tmpfs-probe-');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8k', 'tmpfs', probe], {stdio: 'ignore'});
    execFileSync('umount', [probe], {stdio: 'ignore'});
    return null;
  } catch (err) {
    return `${what} unavailable: ${(err as Error).message.split('\n')[0]}`;
  }
}
const noTmpfs = why('tmpfs');
const noPrlimit = why('prlimit');
if (noTmpfs) console.warn(`full-disk (tmpfs): skipped (${noTmpfs})`);
if (noPrlimit) console.warn(`full-disk (prlimit): skipped (${noPrlimit})`);

let mounted: string | null = null;

describe.skipIf(noTmpfs !== null && noPrlimit !== null)('fz-console activity on a full disk', {timeout: 60_000}, () => {
  beforeAll(async () => {
    await rig.start();
    dir = tmp.make('fz-recorder-disk-');
  });
  afterAll(async () => {
    await rig.stop();
    // Unmounted before the folder goes (a lazy unmount should a recorder still hold the file).
    if (mounted) execFileSync('umount', ['-l', mounted]);
    tmp.remove();
  });

  it('earlierLines makes valid lines of the size asked', () => {
    const text = earlierLines(4036);
    expect(Buffer.byteLength(text)).toBe(4036);
    for (const line of text.trimEnd().split('\n')) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });

  it.skipIf(noTmpfs !== null)(
    'a real full tmpfs: the log is left as it was, the event is said NOT recorded, exit 1; restarted with room, the next event is whole',
    async () => {
      const mnt = join(dir, 'mnt');
      mkdirSync(mnt);
      // Four pages. The log takes one page but for 60 bytes; a filler takes every page left.
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16k,mode=0700', 'tmpfs', mnt]);
      mounted = mnt;
      const log = join(mnt, 'audit.jsonl');
      const before = earlierLines(4096 - 60);
      writeFileSync(log, before, {mode: 0o600});
      const filler = join(mnt, 'filler');
      expect(() => writeFileSync(filler, Buffer.alloc(64 * 1024))).toThrow(/ENOSPC/);
      const r = rig.record(['--follow', '--log', log, '--interval', '1']);
      await until(() => r.stderr().includes('baseline:'), 'the baseline');
      // One event: its line (~190 bytes) gets 60 bytes in, then the disk is full.
      await rig.api('POST', '/v0/users', {user: {email: 'ivan@example.com', role: 'unprivileged'}});
      expect(await r.exited).toBe(1);
      expect(r.stderr()).toMatch(
        new RegExp(
          `fz-console activity: Cannot write the activity log ${log}: no space left on the device \\(ENOSPC\\): 1 event NOT recorded \\(the log is cut back to its last whole line\\); 0 events recorded; exit 1\\n$`,
        ),
      );
      expect(readFileSync(log, 'utf8')).toBe(before);
      // Room again: a new recorder takes a new baseline, and its event is a whole line after the others.
      rmSync(filler);
      const again = rig.record(['--follow', '--log', log, '--interval', '1']);
      await until(() => again.stderr().includes('baseline:'), 'the second baseline');
      expect(again.stderr()).not.toContain('partial line');
      await rig.api('POST', '/v0/users', {user: {email: 'jana@example.com', role: 'unprivileged'}});
      await until(() => logLines(log).some((l) => l.label === 'jana@example.com'), 'the event after the restart');
      again.child.kill('SIGTERM');
      expect(await again.exited).toBe(143);
      expect(again.stderr()).toMatch(/stopped by SIGTERM; 1 event recorded; exit 143\n$/);
      expect(readFileSync(log, 'utf8').startsWith(before)).toBe(true);
      expect(logLines(log).filter((l) => l.kind !== undefined)).toHaveLength(1);
    },
  );

  it.skipIf(noPrlimit !== null)('a file size limit (any user): the same, with EFBIG', async () => {
    const log = join(dir, 'limited.jsonl');
    const before = earlierLines(2000);
    writeFileSync(log, before, {mode: 0o600});
    // The limit lets 50 bytes of the next line in.
    const r = rig.record(['--follow', '--log', log, '--interval', '1'], {}, ['prlimit', `--fsize=${statSync(log).size + 50}`]);
    await until(() => r.stderr().includes('baseline:'), 'the baseline');
    await rig.api('POST', '/v0/users', {user: {email: 'karl@example.com', role: 'unprivileged'}});
    expect(await r.exited).toBe(1);
    expect(r.stderr()).toMatch(
      new RegExp(
        `fz-console activity: Cannot write the activity log ${log}: the file is at its size limit \\(EFBIG\\): 1 event NOT recorded \\(the log is cut back to its last whole line\\); 0 events recorded; exit 1\\n$`,
      ),
    );
    expect(readFileSync(log, 'utf8')).toBe(before);
    const again = rig.record(['--follow', '--log', log, '--interval', '1']);
    await until(() => again.stderr().includes('baseline:'), 'the second baseline');
    await rig.api('POST', '/v0/users', {user: {email: 'lena@example.com', role: 'unprivileged'}});
    await until(() => logLines(log).some((l) => l.label === 'lena@example.com'), 'the event after the restart');
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(143);
    expect(readFileSync(log, 'utf8').startsWith(before)).toBe(true);
  });

  it.skipIf(noPrlimit !== null)('a half line that cannot be ended (no room for the newline): it does not start, and says why', async () => {
    const log = join(dir, 'half-full.jsonl');
    const content = `${earlierLines(500)}{"time":"2026-`;
    writeFileSync(log, content, {mode: 0o600});
    const r = rig.record(['--follow', '--log', log, '--interval', '1'], {}, ['prlimit', `--fsize=${statSync(log).size}`]);
    expect(await r.exited).toBe(2);
    expect(r.stderr()).toBe(
      `fz-console: cannot open the activity log ${log}: it ends in a partial line (14 bytes) that cannot be ended: the file is at its size limit (EFBIG)\n`,
    );
    expect(readFileSync(log, 'utf8')).toBe(content);
  });
});
