// TLS against a local HTTPS server with a freshly generated self-signed certificate: refused
// with a clear message by default, accepted with --ca-file, accepted with --insecure.
import {execFileSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {createServer, type Server} from 'node:https';
import type {AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {ApiError, FirezoneClient, type ClientOptions} from '../../src/api/index.js';
import {FirstPoll} from '../../src/api/first-poll.js';
import {device} from '../fixtures/data.js';

/** A client that sends its own requests, or one that takes the first poll's (sent on its own sockets before it was made). */
const ways: [string, (options: ClientOptions) => FirezoneClient][] = [
  ['own socket', (options) => new FirezoneClient(options)],
  ['first poll', (options) => new FirezoneClient({...options, firstPoll: FirstPoll.start(options, {})!})],
];

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], {stdio: 'ignore'});
    return true;
  } catch {
    return false;
  }
}

// Made by beforeAll: without openssl the suite is skipped and its afterAll, which removes it, never runs.
let dir = '';
let server: Server;
let origin = '';

describe.skipIf(!hasOpenssl())('TLS', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fzc-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      {stdio: 'ignore'},
    );
    server = createServer({key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem'))}, (_req, res) => {
      res.writeHead(200, {'content-type': 'application/json; charset=utf-8'}).end('{"data":[]}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server?.close();
    // The key must not outlive the test.
    if (dir) rmSync(dir, {recursive: true, force: true});
  });

  it.each(ways)('%s: a self-signed certificate is refused with a message that says what to do', async (_way, make) => {
    const client = make({baseUrl: origin, token: 'x'});
    try {
      await client.listDevices();
      throw new Error('expected a TLS failure');
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).kind).toBe('network');
      expect((err as ApiError).message).toMatch(/self-signed.*--ca-file/);
    } finally {
      await client.close();
    }
  });

  it.each(ways)('%s: --ca-file trusts it', async (_way, make) => {
    const client = make({baseUrl: origin, token: 'x', caFile: join(dir, 'cert.pem')});
    expect((await client.listDevices()).data).toEqual([]);
    await client.close();
  });

  it.each(ways)('%s: --insecure skips verification', async (_way, make) => {
    const client = make({baseUrl: origin, token: 'x', insecure: true});
    expect((await client.listDevices()).data).toEqual([]);
    await client.close();
  });

  it("a long list over TLS, read into the connection's buffer: whole, every poll, on one connection", async () => {
    // Decrypted reads are TLS records (16 KiB): a 3 MB body is ~200 of them into the same buffer.
    const devices = Array.from({length: 3000}, (_, i) => device({id: `d-${i}`, name: `device-${i}`, description: 'x'.repeat(600)}));
    let body = JSON.stringify({data: devices});
    const big = createServer({key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem'))}, (_req, res) => {
      res.writeHead(200, {'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body))}).end(body);
    });
    let connections = 0;
    big.on('secureConnection', () => connections++);
    await new Promise<void>((resolve) => big.listen(0, '127.0.0.1', resolve));
    const client = new FirezoneClient({baseUrl: `https://127.0.0.1:${(big.address() as AddressInfo).port}`, token: 'x', caFile: join(dir, 'cert.pem')});
    try {
      for (let poll = 0; poll < 3; poll++) {
        const {data} = await client.pollDevices();
        expect(data.length).toBe(3000);
        for (let i = 0; i < data.length; i++) expect(data.materialise(i)).toEqual(devices[i]);
        devices[1000 * poll + 5] = {...devices[1000 * poll + 5]!, name: `renamed-${poll}`};
        body = JSON.stringify({data: devices});
      }
      expect(connections).toBe(1);
    } finally {
      await client.close();
      big.close();
    }
  });

  it('a host name is checked against the certificate (and sent as SNI)', async () => {
    const port = new URL(origin).port;
    const byName = new FirezoneClient({baseUrl: `https://localhost:${port}`, token: 'x', caFile: join(dir, 'cert.pem')});
    expect((await byName.listDevices()).data).toEqual([]);
    await byName.close();
    // The certificate names localhost and 127.0.0.1, not 127.0.0.2 (still this machine).
    const wrong = new FirezoneClient({baseUrl: `https://127.0.0.2:${port}`, token: 'x', caFile: join(dir, 'cert.pem')});
    await expect(wrong.listDevices()).rejects.toMatchObject({kind: 'network', message: expect.stringMatching(/does not match the host name|ECONNREFUSED/)});
    await wrong.close();
  });

  it('an unreadable CA file is a clear error', () => {
    expect(() => new FirezoneClient({baseUrl: origin, token: 'x', caFile: join(dir, 'missing.pem')})).toThrow(/Cannot read CA file .*missing\.pem: ENOENT/);
    expect(() => FirstPoll.start({baseUrl: origin, token: 'x', caFile: join(dir, 'missing.pem')}, {})).toThrow(/Cannot read CA file .*missing\.pem: ENOENT/);
  });

  it('a CA file without a PEM certificate, or a directory, is a clear error, not silently ignored', () => {
    expect(() => new FirezoneClient({baseUrl: origin, token: 'x', caFile: join(dir, 'key.pem')})).toThrow(
      `CA file ${join(dir, 'key.pem')} contains no PEM certificate`,
    );
    expect(() => new FirezoneClient({baseUrl: origin, token: 'x', caFile: dir})).toThrow(`Cannot read CA file ${dir}: not a regular file`);
  });
});
