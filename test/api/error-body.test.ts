// Error bodies are kept small (src/api/client.ts, ERROR_BODY_KEEP_BYTES in src/api/endpoint.ts):
// only the start of a non-2xx body is read, the error says it was cut, and the server's text in
// an error is cut before it is kept (src/api/errors.ts). Against real HTTP servers; the memory of a
// client reading four 250 MB error pages is measured in a child process of its own.
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {ApiError, FirezoneClient} from '../../src/api/index.js';
import {bundleModule} from '../helpers/bundle.js';

const MB = 1024 * 1024;

let servers: Server[] = [];
afterEach(() => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  servers = [];
});

interface Served {
  origin: string;
  /** Body bytes written so far, over all requests. */
  sent(): number;
  /** `n` responses have begun, and each has ended or had its writes held back by the reader for 300 ms. */
  settled(n: number): boolean;
}

/** Answers every request with `status` and `body`, or with `size` bytes of a repeated chunk, announced by Content-Length. */
async function serve(status: number, body: string | {size: number}): Promise<Served> {
  let sent = 0;
  const responses: Array<{ended: boolean; heldSince: number | null}> = [];
  const chunk = Buffer.alloc(64 * 1024, '<p>x</p>');
  const server = createServer((req, res) => {
    if (req.url?.endsWith('/warm')) {
      res.writeHead(404, {'content-type': 'application/json'}).end('{"error":"not_found"}');
      return;
    }
    if (typeof body === 'string') {
      res.writeHead(status, {'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body))}).end(body);
      return;
    }
    res.writeHead(status, {'content-type': 'text/html', 'content-length': String(body.size)});
    const state = {ended: false, heldSince: null as number | null};
    responses.push(state);
    res.once('close', () => (state.ended = true));
    let left = body.size;
    const pump = () => {
      state.heldSince = null;
      while (!res.destroyed && left > 0) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        sent += piece.length;
        if (!res.write(piece)) {
          state.heldSince = performance.now();
          res.once('drain', pump);
          return;
        }
      }
      if (left === 0) res.end();
    };
    pump();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent: () => sent,
    settled: (n) => responses.length >= n && responses.every((r) => r.ended || (r.heldSince !== null && performance.now() - r.heldSince > 300)),
  };
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('an error body of 250 MB', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fzc-error-body-'));
    await bundleModule('api/client.ts', dir, 'client');
    await bundleModule('api/first-poll.ts', dir, 'first-poll');
    writeFileSync(
      join(dir, 'read.mjs'),
      `const {FirezoneClient} = await import(${JSON.stringify(pathToFileURL(join(dir, 'client.mjs')).href)});
const {FirstPoll} = await import(${JSON.stringify(pathToFileURL(join(dir, 'first-poll.mjs')).href)});
const [baseUrl, way] = process.argv.slice(2);
// What any first request costs (undici and zod loaded, a connection and its buffers) is not what is measured.
const warm = new FirezoneClient({baseUrl, token: 't'});
await Promise.allSettled([warm.getRule('warm'), warm.updateRule('warm', {destination: '10.0.0.0/8'})]);
await warm.close();
const before = process.resourceUsage().maxRSS;
const firstPoll = way === 'first-poll' ? FirstPoll.start({baseUrl, token: 't'}) : undefined;
if (firstPoll) {
  // The console is still loading: the first poll reads on by itself until told to go on.
  process.stdout.write('waiting\\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  process.stdin.pause();
}
const client = new FirezoneClient({baseUrl, token: 't', ...(firstPoll ? {firstPoll} : {})});
const calls = way === 'first-poll'
  ? [client.listDevices(), client.listUsers(), client.listRules(), client.getConfiguration()]
  : [client.listDevices(), client.listUsers(), client.getRule('r'), client.createRule({destination: '10.0.0.0/8'})];
const outcomes = await Promise.allSettled(calls);
await client.close();
const errors = outcomes.map((o) => o.status === 'rejected' ? {kind: o.reason.kind, message: o.reason.message} : {kind: 'none'});
process.stdout.write(JSON.stringify({grewKiB: process.resourceUsage().maxRSS - before, errors}));`,
    );
  }, 60_000);
  afterAll(() => rmSync(dir, {recursive: true, force: true}));

  /**
   * Runs the client in a child process (the server here answers it meanwhile). The first poll's
   * requests are left to read on their own until every response has ended or is held back by it.
   */
  function read(server: Served, way: string): Promise<{grewKiB: number; errors: Array<{kind: string; message: string}>}> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [join(dir, 'read.mjs'), server.origin, way], {stdio: ['pipe', 'pipe', 'pipe']});
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (!out.startsWith('waiting\n')) return;
        out = out.slice('waiting\n'.length);
        const poll = setInterval(() => {
          if (!server.settled(4)) return;
          clearInterval(poll);
          child.stdin.end('go\n');
        }, 50);
      });
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('error', reject);
      child.on('close', () => (err === '' ? resolve(JSON.parse(out) as never) : reject(new Error(err))));
    });
  }

  it.each([
    ['GETs on its own sockets and a write over undici', 'client'],
    ['the first poll, read before the client takes it', 'first-poll'],
  ])('four of them grow the peak memory by megabytes, not gigabytes: %s', async (_name, way) => {
    const server = await serve(500, {size: 250 * 1_000_000});
    const {grewKiB, errors} = await read(server, way);
    // Reading them whole took 1.3-1.6 GB; cut, ~0-3 MB, with up to ~30 MB of the collector's own.
    expect(grewKiB).toBeLessThan(128 * 1024);
    // The client stopped reading each: what was sent is what the sockets' buffers held.
    expect(server.sent()).toBeLessThan(4 * 16 * MB);
    expect(errors).toHaveLength(4);
    for (const error of errors) {
      expect(error.kind, error.message).toBe('server');
      expect(error.message).toMatch(
        /^Server error 500 for (GET|POST) \/v0\/\w+(\/r)?: an HTML page \(from a proxy\?\); its body \(238\.4 MiB\) was cut to its first 16 KiB, the rest not read$/,
      );
    }
  });
});

describe('a 422 whose body is larger than what is kept', () => {
  it('says its field errors could not be read, rather than that there were none', async () => {
    const message = 'é字'.repeat(40_000);
    const body = JSON.stringify({errors: {name: [message], description: ['should be at most 2048 character(s)']}});
    expect(Buffer.byteLength(body)).toBeGreaterThan(120_000);
    const server = await serve(422, body);
    const client = new FirezoneClient({baseUrl: server.origin, token: 't'});
    try {
      const err = await caught(client.createRule({destination: '10.0.0.0/8'}));
      expect(err.kind).toBe('validation');
      expect(err.fieldErrors).toEqual({});
      expect(err.message).toBe(
        `Rejected by the server (422) for POST /v0/rules; its body (${(Buffer.byteLength(body) / 1024).toFixed(1)} KiB) was cut to its first 16 KiB, the rest not read, so its field errors could not be read`,
      );
    } finally {
      await client.close();
    }
  });

  it('is read whole up to 16 KiB', async () => {
    const body = JSON.stringify({errors: {name: ['x'.repeat(16 * 1024 - 24)]}});
    expect(Buffer.byteLength(body)).toBe(16 * 1024);
    const server = await serve(422, body);
    const client = new FirezoneClient({baseUrl: server.origin, token: 't'});
    try {
      const err = await caught(client.getRule('r'));
      expect(err.fieldErrors.name).toHaveLength(1);
      expect(err.message).not.toMatch(/cut to/);
      const over = await serve(422, `${body} `);
      const cut = await caught(new FirezoneClient({baseUrl: over.origin, token: 't'}).getRule('r'));
      expect(cut.message).toMatch(/its body \(16\.0 KiB\) was cut to its first 16 KiB/);
    } finally {
      await client.close();
    }
  });
});

describe("a 422's server text", () => {
  /** The 422 a real server answers with `errors`, as the client reads it. */
  async function rejected(errors: unknown): Promise<ApiError> {
    const body = JSON.stringify({errors});
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(16 * 1024);
    const server = await serve(422, body);
    const client = new FirezoneClient({baseUrl: server.origin, token: 't'});
    try {
      return await caught(client.createRule({destination: '10.0.0.0/8'}));
    } finally {
      await client.close();
    }
  }

  it('is cut before it is kept: 300 characters a message, saying how many more there were', async () => {
    const long = '界é'.repeat(2_000);
    const err = await rejected({name: [long], description: ['should be at most 2048 character(s)']});
    expect(err.fieldErrors.name).toEqual([`${long.slice(0, 300)}…(+3,700 characters)`]);
    expect(err.fieldErrors.description).toEqual(['should be at most 2048 character(s)']);
    expect(err.message).toBe(`Rejected: name: ${long.slice(0, 300)}…(+3,700 characters); description: should be at most 2048 character(s)`);
  });

  it('keeps 20 messages a field and 600 characters of the line made of them, saying what was left out', async () => {
    const many = Array.from({length: 60}, (_, i) => `!bad${i} is not a valid FQDN`);
    const fields = Object.fromEntries(Array.from({length: 10}, (_, i) => [`f${i}`, ['ü'.repeat(250)]]));
    const err = await rejected({dns: many, ...fields});
    expect(err.fieldErrors.dns).toEqual([...many.slice(0, 20), '(+40 more messages)']);
    const line = [`dns: ${[...many.slice(0, 20), '(+40 more messages)'].join(', ')}`, ...Object.keys(fields).map((f) => `${f}: ${'ü'.repeat(250)}`)].join('; ');
    expect(err.message).toBe(`Rejected: ${line.slice(0, 600)}…(+${(line.length - 600).toLocaleString('en-US')} characters)`);
  });

  it('takes any path as a field, __proto__ and constructor too, and cuts a path at 200 characters', async () => {
    const err = await rejected({['__proto__']: ['a'], constructor: ['b'], ['p'.repeat(1000)]: ['c']});
    expect(Object.entries(err.fieldErrors)).toEqual([
      ['__proto__', ['a']],
      ['constructor', ['b']],
      [`${'p'.repeat(200)}…(+800 characters)`, ['c']],
    ]);
    expect(err.kind).toBe('validation');
  });
});
