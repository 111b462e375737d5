// The console shell and its screens, rendered through the rig (test/helpers/rig.tsx) against a real sandbox.
import {describe, expect, it} from 'vitest';
import {fetchAll} from '../../src/state/data/fetch.js';
import type {AppSettings} from '../../src/ui/App.js';
import {strip} from '../helpers/ink.js';
import {renderApp, useSandbox} from '../helpers/rig.js';

const fx = useSandbox({seed: 'demo'});
const settings: Partial<AppSettings> = {label: 'test', refreshSeconds: 0, readOnly: false, insecure: false, demo: true};

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await fx.api<T>(method, path, body)).json;
}

describe('App', () => {
  it('opens on Devices with owner emails and moves through screens with 1-5 and Tab', async () => {
    const devices = (await api<{data: Array<{name: string}>}>('GET', '/v0/devices')).data;
    const app = await renderApp({fixture: fx, settings, ready: false});
    const frame = await app.waitFor(/1 Devices \d+/);
    expect(frame).toContain('DEMO');
    expect(frame).toContain(`1/${devices.length} devices`);
    expect(frame).toMatch(/@/);
    // how many are connected, at a glance: the three counts add up to every device
    const counts = /(\d+) online · (\d+) idle · (\d+) never connected/.exec(await app.waitFor(/never connected/));
    expect(counts!.slice(1).reduce((n, c) => n + Number(c), 0)).toBe(devices.length);
    expect(Number(counts![1])).toBeGreaterThan(0);
    await app.press('screen2');
    await app.waitFor('EMAIL');
    expect(app.frame()).toMatch(/ENABLED|DISABLED|EXPIRED/);
    await app.press('screen3');
    await app.waitFor('DESTINATION');
    await app.press('nextScreen');
    await app.waitFor('Client defaults');
    await app.press('nextScreen');
    await app.waitFor(/SEEN +WHAT +OBJECT/);
    await app.press('nextScreen');
    await app.waitFor('NAME');
  });

  it('filters case-insensitively, keeps the selection by id, and opens the detail with masked key', async () => {
    const devices = (await api<{data: Array<{id: string; name: string; preshared_key: string}>}>('GET', '/v0/devices')).data;
    const target = devices.find((d) => devices.filter((o) => o.name.toLowerCase().includes(d.name.toLowerCase())).length === 1)!;
    const app = await renderApp({fixture: fx, settings, ready: /1\/\d+ devices/});
    await app.press('filter', 'list');
    await app.type(target.name.toUpperCase());
    await app.waitFor(new RegExp(`1/1 of ${devices.length} devices`));
    await app.press('filterAccept', 'filter');
    await app.press('open', 'list');
    let frame = await app.waitFor('Preshared key');
    expect(frame).toContain(target.name);
    expect(frame).not.toContain(target.preshared_key);
    await app.press('reveal', 'detail');
    frame = await app.waitFor(target.preshared_key);
    await app.press('back', 'detail');
    await app.waitFor(`filter "${target.name.toUpperCase()}"`);
    await app.press('back', 'global');
    frame = await app.waitFor(new RegExp(`/${devices.length} devices`));
    // the cursor is still on the target after the filter is cleared
    const position = Number(/(\d+)\/\d+ devices/.exec(frame)![1]);
    expect(position).toBeGreaterThan(0);
    await app.press('open', 'list');
    await app.waitFor(`Device › ${target.name}`);
  });

  it('help opens on the keys of where you are, in one column, and / searches it', async () => {
    const app = await renderApp({fixture: fx, settings, ready: /1\/\d+ devices/});
    app.resize(160, 40);
    await app.press('help');
    let frame = await app.waitFor('Keys — where you are first');
    const lines = frame.split('\n');
    // The list's keys first, then those that work everywhere; never two columns side by side.
    const first = lines.findIndex((l) => l.trim() === 'Lists (here)');
    expect(first).toBeGreaterThan(0);
    expect(lines.findIndex((l) => l.trim() === 'Everywhere')).toBeGreaterThan(first);
    expect(lines.filter((l) => /Everywhere|Lists \(here\)/.test(l)).every((l) => /^\s*(Everywhere|Lists \(here\))\s*$/.test(l))).toBe(true);
    await app.press('filter', 'help');
    await app.type('reveal');
    frame = await app.waitFor('/reveal');
    expect(frame).toContain('reveal / hide secrets (preshared key)');
    expect(frame).not.toContain('next screen');
    await app.press('filterAccept', 'helpSearch');
    await app.waitFor('search "reveal" (Esc clears)');
    await app.press('back', 'help');
    await app.waitFor('/ searches the help');
    await app.press('back', 'help');
    await app.waitFor(/1\/\d+ devices/);
  });

  it('--insecure keeps a red INSECURE TLS badge in the header', async () => {
    const app = await renderApp({fixture: fx, settings: {...settings, insecure: true}, ready: false});
    const frame = await app.waitFor(/1\/\d+ devices/);
    expect(frame.split('\n')[0]).toContain('INSECURE TLS');
  });

  it('plain http:// to a host that is not loopback keeps a PLAIN HTTP badge in the header', async () => {
    const app = await renderApp({fixture: fx, settings: {...settings, plainHttp: true}, ready: false});
    const frame = await app.waitFor(/1\/\d+ devices/);
    expect(frame.split('\n')[0]).toContain('PLAIN HTTP');
  });

  it('says what size it needs below 80×24', async () => {
    const app = await renderApp({fixture: fx, settings, ready: false});
    app.resize(60);
    await app.waitFor('terminal too small: need 80x24, have 60x30');
  });

  // It was cut to the width: `need 80×2…` at 10 columns, a size the console does not need.
  it.each([
    [1, 1, ['!']],
    [4, 3, ['!']],
    [8, 3, ['80x24', 'q quits']],
    [5, 1, ['80x24']],
    [7, 2, ['80x24']],
    [10, 2, ['need 80x24']],
    [12, 6, ['need 80x24', 'q quits']],
    [22, 4, ['too small: need 80x24', 'resize, or q to quit', 'keys wait until then']],
    [40, 2, ['too small: need 80x24, have 40x2']],
    [79, 30, ['terminal too small: need 80x24, have 79x30', 'resize the window, or press q to quit', 'keys and pastes do nothing until then']],
    [200, 1, ['terminal too small: need 80x24, have 200x1']],
  ])('at %ix%i the too-small screen fits: %j, nothing cut', async (columns, rows, expected) => {
    const app = await renderApp({fixture: fx, settings, ready: false});
    app.resize(columns, rows);
    const first = expected[0]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const frame = await app.waitFor(new RegExp(`^${first}\\s*$`, 'm'));
    const lines = app
      .frame()
      .split('\n')
      .map((l) => l.trimEnd())
      .filter((l) => l !== '');
    expect(lines, frame).toEqual(expected);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(columns);
  });

  it('--read-only refuses every write with a status message and sends nothing', async () => {
    const before = (await api<{data: unknown[]}>('GET', '/v0/users')).data.length;
    const app = await renderApp({fixture: fx, settings: {...settings, readOnly: true}, ready: /READ-ONLY[\s\S]*1\/\d+ devices/});
    await app.press('new', 'list');
    await app.waitFor('Read-only mode: creating devices is disabled (started with --read-only)');
    await app.press('delete', 'list');
    await app.waitFor('Read-only mode: deleting devices is disabled');
    await app.press('screen2');
    await app.press('new', 'list');
    await app.waitFor('Read-only mode: creating users is disabled');
    await app.press('screen4');
    await app.press('edit', 'configuration');
    await app.waitFor('Read-only mode: changing the configuration is disabled');
    expect((await api<{data: unknown[]}>('GET', '/v0/users')).data.length).toBe(before);
  });

  it('an Esc glued to the next key (Alt+key to the terminal) that nothing binds is Esc, then the key', async () => {
    const app = await renderApp({fixture: fx, settings, ready: /1\/\d+ devices/});
    await app.press('filter', 'list');
    await app.type('xyz');
    await app.waitFor('/xyz');
    // ESC and `2` in one write: Esc typed fast before 2, or Alt-2, which nothing binds. It was
    // dropped in silence; it is Esc (the filter is cleared) and then 2 (the Users screen).
    await app.keys('\x1b2');
    const frame = await app.waitFor('EMAIL');
    expect(frame).not.toContain('xyz');
    await app.press('screen1');
    await app.waitFor(/1\/\d+ devices/);
    expect(app.frame()).not.toContain('xyz');
  });
});

// bin.ts starts the console once the first poll has arrived (or after 1.5 s): the first frame is
// then that poll's, not an empty shell drawn just before it (src/ui/App.tsx, firstDataReady).
describe('the first frame', () => {
  const drawn = (frames: readonly string[]) => frames.map((f) => strip(f)).filter((f) => f.trim() !== '');

  it('shows the first poll when its data had arrived before the console started', async () => {
    const firstData = fetchAll(fx.client);
    await firstData;
    const app = await renderApp({fixture: fx, settings, firstData, firstDataReady: true, ready: false});
    await app.waitFor(/1\/\d+ devices/);
    expect(drawn(app.frames)[0]).toMatch(/1\/\d+ devices/);
    await app.unmount();
  });

  it('draws at once while the first data is still on its way (a slow server), and shows a first poll that failed', async () => {
    let arrive!: (data: Awaited<ReturnType<typeof fetchAll>>) => void;
    const slow = new Promise<Awaited<ReturnType<typeof fetchAll>>>((resolve) => (arrive = resolve));
    const app = await renderApp({fixture: fx, settings, firstData: slow, firstDataReady: false, ready: false});
    await app.waitFor(/fz-console/);
    expect(drawn(app.frames)[0]).not.toMatch(/devices/);
    arrive(await fetchAll(fx.client));
    await app.waitFor(/1\/\d+ devices/);
    await app.unmount();

    const failed = Promise.reject(new Error('the server went away'));
    failed.catch(() => undefined);
    const broken = await renderApp({fixture: fx, settings, firstData: failed, firstDataReady: true, ready: false});
    await broken.waitFor(/the server went away/);
    await broken.unmount();
  });
});

describe('help on a small terminal', () => {
  it('scrolls instead of cutting lines off', async () => {
    const app = await renderApp({fixture: fx, settings, ready: false});
    app.resize(80, 24);
    await app.waitFor(/1\/\d+ devices/);
    await app.press('help');
    const first = await app.waitFor(/↓\/↑ scroll \(1–\d+ of \d+\)/);
    expect(first).not.toContain('Reports (import preview');
    await app.press('down', 'help', 260);
    // The last section, to its last line: nothing is cut off.
    const last = await app.waitFor('The JSON view (y)');
    expect(last).toMatch(/Esc +clear the search, else close/);
    expect(last).toMatch(/scroll \((\d+)–(\d+) of \2\)/);
  });
});
