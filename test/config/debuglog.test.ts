// The --debug log: owner-only, never through a link, never a FIFO (src/common/private-file.ts).
import {execFileSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {DebugLog, debugLogPath} from '../../src/config/debuglog.js';

let dir = '';
let env: NodeJS.ProcessEnv = {};
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fzc-debuglog-'));
  env = {XDG_STATE_HOME: dir, HOME: dir};
});
afterEach(() => rmSync(dir, {recursive: true, force: true}));

describe('the debug log', () => {
  it('is created 0600 in a 0700 folder and takes lines', async () => {
    const log = await DebugLog.open(env);
    log.line('hello');
    await log.close();
    const path = debugLogPath(env);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    expect(readFileSync(path, 'utf8')).toMatch(/ start fz-console .*\n.* hello\n$/);
  });

  it('is never opened through a symbolic link, and the link target is left alone', async () => {
    const path = debugLogPath(env);
    mkdirSync(dirname(path), {recursive: true, mode: 0o700});
    const target = join(dir, 'profile');
    writeFileSync(target, 'export PATH\n', {mode: 0o644});
    symlinkSync(target, path);
    await expect(DebugLog.open(env)).rejects.toThrow(/is a symbolic link/);
    expect(readFileSync(target, 'utf8')).toBe('export PATH\n');
    expect(statSync(target).mode & 0o777).toBe(0o644);
  });

  it('refuses a FIFO at once', async () => {
    const path = debugLogPath(env);
    mkdirSync(dirname(path), {recursive: true, mode: 0o700});
    execFileSync('mkfifo', ['-m', '600', path]);
    await expect(DebugLog.open(env)).rejects.toThrow(/named pipe/);
  });
});
