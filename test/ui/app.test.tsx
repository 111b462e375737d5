// The console shell and its screens, rendered with ink-testing-library against a real sandbox.
import React from 'react';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {cleanup, render} from 'ink-testing-library';
import {FirezoneClient} from '../../src/api/index.js';
import {startSandbox, type SandboxHandle} from '../../src/sandbox/index.js';
import {App, type AppSettings} from '../../src/ui/App.js';
import {press, strip, waitFor} from '../helpers/ink.js';
import {keyName} from '../../src/ui/keys.js';

let sandbox: SandboxHandle;
let client: FirezoneClient;
const settings: AppSettings = {label: 'test', refreshSeconds: 0, readOnly: false, insecure: false, demo: true};



async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${sandbox.url}${path}`, {method,
    headers: {authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json'},
    ...(body === undefined ? {} : {body: JSON.stringify(body)})});
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

beforeAll(async () => {
  sandbox = await startSandbox({port: 0, seed: 'demo', statsIntervalSeconds: 0});
  client = new FirezoneClient({baseUrl: sandbox.url, token: sandbox.adminToken});
});
afterEach(() => cleanup());
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

describe('App', () => {
  it('opens on Devices with owner emails and moves through screens with 1-4 and Tab', async () => {
    const devices = (await api<{data: Array<{name: string}>}>('GET', '/v0/devices')).data;
    const ui = render(<App client={client} settings={settings} />);
    const frame = await waitFor(ui.lastFrame, /1 Devices \d+/);
    expect(frame).toContain('DEMO');
    expect(frame).toContain(`1/${devices.length} devices`);
    expect(frame).toMatch(/@/);
    await press(ui.stdin, '2');
    await waitFor(ui.lastFrame, 'EMAIL');
    expect(strip(ui.lastFrame())).toMatch(/ENABLED|DISABLED|EXPIRED/);
    await press(ui.stdin, '3');
    await waitFor(ui.lastFrame, 'DESTINATION');
    await press(ui.stdin, '\t');
    await waitFor(ui.lastFrame, 'Client defaults');
    await press(ui.stdin, '\t');
    await waitFor(ui.lastFrame, 'NAME');
  });

  it('filters case-insensitively, keeps the selection by id, and opens the detail with masked key', async () => {
    const devices = (await api<{data: Array<{id: string; name: string; preshared_key: string}>}>('GET', '/v0/devices')).data;
    const target = devices.find((d) => devices.filter((o) => o.name.toLowerCase().includes(d.name.toLowerCase())).length === 1)!;
    const ui = render(<App client={client} settings={settings} />);
    await waitFor(ui.lastFrame, /1\/\d+ devices/);
    await press(ui.stdin, '/', ...target.name.toUpperCase());
    await waitFor(ui.lastFrame, new RegExp(`1/1 of ${devices.length} devices`));
    await press(ui.stdin, '\r', '\r');
    let frame = await waitFor(ui.lastFrame, 'Preshared key');
    expect(frame).toContain(target.name);
    expect(frame).not.toContain(target.preshared_key);
    await press(ui.stdin, 'v');
    frame = await waitFor(ui.lastFrame, target.preshared_key);
    await press(ui.stdin, '\x1b');
    await waitFor(ui.lastFrame, `filter "${target.name.toUpperCase()}"`);
    await press(ui.stdin, '\x1b');
    frame = await waitFor(ui.lastFrame, new RegExp(`/${devices.length} devices`));
    // the cursor is still on the target after the filter is cleared
    const position = Number(/(\d+)\/\d+ devices/.exec(frame)![1]);
    expect(position).toBeGreaterThan(0);
    await press(ui.stdin, '\r');
    await waitFor(ui.lastFrame, `Device › ${target.name}`);
  });

  it('help is generated from the keymap; q quits', async () => {
    const ui = render(<App client={client} settings={settings} />);
    await waitFor(ui.lastFrame, /1\/\d+ devices/);
    await press(ui.stdin, '?');
    await waitFor(ui.lastFrame, 'Keys — press ? or Esc to close');
    await press(ui.stdin, ...Array(12).fill('j'));
    await waitFor(ui.lastFrame, 'filter (case-insensitive substring; Esc clears)');
    await press(ui.stdin, '\x1b');
    await waitFor(ui.lastFrame, /1\/\d+ devices/);
  });

  it('--insecure keeps a red INSECURE TLS badge in the header', async () => {
    const ui = render(<App client={client} settings={{...settings, insecure: true}} />);
    const frame = await waitFor(ui.lastFrame, /1\/\d+ devices/);
    expect(frame.split('\n')[0]).toContain('INSECURE TLS');
  });

  it('says what size it needs below 80×24', async () => {
    const ui = render(<App client={client} settings={settings} />);
    Object.defineProperty(ui.stdout, 'columns', {value: 60, configurable: true});
    ui.stdout.emit('resize');
    await waitFor(ui.lastFrame, 'terminal too small: need 80×24, have 60×30');
  });

  it('--read-only refuses every write with a status message and sends nothing', async () => {
    const before = (await api<{data: unknown[]}>('GET', '/v0/users')).data.length;
    const ui = render(<App client={client} settings={{...settings, readOnly: true}} />);
    await waitFor(ui.lastFrame, /READ-ONLY[\s\S]*1\/\d+ devices/);
    await press(ui.stdin, 'n');
    await waitFor(ui.lastFrame, 'Read-only mode: creating devices is disabled (started with --read-only)');
    await press(ui.stdin, 'd');
    await waitFor(ui.lastFrame, 'Read-only mode: deleting devices is disabled');
    await press(ui.stdin, '2', 'n');
    await waitFor(ui.lastFrame, 'Read-only mode: creating users is disabled');
    await press(ui.stdin, '4', '\r');
    await waitFor(ui.lastFrame, 'Read-only mode: changing the configuration is disabled');
    expect((await api<{data: unknown[]}>('GET', '/v0/users')).data.length).toBe(before);
  });

  it('an Esc glued to the next key (Alt+key) is Esc then the key', async () => {
    const ui = render(<App client={client} settings={settings} />);
    await waitFor(ui.lastFrame, /1\/\d+ devices/);
    await press(ui.stdin, '/', 'x', 'y', 'z');
    await waitFor(ui.lastFrame, '/xyz');
    await press(ui.stdin, '\x1b2');
    await waitFor(ui.lastFrame, 'EMAIL');
    await press(ui.stdin, '1');
    const frame = await waitFor(ui.lastFrame, /1\/\d+ devices/);
    expect(frame).not.toContain('xyz');
  });

  it('keyName treats Ink 6 delete as backspace in the filter', () => {
    expect(keyName('', {delete: true} as Parameters<typeof keyName>[1])).toBe('backspace');
  });
});

describe('help on a small terminal', () => {
  it('scrolls instead of cutting lines off', async () => {
    const ui = render(<App client={client} settings={settings} />);
    Object.defineProperty(ui.stdout, 'columns', {value: 80, configurable: true});
    Object.defineProperty(ui.stdout, 'rows', {value: 24, configurable: true});
    ui.stdout.emit('resize');
    await waitFor(ui.lastFrame, /1\/\d+ devices/);
    await press(ui.stdin, '?');
    const first = await waitFor(ui.lastFrame, /↓\/↑ scroll \(1–\d+ of \d+\)/);
    expect(first).not.toContain('New device result');
    await press(ui.stdin, ...Array(200).fill('j'));
    const last = await waitFor(ui.lastFrame, 'New device result');
    expect(last).toContain('done (warns: the private key is not shown again)');
  });
});
