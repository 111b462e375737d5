// The published package: only what is needed goes in, and the tarball installed into an
// empty prefix (no registry: the bundle carries every dependency) gives a working command.
// --ignore-scripts: `npm test` has just built dist/, and a prepack rebuild would pull it
// from under the end-to-end suites running alongside.
import {execFileSync, spawn} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {hasTmux, Terminal} from '../e2e/harness.js';
import {TempDirs} from '../helpers/tmp.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {version: string; dependencies?: Record<string, string>};
const tmp = new TempDirs();
const work = tmp.make('fzc-pack-');
let tarball = '';
let bin = '';
const terminals: Terminal[] = [];

describe('npm package', {timeout: 180_000}, () => {
  beforeAll(() => {
    const out = execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', work], {cwd: root, encoding: 'utf8'});
    tarball = join(work, out.trim().split('\n').pop()!);
    const prefix = join(work, 'prefix');
    execFileSync('npm', ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], {cwd: work, stdio: 'ignore'});
    bin = join(prefix, 'bin', 'fz-console');
  });
  afterAll(() => {
    for (const t of terminals) t.kill();
    // The tarball and the prefix it was installed into, once no terminal runs the command.
    tmp.remove();
  });

  it('contains only the bundle, README, LICENSE and package.json, and has no runtime dependencies', () => {
    const files = execFileSync('tar', ['-tzf', tarball], {encoding: 'utf8'}).trim().split('\n').sort();
    expect(files.filter((f) => !/^package\/dist\/(fz-console\.js|devices-worker\.js|chunks\/[\w-]+\.js)$/.test(f))).toEqual([
      'package/LICENSE',
      'package/README.md',
      'package/man/fz-console.1',
      'package/package.json',
    ]);
    expect(pkg.dependencies ?? {}).toEqual({});
  });

  it('the man page is installed with the command', () => {
    expect(readFileSync(join(work, 'prefix', 'share', 'man', 'man1', 'fz-console.1'), 'utf8')).toMatch(/^\.TH FZ-CONSOLE 1 /);
  });

  it('--version and --help work from the installed command', () => {
    expect(execFileSync(bin, ['--version'], {encoding: 'utf8'}).trim()).toBe(pkg.version);
    const help = execFileSync(bin, ['--help'], {encoding: 'utf8'});
    expect(help).toContain('fz-console sandbox [options]');
    expect(help).toContain('Exit status: 0 after quitting, 1 on an error, 2 on a usage error or when not run in a terminal.');
  });

  it('a usage error exits 2; not a terminal exits 2 with one line', () => {
    const run = (args: string[]) => {
      try {
        execFileSync(bin, args, {encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']});
        return {status: 0, stderr: ''};
      } catch (err) {
        const e = err as {status: number; stderr: string};
        return {status: e.status, stderr: e.stderr};
      }
    };
    expect(run(['--bogus']).status).toBe(2);
    const notTty = run(['--url', 'http://127.0.0.1:9']);
    expect(notTty.status).toBe(2);
    expect(notTty.stderr.trim().split('\n')).toHaveLength(1);
    expect(notTty.stderr).toMatch(/not a terminal/);
  });

  it('sandbox starts and prints its three lines', async () => {
    const child = spawn(bin, ['sandbox', '--port', '0', '--seed', 'empty'], {stdio: ['ignore', 'pipe', 'ignore']});
    const lines = await new Promise<string[]>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no output: ${out}`)), 15_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const got = out.split('\n').filter(Boolean);
        if (got.length >= 3) {
          clearTimeout(timer);
          resolve(got);
        }
      });
    });
    child.kill('SIGTERM');
    expect(lines.map((l) => l.split('=')[0])).toEqual(['FZ_URL', 'FZ_API_TOKEN', 'FZ_UNPRIVILEGED_TOKEN']);
  });

  it.skipIf(!hasTmux())('--demo opens the console', async () => {
    const t = Terminal.start({width: 100, height: 30});
    terminals.push(t);
    t.run(`${bin} --demo`);
    await t.waitFor(/DEMO[\s\S]*1 Devices \d+/);
    t.keys('q');
    await t.waitFor('SHELL-READY$');
    expect(t.altScreen).toBe(false);
  });
});
