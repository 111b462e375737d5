// The first poll's four GETs, sent over node:http(s) as soon as the connection is known, before
// undici, zod, React and Ink are loaded (they take ~250 ms to load, and the server can answer
// meanwhile). The client (client.ts) takes each response over and reads it exactly as it reads
// one of its own: same status handling, error shapes, size limit, decoding and timeout. After
// this poll, undici carries every request. See docs/architecture.md, "Performance notes", Start-up.
import {request as httpRequest, type ClientRequest, type IncomingMessage} from 'node:http';
import {request as httpsRequest} from 'node:https';
import {
  checkedToken,
  DEFAULT_MAX_BODY_BYTES,
  normaliseBaseUrl,
  proxyConfigured,
  requestHeaders,
  routeUrl,
  tlsOptions,
  type TransportResponse,
} from './endpoint.js';

/** What the console fetches on every poll (src/state/data/fetch.ts). */
export const FIRST_POLL_ROUTES: readonly string[] = ['/devices', '/users', '/rules', '/configuration'];

export interface FirstPollOptions {
  baseUrl: string;
  token: string;
  caFile?: string;
  insecure?: boolean;
  maxBodyBytes?: number;
}

export interface SentRequest {
  /** performance.now() when it was sent: the client's timeout counts from here. */
  startedAt: number;
  response: Promise<TransportResponse>;
  /** Drops the request (and its connection), whether or not the response has begun. */
  abort(): void;
}

export class FirstPoll {
  /**
   * Sends the GETs now. Null when a proxy is configured: only undici's proxy agent honours the
   * proxy variables, so the first poll waits for it like every other. Throws what the client's
   * constructor would (a bad URL, token or CA file).
   */
  static start(options: FirstPollOptions, env: NodeJS.ProcessEnv = process.env): FirstPoll | null {
    return proxyConfigured(env) ? null : new FirstPoll(options);
  }

  readonly baseUrl: string;
  readonly token: string;
  private readonly sent = new Map<string, SentRequest>();

  private constructor(options: FirstPollOptions) {
    const base = normaliseBaseUrl(options.baseUrl);
    this.baseUrl = base.href;
    this.token = checkedToken(options.token);
    const https = base.protocol === 'https:';
    const tls = https ? tlsOptions(options) : {};
    const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    for (const route of FIRST_POLL_ROUTES) {
      this.sent.set(route, send(routeUrl(base, route), {headers: requestHeaders(this.token, false), ...tls}, https, limit));
    }
  }

  /** The request sent for `GET path`, once; undefined for anything else or a second time. */
  take(method: string, path: string): SentRequest | undefined {
    if (method !== 'GET') return undefined;
    const request = this.sent.get(path);
    this.sent.delete(path);
    return request;
  }

  /** Drops the requests nobody took. */
  close(): void {
    for (const request of this.sent.values()) request.abort();
    this.sent.clear();
  }
}

function send(url: URL, options: {headers: Record<string, string>; ca?: string; rejectUnauthorized?: false}, https: boolean, limit: number): SentRequest {
  const startedAt = performance.now();
  let req: ClientRequest | null = null;
  const abort = () => {
    req?.destroy(Object.assign(new Error('The operation was aborted'), {name: 'AbortError', code: 'ABORT_ERR'}));
  };
  const response = new Promise<TransportResponse>((resolve, reject) => {
    // One connection per request, closed after it (agent: false): undici keeps its own pool from
    // the second poll on, and a kept-alive socket here would only linger.
    req = (https ? httpsRequest : httpRequest)(url, {method: 'GET', agent: false, ...options}, (res) => resolve(readEagerly(res, limit, abort)));
    req.on('error', reject);
    req.end();
  });
  // The client sees the failure when it takes the response; one nobody takes must not count as unhandled.
  response.catch(() => undefined);
  return {startedAt, response, abort};
}

/**
 * Reads the body as it arrives, whether or not the client is ready for it yet (it is still
 * loading), so that the server is not held back by a full socket. Past `limit` unread bytes it
 * stops reading: the client refuses such a body anyway, and memory stays bounded.
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
