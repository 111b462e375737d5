// Which transport carries a request (src/api/http-get.ts, client.ts): GETs over node:http on a
// keep-alive pool unless a proxy is configured, writes over undici; and a GET whose pooled
// connection the server closed while it sat idle is sent again on a new one, not shown as an error.
import {createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket} from 'node:net';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {FirezoneClient, type RequestEvent} from '../../src/api/index.js';
import {startSandbox, type SandboxHandle} from '../../src/sandbox/index.js';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({seed: 'demo', statsIntervalSeconds: 0});
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

  it('GETs go over node:http, writes over undici; a read-only session never needs undici', async () => {
    const events: RequestEvent[] = [];
    const c = client(events);
    const users = await c.listUsers();
    await c.pollDevices();
    await c.listRules();
    await c.getConfiguration();
    expect(events.map((e) => `${e.method} ${e.path} ${e.via}`)).toEqual([
      'GET /v0/users node:http',
      'GET /v0/devices node:http',
      'GET /v0/rules node:http',
      'GET /v0/configuration node:http',
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
    // The second poll meets the dropped connection and is answered on a new one (of its own, not
    // pooled); the third opens the pool's next connection.
    expect(requests).toBe(4);
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
