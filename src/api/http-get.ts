// GET requests over node:http(s): the first poll's (first-poll.ts, before undici is loaded) and,
// when no proxy is configured, every poll after it (client.ts). Node's HTTP parser is native: a
// 40 MB device list costs less CPU than through undici's WebAssembly parser, and a session that
// only reads never loads undici and its 16 MB of WebAssembly memory (docs/architecture.md,
// "Performance notes", "Polls over node:http"). Writes and proxied requests stay on undici.
import {Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage} from 'node:http';
import {Agent as HttpsAgent, request as httpsRequest} from 'node:https';
import type {TransportResponse} from './endpoint.js';

export interface SentRequest {
  /** performance.now() when it was sent: the client's timeout counts from here. */
  startedAt: number;
  response: Promise<TransportResponse>;
  /** Drops the request (and its connection), whether or not the response has begun. */
  abort(): void;
}

export interface GetOptions {
  /** The connection pool; false for a connection of its own, closed after the response. */
  agent: HttpAgent | false;
  /** Unread bytes past which reading pauses until the client catches up. */
  unreadLimit: number;
}

type RequestOptions = {headers: Record<string, string>; ca?: string; rejectUnauthorized?: false};

/** A keep-alive pool for the client's GETs; idle connections close after 30 s (as undici's did). */
export function getAgent(https: boolean, tls: {ca?: string; rejectUnauthorized?: false}): HttpAgent {
  const options = {keepAlive: true, timeout: 30_000, ...tls};
  return https ? new HttpsAgent(options) : new HttpAgent(options);
}

/**
 * Sends `GET url` now. A request on a pooled connection that the server closed while it was idle
 * (a reset or hang-up before any response, `reusedSocket`) is sent once more on a new connection:
 * the race between a keep-alive timeout and the next poll is not the admin's problem, and a GET
 * has no effect to repeat.
 */
export function sendGet(url: URL, options: RequestOptions, https: boolean, get: GetOptions): SentRequest {
  const startedAt = performance.now();
  let req: ClientRequest | null = null;
  let aborted = false;
  const abort = () => {
    aborted = true;
    req?.destroy(Object.assign(new Error('The operation was aborted'), {name: 'AbortError', code: 'ABORT_ERR'}));
  };
  const attempt = (agent: HttpAgent | false, retry: boolean) =>
    new Promise<TransportResponse>((resolve, reject) => {
      const sent = (https ? httpsRequest : httpRequest)(url, {method: 'GET', agent, ...options}, (res) => resolve(readEagerly(res, get.unreadLimit, abort)));
      req = sent;
      sent.on('error', (err: NodeJS.ErrnoException) => {
        if (retry && !aborted && sent.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) resolve(attempt(false, false));
        else reject(err);
      });
      sent.end();
    });
  const response = attempt(get.agent, get.agent !== false);
  // The client sees the failure when it takes the response; one nobody takes must not count as unhandled.
  response.catch(() => undefined);
  return {startedAt, response, abort};
}

/**
 * Reads the body as it arrives, whether or not the client is ready for it yet (the first poll's
 * client is still loading), so that the server is not held back by a full socket. Past `limit`
 * unread bytes it stops reading until the client has caught up: memory stays bounded.
 */
function readEagerly(res: IncomingMessage, limit: number, abort: () => void): TransportResponse {
  const queue: Buffer[] = [];
  let head = 0;
  let unread = 0;
  let ended = false;
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    const resolve = wake;
    wake = null;
    resolve?.();
  };
  res.on('data', (chunk: Buffer) => {
    queue.push(chunk);
    unread += chunk.length;
    if (unread > limit) res.pause();
    notify();
  });
  res.on('end', () => {
    ended = true;
    notify();
  });
  // A connection that closes mid-body is "aborted" (ECONNRESET) to Node and UND_ERR_SOCKET to
  // undici: the admin reads the same line whichever transport carried the request.
  const closedEarly = (cause?: unknown) => Object.assign(new Error('the connection closed before the response ended'), {code: 'UND_ERR_SOCKET', cause});
  res.on('error', (err) => {
    failure ??= closedEarly(err);
    notify();
  });
  res.on('close', () => {
    if (!ended) failure ??= closedEarly();
    notify();
  });
  async function* body(): AsyncGenerator<Buffer> {
    for (;;) {
      if (head < queue.length) {
        const chunk = queue[head]!;
        queue[head++] = EMPTY;
        if (head === queue.length) {
          queue.length = 0;
          head = 0;
        }
        unread -= chunk.length;
        if (res.isPaused() && unread <= limit) res.resume();
        yield chunk;
        continue;
      }
      if (failure !== null) throw failure;
      if (ended) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  }
  return {
    statusCode: res.statusCode ?? 0,
    header: (name) => res.headersDistinct[name]?.[0],
    body: body(),
    destroy: () => {
      abort();
      res.destroy();
    },
  };
}

const EMPTY = Buffer.alloc(0);
