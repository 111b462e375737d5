// Response writing for the /v0 API with 0.7.36's headers (docs/firezone-0.7.36.md, "Response framing and headers"): JSON content type with
// charset, Plug's default cache-control, x-request-id, Cowboy's server header, and the bare empty
// 500 Cowboy sends when rendering an error page raises.

import {randomBytes} from 'node:crypto';
import type {IncomingMessage, ServerResponse} from 'node:http';

export const JSON_TYPE = 'application/json; charset=utf-8';
const CACHE_CONTROL = 'max-age=0, private, must-revalidate';

let requestCounter = 0;

/** Plug.RequestId: reuse a 20–200 byte incoming `x-request-id`, else 20 base64url characters. */
export function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  if (typeof incoming === 'string' && Buffer.byteLength(incoming) >= 20 && Buffer.byteLength(incoming) <= 200) return incoming;
  const bytes = Buffer.alloc(15);
  bytes.writeBigUInt64BE(process.hrtime.bigint() + BigInt(Date.now()) * 1_000_000n, 0);
  randomBytes(3).copy(bytes, 8);
  bytes.writeUInt32BE((requestCounter = (requestCounter + 1) >>> 0), 11);
  return bytes.toString('base64url');
}

export function baseHeaders(id: string): Record<string, string> {
  return {'cache-control': CACHE_CONTROL, 'x-request-id': id, server: 'Cowboy'};
}

export function sendJson(res: ServerResponse, id: string, status: number, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, {...baseHeaders(id), 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(body)), ...extra});
  res.end(body);
}

export function sendNoContent(res: ServerResponse, id: string, withJsonType: boolean): void {
  res.writeHead(204, {...baseHeaders(id), ...(withJsonType ? {'content-type': JSON_TYPE} : {})});
  res.end();
}

/** Cowboy's reply after the error view itself crashed: status 500, `content-length: 0`, nothing else. */
export function sendEmpty500(res: ServerResponse): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(500, {'content-length': '0', server: 'Cowboy'});
  res.end();
}

/**
 * Streams `{"data":[…]}` from already-encoded items in ~256 KiB chunks, waiting for the socket to
 * drain between chunks so a 45 MB list is never held twice. Small lists go out in one piece with a
 * content-length.
 */
export async function sendJsonList(res: ServerResponse, id: string, count: number, item: (index: number) => Buffer): Promise<void> {
  const CHUNK = 256 * 1024;
  const OPEN = Buffer.from('{"data":[');
  const COMMA = Buffer.from(',');
  const CLOSE = Buffer.from(']}');
  let i = 0;
  const next = (): Buffer => {
    const parts: Buffer[] = i === 0 ? [OPEN] : [];
    let size = 0;
    while (i < count && size < CHUNK) {
      const piece = item(i);
      if (i > 0) parts.push(COMMA);
      parts.push(piece);
      size += piece.length + 1;
      i++;
    }
    if (i >= count) parts.push(CLOSE);
    return Buffer.concat(parts);
  };
  let chunk = next();
  if (i >= count) {
    res.writeHead(200, {...baseHeaders(id), 'content-type': JSON_TYPE, 'content-length': String(chunk.length)});
    res.end(chunk);
    return;
  }
  res.writeHead(200, {...baseHeaders(id), 'content-type': JSON_TYPE});
  let closed = false;
  res.once('close', () => {
    closed = true;
  });
  for (;;) {
    if (closed) return;
    const last = i >= count;
    const flushed = res.write(chunk);
    if (last) break;
    if (!flushed) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
    chunk = next();
  }
  res.end();
}
