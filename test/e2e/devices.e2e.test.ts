// The built binary in tmux against a sandbox process: list, move, filter, detail, live
// stats, pause/resume, resize, quit, and the terminal restored on quit/SIGTERM/SIGHUP.
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {BIN, hasBinary, hasTmux, startSandboxProcess, Terminal, type SandboxProcess} from './harness.js';

const enabled = hasTmux() && hasBinary();
let sandbox: SandboxProcess;
const terminals: Terminal[] = [];

interface DeviceJson {
  id: string;
  name: string;
  user_id: string;
  rx_bytes: number | null;
}

const api = <T>(method: string, path: string, body?: unknown) => sandbox.api<T>(method, path, body);

function terminal(width = 120, height = 40): Terminal {
  const t = Terminal.start({width, height, env: {FZ_URL: sandbox.url, FZ_API_TOKEN: sandbox.adminToken, NO_COLOR: '1'}});
  terminals.push(t);
  return t;
}

function expectRestored(t: Terminal) {
  expect(t.altScreen).toBe(false);
  expect(t.cursorVisible).toBe(true);
}

describe.skipIf(!enabled)('devices end to end (tmux)', {timeout: 120_000}, () => {
  beforeAll(async () => {
    sandbox = await startSandboxProcess(['--seed', 'demo', '--stats-interval', '0']);
  });
  afterAll(async () => {
    for (const t of terminals) t.kill();
    await sandbox?.stop();
  });

  it('lists, moves, filters, opens a detail, shows live stats, pauses, resizes and quits cleanly', async () => {
    const devices = (await api<{data: DeviceJson[]}>('GET', '/v0/devices')).data;
    const names = new Map<string, number>();
    for (const d of devices) names.set(d.name, (names.get(d.name) ?? 0) + 1);
    const target = devices.find((d) => names.get(d.name) === 1 && !devices.some((o) => o !== d && o.name.includes(d.name)))!;
    expect(target).toBeDefined();
    // Start from a known state: never connected.
    await api('PUT', `/_sandbox/devices/${target.id}/stats`, {latest_handshake: null, remote_ip: null, rx_bytes: null, tx_bytes: null});

    // Wide enough for every column; the resize below checks that low-priority ones go first.
    const t = terminal(170, 40);
    t.run(`node ${BIN} --refresh 1`);
    let screen = await t.waitFor((s) => /1 Devices \d+/.test(s) && s.includes(`1/${devices.length} devices`));
    expect(screen).toContain('NAME');
    expect(screen).toMatch(new RegExp(`1/${devices.length} devices`));
    expect(t.altScreen).toBe(true);
    // the frame is one row shorter than the terminal: the last row stays empty
    expect(screen.split('\n')[39]?.trim() ?? '').toBe('');

    t.keys('j', 'j');
    await t.waitFor(new RegExp(`3/${devices.length} devices`));
    t.keys('G');
    await t.waitFor(new RegExp(`${devices.length}/${devices.length} devices`));

    t.keys('/');
    t.type(target.name);
    screen = await t.waitFor(`/${target.name}`);
    await t.waitFor(new RegExp(`1/1 of ${devices.length} devices`));
    t.keys('Enter');
    await t.waitFor(`filter "${target.name}"`);
    t.keys('Enter');
    screen = await t.waitFor('Preshared key');
    expect(screen).toContain('· never connected');
    expect(screen).toMatch(/•+ \(v reveals\)/);

    // A stats write through the sandbox shows within one refresh: state, handshake age, rates.
    const t0 = Date.now();
    await api('PUT', `/_sandbox/devices/${target.id}/stats`, {
      latest_handshake: new Date(t0).toISOString(),
      remote_ip: '203.0.113.7',
      rx_bytes: 1_000_000,
      tx_bytes: 50_000,
    });
    screen = await t.waitFor('● online');
    expect(screen).toContain('203.0.113.7');
    expect(screen).toMatch(/Latest handshake\s+\ds ago/);
    await t.waitUntil(() => Date.now() - t0 >= 2000, '2 s between samples');
    await api('PUT', `/_sandbox/devices/${target.id}/stats`, {
      latest_handshake: new Date().toISOString(),
      remote_ip: '203.0.113.7',
      rx_bytes: 3_000_000,
      tx_bytes: 250_000,
    });
    screen = await t.waitFor(/Received\s+2\.86 MiB\s+[\d.]+ (KiB|MiB)\/s/);
    expect(screen).toMatch(/Sent\s+244\.14 KiB\s+[\d.]+ KiB\/s/);

    // Pause: a change does not show; resume: it does.
    t.keys('p');
    await t.waitFor('PAUSED');
    await api('PUT', `/_sandbox/devices/${target.id}/stats`, {remote_ip: '198.51.100.9'});
    await t.waitUntil(() => Date.now() - t0 > 5000, 'several refresh intervals');
    expect(t.screen()).not.toContain('198.51.100.9');
    t.keys('p');
    await t.waitFor('198.51.100.9');
    await t.waitFor(/live 1s/);

    // Back to the list; resize narrower: low-priority columns go, the layout holds.
    t.keys('Escape');
    screen = await t.waitFor('REMOTE IP');
    t.resize(80, 24);
    screen = await t.waitFor((s) => !s.includes('REMOTE IP') && s.includes('NAME'));
    expect(screen.split('\n').every((line) => line.length <= 80)).toBe(true);
    t.resize(70, 20);
    await t.waitFor('terminal too small: need 80x24, have 70x20');
    t.resize(170, 40);
    await t.waitFor('REMOTE IP');

    t.keys('q');
    await t.waitFor('SHELL-READY$');
    expectRestored(t);
  });

  it('keys do nothing while the screen says the terminal is too small: d y typed blind deletes no one', async () => {
    const users = (await api<{data: Array<{id: string}>}>('GET', '/v0/users')).data.length;
    const t = terminal(120, 40);
    t.run(`node ${BIN} --refresh 0`);
    await t.waitFor(/1 Devices \d+/);
    t.keys('2');
    await t.waitFor(/1\/\d+ users/);
    t.resize(60, 20);
    await t.waitFor('keys and pastes do nothing until then');
    t.keys('d', 'y');
    t.resize(120, 40);
    await t.waitFor(/1\/\d+ users/);
    expect(t.screen()).not.toMatch(/Delete user|deleted/i);
    expect((await api<{data: unknown[]}>('GET', '/v0/users')).data.length).toBe(users);
    // q still quits from the small screen when nothing is open.
    t.resize(60, 20);
    await t.waitFor('press q to quit');
    t.keys('q');
    await t.waitFor('SHELL-READY$');
    expectRestored(t);
  });

  it('under LC_ALL=C every screen, the help and a form draw in ASCII only, at 80×24', async () => {
    const t = terminal(80, 24);
    t.run(`LC_ALL=C LANG=C node ${BIN} --refresh 0`);
    await t.waitFor(/Devices \d+/);
    const nonAscii = (screen: string) => [...screen].filter((ch) => ch.charCodeAt(0) > 0x7e).join('');
    const seen: string[] = [];
    for (const [key, ready] of [
      ['1', /devices/],
      ['2', /users/],
      ['3', /rules/],
      ['4', /Configuration|Config/],
      ['5', /Activity/],
      ['?', /Lists \(here\)/],
    ] as const) {
      t.keys(key);
      seen.push(nonAscii(await t.waitFor(ready)));
    }
    // After Esc, wait for it to be read before the next key (Esc then a key within 50 ms is Alt+key).
    t.keys('Escape');
    await t.waitUntil(() => !t.screen().includes('where you are first'), 'the help to close');
    t.keys('2');
    await t.waitFor(/users/);
    t.keys('n');
    seen.push(nonAscii(await t.waitFor('Add user')));
    expect(seen).toEqual(['', '', '', '', '', '', '']);
    t.keys('Escape');
    await t.waitFor(/users/);
    t.keys('q');
    await t.waitFor('SHELL-READY$');
  });

  it("under LC_ALL=C a detail's footer says what is below in words, with no key it does not mean (v reveals the preshared key)", async () => {
    const t = terminal(80, 24);
    t.run(`LC_ALL=C LANG=C node ${BIN} --refresh 0`);
    await t.waitFor(/Devices \d+/);
    t.keys('Enter');
    const screen = await t.waitFor(/\d+ more lines? below \(j \/ Down\)/);
    expect(screen).not.toMatch(/(^|\s)v \d+ more/m);
    expect(screen).not.toContain('(j / v)');
    // The preshared key stays hidden: nothing on the screen told the admin to press v.
    expect(screen).not.toMatch(/Preshared key\s+[A-Za-z0-9+/]{43}=/);
    t.keys('q');
    await t.waitFor('SHELL-READY$');
  });

  it('restores the terminal after a crash and prints the error there, exit status 1', async () => {
    const t = terminal(100, 30);
    t.run(`FZ_CONSOLE_TEST_CRASH=render node ${BIN}; echo "exit=$?"`);
    const screen = await t.waitFor('exit=1');
    expect(screen).toContain('fz-console: Error: injected render error (FZ_CONSOLE_TEST_CRASH=render)');
    expectRestored(t);
  });

  it.each([['SIGTERM'], ['SIGHUP']])('restores the terminal on %s', async (signal) => {
    const t = terminal(100, 30);
    t.run(`node ${BIN}`);
    await t.waitFor(/1 Devices \d+/);
    expect(t.altScreen).toBe(true);
    const pid = t.childPid();
    expect(pid).not.toBeNull();
    process.kill(pid!, signal as NodeJS.Signals);
    await t.waitUntil(() => !t.altScreen, 'the alternate screen to be left');
    await t.waitFor('SHELL-READY$');
    expectRestored(t);
  });
});
