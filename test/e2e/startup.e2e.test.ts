// Start-up problems, in a real terminal (the connection is resolved only when stdin and stdout
// are terminals): each is one line on stderr naming the problem, exit status 2, no stack trace,
// no hang; a profile's tokenCommand runs once; the token never shows.
import {execFileSync} from 'node:child_process';
import {chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {BIN as BUILT, hasBinary, hasTmux, startSandboxProcess, Terminal, type SandboxProcess} from './harness.js';
import {TempDirs} from '../helpers/tmp.js';

const enabled = hasTmux() && hasBinary();
// FZ_E2E_BIN: run against another build (e.g. an older commit's, to see this test fail there).
const BIN = process.env.FZ_E2E_BIN ?? BUILT;
let sandbox: SandboxProcess;
let term: Terminal;
let dir: string;
const tmp = new TempDirs();
let config: string;
let run = 0;

/** Runs the binary in the pane with `env` and `args`; resolves to what it printed and its status. */
async function start(env: string, args = ''): Promise<{status: number; output: string[]}> {
  const n = ++run;
  term.run(`clear; ${env} node ${BIN} ${args}; echo "exit=$? run=${n}"`);
  const screen = await term.waitFor(new RegExp(`exit=\\d+ run=${n}\\n`), 10_000);
  const lines = screen
    .split('\n')
    .map((l) => l.trimEnd())
    .filter(Boolean);
  const end = lines.findIndex((l) => l.startsWith('exit='));
  expect(term.altScreen).toBe(false);
  return {status: Number(/exit=(\d+)/.exec(lines[end]!)![1]), output: lines.slice(0, end)};
}

function writeProfile(profile: Record<string, unknown>): void {
  mkdirSync(join(config, 'fz-console'), {recursive: true, mode: 0o700});
  const path = join(config, 'fz-console', 'config.json');
  writeFileSync(path, JSON.stringify({defaultProfile: 'p', profiles: {p: profile}}));
  chmodSync(path, 0o600);
}

describe.skipIf(!enabled)('start-up errors end to end (tmux)', {timeout: 120_000}, () => {
  beforeAll(async () => {
    sandbox = await startSandboxProcess(['--seed', 'empty', '--stats-interval', '0']);
    dir = tmp.make('fzc-startup-');
    config = join(dir, 'config');
    // A wide pane: each message must fit on one screen line to be checked as one line.
    term = Terminal.start({width: 250, height: 30, env: {NO_COLOR: '1', HOME: dir, XDG_CONFIG_HOME: config}});
  });
  afterAll(async () => {
    term?.kill();
    await sandbox?.stop();
    // The terminal's HOME (its shell may still be writing its history as it goes: remove retries).
    tmp.remove();
  });

  const connect = () => `FZ_URL=${sandbox.url} FZ_API_TOKEN=${sandbox.adminToken}`;

  it('a revoked token: the prompt refuses a wrong one with the reason and stays, then takes a good one', async () => {
    const get = async (method: string, path: string, body?: unknown) =>
      (await fetch(`${sandbox.url}${path}`, {
        method,
        headers: {authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json'},
        ...(body === undefined ? {} : {body: JSON.stringify(body)}),
      }).then((r) => r.json())) as {data: Array<{id: string; role: string}>} & {token: string; id: string};
    const admin = (await get('GET', '/v0/users')).data.find((u) => u.role === 'admin')!;
    const issued = await get('POST', '/_sandbox/tokens', {user_id: admin.id, expires_in_days: 1});
    const n = ++run;
    term.run(`clear; FZ_URL=${sandbox.url} FZ_API_TOKEN=${issued.token} node ${BIN} --refresh 1; echo "exit=$? run=${n}"`);
    await term.waitFor(/1 Devices \d+/);
    await fetch(`${sandbox.url}/_sandbox/tokens/${issued.id}`, {method: 'DELETE', headers: {authorization: `Bearer ${sandbox.adminToken}`}});
    await term.waitFor('New API token');
    term.type('garbage');
    term.keys('Enter');
    await term.waitFor('The server rejected that token too: its signature does not match this server');
    expect(term.screen()).toContain('New API token');
    term.tmux('set-buffer', sandbox.adminToken);
    term.tmux('paste-buffer', '-p', '-t', term.name);
    term.keys('Enter');
    await term.waitFor('Token accepted; resuming live updates');
    await term.waitFor(/live 1s/);
    expect(term.screen()).not.toContain(sandbox.adminToken.slice(0, 24));
    term.keys('q');
    await term.waitFor(new RegExp(`exit=0 run=${n}`));
  });

  it('--ca-file that is missing, a directory, or holds no certificate', async () => {
    let r = await start(connect(), `--ca-file ${join(dir, 'missing.pem')}`);
    expect(r).toEqual({status: 2, output: [`fz-console: Cannot read CA file ${join(dir, 'missing.pem')}: ENOENT`]});
    r = await start(connect(), `--ca-file ${dir}`);
    expect(r).toEqual({status: 2, output: [`fz-console: CA file ${dir} is a directory, not a regular file`]});
    const notPem = join(dir, 'not.pem');
    writeFileSync(notPem, 'this is not a certificate\n');
    r = await start(connect(), `--ca-file ${notPem}`);
    expect(r).toEqual({status: 2, output: [`fz-console: CA file ${notPem} contains no PEM certificate (no "-----BEGIN CERTIFICATE-----" line)`]});
  });

  it('FZ_API_TOKEN_FILE that is a directory or a FIFO (no hang)', async () => {
    const tokenDir = join(dir, 'tokendir');
    mkdirSync(tokenDir, {mode: 0o700});
    let r = await start(`FZ_URL=${sandbox.url} FZ_API_TOKEN_FILE=${tokenDir}`);
    expect(r).toEqual({status: 2, output: [`fz-console: Token file ${tokenDir} is a directory, not a regular file`]});
    const fifo = join(dir, 'tokenfifo');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    r = await start(`FZ_URL=${sandbox.url} FZ_API_TOKEN_FILE=${fifo}`);
    expect(r).toEqual({status: 2, output: [`fz-console: Token file ${fifo} is a named pipe (FIFO), not a regular file`]});
  });

  it('--activity-log through a symbolic link, to a FIFO, or shared with others is refused at start; the link target is untouched', async () => {
    const target = join(dir, 'bashrc');
    writeFileSync(target, 'alias ll="ls -l"\n');
    chmodSync(target, 0o644);
    const link = join(dir, 'audit-link.jsonl');
    symlinkSync(target, link);
    let r = await start(connect(), `--activity-log ${link}`);
    expect(r).toEqual({
      status: 2,
      output: [`fz-console: cannot open the activity log: ${link} is a symbolic link: name the file itself (logs are never written through a link)`],
    });
    expect(readFileSync(target, 'utf8')).toBe('alias ll="ls -l"\n');
    expect(statSync(target).mode & 0o777).toBe(0o644);
    const fifo = join(dir, 'audit-fifo');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    r = await start(connect(), `--activity-log ${fifo}`);
    expect(r).toEqual({
      status: 2,
      output: [`fz-console: cannot open the activity log: ${fifo} is a named pipe (FIFO), not a regular file`],
    });
    r = await start(connect(), `--activity-log ${target}`);
    expect(r).toEqual({
      status: 2,
      output: [`fz-console: cannot open the activity log: ${target} can be read or written by others (mode 0644): chmod 600 it, or name another file`],
    });
  });

  it('a token with a line break or a character outside Latin-1 is named at start, never shown', async () => {
    let r = await start(`FZ_URL=${sandbox.url} FZ_API_TOKEN=$'secret-part-one\\nsecret-part-two'`);
    expect(r).toEqual({status: 2, output: ['fz-console: The API token from FZ_API_TOKEN contains a line break; a token is one line']});
    r = await start(`FZ_URL=${sandbox.url} FZ_API_TOKEN='secret-€-token'`);
    expect(r).toEqual({status: 2, output: ['fz-console: The API token from FZ_API_TOKEN contains a character that cannot be sent in an HTTP header']});
  });

  it("a profile's failing tokenCommand runs once and is reported once", async () => {
    const counter = join(dir, 'count-fail');
    writeProfile({url: sandbox.url, tokenCommand: `echo ran >> ${counter}; exit 1`});
    const r = await start('');
    expect(r).toEqual({status: 2, output: ['fz-console: tokenCommand exited with status 1']});
    expect(readFileSync(counter, 'utf8')).toBe('ran\n');
  });

  it("with CI=1 in its environment (a runner's shell) it still draws, moves and follows a resize", async () => {
    // Ink's CI mode would draw nothing until exit and ignore resizes (docs/terminal-notes.md).
    const n = ++run;
    term.run(`clear; CI=1 CONTINUOUS_INTEGRATION=true ${connect()} node ${BIN}; echo "exit=$? run=${n}"`);
    await term.waitFor(/1 Devices \d+/);
    term.keys(':');
    term.type('users');
    term.keys('Enter');
    await term.waitFor(/EMAIL/);
    // The title line's right half ("live … updated …") ends at the right edge: at 250 columns it
    // is ~250 long, after the resize at most 100.
    const title = (s: string) =>
      s
        .split('\n')
        .find((l) => l.startsWith('fz-console'))
        ?.trimEnd().length ?? 0;
    expect(title(term.screen())).toBeGreaterThan(200);
    term.resize(100, 30);
    await term.waitFor((s) => title(s) > 80 && title(s) <= 100);
    term.resize(250, 30);
    term.keys('q');
    await term.waitFor(`exit=0 run=${n}`);
  });

  it("start-up loads nothing it does not use: yoga's WebAssembly comes without Node's fetch (and its undici), an http:// server without TLS", async () => {
    // Node's fetch() loads Node's own copy of undici (~40 ms before the first frame); yoga's loader
    // called it on its data: URL (scripts/esbuild-common.mjs, yogaWasmWithoutFetch).
    const preload = join(dir, 'modules.cjs');
    const out = join(dir, 'modules.json');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList)));`);
    const n = ++run;
    term.run(`clear; ${connect()} node --require ${preload} ${BIN}; echo "exit=$? run=${n}"`);
    await term.waitFor(/1 Devices \d+/);
    term.keys('q');
    await term.waitFor(`exit=0 run=${n}`);
    const modules = JSON.parse(readFileSync(out, 'utf8')) as string[];
    // The console ran: its own sockets were loaded.
    expect(modules).toContain('NativeModule net');
    expect(modules.filter((m) => m.includes('undici'))).toEqual([]);
    // node:tls (with crypto, ~20 ms) loads on the first https:// connection (src/api/http-get.ts):
    // before the first poll's requests could leave, every start paid for it.
    expect(modules.filter((m) => /\b(tls|_tls_wrap)$/.test(m))).toEqual([]);
  });

  /** Every byte `command` wrote to the terminal (tmux pipe-pane) from its start until `q` ended it on the device list. */
  async function bytesOfRun(command: string, file: string): Promise<string> {
    const bytes = join(dir, file);
    term.tmux('pipe-pane', '-o', '-t', term.name, `cat >> ${bytes}`);
    const n = ++run;
    term.run(`clear; ${command}; echo "exit=$? run=${n}"`);
    await term.waitFor(/1 Devices \d+/);
    term.keys('q');
    await term.waitFor(`exit=0 run=${n}`);
    term.tmux('pipe-pane', '-t', term.name);
    return readFileSync(bytes, 'latin1');
  }

  it("the first frame is the first poll's: no empty 'loading…' screen is drawn just before it", async () => {
    // The first poll arrives while the console loads (src/early.ts); bin.ts starts drawing once it
    // is there, and App draws nothing until it is applied (firstDataReady).
    const written = await bytesOfRun(`${connect()} node ${BIN}`, 'first-frame.bytes');
    expect(written).not.toContain('loading');
    // Drawn whole, as the first frame is (a later frame sends only the cells that changed).
    expect(written).toMatch(/1 Devices \d+/);
  });

  it("--demo's first frame is its first poll's too (npm start): no 'loading…' screen before it", async () => {
    // The demo's sandbox starts in the console's process, after the UI has loaded; cli.tsx waits
    // for its first poll as bin.ts does for a server's.
    const written = await bytesOfRun(`node ${BIN} --demo`, 'first-frame-demo.bytes');
    expect(written).not.toContain('loading');
    expect(written).toMatch(/1 Devices \d+/);
  });

  it("a profile's working tokenCommand runs once", async () => {
    const counter = join(dir, 'count-ok');
    writeProfile({url: sandbox.url, tokenCommand: `echo ran >> ${counter}; echo ${sandbox.adminToken}`});
    const n = ++run;
    term.run(`clear; node ${BIN}; echo "exit=$? run=${n}"`);
    await term.waitFor(/1 Devices \d+/);
    term.keys('q');
    await term.waitFor(`exit=0 run=${n}`);
    expect(readFileSync(counter, 'utf8')).toBe('ran\n');
  });
});
