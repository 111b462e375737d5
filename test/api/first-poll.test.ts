// The first poll's requests go out on sockets of their own (src/api/http-get.ts) before the
// client is loaded (src/api/first-poll.ts); the client then reads their responses. Whatever the
// server does, the client must report exactly what it reports for a request it sent itself
// through undici: same data, same error kind and message, same limits. Each case runs both ways
// against the same server.
import {createServer, type IncomingMessage, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {ApiError, FirezoneClient, type ClientOptions} from '../../src/api/index.js';
import {FIRST_POLL_ROUTES, FirstPoll} from '../../src/api/first-poll.js';
import {fetchAll} from '../../src/state/data/fetch.js';
import {startSandbox, type SandboxHandle} from '../../src/sandbox/index.js';
import {endlessServer} from '../helpers/endless-server.js';

let sandbox: SandboxHandle;

beforeAll(async () => {
  sandbox = await startSandbox({port: 0, seed: 'demo', statsIntervalSeconds: 0});
});

afterAll(async () => {
  await sandbox.close();
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function faults(body: unknown): Promise<void> {
  const res = await fetch(`${sandbox.url}/_sandbox/faults`, {
    method: 'PUT',
    headers: {authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json'},
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

type Outcome = {ok: true; value: unknown} | {ok: false; kind: string; status: number | undefined; message: string};

async function outcome(promise: Promise<unknown>): Promise<Outcome> {
  try {
    return {ok: true, value: await promise};
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return {ok: false, kind: err.kind, status: err.status, message: err.message};
  }
}

/** `call` on a client that sends its own request, and on one that takes the first poll's. */
async function bothWays(options: ClientOptions, call: (client: FirezoneClient) => Promise<unknown>): Promise<{direct: Outcome; first: Outcome}> {
  const direct = new FirezoneClient(options);
  const directOutcome = await outcome(call(direct)).finally(() => direct.close());
  const firstPoll = FirstPoll.start(options, {})!;
  const client = new FirezoneClient({...options, firstPoll});
  const firstOutcome = await outcome(call(client)).finally(() => client.close());
  return {direct: directOutcome, first: firstOutcome};
}

describe('the first poll gives what the client gives', () => {
  afterAll(async () => {
    await faults({mode: 'none', rate: 0, latency_ms: 0});
  });

  it('the four lists of a seeded server', async () => {
    const {direct, first} = await bothWays({baseUrl: sandbox.url, token: sandbox.adminToken}, fetchAll);
    expect(direct.ok).toBe(true);
    expect(first).toEqual(direct);
  });

  it.each(['empty-500', 'html-502', 'malformed-json', 'reset'])('fault %s', async (mode) => {
    await faults({mode, rate: 1, latency_ms: 0});
    const {direct, first} = await bothWays({baseUrl: sandbox.url, token: sandbox.adminToken}, (c) => c.listDevices());
    expect(direct.ok).toBe(false);
    expect(first).toEqual(direct);
  });

  it('an unprivileged token: devices listed, the admin-only lists refused the same way', async () => {
    await faults({mode: 'none', rate: 0, latency_ms: 0});
    const {direct, first} = await bothWays({baseUrl: sandbox.url, token: sandbox.unprivilegedToken}, fetchAll);
    expect(direct.ok).toBe(true);
    expect(first).toEqual(direct);
  });

  it('connection refused', async () => {
    const server = createServer();
    const origin = await listen(server);
    await new Promise((resolve) => server.close(resolve));
    const {direct, first} = await bothWays({baseUrl: origin, token: 'x'}, (c) => c.listDevices());
    expect(direct).toMatchObject({ok: false, kind: 'network'});
    expect(first).toEqual(direct);
  });

  it('an endless body is refused at the limit, and reading stops', async () => {
    const endless = await endlessServer(200, '{"data":"');
    try {
      const {direct, first} = await bothWays({baseUrl: endless.origin, token: 'secret-token-value', maxBodyBytes: 1024 * 1024}, (c) => c.listDevices());
      expect(direct).toMatchObject({ok: false, kind: 'too_large'});
      expect(first).toEqual(direct);
      // Both ways, what the server managed to push is the limit plus socket buffers, not the gigabyte.
      expect(endless.sent()).toBeLessThan(2 * 64 * 1024 * 1024);
    } finally {
      endless.stop();
    }
  });

  it('a body past the limit that arrives before the client takes it is not read on', async () => {
    const endless = await endlessServer(200);
    const options = {baseUrl: endless.origin, token: 'x', maxBodyBytes: 1024 * 1024};
    const firstPoll = FirstPoll.start(options, {})!;
    // The client is still "loading": nothing reads the responses but the first poll itself, which
    // stops reading past the limit, so the server's pushing comes to a stop (socket buffers full).
    let pushed = -1;
    const deadline = Date.now() + 10_000;
    while (pushed !== endless.sent() || pushed < 1024 * 1024) {
      if (Date.now() > deadline) throw new Error(`the server never stopped pushing (${endless.sent()} bytes)`);
      pushed = endless.sent();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const client = new FirezoneClient({...options, firstPoll});
    try {
      expect(pushed).toBeLessThan(64 * 1024 * 1024);
      expect(await outcome(client.listDevices())).toMatchObject({ok: false, kind: 'too_large'});
    } finally {
      await client.close();
      endless.stop();
    }
  });
});

describe('taking over the requests', () => {
  let server: Server;
  let origin = '';
  const seen: {path: string; headers: IncomingMessage['headers']}[] = [];
  let hang = false;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({path: req.url ?? '', headers: req.headers});
      if (hang) return;
      if (req.url?.startsWith('/stale/') || req.headers.authorization === 'Bearer stale') {
        res.writeHead(401, {'content-type': 'application/json'}).end('{"errors":{"detail":"Unauthorized"}}');
        return;
      }
      res.writeHead(200, {'content-type': 'application/json'}).end('{"data":[]}');
    });
    origin = await listen(server);
  });

  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  /** Until the server has seen `n` requests (they are recorded as they arrive). */
  const seenAtLeast = async (n: number) => {
    const deadline = Date.now() + 5000;
    while (seen.length < n) {
      if (Date.now() > deadline) throw new Error(`the server saw ${seen.length} requests, not ${n}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  it('sends each list once, with the headers the client would send', async () => {
    seen.length = 0;
    const firstPoll = FirstPoll.start({baseUrl: `${origin}/v0/`, token: 'tok'}, {})!;
    const client = new FirezoneClient({baseUrl: origin, token: 'tok', firstPoll});
    for (const call of [client.listDevices(), client.listUsers(), client.listRules(), client.getConfiguration()]) await outcome(call);
    await seenAtLeast(FIRST_POLL_ROUTES.length);
    expect(seen.map((s) => s.path).sort()).toEqual(FIRST_POLL_ROUTES.map((r) => `/v0${r}`).sort());
    for (const {headers} of seen) {
      expect(headers).toMatchObject({authorization: 'Bearer tok', accept: 'application/json'});
      expect(headers['user-agent']).toMatch(/^fz-console\//);
    }
    // The second poll is the client's own.
    await client.listDevices();
    expect(seen.filter((s) => s.path === '/v0/devices')).toHaveLength(2);
    await client.close();
  });

  it('is not taken for another server or token, nor after the token changed', async () => {
    // The server refuses the first poll's requests in these cases: were a response taken over, the call would fail.
    const cases: [FirstPoll, ClientOptions][] = [
      [FirstPoll.start({baseUrl: `${origin}/stale`, token: 'tok'}, {})!, {baseUrl: origin, token: 'tok'}],
      [FirstPoll.start({baseUrl: origin, token: 'stale'}, {})!, {baseUrl: origin, token: 'tok'}],
    ];
    for (const [firstPoll, options] of cases) {
      const client = new FirezoneClient({...options, firstPoll});
      expect(await outcome(client.listDevices())).toEqual({ok: true, value: {data: [], issues: []}});
      await client.close();
    }
    const firstPoll = FirstPoll.start({baseUrl: origin, token: 'stale'}, {})!;
    const client = new FirezoneClient({baseUrl: origin, token: 'stale', firstPoll});
    client.setToken('renewed');
    expect(await outcome(client.listDevices())).toEqual({ok: true, value: {data: [], issues: []}});
    await client.close();
  });

  it('the timeout counts from when the request was sent, and names the request as ever', async () => {
    hang = true;
    try {
      const firstPoll = FirstPoll.start({baseUrl: origin, token: 'tok'}, {})!;
      await new Promise((resolve) => setTimeout(resolve, 300));
      const client = new FirezoneClient({baseUrl: origin, token: 'tok', timeoutMs: 500, firstPoll});
      const started = performance.now();
      const result = await outcome(client.listDevices());
      const waited = performance.now() - started;
      expect(result).toEqual({
        ok: false,
        kind: 'timeout',
        status: undefined,
        message: 'Request timed out after 0.5 s: GET /v0/devices (server slow or unreachable)',
      });
      expect(waited).toBeLessThan(450);
      await client.close();
    } finally {
      hang = false;
    }
  });

  it('close() drops the requests nobody took', async () => {
    hang = true;
    const closed: Promise<void>[] = [];
    const watch = (req: IncomingMessage) => closed.push(new Promise((resolve) => req.socket.once('close', () => resolve())));
    server.on('request', watch);
    try {
      const firstPoll = FirstPoll.start({baseUrl: origin, token: 'tok'}, {})!;
      while (closed.length < FIRST_POLL_ROUTES.length) await new Promise((resolve) => setTimeout(resolve, 10));
      const client = new FirezoneClient({baseUrl: origin, token: 'tok', firstPoll});
      await client.close();
      await Promise.all(closed);
    } finally {
      server.off('request', watch);
      hang = false;
    }
  });

  it('waits for undici when a proxy is configured (only its proxy agent honours the variables)', () => {
    expect(FirstPoll.start({baseUrl: origin, token: 'tok'}, {HTTPS_PROXY: 'http://proxy.example:3128'})).toBeNull();
    expect(FirstPoll.start({baseUrl: origin, token: 'tok'}, {http_proxy: 'http://proxy.example:3128'})).toBeNull();
  });

  it('refuses what the client refuses, in its words', () => {
    expect(() => FirstPoll.start({baseUrl: 'ftp://h', token: 'x'}, {})).toThrow(/only http and https/);
    expect(() => FirstPoll.start({baseUrl: origin, token: 'a\nb'}, {})).toThrow('The API token contains a line break; a token is one line');
  });
});
