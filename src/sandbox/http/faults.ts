// Injected failures for /v0 requests (control API, src/sandbox/README.md), so clients can be tested against what
// a real deployment produces on a bad day: Phoenix's empty 500, a reverse proxy's 502 page, a JSON
// body cut short, a connection reset mid-response, a server that never answers, one that applies
// a write and never answers it (the client cannot tell whether it happened), and a list that
// holds one id twice.

import type {OutgoingHttpHeaders, ServerResponse} from 'node:http';
import {JSON_TYPE} from './respond.js';

type FaultMode = 'none' | 'empty-500' | 'html-502' | 'malformed-json' | 'reset' | 'hang' | 'apply-hang' | 'duplicate-id';

export interface FaultSettings {
  mode: FaultMode;
  /** Probability per request (0..1) that the mode applies. */
  rate: number;
  /** Extra delay before every /v0 response while faults are configured. */
  latencyMs: number;
  /** Requests held by 'hang' whose connection is still open (a test waits for one to arrive). */
  hung: number;
}

const NGINX_502 = `<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx/1.24.0</center>
</body>
</html>
`;

/**
 * 'apply-hang': the request is handled as usual (a write is applied), but nothing of its answer
 * is sent and the connection stays open, as when a proxy times out after the server committed.
 */
export function muteAnswer(res: ServerResponse): void {
  res.writeHead = (() => res) as ServerResponse['writeHead'];
  res.write = (() => true) as ServerResponse['write'];
  res.end = (() => res) as ServerResponse['end'];
}

/**
 * Answers the request according to `mode`. Returns false for 'hang', where nothing is written
 * and the socket stays open until the client gives up or the sandbox closes.
 */
export function applyFault(mode: Exclude<FaultMode, 'none' | 'apply-hang' | 'duplicate-id'>, res: ServerResponse, isList: boolean): boolean {
  switch (mode) {
    case 'empty-500':
      res.writeHead(500, {'content-length': '0', server: 'Cowboy'});
      res.end();
      return true;
    case 'html-502':
      res.writeHead(502, {'content-type': 'text/html', 'content-length': String(Buffer.byteLength(NGINX_502)), server: 'nginx/1.24.0'});
      res.end(NGINX_502);
      return true;
    case 'malformed-json': {
      // A proxy buffer limit or an interrupted upstream: valid headers, the body stops mid-token.
      const body = isList ? '{"data":[{"allowed_ips":["0.0.0.0/0","::/0"],"descr' : '{"data":{"allowed_ips":["0.0.0.0/0","::/0"],"descr';
      res.writeHead(200, {'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(body)), server: 'Cowboy'});
      res.end(body);
      return true;
    }
    case 'reset':
      res.writeHead(200, {'content-type': JSON_TYPE, 'content-length': '65536', server: 'Cowboy'});
      res.write('{"data":[{"allowed_ips":', () => res.socket?.destroy());
      return true;
    case 'hang':
      return false;
  }
}

/** A list body with its last item under its first item's id; any other body as it is. */
function firstIdLast(body: Buffer): Buffer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return body;
  }
  const data = (parsed as {data?: unknown}).data;
  if (!Array.isArray(data) || data.length < 2) return body;
  (data[data.length - 1] as {id: unknown}).id = (data[0] as {id: unknown}).id;
  return Buffer.from(JSON.stringify(parsed));
}

/**
 * 'duplicate-id': the request is answered as usual, but a list's last item goes out under its
 * first item's id — two records under one id, a server's error a client must not take for a
 * rename or a deletion. The answer is held whole (sandbox lists are small) and rewritten as it ends.
 */
export function repeatFirstId(res: ServerResponse): void {
  let status = 200;
  let headers: OutgoingHttpHeaders = {};
  const chunks: Buffer[] = [];
  const writeHead = res.writeHead.bind(res);
  const end = res.end.bind(res);
  res.writeHead = ((code: number, given?: OutgoingHttpHeaders) => {
    status = code;
    headers = {...given};
    return res;
  }) as typeof res.writeHead;
  res.write = ((chunk: Buffer | string) => {
    chunks.push(Buffer.from(chunk));
    return true;
  }) as typeof res.write;
  res.end = ((chunk?: Buffer | string) => {
    if (chunk !== undefined) chunks.push(Buffer.from(chunk));
    const body = status === 200 ? firstIdLast(Buffer.concat(chunks)) : Buffer.concat(chunks);
    writeHead(status, {...headers, 'content-length': String(body.length)});
    return end(body);
  }) as typeof res.end;
}
