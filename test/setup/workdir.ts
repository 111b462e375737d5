// Every test file runs in a fresh temporary working directory with its own HOME and XDG
// directories, so nothing a test (or the console under test) writes can land in the checkout or
// in the developer's home: a config file written with `w` on the device result screen, a saved
// profile, a debug log. The system's temporary directory is moved inside it too (TMPDIR, which
// os.tmpdir() and child processes read), so the folders tests make with mkdtemp go with it. The
// directory and everything in it is removed when the file's tests end.
// `.ci/run` checks that `git status --porcelain` is still empty after the suite.
import {mkdirSync, mkdtempSync, realpathSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {isMainThread} from 'node:worker_threads';
import {afterAll} from 'vitest';

const original = process.cwd();
const work = realpathSync(mkdtempSync(join(tmpdir(), 'fzc-test-')));
for (const dir of ['home', 'config', 'state', 'cwd', 'tmp']) mkdirSync(join(work, dir), {mode: 0o700});
process.env.TMPDIR = join(work, 'tmp');
process.env.HOME = join(work, 'home');
process.env.XDG_CONFIG_HOME = join(work, 'config');
process.env.XDG_STATE_HOME = join(work, 'state');
// A worker thread cannot change directory; only `npm run mutate` runs tests in threads (Stryker's
// vitest runner forces that pool), inside its own temporary copy of the checkout.
const moveCwd = isMainThread;
if (moveCwd) process.chdir(join(work, 'cwd'));

const remove = () => rmSync(work, {recursive: true, force: true, maxRetries: 5, retryDelay: 100});

// A file whose every test is skipped (no tmux, no built executable, not root…) is marked skipped
// as a whole, and vitest then runs none of its hooks, this afterAll included. Its directory is
// removed when the worker ends instead: vitest stops each file's fork with SIGTERM, which is
// raised again once the directory is gone, so the fork still ends by the signal.
const onExit = () => remove();
const onSigterm = () => {
  process.off('exit', onExit);
  remove();
  process.kill(process.pid, 'SIGTERM');
};
if (isMainThread) {
  process.once('exit', onExit);
  process.once('SIGTERM', onSigterm);
}

afterAll(() => {
  if (moveCwd) process.chdir(original);
  remove();
  process.off('exit', onExit);
  process.off('SIGTERM', onSigterm);
});
