// The single executable (scripts/build-exe.mjs, `npm run build:exe`), run with an empty
// environment (`env -i`: no node on any PATH): --version, a sandbox answered over HTTP, --demo
// drawing its list in tmux, and the console against a sandbox process. Its checksum file matches.
// .ci/run builds it before the suite; elsewhere the suite says it is skipped and why.
import {execFileSync, spawn} from 'node:child_process';
import {createHash} from 'node:crypto';
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {basename, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, describe, expect, it} from 'vitest';
import {hasTmux, startSandboxProcess, Terminal} from '../e2e/harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const EXE = join(root, 'dist', 'exe', `fz-console-linux-${process.arch}`);
const built = existsSync(EXE);
if (!built) console.warn(`exe: skipped (no ${EXE}; npm run build:exe makes it, .ci/run does)`);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {version: string};
// The folder the executable unpacks itself into (scripts/sea-main.cjs) is in its os.tmpdir(): with
// `env -i` there is no TMPDIR, so /tmp, not the TMPDIR test/setup/workdir.ts gives this process.
const EXE_TMP = '/tmp';
const leftovers = () => readdirSync(EXE_TMP).filter((n) => n.startsWith('fz-console-'));

const terminals: Terminal[] = [];
afterAll(() => {
  for (const t of terminals) t.kill();
});

describe.skipIf(!built)('the single executable, with an empty environment', {timeout: 60_000}, () => {
  it('--version; the checksum file beside it matches', () => {
    expect(execFileSync('env', ['-i', EXE, '--version'], {encoding: 'utf8'}).trim()).toBe(pkg.version);
    const sum = createHash('sha256').update(readFileSync(EXE)).digest('hex');
    expect(readFileSync(`${EXE}.sha256`, 'utf8')).toBe(`${sum}  ${basename(EXE)}\n`);
  });

  it('runs the sandbox, answered over HTTP, and cleans up after itself', async () => {
    const before = leftovers();
    const child = spawn('env', ['-i', EXE, 'sandbox', '--port', '0', '--seed', 'demo'], {stdio: ['ignore', 'pipe', 'pipe']});
    const values = await new Promise<Record<string, string>>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const lines = out.split('\n').filter((l) => l.includes('='));
        if (lines.length >= 3) resolve(Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)])));
      });
      child.on('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
    });
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
