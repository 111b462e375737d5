// A profile's tokenCommand (src/config/profile.ts, runTokenCommand): the token is taken when its
// line arrives or when the shell exits, whichever comes first; a child the command leaves in the
// background holding the output pipe is neither waited for nor keeps the console from exiting.
import {spawn} from 'node:child_process';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {ConfigError, runTokenCommand} from '../../src/config/profile.js';
import {bundleModule} from '../helpers/bundle.js';
import {TempDirs} from '../helpers/tmp.js';

const tmp = new TempDirs();
let dir: string;
/** Pids of the background processes the commands below leave, killed after each test. */
const pidFiles: string[] = [];

function pidFile(): string {
  const file = join(dir, `bg-${pidFiles.length}.pid`);
  pidFiles.push(file);
  return file;
}

beforeAll(() => {
  dir = tmp.make('fzc-tokencmd-');
});
afterEach(() => {
  for (const file of pidFiles.splice(0)) {
    try {
      process.kill(Number(readFileSync(file, 'utf8').trim()), 'SIGKILL');
    } catch {
      // not started, or gone
    }
  }
});
afterAll(() => tmp.remove());

describe('runTokenCommand', () => {
  it('takes the token printed by a command that leaves a background child holding stdout (setsid)', async () => {
    const started = Date.now();
    // The old code waited for the pipe to close: 'timed out after 5 s', though the token was there.
    await expect(runTokenCommand(`setsid sleep 40 & echo $! > ${pidFile()}; echo tok`, {timeoutMs: 5000})).resolves.toBe('tok');
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('takes a token without a final newline when the shell exits, a background child still holding stdout', async () => {
    await expect(runTokenCommand(`setsid sleep 40 & echo $! > ${pidFile()}; printf tok`, {timeoutMs: 5000})).resolves.toBe('tok');
  });

  it('takes the token when its line arrives, though the command goes on running', async () => {
    const file = pidFile();
    await expect(runTokenCommand(`echo $$ > ${file}; echo tok; exec sleep 40`, {timeoutMs: 5000})).resolves.toBe('tok');
  });

  it('a command that exits before printing a line still fails by its status, or for printing nothing', async () => {
    await expect(runTokenCommand(`setsid sleep 40 & echo $! > ${pidFile()}; exit 4`, {timeoutMs: 5000})).rejects.toThrow(
      new ConfigError('tokenCommand exited with status 4'),
    );
    await expect(runTokenCommand(`setsid sleep 40 & echo $! > ${pidFile()}; printf '  \\n\\n'`, {timeoutMs: 5000})).rejects.toThrow(
      new ConfigError('tokenCommand printed no token'),
    );
  });

  it('a status other than 0 is an error when the command exits before its line; a NUL is no token, and is not shown', async () => {
    await expect(runTokenCommand('printf tok; exit 1', {timeoutMs: 5000})).rejects.toThrow(new ConfigError('tokenCommand exited with status 1'));
    await expect(runTokenCommand("printf 'se\\000cret'", {timeoutMs: 5000})).rejects.toThrow(new ConfigError('tokenCommand printed a NUL byte, not a token'));
  });

  it('more than 64 KiB without a token line is refused', async () => {
    await expect(runTokenCommand(`head -c 70000 /dev/zero | tr '\\0' x`, {timeoutMs: 5000})).rejects.toThrow(
      new ConfigError('tokenCommand printed more than 64 KiB'),
    );
  });

  it('the process that ran it exits once it has the token: the background child does not hold it', async () => {
    const out = join(dir, 'child');
    const profile = await bundleModule('config/profile.ts', out, 'profile');
    const script = join(out, 'main.mjs');
    const file = pidFile();
    writeFileSync(
      script,
      `import {runTokenCommand} from ${JSON.stringify(profile)};\n` +
        `runTokenCommand(${JSON.stringify(`setsid sleep 40 & echo $! > ${file}; echo tok`)}, {timeoutMs: 5000}).then((t) => console.log(t), (e) => console.log('error:', e.message));\n`,
    );
    const child = spawn(process.execPath, [script], {stdio: ['ignore', 'pipe', 'inherit']});
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    // Nothing calls process.exit: the child ends when nothing holds its event loop. The old code
    // held it until the background sleep ended, 40 s later.
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect({code, stdout}).toEqual({code: 0, stdout: 'tok\n'});
    // And the background child was left alone, not waited for.
    expect(() => process.kill(Number(readFileSync(file, 'utf8').trim()), 0)).not.toThrow();
  }, 20_000);
});
