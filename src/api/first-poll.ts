// The first poll's four GETs, sent on sockets of the console's own (http-get.ts) as soon as the connection is known, before
// undici, zod, React and Ink are loaded (they take a while to load, and the server can answer
// meanwhile). The client (client.ts) takes each response over and reads it exactly as it reads
// one of its own: same status handling, error shapes, size limit, decoding and timeout. After
// this poll, the client's own GETs go the same way, its writes over undici.
// See docs/performance.md, "Start-up".
import {checkedToken, DEFAULT_MAX_BODY_BYTES, normaliseBaseUrl, proxyConfigured, requestHeaders, routeUrl, tlsOptions} from './endpoint.js';
import {sendGet, type SentRequest} from './http-get.js';

export type {SentRequest} from './http-get.js';

/** What the console fetches on every poll (src/state/data/fetch.ts). */
export const FIRST_POLL_ROUTES: readonly string[] = ['/devices', '/users', '/rules', '/configuration'];

export interface FirstPollOptions {
  baseUrl: string;
  token: string;
  caFile?: string;
  insecure?: boolean;
  maxBodyBytes?: number;
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
    const tls = base.protocol === 'https:' ? tlsOptions(options) : null;
    const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    for (const route of FIRST_POLL_ROUTES) {
      // One connection per request, closed after it (no agent): the client's own pool carries the
      // polls after this one, and a kept-alive socket here would only linger. Read eagerly, up
      // to the body limit: the client is still loading and must not hold the server back.
      this.sent.set(route, sendGet(routeUrl(base, route), requestHeaders(this.token, false), tls, {pool: null, mode: 'eager', unreadLimit: limit}));
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
