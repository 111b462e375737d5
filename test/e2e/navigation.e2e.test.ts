// Navigation power end to end, the built binary in tmux against sandbox processes: the command
// bar switching screens and profiles (two servers from one config file, nothing of the first
// server's screen carried to the second), and `?` opening on the keys of where you are.
import {chmodSync, mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {BIN, hasBinary, hasTmux, startSandboxProcess, Terminal, type SandboxProcess} from './harness.js';
import {publicKey} from '../sandbox/helpers.js';
import {TempDirs} from '../helpers/tmp.js';

const enabled = hasTmux() && hasBinary();
let a: SandboxProcess;
let b: SandboxProcess;
let term: Terminal;
let dir: string;
// The config's home and each test's HOME, removed once the terminal that ran the console is gone.
const tmp = new TempDirs();

/** A private file, as the console requires of token files and the config. */
function secret(path: string, text: string): void {
  writeFileSync(path, text, {mode: 0o600});
  chmodSync(path, 0o600);
}

/** The sandbox's API as its admin. */
function apiOf(sandbox: SandboxProcess) {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: {authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json'},
      ...(body === undefined ? {} : {body: JSON.stringify(body)}),
    });
    return (await res.json()) as T;
  };
}

async function count(sandbox: SandboxProcess, path: string): Promise<number> {
  const res = await fetch(`${sandbox.url}${path}`, {headers: {authorization: `Bearer ${sandbox.adminToken}`}});
  return ((await res.json()) as {data: unknown[]}).data.length;
}

describe.skipIf(!enabled)('navigation end to end (tmux)', {timeout: 120_000}, () => {
  beforeAll(async () => {
    [a, b] = await Promise.all([
      startSandboxProcess(['--seed', 'demo', '--stats-interval', '0']),
      startSandboxProcess(['--seed', 'demo', '--devices', '7', '--users', '3', '--stats-interval', '0']),
    ]);
    dir = tmp.make('fzc-nav-');
    const config = join(dir, 'config');
    mkdirSync(join(config, 'fz-console'), {recursive: true, mode: 0o700});
    secret(join(dir, 'a.token'), `${a.adminToken}\n`);
    secret(join(dir, 'b.token'), `${b.adminToken}\n`);
    secret(
      join(config, 'fz-console', 'config.json'),
      JSON.stringify({
        defaultProfile: 'alpha',
        profiles: {
          alpha: {url: a.url, tokenFile: join(dir, 'a.token'), refresh: 0},
          beta: {url: b.url, tokenFile: join(dir, 'b.token'), refresh: 0},
          broken: {url: 'http://127.0.0.1:9', tokenFile: join(dir, 'b.token'), refresh: 0},
        },
      }),
    );
    term = Terminal.start({width: 120, height: 32, env: {NO_COLOR: '1', HOME: dir, XDG_CONFIG_HOME: config}});
  });
  afterAll(async () => {
    term?.kill();
    await Promise.all([a?.stop(), b?.stop()]);
    tmp.remove();
  });

  it(':users switches screens; :profile lists, fails without moving, and switches with the header and lists following', async () => {
    const [devicesA, devicesB] = await Promise.all([count(a, '/v0/devices'), count(b, '/v0/devices')]);
    expect(devicesA).not.toBe(devicesB);
    term.run(`clear; node ${BIN}; echo "exit=$?"`);
    await term.waitFor(new RegExp(`1/${devicesA} devices`));
    expect(term.screen().split('\n')[0]).toContain('alpha');
    // A filter and a mark on alpha: neither may follow to beta.
    term.type('/laptop');
    term.keys('Enter');
    await term.waitFor('filter "laptop" (Esc clears)');
    term.keys('Space');
    await term.waitFor('1 marked');
    term.type(':users');
    term.keys('Enter');
    await term.waitFor(/EMAIL.? +ROLE/);
    term.type(':profile');
    term.keys('Enter');
    await term.waitFor(`* alpha   ${a.url}`);
    expect(term.screen()).toContain(`  beta    ${b.url}`);
    term.keys('Escape');
    await term.waitFor(/EMAIL.? +ROLE/);
    term.type(':profile broken');
    term.keys('Enter');
    // A long message wraps onto a second line.
    const failed = await term.waitFor('Profile broken: Cannot reach 127.0.0.1:9');
    expect(failed.replace(/\s+/g, ' ')).toContain('connection refused (ECONNREFUSED) (still connected with alpha)');
    expect(term.screen().split('\n')[0]).toContain('alpha');
    // Tab completes the profile's name.
    term.type(':profile be');
    term.keys('Tab');
    await term.waitFor(/^:profile beta\s*$/m);
    term.keys('Enter');
    await term.waitFor(`Connected with profile beta (${b.url})`);
    expect(term.screen().split('\n')[0]).toContain('beta');
    term.type(':dev');
    term.keys('Enter');
    const screen = await term.waitFor(new RegExp(`1/${devicesB} devices`));
    expect(screen).not.toContain('filter "laptop"');
    expect(screen).not.toContain('marked');
    // And back.
    term.type(':ctx alpha');
    term.keys('Enter');
    await term.waitFor(`Connected with profile alpha (${a.url})`);
    term.type(':dev');
    term.keys('Enter');
    await term.waitFor(new RegExp(`1/${devicesA} devices`));
    term.keys('q');
    await term.waitFor('exit=0');
  });

  it('? opens on the keys of where you are; / searches the help', async () => {
    term.run(`clear; node ${BIN}; echo "exit=$?"`);
    await term.waitFor(/1\/\d+ devices/);
    term.keys('Enter');
    await term.waitFor('Device ›');
    term.type('?');
    let screen = await term.waitFor('Detail views (here)');
    const lines = screen.split('\n');
    expect(lines.findIndex((l) => l.includes('Detail views (here)'))).toBeLessThan(lines.findIndex((l) => l.trim() === 'Everywhere'));
    term.type('/qr');
    screen = await term.waitFor('/qr');
    expect(screen).toContain('QR code / config text');
    expect(screen).not.toContain('next screen');
    term.keys('Escape');
    await term.waitFor('/ searches the help');
    term.keys('Escape');
    await term.waitFor('Device ›');
    term.keys('q');
    await term.waitFor('exit=0');
  });

  it('the four filter examples give exactly the counts of the server data', async () => {
    const c = await startSandboxProcess(['--seed', 'empty', '--stats-interval', '0']);
    try {
      const api = apiOf(c);
      const ann = (await api<{data: {id: string}}>('POST', '/v0/users', {user: {email: 'ann@example.com', role: 'unprivileged'}})).data;
      const bob = (await api<{data: {id: string}}>('POST', '/v0/users', {user: {email: 'bob@example.com', role: 'unprivileged'}})).data;
      const DAY = 86_400_000;
      const GiB = 1024 ** 3;
      // Handshakes far from every boundary: 10 s ago (online), 10 and 40 days ago (idle), never.
      const plan = [
        {owner: ann, hs: 10_000, rx: 2 * GiB},
        {owner: ann, hs: 10_000, rx: 100},
        {owner: ann, hs: 40 * DAY, rx: 5 * GiB},
        {owner: ann, hs: 10 * DAY, rx: 0},
        {owner: ann, hs: null, rx: null},
        {owner: bob, hs: 10_000, rx: 3 * GiB},
        {owner: bob, hs: 40 * DAY, rx: 1},
        {owner: bob, hs: 50 * DAY, rx: 1.5 * GiB},
        {owner: bob, hs: null, rx: null},
      ];
      for (const [i, d] of plan.entries()) {
        const created = await api<{data: {id: string}}>('POST', '/v0/devices', {device: {user_id: d.owner.id, name: `dev-${i}`, public_key: publicKey()}});
        if (d.hs !== null) {
          await api('PUT', `/_sandbox/devices/${created.data.id}/stats`, {
            latest_handshake: new Date(Date.now() - d.hs).toISOString(),
            remote_ip: '198.51.100.7',
            rx_bytes: d.rx,
            tx_bytes: 0,
          });
        }
      }
      // What the server says, counted here from its JSON (not by the console's code).
      const devices = (await api<{data: Array<{user_id: string; latest_handshake: string | null; rx_bytes: number | null}>}>('GET', '/v0/devices')).data;
      const age = (d: {latest_handshake: string | null}) => (d.latest_handshake === null ? Infinity : Date.now() - Date.parse(d.latest_handshake));
      const expected: Record<string, number> = {
        'state:online': devices.filter((d) => age(d) <= 180_000).length,
        'owner:ann@example.com': devices.filter((d) => d.user_id === ann.id).length,
        'rx>1GiB': devices.filter((d) => (d.rx_bytes ?? -1) > GiB).length,
        'state:idle handshake>30d': devices.filter((d) => age(d) > 30 * DAY && d.latest_handshake !== null).length,
      };
      expect(Object.values(expected)).toEqual([3, 5, 4, 3]);
      const home = tmp.make('fzc-filters-');
      term.run(`clear; HOME=${home} FZ_URL=${c.url} FZ_API_TOKEN=${c.adminToken} node ${BIN}; echo "exit=$?"`);
      await term.waitFor(`1/${devices.length} devices`);
      for (const [filter, n] of Object.entries(expected)) {
        term.type(`/${filter}`);
        term.keys('Enter');
        await term.waitFor(`filter "${filter}" (Esc clears)  1/${n} of ${devices.length} devices`);
        term.keys('Escape');
        await term.waitFor(new RegExp(`^\\d+/${devices.length} devices`, 'm'));
      }
      // An unknown key is said, not shown as zero matches.
      term.type('/sate:online');
      await term.waitFor('unknown filter key "sate"');
      expect(term.screen()).toMatch(new RegExp(`\\d+/${devices.length} devices`));
      term.keys('Escape');
      await term.waitFor(new RegExp(`^\\d+/${devices.length} devices`, 'm'));
      term.keys('q');
      await term.waitFor('exit=0');
    } finally {
      await c.stop();
    }
  });

  it(':trace answers the kinds of case of the 0.7.36 layout, and the Rules list marks the shadowed rule', async () => {
    const c = await startSandboxProcess(['--seed', 'empty', '--stats-interval', '0']);
    try {
      const api = apiOf(c);
      const alice = (await api<{data: {id: string}}>('POST', '/v0/users', {user: {email: 'alice@example.com', role: 'unprivileged'}})).data;
      const bob = (await api<{data: {id: string}}>('POST', '/v0/users', {user: {email: 'bob@example.com', role: 'unprivileged'}})).data;
      for (const [owner, name] of [
        [alice, 'alice-laptop'],
        [bob, 'bob-laptop'],
      ] as const) {
        await api('POST', '/v0/devices', {device: {user_id: owner.id, name, public_key: publicKey()}});
      }
      const rules = [
        {action: 'accept', destination: '10.2.0.0/16', user_id: alice.id},
        {action: 'drop', destination: '10.2.3.0/24', user_id: alice.id},
        {action: 'drop', destination: '10.2.9.9', port_type: 'tcp', port_range: '22', user_id: alice.id},
        {action: 'drop', destination: '10.0.0.0/8'},
        {action: 'accept', destination: '10.7.7.7', port_type: 'udp', port_range: '53'},
        {action: 'drop', destination: '10.8.0.0/16', user_id: alice.id},
        {action: 'accept', destination: '10.8.0.0/16'},
      ];
      for (const rule of rules) {
        const created = await api<{data?: unknown; errors?: unknown}>('POST', '/v0/rules', {rule});
        expect(created.errors, JSON.stringify(rule)).toBeUndefined();
      }
      const home = tmp.make('fzc-trace-');
      term.resize(140, 40);
      term.run(`clear; HOME=${home} FZ_URL=${c.url} FZ_API_TOKEN=${c.adminToken} node ${BIN}; echo "exit=$?"`);
      await term.waitFor(/1\/2 devices/);
      const cases: Array<[string, string, string]> = [
        // a user's port drop over the same user's port-less accept
        ['alice@example.com 10.2.9.9:22/tcp', 'Verdict: DROP', 'decided by DROP 10.2.9.9 tcp 22 · alice@example.com'],
        // a user's drop over a global accept
        ['alice@example.com 10.8.1.1', 'Verdict: DROP', 'decided by DROP 10.8.0.0/16 all ports · alice@example.com'],
        // another user's rules do not apply
        ['bob@example.com 10.8.1.1', 'Verdict: ACCEPT', 'decided by ACCEPT 10.8.0.0/16 all ports · global'],
        // a global port accept over a global drop
        ['bob-laptop 10.7.7.7:53/udp', 'Verdict: ACCEPT', 'decided by ACCEPT 10.7.7.7 udp 53 · global'],
        // a global drop
        ['bob@example.com 10.5.5.5:80/tcp', 'Verdict: DROP', 'decided by DROP 10.0.0.0/8 all ports · global'],
        // the policy
        ['bob@example.com 192.168.1.1:443/tcp', 'Verdict: ACCEPT', "no rule matches: the forward chain's policy accepts"],
        // a shadowed drop: matched, never reached
        ['alice@example.com 10.2.3.4:443/tcp', 'Verdict: ACCEPT', '  DROP 10.2.3.0/24 all ports · alice@example.com'],
      ];
      for (const [args, verdict, why] of cases) {
        term.type(`:trace ${args}`);
        term.keys('Enter');
        const screen = await term.waitFor(`Trace: ${args.replace(' ', ' → ')}`);
        const body = screen.split('\n');
        const first = body.findIndex((l) => l.startsWith('Verdict:'));
        expect(body[first], args).toBe(verdict);
        expect(screen, args).toContain(why);
        term.keys('Escape');
        await term.waitUntil(() => !term.screen().includes('Trace:'), 'the trace panel to close');
      }
      // The Rules list: the shadowed rule marked and counted, /shadowed finds it.
      term.keys('3');
      await term.waitFor(/10\.2\.3\.0\/24 .* shadowed/);
      expect(term.screen()).toContain('1 never decides (/shadowed, /orphaned)');
      term.type('/shadowed');
      term.keys('Enter');
      await term.waitFor(/1\/1 of 7 rules/);
      term.keys('q');
      await term.waitFor('exit=0');
    } finally {
      term.resize(120, 32);
      await c.stop();
    }
  });
});
