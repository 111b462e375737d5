// Which transport carries a request (src/api/http-get.ts, client.ts): GETs on sockets of the
// console's own, on a keep-alive pool, unless a proxy is configured, writes over undici; and a GET
// whose pooled connection the server closed while it sat idle is sent again on a new one, not
// shown as an error.
import {createServer as createHttpServer} from 'node:http';
import {createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket} from 'node:net';
import {afterAll, afterEach, beforeAll, describe, expect, it, vi} from 'vitest';
import {FirezoneClient, type RequestEvent} from '../../src/api/index.js';
import {GetPool, readBuffersMade, sendGet} from '../../src/api/http-get.js';
import {FirstPoll} from '../../src/api/first-poll.js';
import {startSandbox, type SandboxHandle} from '../../src/sandbox/index.js';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({port: 0, seed: 'demo', statsIntervalSeconds: 0});
});
afterAll(async () => {
  await sandbox.close();
});

function client(events: RequestEvent[]): FirezoneClient {
  return new FirezoneClient({baseUrl: sandbox.url, token: sandbox.adminToken, onRequest: (e) => events.push(e)});
}

describe('the transport of a request', () => {
  const saved = {...process.env};
  afterEach(() => {
    for (const k of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it("GETs go on the console's own sockets, writes over undici; a read-only session never needs undici", async () => {
    const events: RequestEvent[] = [];
    const c = client(events);
    const users = await c.listUsers();
    await c.pollDevices();
    await c.listRules();
    await c.getConfiguration();
    expect(events.map((e) => `${e.method} ${e.path} ${e.via}`)).toEqual([
      'GET /v0/users socket',
      'GET /v0/devices socket',
      'GET /v0/rules socket',
      'GET /v0/configuration socket',
    ]);
    const user = users.data[0]!;
    await c.updateUser(user.id, {role: user.role});
    expect(events.at(-1)).toMatchObject({method: 'PATCH', via: 'undici', status: 200});
    await c.close();
  });

  it('with a proxy configured every request goes through undici (only its agent honours the proxy variables)', async () => {
    // For an http:// server undici's EnvHttpProxyAgent reads HTTP_PROXY, unset here: it connects directly.
    process.env.HTTPS_PROXY = 'http://127.0.0.1:9';
    delete process.env.HTTP_PROXY;
    delete process.env.http_proxy;
    const events: RequestEvent[] = [];
    const c = client(events);
    await c.listUsers();
    expect(events.map((e) => `${e.method} ${e.path} ${e.via} ${e.status}`)).toEqual(['GET /v0/users undici 200']);
    await c.close();
  });
});

describe('a pooled connection the server closed while idle', () => {
  let server: TcpServer;
  let connections = 0;
  let requests = 0;
  let closeReused = true;
  const body = JSON.stringify({data: []});
  beforeAll(async () => {
    // A server that answers one request per connection with keep-alive, then drops the
    // connection when a second request arrives on it (as a keep-alive timeout that fires just as
    // the next poll is sent looks to the client).
    server = createTcpServer((socket: Socket) => {
      connections++;
      let served = 0;
      let buffered = '';
      socket.on('data', (d) => {
        buffered += d.toString('latin1');
        while (buffered.includes('\r\n\r\n')) {
          buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
          requests++;
          if (served++ > 0 && closeReused) {
            socket.destroy();
            return;
          }
          socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: keep-alive\r\n\r\n${body}`);
        }
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => {
    server.close();
  });

  it('is kept from one poll to the next while the server keeps it', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const c = new FirezoneClient({baseUrl: url, token: 't'});
    closeReused = false;
    connections = 0;
    for (let i = 0; i < 5; i++) await c.listUsers();
    expect(connections).toBe(1);
    closeReused = true;
    await c.close();
  });

  it('is asked again on a new connection, and the poll succeeds', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const events: RequestEvent[] = [];
    const c = new FirezoneClient({baseUrl: url, token: 't', onRequest: (e) => events.push(e)});
    connections = 0;
    requests = 0;
    for (let i = 0; i < 3; i++) expect((await c.listUsers()).data).toEqual([]);
    // The second poll meets the dropped connection and is answered on a new one, which joins the
    // pool; the third meets that one dropped too (this server drops every reused connection) and
    // is answered on a third.
    expect(requests).toBe(5);
    expect(connections).toBe(3);
    expect(events.map((e) => e.status)).toEqual([200, 200, 200]);
    await c.close();
  });

  it('is not asked a third time: a server that drops every request is an error, said once', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const c = new FirezoneClient({baseUrl: url, token: 't'});
    await c.listUsers();
    // Now every connection is dropped at its first request too.
    const drop = server.listeners('connection')[0] as (s: Socket) => void;
    server.removeAllListeners('connection');
    let dropped = 0;
    server.on('connection', (socket: Socket) => {
      socket.once('data', () => {
        dropped++;
        socket.destroy();
      });
      socket.on('error', () => undefined);
    });
    await expect(c.listUsers()).rejects.toMatchObject({kind: 'network'});
    // The pooled connection, then one new connection: no more.
    expect(dropped).toBe(1);
    server.removeAllListeners('connection');
    server.on('connection', drop);
    await c.close();
  });
});

describe("a body read into the connection's own buffer", () => {
  it('a list decoder that keeps item bytes gets copies: a user changed in a long list is seen changed', async () => {
    // Long enough to take many reads of the connection's buffer; the users list's decoder keeps
    // each item's bytes to recognise it unchanged next poll. Had it kept views of the reused
    // buffer, next poll's item would be compared with itself (same place, same length) and the
    // old user given back.
    const big = await startSandbox({port: 0, seed: 'demo', users: 3000, devices: 10, statsIntervalSeconds: 0});
    try {
      const events: RequestEvent[] = [];
      const c = new FirezoneClient({baseUrl: big.url, token: big.adminToken, onRequest: (e) => events.push(e)});
      const before = (await c.listUsers()).data;
      expect(events.at(-1)!.bytes).toBeGreaterThan(512 * 1024);
      for (const at of [40, 1500, 2900]) {
        const user = before[at]!;
        // Same length, so that the item keeps its place in the body.
        const email = user.email.replace(/^./, user.email.startsWith('z') ? 'y' : 'z');
        await c.updateUser(user.id, {email});
      }
      const after = (await c.listUsers()).data;
      const fresh = (await (await fetch(`${big.url}/v0/users`, {headers: {authorization: `Bearer ${big.adminToken}`}})).json()) as {data: unknown[]};
      expect(after).toEqual(fresh.data);
      expect(after.filter((u, i) => u.email !== before[i]!.email)).toHaveLength(3);
      await c.close();
    } finally {
      await big.close();
    }
  });

  it('the device list, polled on one connection while it changes, is what a full parse gives', async () => {
    const big = await startSandbox({port: 0, seed: 'demo', users: 200, devices: 4000, statsIntervalSeconds: 0});
    try {
      const c = new FirezoneClient({baseUrl: big.url, token: big.adminToken});
      for (let poll = 0; poll < 3; poll++) {
        const {data} = await c.pollDevices();
        const fresh = (await (await fetch(`${big.url}/v0/devices`, {headers: {authorization: `Bearer ${big.adminToken}`}})).json()) as {data: unknown[]};
        expect(data.length).toBe(fresh.data.length);
        for (let i = 0; i < data.length; i++) expect(data.materialise(i)).toEqual(fresh.data[i]);
        // Change a few devices between polls (same-length names keep the others in place).
        for (const i of [7, 2000, 3999]) await c.updateDevice(data.materialise(i).id, {name: `renamed-${poll}-${String(i).padStart(4, '0')}`});
      }
      await c.close();
    } finally {
      await big.close();
    }
  });
});

/** A raw TCP server answering each request with `answer(n)` (n counts requests over all connections). */
async function rawServer(answer: (n: number, socket: Socket) => void): Promise<{url: string; server: TcpServer; connections: () => number}> {
  let n = 0;
  let connections = 0;
  const server = createTcpServer((socket: Socket) => {
    connections++;
    let buffered = '';
    socket.on('data', (d) => {
      buffered += d.toString('latin1');
      while (buffered.includes('\r\n\r\n')) {
        buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
        answer(n++, socket);
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, connections: () => connections};
}

/** Two polls of an empty list 150 ms apart: both fine, the second on a connection of its own. */
async function twoPollsAcrossAnIdleWhile(s: {url: string; server: TcpServer; connections: () => number}): Promise<void> {
  const c = new FirezoneClient({baseUrl: s.url, token: 't'});
  expect((await c.listUsers()).data).toEqual([]);
  await new Promise((resolve) => setTimeout(resolve, 150));
  expect((await c.listUsers()).data).toEqual([]);
  expect(s.connections()).toBe(2);
  await c.close();
  s.server.close();
}

describe('a server that does not keep to HTTP/1.1', () => {
  const ok = (body: string, extra = '') => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n${extra}\r\n${body}`;
  const empty = JSON.stringify({data: []});

  it('bytes after a response: the connection is not used again, and the next poll is fine', async () => {
    const s = await rawServer((_n, socket) => socket.write(`${ok(empty)}HTTP/1.1 200 OK\r\n`));
    const c = new FirezoneClient({baseUrl: s.url, token: 't'});
    for (let i = 0; i < 3; i++) expect((await c.listUsers()).data).toEqual([]);
    expect(s.connections()).toBe(3);
    await c.close();
    s.server.close();
  });

  it('bytes on an idle connection: it is dropped, not read as the next answer', async () => {
    const s = await rawServer((n, socket) => {
      socket.write(ok(empty));
      // A stale answer arrives while the connection sits idle in the pool.
      if (n === 0) setTimeout(() => socket.write(ok(JSON.stringify({data: [{id: 'stale'}]}))), 20);
    });
    // The connection that spoke out of turn was not asked again.
    await twoPollsAcrossAnIdleWhile(s);
  });

  it('a body that runs until the server closes is read whole', async () => {
    const body = `${JSON.stringify({data: []})}${' '.repeat(300_000)}`;
    const s = await rawServer((_n, socket) => socket.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n${body}`));
    const events: RequestEvent[] = [];
    const c = new FirezoneClient({baseUrl: s.url, token: 't', onRequest: (e) => events.push(e)});
    expect((await c.listRules()).data).toEqual([]);
    expect((await c.listRules()).data).toEqual([]);
    expect(events.map((e) => [e.status, e.bytes, e.error])).toEqual([
      [200, body.length, undefined],
      [200, body.length, undefined],
    ]);
    expect(s.connections()).toBe(2);
    await c.close();
    s.server.close();
  });

  it('a malformed response is an error that says what was wrong', async () => {
    const s = await rawServer((_n, socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 5\r\ncontent-length: 6\r\n\r\nabcdef'));
    const c = new FirezoneClient({baseUrl: s.url, token: 't'});
    await expect(c.listUsers()).rejects.toMatchObject({
      kind: 'network',
      message: expect.stringMatching(/GET \/v0\/users\): malformed HTTP response: an invalid Content-Length/),
    });
    await c.close();
    s.server.close();
  });

  it('a connection cut mid-body says so, in the same words as ever', async () => {
    const s = await rawServer((_n, socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 500\r\n\r\n{"data":['));
    const c = new FirezoneClient({baseUrl: s.url, token: 't'});
    await expect(c.listUsers()).rejects.toMatchObject({kind: 'network', message: expect.stringMatching(/connection closed unexpectedly \(UND_ERR_SOCKET\)/)});
    await c.close();
    s.server.close();
  });
});

describe("reading a body into the connection's buffers", () => {
  it('a slow reader of a long body: the data whole, two buffers for the connection, whatever the pace', async () => {
    const body = Buffer.alloc(3 * 1024 * 1024);
    for (let i = 0; i < body.length; i++) body[i] = (i * 7 + (i >> 11)) & 255;
    const server = createHttpServer((_req, res) => res.writeHead(200, {'content-length': String(body.length)}).end(body));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v0/x`);
    const pool = new GetPool(url, null);
    const before = readBuffersMade();
    try {
      for (let round = 0; round < 2; round++) {
        const res = await sendGet(url, {accept: 'application/json'}, null, {pool, mode: 'borrow'}).response;
        expect(res.borrowed).toBe(true);
        const copies: Buffer[] = [];
        let n = 0;
        for await (const chunk of res.body) {
          copies.push(Buffer.from(chunk));
          // A reader that takes its time every few chunks (as the decoder yields to keys).
          if (n++ % 3 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
        }
        expect(Buffer.concat(copies).equals(body)).toBe(true);
      }
      // One connection, kept: its two buffers, taken in turn, for both bodies.
      expect(readBuffersMade() - before).toBe(2);
    } finally {
      pool.close();
      server.close();
    }
  });

  it('the first poll, read before anyone takes it, keeps what it read (copies, not views)', async () => {
    const big = await startSandbox({port: 0, seed: 'demo', users: 100, devices: 3000, statsIntervalSeconds: 0});
    try {
      const options = {baseUrl: big.url, token: big.adminToken};
      const firstPoll = FirstPoll.start(options, {})!;
      // The client is "loading" while the bodies arrive and are read.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const c = new FirezoneClient({...options, firstPoll});
      const {data} = await c.pollDevices();
      const fresh = (await (await fetch(`${big.url}/v0/devices`, {headers: {authorization: `Bearer ${big.adminToken}`}})).json()) as {data: unknown[]};
      expect(data.length).toBe(3000);
      for (let i = 0; i < data.length; i++) expect(data.materialise(i)).toEqual(fresh.data[i]);
      await c.close();
    } finally {
      await big.close();
    }
  });

  it('a header with a line break is refused before anything is sent', () => {
    const url = new URL('http://127.0.0.1:9/v0/users');
    expect(() => sendGet(url, {authorization: 'Bearer a\r\nx-injected: 1'}, null, {pool: null, mode: 'eager', unreadLimit: 1})).toThrow(
      /line break in the authorization header/,
    );
  });
});

describe('connections and their end', () => {
  const ok = (body: string) => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
  const empty = JSON.stringify({data: []});

  it('a reused connection reset (RST) before any byte of an answer: asked again, and the poll succeeds', async () => {
    const s = await rawServer((n, socket) => (n === 1 ? socket.resetAndDestroy() : socket.write(ok(empty))));
    const events: RequestEvent[] = [];
    const c = new FirezoneClient({baseUrl: s.url, token: 't', onRequest: (e) => events.push(e)});
    expect((await c.listUsers()).data).toEqual([]);
    expect((await c.listUsers()).data).toEqual([]);
    expect(events.map((e) => e.error)).toEqual([undefined, undefined]);
    expect(s.connections()).toBe(2);
    await c.close();
    s.server.close();
  });

  it('a reused connection cut after part of an answer: an error, not asked again', async () => {
    let requests = 0;
    const s = await rawServer((n, socket) => {
      requests++;
      if (n === 1) socket.end('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{"data":[');
      else socket.write(ok(empty));
    });
    const c = new FirezoneClient({baseUrl: s.url, token: 't'});
    await c.listUsers();
    await expect(c.listUsers()).rejects.toMatchObject({kind: 'network', message: expect.stringMatching(/connection closed unexpectedly/)});
    expect(requests).toBe(2);
    // A reset after part of an answer is not asked again either.
    const r = await rawServer((n, socket) => {
      if (n === 1) {
        socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{"data":[');
        setTimeout(() => socket.resetAndDestroy(), 20);
      } else socket.write(ok(empty));
    });
    const d = new FirezoneClient({baseUrl: r.url, token: 't'});
    await d.listUsers();
    await expect(d.listUsers()).rejects.toMatchObject({kind: 'network'});
    expect(r.connections()).toBe(1);
    await c.close();
    await d.close();
    s.server.close();
    r.server.close();
  });

  it('a new connection closed without an answer says the server hung up', async () => {
    const s = await rawServer((_n, socket) => socket.end());
    const c = new FirezoneClient({baseUrl: s.url, token: 't'});
    await expect(c.listUsers()).rejects.toMatchObject({kind: 'network', message: expect.stringMatching(/connection reset by the server \(ECONNRESET\)/)});
    // A new connection is not asked again: only a pooled one may have been closed while idle.
    expect(s.connections()).toBe(1);
    await c.close();
    s.server.close();
  });

  it('an idle connection the server resets is dropped quietly, and the next poll opens another', async () => {
    const s = await rawServer((n, socket) => {
      socket.write(ok(empty));
      if (n === 0) setTimeout(() => socket.resetAndDestroy(), 20);
    });
    await twoPollsAcrossAnIdleWhile(s);
  });

  it('closing the client closes its idle connections; one dropped for a body past the limit is closed too', async () => {
    const closed: number[] = [];
    let big = false;
    const s = await rawServer((n, socket) => {
      socket.on('close', () => closed.push(n));
      socket.write(big ? `HTTP/1.1 200 OK\r\ncontent-length: ${4 * 1024 * 1024}\r\n\r\n{"data":[${'1,'.repeat(300_000)}` : ok(empty));
    });
    const c = new FirezoneClient({baseUrl: s.url, token: 't', maxBodyBytes: 64 * 1024});
    await c.listUsers();
    big = true;
    await expect(c.listUsers()).rejects.toMatchObject({kind: 'too_large'});
    // The connection that carried the long body is closed, not kept with the rest of it unread.
    await vi.waitFor(() => expect(closed).toContain(1));
    big = false;
    expect((await c.listUsers()).data).toEqual([]);
    expect(s.connections()).toBe(2);
    await c.close();
    await vi.waitFor(() => expect(closed).toContain(2));
    s.server.close();
  });

  it("an error answer's headers reach the error (its request id)", async () => {
    const s = await rawServer((_n, socket) =>
      socket.write(
        'HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\nx-request-id: req-42\r\ncontent-length: 21\r\n\r\n{"errors":"not found"}'.replace(
          '21',
          '22',
        ),
      ),
    );
    const c = new FirezoneClient({baseUrl: s.url, token: 't'});
    await expect(c.listUsers()).rejects.toMatchObject({status: 404, requestId: 'req-42'});
    await c.close();
    s.server.close();
  });
});
