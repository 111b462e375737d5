// Live state stays true while the server is unreachable: ages keep counting from the last known
// timestamps, a device's state is the last poll's (whether it is still online cannot be known
// without asking again: it does not turn idle by the clock), and once that poll is a while ago the
// states say "as of"; the header says how old the data is.
import React from 'react';
import {generateKeyPairSync} from 'node:crypto';
import {afterAll, afterEach, beforeAll, describe, expect, it, vi} from 'vitest';
import {render} from 'ink-testing-library';
import {FirezoneClient} from '../../src/api/index.js';
import {startSandbox, type SandboxHandle} from '../../src/sandbox/index.js';
import {App} from '../../src/ui/App.js';
import {waitFor} from '../helpers/ink.js';

let sandbox: SandboxHandle;
let client: FirezoneClient;

async function admin(method: string, path: string, body?: unknown): Promise<{data: {id: string}}> {
  const res = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: {authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json'},
    ...(body === undefined ? {} : {body: JSON.stringify(body)}),
  });
  const text = await res.text();
  return text ? (JSON.parse(text) as {data: {id: string}}) : {data: {id: ''}};
}

beforeAll(async () => {
  sandbox = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0});
  client = new FirezoneClient({baseUrl: sandbox.url, token: sandbox.adminToken, timeoutMs: 500});
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

describe('live clock', () => {
  it(
    "a device online at the last poll is not called idle while the server is unreachable: its state is the poll's, said to be",
    {timeout: 30_000},
    async () => {
      const users = (await admin('GET', '/v0/users')) as unknown as {data: Array<{id: string}>};
      const pub = generateKeyPairSync('x25519', {publicKeyEncoding: {type: 'spki', format: 'der'}, privateKeyEncoding: {type: 'pkcs8', format: 'der'}})
        .publicKey.subarray(12)
        .toString('base64');
      const device = (await admin('POST', '/v0/devices', {device: {user_id: users.data[0]!.id, public_key: pub, name: 'aging'}})).data;
      // Online for three more seconds by the clock: the window is 180 s.
      await admin('PUT', `/_sandbox/devices/${device.id}/stats`, {
        latest_handshake: new Date(Date.now() - 177_000).toISOString(),
        remote_ip: '198.51.100.7',
        rx_bytes: 1000,
        tx_bytes: 2000,
      });
      const ui = render(<App client={client} settings={{label: 'clock', refreshSeconds: 1, readOnly: false, insecure: false, demo: false}} />);
      let frame = await waitFor(ui.lastFrame, /● aging/);
      expect(frame).toMatch(/2m/);
      await fetch(`${sandbox.url}/_sandbox/faults`, {
        method: 'PUT',
        headers: {authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json'},
        body: JSON.stringify({mode: 'reset', rate: 1, latency_ms: 0}),
      });
      // The handshake's age keeps counting past 3 minutes; the state stays the last poll's.
      frame = await waitFor(ui.lastFrame, /offline[\s\S]*● aging\s+\S+\s+\S+\s+3m/, 15_000);
      expect(frame).toMatch(/offline · .*updated \d+s ago/);
      expect(frame).not.toMatch(/○ aging/);
      expect(frame).toMatch(/· 1 online · 0 idle/);
      // A minute on, still without a poll: the counts say whose time they are.
      vi.useFakeTimers({toFake: ['Date'], shouldAdvanceTime: true});
      vi.setSystemTime(Date.now() + 65_000);
      frame = await waitFor(ui.lastFrame, /as of 1m ago: 1 online · 0 idle/, 5_000);
      expect(frame).toMatch(/● aging/);
      ui.unmount();
      await fetch(`${sandbox.url}/_sandbox/faults`, {
        method: 'PUT',
        headers: {authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json'},
        body: JSON.stringify({mode: 'none', rate: 0, latency_ms: 0}),
      });
    },
  );
});
