// The fault matrix: each failure the network or server can produce, injected through the
// sandbox's /_sandbox/faults over real sockets. The console keeps running, says what happened
// in one line, backs off, recovers by itself once the fault is cleared, keeps form input, and
// never repeats a write.
import React from 'react';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {cleanup, render} from 'ink-testing-library';
import {FirezoneClient} from '../../src/api/index.js';
import {startSandbox, type SandboxHandle} from '../../src/sandbox/index.js';
import {App, type AppSettings} from '../../src/ui/App.js';
import {press, strip, waitFor} from '../helpers/ink.js';

const settings: AppSettings = {label: 'faults', refreshSeconds: 1, readOnly: false, insecure: false, demo: false};
let sandbox: SandboxHandle;
let client: FirezoneClient;
const requests: string[] = [];

async function fault(mode: string): Promise<void> {
  const res = await fetch(`${sandbox.url}/_sandbox/faults`, {method: 'PUT',
    headers: {authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json'},
    body: JSON.stringify({mode, rate: mode === 'none' ? 0 : 1, latency_ms: 0})});
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  sandbox = await startSandbox({port: 0, seed: 'demo', statsIntervalSeconds: 0});
  client = new FirezoneClient({baseUrl: sandbox.url, token: sandbox.adminToken, timeoutMs: 400,
    onRequest: (e) => requests.push(`${e.method} ${e.path}`)});
});
afterEach(async () => {
  cleanup();
  await fault('none');
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

const MATRIX: Array<[string, RegExp]> = [
  ['empty-500', /Refresh failed: Server error 500 with an empty body/],
  ['html-502', /Refresh failed: Server error 502 for GET \/v0\/\w+: HTML page "502 Bad Gateway" \(from a proxy\?\)/],
  ['malformed-json', /Refresh failed: Malformed JSON from GET \/v0\//],
  ['reset', /Refresh failed: Cannot reach http:\/\/127\.0\.0\.1:\d+ for GET \/v0\//],
  ['hang', /Refresh failed: Request timed out after 0\.4 s: GET \/v0\//],
];

describe('fault matrix', {timeout: 30_000}, () => {
  it.each(MATRIX)('%s: one-line message, back-off with countdown, recovery when cleared', async (mode, message) => {
    const ui = render(<App client={client} settings={settings} />);
    await waitFor(ui.lastFrame, /1\/\d+ devices/);
    await fault(mode);
    const frame = await waitFor(ui.lastFrame, message);
    expect(frame).toMatch(/offline · (retry in \d+s|retrying now)/);
    // the data already loaded stays on screen
    expect(frame).toMatch(/1\/\d+ devices/);
    await fault('none');
    const recovered = await waitFor(ui.lastFrame, 'Connection restored', 15_000);
    expect(recovered).toMatch(/live 1s/);
  });

  it('a token revoked mid-session: the console says so and keeps running', async () => {
    const admin2 = (await client.createUser({email: `revoked-${Date.now()}@example.com`, role: 'admin'})).data;
    const minted = await (await fetch(`${sandbox.url}/_sandbox/tokens`, {method: 'POST',
      headers: {authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json'},
      body: JSON.stringify({user_id: admin2.id, expires_in_days: 1})})).json() as {token: string; id: string};
    const revocable = new FirezoneClient({baseUrl: sandbox.url, token: minted.token, timeoutMs: 2000});
    try {
      const ui = render(<App client={revocable} settings={settings} />);
      await waitFor(ui.lastFrame, /1\/\d+ devices/);
      await fetch(`${sandbox.url}/_sandbox/tokens/${minted.id}`, {method: 'DELETE', headers: {authorization: `Bearer ${sandbox.adminToken}`}});
      const frame = await waitFor(ui.lastFrame, /API token no longer exists on the server/);
      expect(frame).toMatch(/offline · /);
      expect(frame).not.toContain(minted.token);
      await press(ui.stdin, 'j', '2');
      expect(strip(ui.lastFrame()).startsWith('fz-console')).toBe(true);
    } finally {
      await revocable.close();
    }
  });

  it('a failed save keeps every value typed and is not retried by itself', async () => {
    const email = `kept-${Date.now()}@example.com`;
    const ui = render(<App client={client} settings={settings} />);
    await waitFor(ui.lastFrame, /1\/\d+ devices/);
    await press(ui.stdin, '2', 'n');
    await waitFor(ui.lastFrame, 'Add user');
    await press(ui.stdin, ...email);
    await fault('reset');
    requests.length = 0;
    await press(ui.stdin, '\x13');
    const failed = await waitFor(ui.lastFrame, /Cannot reach .* for POST \/v0\/users/);
    expect(failed).toContain(email);
    // live updates are held while the form is open; nothing retries the POST behind the admin's back
    await new Promise((r) => setTimeout(r, 1500));
    expect(requests.filter((r) => r === 'POST /v0/users')).toHaveLength(1);
    await fault('none');
    await press(ui.stdin, '\x13');
    await waitFor(ui.lastFrame, `User created successfully: ${email}`);
    const users = (await client.listUsers()).data.filter((u) => u.email === email);
    expect(users).toHaveLength(1);
  });
});
