// Change as it happens, through the UI against a real sandbox: Activity (screen 5), row highlights,
// the --activity-log file, the stale-devices view, sparklines and the throughput line.
import {readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {ActivityLog} from '../../src/state/tracking/activity-log.js';
import {renderApp, startTestSandbox, type TestSandbox} from '../helpers/rig.js';
import {publicKey} from '../sandbox/helpers.js';
import {TempDirs} from '../helpers/tmp.js';

type Device = {id: string; name: string; user_id: string; latest_handshake: string | null; inserted_at: string};

const iso = (ms: number) => new Date(ms).toISOString();

async function ok<T>(res: Promise<{status: number; json: T}>, status = 200): Promise<T> {
  const r = await res;
  expect(r.status, JSON.stringify(r.json)).toBe(status);
  return r.json;
}

async function emptySandbox(): Promise<TestSandbox> {
  return startTestSandbox({seed: 'empty'});
}

// The activity log's folder, under the test file's temporary cwd; removed when the file's tests end.
const tmp = new TempDirs();
afterAll(() => tmp.remove());

describe('activity', () => {
  it('screen 5 lists what changed between polls, newest first; the first poll gives none; highlights mark the rows; the log gets the same events (0600)', async () => {
    const fx = await emptySandbox();
    const dir = tmp.make('activity-', process.cwd());
    const logPath = join(dir, 'activity.jsonl');
    const log = ActivityLog.open(logPath);
    try {
      const user = (await ok(fx.api<{data: {id: string}}>('POST', '/v0/users', {user: {email: 'ann@example.com', role: 'unprivileged'}}), 201)).data;
      const dev = (await ok(fx.api<{data: Device}>('POST', '/v0/devices', {device: {user_id: user.id, public_key: publicKey(), name: 'laptop'}}), 201)).data;
      const app = await renderApp({fixture: fx, activityLog: log, ready: /1\/1 devices/});
      await app.press('screen5');
      await app.waitFor('No events.');

      // Another client and the server's own stats: the next poll reports them.
      await ok(
        fx.api('PUT', `/_sandbox/devices/${dev.id}/stats`, {latest_handshake: iso(Date.now() - 5000), remote_ip: '198.51.100.7', rx_bytes: 10, tx_bytes: 5}),
      );
      await ok(fx.api('POST', '/v0/users', {user: {email: 'bob@example.com', role: 'admin'}}), 201);
      await app.press('refresh');
      let frame = await app.waitFor(/device online +laptop/);
      expect(frame).toMatch(/user created +bob@example\.com/);
      // Newest first; the detail has the whole text.
      expect(frame.indexOf('device online')).toBeLessThan(frame.indexOf('user created'));
      await app.press('open', 'list');
      frame = await app.waitFor('laptop (ann@example.com) came online from 198.51.100.7');
      expect(frame).toContain('another client or the server');
      await app.press('back', 'detail');

      // The device list marks the device that came online: ↑ in the gutter.
      await app.press('screen1');
      frame = await app.waitFor('laptop');
      expect(frame.split('\n').find((l) => l.includes('laptop'))).toMatch(/^ ↑ ● laptop/);

      // A write of this console is "by you".
      await app.press('screen3');
      await app.waitFor('DESTINATION');
      await app.press('new', 'list');
      await app.waitFor('Add rule');
      await app.press('nextField', 'form');
      await app.type('10.9.0.0/16');
      await app.press('save', 'form');
      await app.waitFor('Rule added');
      await app.press('screen5');
      frame = await app.waitFor(/rule added +ACCEPT 10\.9\.0\.0/);
      expect(frame.split('\n').find((l) => l.includes('rule added'))).toMatch(/you\s*$/);

      // The detail of an event, and the filter.
      await app.press('filter', 'list');
      await app.type('roam');
      await app.waitFor('No events match "roam"');
      await app.press('filterClear', 'filter');

      const lines = readFileSync(logPath, 'utf8').trimEnd().split('\n');
      const kinds = lines.map((l) => (JSON.parse(l) as {kind: string}).kind);
      expect(kinds).toEqual(expect.arrayContaining(['device.online', 'user.created', 'rule.added']));
      expect(kinds).toHaveLength(3);
      expect(lines.find((l) => l.includes('rule.added'))).toContain('"by":"you"');
      expect(statSync(logPath).mode & 0o777).toBe(0o600);
    } finally {
      log.close();
      await fx.close();
    }
  });

  it('a deleted device stays on the list for a moment, marked ×, then goes', async () => {
    const fx = await emptySandbox();
    try {
      const user = (await ok(fx.api<{data: {id: string}}>('POST', '/v0/users', {user: {email: 'ann@example.com', role: 'unprivileged'}}), 201)).data;
      const keep = (await ok(fx.api<{data: Device}>('POST', '/v0/devices', {device: {user_id: user.id, public_key: publicKey(), name: 'keep'}}), 201)).data;
      const gone = (await ok(fx.api<{data: Device}>('POST', '/v0/devices', {device: {user_id: user.id, public_key: publicKey(), name: 'gone'}}), 201)).data;
      expect(keep.id).not.toBe(gone.id);
      const app = await renderApp({fixture: fx, ready: /1\/2 devices/});
      expect((await fx.api('DELETE', `/v0/devices/${gone.id}`)).status).toBe(204);
      await app.press('refresh');
      const frame = await app.waitFor(/ × . gone/);
      expect(frame).toContain(' 1 Devices 1 ');
      // The row is still shown, but not counted: "1/2 devices" said there were two.
      expect(frame).toMatch(/\d\/2 devices · 1 just deleted/);
      // Filtered to it alone, it is not "1/1 of 2"; and the cursor is not on it (nothing acts on a deleted row).
      await app.press('filter', 'list');
      await app.type('gone');
      expect(await app.waitFor(/\/gone. +0\/1 of 1 devices · 1 just deleted/)).toBeTruthy();
      await app.press('filterClear', 'filter');
      // Once the highlight fades (5 s) the row is gone.
      await app.waitFor(/1\/1 devices/, 10_000);
      expect(app.frame()).not.toMatch(/ gone /);
    } finally {
      await fx.close();
    }
  });

  it('S shows only stale devices, oldest first, and again all devices with the sort as it was', async () => {
    const fx = await emptySandbox();
    try {
      const user = (await ok(fx.api<{data: {id: string}}>('POST', '/v0/users', {user: {email: 'ann@example.com', role: 'unprivileged'}}), 201)).data;
      const make = async (name: string) =>
        (await ok(fx.api<{data: Device}>('POST', '/v0/devices', {device: {user_id: user.id, public_key: publicKey(), name}}), 201)).data;
      const fresh = await make('fresh');
      const old = await make('old');
      const older = await make('older');
      await make('never-used');
      const day = 86_400_000;
      await ok(fx.api('PUT', `/_sandbox/devices/${fresh.id}/stats`, {latest_handshake: iso(Date.now() - 60_000)}));
      await ok(fx.api('PUT', `/_sandbox/devices/${old.id}/stats`, {latest_handshake: iso(Date.now() - 40 * day)}));
      await ok(fx.api('PUT', `/_sandbox/devices/${older.id}/stats`, {latest_handshake: iso(Date.now() - 90 * day)}));
      const app = await renderApp({fixture: fx, settings: {staleDays: 30}, ready: /1\/4 devices/});
      await app.press('stale', 'list');
      const frame = await app.waitFor('stale devices (no handshake for 30 days, or never connected since');
      const order = frame
        .split('\n')
        .map((l) => /^ +[●○·] (never-used|older|old|fresh)\s/.exec(l)?.[1])
        .filter((n): n is string => n !== undefined);
      // Made just now and not connected yet is new, not stale; the oldest handshake comes first.
      expect(order).toEqual(['older', 'old']);
      expect(frame).toContain('1/2 stale devices');
      await app.press('stale', 'list');
      await app.waitFor('1/4 devices');
    } finally {
      await fx.close();
    }
  });

  it("a device's detail draws rx/s and tx/s over the session as sparklines; the tabs line shows the total", async () => {
    const fx = await emptySandbox();
    try {
      const user = (await ok(fx.api<{data: {id: string}}>('POST', '/v0/users', {user: {email: 'ann@example.com', role: 'unprivileged'}}), 201)).data;
      const dev = (await ok(fx.api<{data: Device}>('POST', '/v0/devices', {device: {user_id: user.id, public_key: publicKey(), name: 'laptop'}}), 201)).data;
      const app = await renderApp({fixture: fx, ready: /1\/1 devices/});
      let rx = 0;
      for (let i = 1; i <= 5; i++) {
        rx += i * 100_000;
        // Stats samples a second apart: the rate is Δbytes ÷ Δupdated_at.
        await new Promise((r) => setTimeout(r, 1050));
        await ok(fx.api('PUT', `/_sandbox/devices/${dev.id}/stats`, {latest_handshake: iso(Date.now()), rx_bytes: rx, tx_bytes: 1000 * i}));
        await app.press('refresh');
        await app.waitFor(new RegExp(`updated 0s ago`));
      }
      const tabs = (await app.waitFor(/rx [\d.]+ [KM]i?B\/s/)).split('\n')[1]!;
      expect(tabs).toMatch(/rx [\d.]+ \w+\/s +tx [\d.]+ \w+\/s/);
      await app.press('open', 'list');
      const frame = await app.waitFor('rx/s history');
      const line = frame.split('\n').find((l) => l.includes('rx/s history'))!;
      expect(line).toMatch(/[▁▂▃▄▅▆▇█]{3,}/);
      expect(frame).toMatch(/the last \d+ polls, oldest left/);
    } finally {
      await fx.close();
    }
  });
});
