// A list body past KEEP_WHOLE_BYTES is not held whole while it is decoded (src/api/client.ts): one
// that breaks after that point is asked for once more and parsed whole, so its outcome is still
// exactly a full parse's. Served by a real HTTP server (node:http), as big as a 10k-device list.
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {afterEach, describe, expect, it} from 'vitest';
import {ApiError, FirezoneClient} from '../../src/api/index.js';
import {device} from '../fixtures/data.js';

const DEVICES = Array.from({length: 8000}, (_, i) => device({id: `d-${i}`, name: `device-${i}`, description: 'x'.repeat(400)}));
const GOOD = JSON.stringify({data: DEVICES});

let server: Server | null = null;
afterEach(() => {
  server?.close();
  server = null;
});

/** Serves `bodies[n]` to the n-th GET of /v0/devices (the last one from then on); counts them. */
async function serve(bodies: string[]): Promise<{url: string; requests: () => number}> {
  let n = 0;
  server = createServer((req, res) => {
    const body = bodies[Math.min(n, bodies.length - 1)]!;
    n++;
    res.writeHead(200, {'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body))});
    res.end(body);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return {url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => n};
}

describe('a long list body', () => {
  it('is decoded in one request when it is the plain shape', async () => {
    expect(GOOD.length).toBeGreaterThan(4 * 1024 * 1024);
    const s = await serve([GOOD]);
    const client = new FirezoneClient({baseUrl: s.url, token: 't'});
    const {data} = await client.pollDevices();
    expect(data.length).toBe(8000);
    expect(data.materialise(7999)).toEqual(DEVICES[7999]);
    expect(s.requests()).toBe(1);
    await client.close();
  });

  it('that breaks past the kept start is asked for again and parsed whole: the full parse decides', async () => {
    // Trailing garbage: the decoder only finds out at the end.
    const s = await serve([`${GOOD}x`]);
    const client = new FirezoneClient({baseUrl: s.url, token: 't'});
    const err = await client.pollDevices().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe(`Malformed JSON from GET /v0/devices (HTTP 200, ${GOOD.length + 1} bytes)`);
    expect(s.requests()).toBe(2);
    await client.close();
  });

  it('whose second answer is whole gives that answer', async () => {
    // A body whose last item is not an object (the decoder gives up), then a plain one.
    const broken = `${GOOD.slice(0, -2)},7]}`;
    const s = await serve([broken, GOOD]);
    const client = new FirezoneClient({baseUrl: s.url, token: 't'});
    const {data} = await client.listDevices();
    expect(data).toEqual(DEVICES);
    expect(s.requests()).toBe(2);
    await client.close();
  });

  it('after one decoded as it came is not kept: one that breaks is asked for again, the next is kept', async () => {
    // Whitespace between items (the decoder gives up early) after a plain body, twice.
    const pretty = JSON.stringify({data: DEVICES}, null, 1);
    const s = await serve([GOOD, pretty, pretty]);
    const client = new FirezoneClient({baseUrl: s.url, token: 't'});
    expect((await client.listDevices()).data).toEqual(DEVICES);
    expect(s.requests()).toBe(1);
    expect((await client.listDevices()).data).toEqual(DEVICES);
    expect(s.requests()).toBe(3);
    // The last one broke: this one is kept whole again, and parsed from the bytes it came in.
    expect((await client.listDevices()).data).toEqual(DEVICES);
    expect(s.requests()).toBe(4);
    await client.close();
  });

  it('after one decoded as it came, one that is no JSON at all is reported from the answer asked for again', async () => {
    const page = '<html><body>maintenance</body></html>';
    const s = await serve([GOOD, page]);
    const client = new FirezoneClient({baseUrl: s.url, token: 't'});
    await client.pollDevices();
    const err = await client.pollDevices().then(
      () => null,
      (e: unknown) => e,
    );
    expect((err as ApiError).message).toBe(`Malformed JSON from GET /v0/devices (HTTP 200, ${page.length} bytes)`);
    expect(s.requests()).toBe(3);
    await client.close();
  });

  it('that breaks early is parsed whole from the bytes it came in, without asking again', async () => {
    // Whitespace between items: the decoder gives up within its first megabyte.
    const pretty = JSON.stringify({data: DEVICES}, null, 1);
    const s = await serve([pretty]);
    const client = new FirezoneClient({baseUrl: s.url, token: 't'});
    const {data} = await client.listDevices();
    expect(data).toEqual(DEVICES);
    expect(s.requests()).toBe(1);
    await client.close();
  });
});
