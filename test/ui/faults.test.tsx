// The fault matrix: each failure the network or server can produce, injected through the
// sandbox's /_sandbox/faults over real sockets. The console keeps running, says what happened
// in one line, backs off, recovers by itself once the fault is cleared, keeps form input, and
// never repeats a write.
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {afterEach, describe, expect, it} from 'vitest';
import {FirezoneClient} from '../../src/api/index.js';
import {startSandbox, type SandboxHandle} from '../../src/sandbox/index.js';
import type {AppSettings} from '../../src/ui/App.js';
import {cleanupRigs, renderApp, startTestSandbox, useSandbox} from '../helpers/rig.js';

const settings: AppSettings = {label: 'faults', refreshSeconds: 1, readOnly: false, insecure: false, demo: false};
const requests: string[] = [];
const fx = useSandbox({seed: 'demo', statsIntervalSeconds: 0}, {timeoutMs: 400, onRequest: (e) => requests.push(`${e.method} ${e.path}`)});

async function fault(mode: string): Promise<void> {
  const res = await fx.api('PUT', '/_sandbox/faults', {mode, rate: mode === 'none' ? 0 : 1, latency_ms: 0});
  expect(res.status).toBe(200);
}

afterEach(async () => {
  await cleanupRigs();
  await fault('none');
});

const MATRIX: Array<[string, RegExp]> = [
  ['empty-500', /Refresh failed: Server error 500 with an empty body/],
  ['html-502', /Refresh failed: Server error 502 for GET \/v0\/\w+: HTML page "502 Bad Gateway" \(from a proxy\?\)/],
  ['malformed-json', /Refresh failed: Malformed JSON from GET \/v0\//],
  ['reset', /Refresh failed: Cannot reach 127\.0\.0\.1:\d+ \(GET \/v0\/\w+\): /],
  ['hang', /Refresh failed: Request timed out after 0\.4 s: GET \/v0\//],
];

describe('traffic totals while offline', {timeout: 30_000}, () => {
  it("the header's rx/tx are marked as the last poll's while polls fail, and current again once one succeeds", async () => {
    // A sandbox of its own whose devices move traffic (the file's has no stats simulation).
    const moving = await startTestSandbox({seed: 'demo', statsIntervalSeconds: 1}, {timeoutMs: 400});
    try {
      const set = async (mode: string) =>
        expect((await moving.api('PUT', '/_sandbox/faults', {mode, rate: mode === 'none' ? 0 : 1, latency_ms: 0})).status).toBe(200);
      const app = await renderApp({fixture: moving, settings, ready: /1\/\d+ devices/});
      // Polls a second apart give rates.
      // (`rx 3.9 MiB/s …`, or `↓3.9M ↑1.3M` where the line is short of room.)
      await app.waitFor(/ (rx |↓)\d/, 10_000);
      await set('html-502');
      const offline = await app.waitFor(/Refresh failed/);
      expect(offline).toMatch(/ last (rx |↓)\d/);
      await set('none');
      const back = await app.waitFor('Connection restored', 10_000);
      expect(back).toMatch(/ (rx |↓)\d/);
      expect(back).not.toMatch(/last (rx|↓)/);
      await app.unmount();
    } finally {
      await moving.close();
    }
  });
});

describe('fault matrix', {timeout: 30_000}, () => {
  it.each(MATRIX)('%s: one-line message, back-off with countdown, recovery when cleared', async (mode, message) => {
    const app = await renderApp({fixture: fx, settings, ready: /1\/\d+ devices/});
    await fault(mode);
    const frame = await app.waitFor(message);
    expect(frame).toMatch(/offline · (retry in \d+s|retrying now)/);
    // the data already loaded stays on screen
    expect(frame).toMatch(/1\/\d+ devices/);
    await fault('none');
    const recovered = await app.waitFor('Connection restored', 15_000);
    expect(recovered).toMatch(/live 1s/);
  });

  it('connection refused: backs off, and picks up by itself once a server listens there', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const late = new FirezoneClient({baseUrl: `http://127.0.0.1:${port}`, token: 'pending', timeoutMs: 1000});
    let server: SandboxHandle | null = null;
    try {
      const app = await renderApp({client: late, settings, ready: false});
      const frame = await app.waitFor(/Refresh failed: Cannot reach .* connection refused \(ECONNREFUSED\)/);
      expect(frame).toMatch(/offline · /);
      expect(frame).toContain('Cannot load data yet; retrying by itself');
      server = await startSandbox({port, seed: 'demo', statsIntervalSeconds: 0});
      // the token is the new server's business: a 401 is still "the server answered"
      await app.waitFor(/Refresh failed: (Not authenticated|API token rejected)|Server error 500/, 20_000);
    } finally {
      await late.close();
      await server?.close();
    }
  });

  it('a wrong-typed field is named in the status bar and the rest still shows', async () => {
    const sandbox = fx.sandbox;
    const body = await (await fetch(`${sandbox.url}/v0/devices`, {headers: {authorization: `Bearer ${sandbox.adminToken}`}})).text();
    const parsed = JSON.parse(body) as {data: Array<Record<string, unknown>>};
    parsed.data[0]!.rx_bytes = 'lots';
    delete parsed.data[1]!.name;
    const upstream = new URL(sandbox.url);
    const proxy = createServer(async (req, res) => {
      if (req.url === '/v0/devices') {
        res.writeHead(200, {'content-type': 'application/json; charset=utf-8'}).end(JSON.stringify(parsed));
        return;
      }
      const answer = await fetch(`${upstream.origin}${req.url}`, {headers: {authorization: req.headers.authorization ?? ''}});
      res.writeHead(answer.status, {'content-type': answer.headers.get('content-type') ?? 'application/json'}).end(await answer.text());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const odd = new FirezoneClient({baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, token: sandbox.adminToken});
    try {
      const app = await renderApp({client: odd, settings, ready: false});
      const frame = await app.waitFor(/Unexpected data from the server: data\[0\]\.rx_bytes: expected number \(\+1 more\); the rest is shown/);
      expect(frame).toContain(`1/${parsed.data.length} devices`);
    } finally {
      await odd.close();
      proxy.close();
    }
  });

  it('a 50,000-device list: loads, moves to the end, filters, and keeps running', async () => {
    const big = await startTestSandbox({seed: 'demo', devices: 50_000, users: 2000, rules: 100, statsIntervalSeconds: 0}, {timeoutMs: 60_000});
    try {
      const app = await renderApp({fixture: big, settings: {...settings, refreshSeconds: 0}, ready: false});
      await app.waitFor('1/50000 devices', 60_000);
      await app.press('end', 'list');
      await app.waitFor('50000/50000 devices');
      await app.press('filter', 'list');
      await app.type('laptop');
      const frame = await app.waitFor(/\d+\/\d+ of 50000 devices/);
      expect(frame.split('\n').length).toBeLessThanOrEqual(29);
    } finally {
      await big.close();
    }
  }, 120_000);

  it('a token revoked mid-session: the console says so and keeps running', async () => {
    const sandbox = fx.sandbox;
    const admin2 = (await fx.client.createUser({email: `revoked-${Date.now()}@example.com`, role: 'admin'})).data;
    const minted = (await (
      await fetch(`${sandbox.url}/_sandbox/tokens`, {
        method: 'POST',
        headers: {authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json'},
        body: JSON.stringify({user_id: admin2.id, expires_in_days: 1}),
      })
    ).json()) as {token: string; id: string};
    const revocable = new FirezoneClient({baseUrl: sandbox.url, token: minted.token, timeoutMs: 2000});
    try {
      const app = await renderApp({client: revocable, settings, ready: /1\/\d+ devices/});
      await fetch(`${sandbox.url}/_sandbox/tokens/${minted.id}`, {method: 'DELETE', headers: {authorization: `Bearer ${sandbox.adminToken}`}});
      // Not "offline": the token was rejected, and the console asks for a new one.
      const frame = await app.waitFor(/The server rejected the API token: it was revoked or expired, or its user was deleted/);
      expect(frame).toMatch(/token rejected · /);
      expect(frame).toContain('New API token');
      expect(frame).not.toContain(minted.token);
      await app.press('cancel', 'prompt');
      await app.press('down', 'list');
      await app.press('screen2');
      expect(app.frame().startsWith('fz-console')).toBe(true);
    } finally {
      await revocable.close();
    }
  });

  it('a failed save keeps every value typed and is not retried by itself', async () => {
    const email = `kept-${Date.now()}@example.com`;
    const app = await renderApp({fixture: fx, settings, ready: /1\/\d+ devices/});
    await app.press('screen2');
    await app.press('new', 'list');
    await app.waitFor('Add user');
    await app.type(email);
    await fault('reset');
    requests.length = 0;
    await app.press('save');
    const failed = await app.waitFor(/Cannot reach .* \(POST \/v0\/users\)/);
    expect(failed).toContain(email);
    // live updates are held while the form is open; nothing retries the POST behind the admin's
    // back: two seconds of the console's own clock go by (the header counts them) with one POST
    await app.waitFor('on hold');
    await app.waitFor(/updated [2-9]s ago/);
    expect(requests.filter((r) => r === 'POST /v0/users')).toHaveLength(1);
    await fault('none');
    await app.press('save');
    await app.waitFor(`User created successfully: ${email}`);
    const users = (await fx.client.listUsers()).data.filter((u) => u.email === email);
    expect(users).toHaveLength(1);
  });
});
