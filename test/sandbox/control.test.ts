// The /_sandbox control API and fault injection over real HTTP.
import {request as httpRequest} from 'node:http';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {startSandbox, type SandboxHandle} from '../../src/sandbox/index.js';
import {data, publicKey, send, type RawRequest} from './helpers.js';

let sb: SandboxHandle;
const control = (method: string, path: string, options: RawRequest = {}) => send(sb.url, method, path, {token: sb.adminToken, ...options});
const api = control;

beforeAll(async () => {
  sb = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0});
});

afterAll(async () => {
  await sb.close();
});

describe('control API access', () => {
  it('needs an admin token, with Guardian-style 401s', async () => {
    expect((await send(sb.url, 'PUT', '/_sandbox/faults', {body: {mode: 'none'}})).json).toEqual({errors: {auth: 'unauthenticated'}});
    expect((await send(sb.url, 'PUT', '/_sandbox/faults', {token: 'garbage', body: {mode: 'none'}})).json).toEqual({errors: {auth: 'invalid_token'}});
    expect((await send(sb.url, 'PUT', '/_sandbox/faults', {token: sb.unprivilegedToken, body: {mode: 'none'}})).json).toEqual({error: 'Unauthorized'});
  });

  it('validates bodies: 400 with a message', async () => {
    for (const [path, body] of [
      ['/_sandbox/faults', {mode: 'explode'}],
      ['/_sandbox/faults', {mode: 'empty-500', rate: 2}],
      ['/_sandbox/faults', {mode: 'none', extra: 1}],
    ] as const) {
      const res = await control('PUT', path, {body});
      expect(res.status).toBe(400);
      expect(typeof (res.json as {error: unknown}).error).toBe('string');
    }
    expect((await control('PUT', '/_sandbox/faults', {raw: '{', headers: {'content-type': 'application/json'}})).status).toBe(400);
    expect((await control('GET', '/_sandbox/nothing')).status).toBe(404);
  });
});

describe('device stats and user fields', () => {
  it('sets stats exactly as given and bumps updated_at', async () => {
    const users = data<Array<{id: string; email: string}>>(await api('GET', '/v0/users'));
    const owner = users.find((u) => u.email === 'user@sandbox.test')!;
    const device = data(await api('POST', '/v0/devices', {body: {device: {user_id: owner.id, public_key: publicKey()}}}));
    const res = await control('PUT', `/_sandbox/devices/${device.id}/stats`, {
      body: {latest_handshake: '2023-03-29T15:11:47Z', remote_ip: '203.0.113.7', rx_bytes: 1234, tx_bytes: 5678},
    });
    expect(res.status).toBe(200);
    expect(data(res)).toMatchObject({latest_handshake: '2023-03-29T15:11:47.000000Z', remote_ip: '203.0.113.7', rx_bytes: 1234, tx_bytes: 5678});
    const read = data(await api('GET', `/v0/devices/${device.id}`));
    expect(read).toMatchObject({rx_bytes: 1234, remote_ip: '203.0.113.7'});
    expect(String(read.updated_at) > String(device.updated_at)).toBe(true);
    // a subset, with Unix seconds
    expect(data(await control('PUT', `/_sandbox/devices/${device.id}/stats`, {body: {latest_handshake: 1700000000, rx_bytes: null}}))).toMatchObject({
      latest_handshake: '2023-11-14T22:13:20.000000Z',
      rx_bytes: null,
      tx_bytes: 5678,
    });
    expect((await control('PUT', `/_sandbox/devices/${crypto.randomUUID()}/stats`, {body: {rx_bytes: 1}})).status).toBe(404);
    expect((await control('PUT', `/_sandbox/devices/${device.id}/stats`, {body: {remote_ip: 'nope'}})).status).toBe(400);
  });

  it('sets disabled_at and sign-in fields on a user (by id or email)', async () => {
    const res = await control('PUT', '/_sandbox/users/user@sandbox.test', {
      body: {disabled_at: '2024-01-02T03:04:05.123456Z', last_signed_in_at: '2024-01-01T00:00:00Z', last_signed_in_method: 'okta'},
    });
    expect(data(res)).toMatchObject({
      disabled_at: '2024-01-02T03:04:05.123456Z',
      last_signed_in_at: '2024-01-01T00:00:00.000000Z',
      last_signed_in_method: 'okta',
    });
    const cleared = data(await control('PUT', `/_sandbox/users/${data(res).id}`, {body: {disabled_at: null}}));
    expect(cleared.disabled_at).toBeNull();
    expect((await control('PUT', '/_sandbox/users/nobody@x', {body: {}})).status).toBe(404);
  });
});

describe('tokens', () => {
  it('mints and revokes tokens: a revoked token is no_resource_found, one minted already expired is invalid_token (its JWT exp has passed too)', async () => {
    const minted = await control('POST', '/_sandbox/tokens', {body: {user_id: 'admin@sandbox.test', expires_in_days: 1}});
    expect(minted.status).toBe(201);
    const {token, id} = minted.json as {token: string; id: string};
    expect((await send(sb.url, 'GET', '/v0/users', {token})).status).toBe(200);
    expect((await control('DELETE', `/_sandbox/tokens/${id}`)).status).toBe(204);
    expect((await send(sb.url, 'GET', '/v0/users', {token})).json).toEqual({errors: {auth: 'no_resource_found'}});
    expect((await control('DELETE', `/_sandbox/tokens/${id}`)).status).toBe(404);
    // an already-expired row yields a JWT whose exp is past too: invalid_token
    const expired = (await control('POST', '/_sandbox/tokens', {body: {user_id: 'admin@sandbox.test', expires_in_days: -1}})).json as {token: string};
    expect((await send(sb.url, 'GET', '/v0/users', {token: expired.token})).json).toEqual({errors: {auth: 'invalid_token'}});
    expect((await control('POST', '/_sandbox/tokens', {body: {user_id: crypto.randomUUID()}})).status).toBe(404);
  });
});

describe('faults', () => {
  afterEach(async () => {
    await control('PUT', '/_sandbox/faults', {body: {mode: 'none'}});
  });

  it('empty-500, html-502 and malformed-json apply to /v0 only', async () => {
    await control('PUT', '/_sandbox/faults', {body: {mode: 'empty-500', rate: 1}});
    const empty = await api('GET', '/v0/users');
    expect([empty.status, empty.text]).toEqual([500, '']);
    // the control API itself keeps working
    expect((await control('PUT', '/_sandbox/faults', {body: {mode: 'html-502', rate: 1}})).status).toBe(200);
    const html = await api('GET', '/v0/devices');
    expect(html.status).toBe(502);
    expect(html.headers['content-type']).toBe('text/html');
    expect(html.text).toContain('<title>502 Bad Gateway</title>');
    await control('PUT', '/_sandbox/faults', {body: {mode: 'malformed-json', rate: 1}});
    const truncated = await api('GET', '/v0/devices');
    expect(truncated.status).toBe(200);
    expect(truncated.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(() => JSON.parse(truncated.text)).toThrow();
  });

  it("duplicate-id answers as usual, but a list of two or more sends its last item under its first item's id", async () => {
    // The empty seed's two users: a list of two.
    const before = data<Array<{id: string; email: string}>>(await api('GET', '/v0/users'));
    expect(before).toHaveLength(2);
    await control('PUT', '/_sandbox/faults', {body: {mode: 'duplicate-id', rate: 1}});
    const res = await api('GET', '/v0/users');
    expect(res.status).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    const listed = data<Array<{id: string; email: string}>>(res);
    expect(listed.map((u) => [u.id, u.email])).toEqual([
      [before[0]!.id, before[0]!.email],
      [before[0]!.id, before[1]!.email],
    ]);
    // One record (not a list) and a list of none or one go out as they are.
    expect((await api('GET', '/v0/configuration')).status).toBe(200);
    expect(data(await api('GET', '/v0/rules'))).toEqual([]);
    await control('PUT', '/_sandbox/faults', {body: {mode: 'none'}});
    expect(data(await api('GET', '/v0/users'))).toEqual(before);
  });

  it('rate is a probability per request', async () => {
    await control('PUT', '/_sandbox/faults', {body: {mode: 'empty-500', rate: 0.5}});
    const statuses = await Promise.all(Array.from({length: 40}, () => api('GET', '/v0/configuration').then((r) => r.status)));
    expect(statuses.filter((s) => s === 500).length).toBeGreaterThan(5);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(5);
    await control('PUT', '/_sandbox/faults', {body: {mode: 'empty-500', rate: 0}});
    expect((await api('GET', '/v0/configuration')).status).toBe(200);
  });

  it('latency_ms delays /v0 responses', async () => {
    await control('PUT', '/_sandbox/faults', {body: {mode: 'none', latency_ms: 150}});
    const t = performance.now();
    expect((await api('GET', '/v0/configuration')).status).toBe(200);
    expect(performance.now() - t).toBeGreaterThanOrEqual(140);
    const fast = performance.now();
    await control('PUT', '/_sandbox/faults', {body: {mode: 'none'}});
    expect(performance.now() - fast).toBeLessThan(140);
  });

  it('reset destroys the socket after the headers', async () => {
    await control('PUT', '/_sandbox/faults', {body: {mode: 'reset', rate: 1}});
    await expect(api('GET', '/v0/devices')).rejects.toThrow();
  });

  it('apply-hang applies a write and never answers it', async () => {
    await control('PUT', '/_sandbox/faults', {body: {mode: 'apply-hang', rate: 1}});
    const email = 'applied-unanswered@example.com';
    const outcome = new Promise<string>((resolve) => {
      const body = JSON.stringify({user: {email, role: 'unprivileged'}});
      const req = httpRequest(
        new URL('/v0/users', sb.url),
        {method: 'POST', headers: {authorization: `Bearer ${sb.adminToken}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body)}},
        () => resolve('answered'),
      );
      req.on('error', (e) => resolve(`error: ${e.message}`));
      req.end(body);
    });
    // Held open: the request arrived and was handled, with nothing sent back.
    for (let hung = 0; hung === 0;) hung = ((await control('GET', '/_sandbox/faults')).json as {hung: number}).hung;
    await control('PUT', '/_sandbox/faults', {body: {mode: 'none'}});
    const users = data<Array<{email: string}>>(await api('GET', '/v0/users'));
    expect(users.map((u) => u.email)).toContain(email);
    const raced = await Promise.race([outcome, new Promise((r) => setTimeout(() => r('still waiting'), 300))]);
    expect(raced).toBe('still waiting');
  });

  it('hang never answers, and close() still ends the connection', async () => {
    const own = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0});
    await send(own.url, 'PUT', '/_sandbox/faults', {token: own.adminToken, body: {mode: 'hang', rate: 1}});
    const outcome = new Promise<string>((resolve) => {
      const req = httpRequest(new URL('/v0/users', own.url), {headers: {authorization: `Bearer ${own.adminToken}`}}, () => resolve('answered'));
      req.on('error', (e) => resolve(`error: ${e.message}`));
      req.end();
    });
    const raced = await Promise.race([outcome, new Promise((r) => setTimeout(() => r('still waiting'), 300))]);
    expect(raced).toBe('still waiting');
    const t = performance.now();
    await own.close();
    expect(performance.now() - t).toBeLessThan(1000);
    expect(await outcome).toMatch(/^error/);
  });
});
