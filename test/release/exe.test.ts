// The single executable (scripts/build-exe.mjs, `npm run build:exe`), run with an empty
// environment (`env -i`: no node on any PATH): --version, a sandbox answered over HTTP, --demo
// drawing its list in tmux, and the console against a sandbox process. Its checksum file matches.
// .ci/run builds it before the suite; elsewhere the suite says it is skipped and why.
import {execFileSync, spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {createHash} from 'node:crypto';
import {chmodSync, existsSync, readdirSync, readFileSync, statSync} from 'node:fs';
import {basename, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, afterEach, describe, expect, it} from 'vitest';
import {hasTmux, startSandboxProcess, Terminal} from '../e2e/harness.js';
import {TempDirs} from '../helpers/tmp.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const EXE = join(root, 'dist', 'exe', `fz-console-linux-${process.arch}`);
const built = existsSync(EXE);
if (!built) console.warn(`exe: skipped (no ${EXE}; npm run build:exe makes it, .ci/run does)`);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {version: string};
// The folder the executable unpacks itself into (src/sea-main.ts) is in its os.tmpdir(): with
// `env -i` there is no TMPDIR, so /tmp, not the TMPDIR test/setup/workdir.ts gives this process.
const EXE_TMP = '/tmp';
const leftovers = () => readdirSync(EXE_TMP).filter((n) => n.startsWith('fz-console-'));

const terminals: Terminal[] = [];
const tmp = new TempDirs();
/** The sandboxes started below: a test that fails before stopping its own leaves it to afterEach. */
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) await stop(child, 'SIGKILL');
});
afterAll(() => {
  for (const t of terminals) t.kill();
  tmp.remove();
});

/** `env -i VARS… EXE sandbox`, once it has printed its three FZ_ lines. */
async function startSandbox(vars: string[], seed = 'empty'): Promise<{child: ChildProcess; values: Record<string, string>}> {
  const child = spawn('env', ['-i', ...vars, EXE, 'sandbox', '--port', '0', '--seed', seed], {stdio: ['ignore', 'pipe', 'pipe']});
  children.push(child);
  const values = await new Promise<Record<string, string>>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const lines = out.split('\n').filter((l) => l.includes('='));
      if (lines.length >= 3) resolve(Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)])));
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
  });
  return {child, values};
}

/** Sends `signal` and resolves to how the process ended. */
function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<{code: number | null; signal: NodeJS.Signals | null}> {
  const ended = new Promise<{code: number | null; signal: NodeJS.Signals | null}>((resolve) => child.on('exit', (code, sig) => resolve({code, signal: sig})));
  child.kill(signal);
  return ended;
}

describe.skipIf(!built)('the single executable, with an empty environment', {timeout: 60_000}, () => {
  it('--version; the checksum file beside it matches', () => {
    expect(execFileSync('env', ['-i', EXE, '--version'], {encoding: 'utf8'}).trim()).toBe(pkg.version);
    const sum = createHash('sha256').update(readFileSync(EXE)).digest('hex');
    expect(readFileSync(`${EXE}.sha256`, 'utf8')).toBe(`${sum}  ${basename(EXE)}\n`);
  });

  it('runs the sandbox, answered over HTTP, and cleans up after itself', async () => {
    const before = leftovers();
    const {child, values} = await startSandbox([], 'demo');
    const res = await fetch(`${values.FZ_URL}/v0/devices`, {headers: {authorization: `Bearer ${values.FZ_API_TOKEN}`}});
    expect(res.status).toBe(200);
    expect(((await res.json()) as {data: unknown[]}).data.length).toBe(90);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    expect(leftovers()).toEqual(before);
  });

  it.skipIf(!hasTmux())('--demo draws its list in a terminal, and the console connects to a sandbox process', async () => {
    const term = Terminal.start({width: 120, height: 30});
    terminals.push(term);
    term.run(`env -i TERM=xterm-256color LANG=C.UTF-8 ${EXE} --demo; echo "exit=$?"`);
    await term.waitFor(/1 Devices 90 {2}2 Users 40/);
    await term.waitFor(/1\/90 devices/);
    term.keys('q');
    await term.waitFor('exit=0');
    const sandbox = await startSandboxProcess(['--seed', 'demo', '--stats-interval', '0']);
    try {
      term.run(`clear; env -i TERM=xterm-256color LANG=C.UTF-8 FZ_URL=${sandbox.url} FZ_API_TOKEN=${sandbox.adminToken} ${EXE}; echo "exit=$?"`);
      await term.waitFor(/1\/90 devices/);
      term.keys('2');
      await term.waitFor(/EMAIL.? +ROLE/);
      term.keys('q');
      await term.waitFor('exit=0');
    } finally {
      await sandbox.stop();
    }
  });
});

// The host is hostile too (docs/architecture.md, "The host around the console"): the bundle folder
// holds code loaded chunk by chunk while the console runs, so it is never where another user could
// rename it away and put his own in its place; a TMPDIR that is not there is passed over; and the
// folder goes on the signals that end the process.
describe.skipIf(!built)('the single executable on a hostile host', {timeout: 60_000}, () => {
  it('does not unpack into a TMPDIR others can write that is not sticky, but into ~/.cache/fz-console', async () => {
    const shared = tmp.make('fzc-exe-shared-');
    chmodSync(shared, 0o777);
    const home = tmp.make('fzc-exe-home-');
    const {child} = await startSandbox([`TMPDIR=${shared}`, `HOME=${home}`]);
    // While it runs: nothing in the shared folder, one private folder of its own in the cache.
    expect(readdirSync(shared)).toEqual([]);
    const cache = join(home, '.cache', 'fz-console');
    const bundles = readdirSync(cache);
    expect(bundles).toEqual([expect.stringMatching(/^bundle-/)]);
    expect(statSync(join(cache, bundles[0]!)).mode & 0o7777).toBe(0o700);
    expect(await stop(child, 'SIGTERM')).toEqual({code: 0, signal: null});
    expect(readdirSync(cache)).toEqual([]);
  });

  it('a TMPDIR that does not exist is passed over; with nowhere to unpack, one line says why, status 1', () => {
    const home = tmp.make('fzc-exe-home-');
    const missing = join(home, 'missing');
    const ok = spawnSync('env', ['-i', `TMPDIR=${missing}`, `HOME=${home}`, EXE, '--version'], {encoding: 'utf8'});
    expect({status: ok.status, stdout: ok.stdout, stderr: ok.stderr}).toEqual({status: 0, stdout: `${pkg.version}\n`, stderr: ''});
    const none = spawnSync('env', ['-i', `TMPDIR=${missing}`, `HOME=${missing}`, EXE, '--version'], {encoding: 'utf8'});
    expect({status: none.status, stdout: none.stdout, stderr: none.stderr}).toEqual({
      status: 1,
      stdout: '',
      stderr: `fz-console: no folder of yours alone to unpack the bundle into (TMPDIR: ${missing}: ENOENT; the cache folder: ${missing}: ENOENT); set TMPDIR to one\n`,
    });
  });

  it.each([
    ['SIGHUP', {code: null, signal: 'SIGHUP'}],
    ['SIGINT', {code: 0, signal: null}],
    ['SIGTERM', {code: 0, signal: null}],
  ] as const)('sandbox: %s removes the bundle folder, and ends it as before', async (signal, ended) => {
    const temporary = tmp.make('fzc-exe-tmp-');
    const {child} = await startSandbox([`TMPDIR=${temporary}`]);
    expect(readdirSync(temporary)).toEqual([expect.stringMatching(/^fz-console-/)]);
    // SIGHUP: nothing in the sandbox handles it, so the process still ends by it (status 129);
    // SIGINT and SIGTERM are the sandbox's way to stop, status 0.
    expect(await stop(child, signal)).toEqual(ended);
    expect(readdirSync(temporary)).toEqual([]);
  });
});
