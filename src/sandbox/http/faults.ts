// Injected failures for /v0 requests (control API, src/sandbox/README.md), so clients can be tested against what
// a real deployment produces on a bad day: Phoenix's empty 500, a reverse proxy's 502 page, a JSON
// body cut short, a connection reset mid-response, a server that never answers, and one that
// applies a write and never answers it (the client cannot tell whether it happened).

import type {ServerResponse} from 'node:http';
import {JSON_TYPE} from './respond.js';

type FaultMode = 'none' | 'empty-500' | 'html-502' | 'malformed-json' | 'reset' | 'hang' | 'apply-hang';

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
export function applyFault(mode: Exclude<FaultMode, 'none' | 'apply-hang'>, res: ServerResponse, isList: boolean): boolean {
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
