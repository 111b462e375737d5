// What every request to the server shares, whichever transport carries it: the base URL, the
// token check, the CA file and the headers. Plain Node, so that the first poll (first-poll.ts)
// can use it before undici and zod are loaded.
import {closeSync, constants, fstatSync, openSync, readFileSync} from 'node:fs';
import {oneLine} from './errors.js';

/** Normalises the base URL: keeps any path prefix, drops a trailing slash and a pasted `/v0`. */
export function normaliseBaseUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new Error(`Invalid server URL "${oneLine(input, 80)}": expected something like https://vpn.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`Invalid server URL "${oneLine(input, 80)}": only http and https are supported`);
  }
  if (url.username || url.password) {
    throw new Error('Invalid server URL: credentials in the URL are not supported; use FZ_API_TOKEN');
  }
  url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/v0$/, '');
  return url;
}

/** The URL of a `/v0` route under the (normalised) base URL. */
export function routeUrl(baseUrl: URL, path: string): URL {
  const prefix = baseUrl.pathname.replace(/\/+$/, '');
  return new URL(`${baseUrl.origin}${prefix}/v0${path}`);
}

export function requestHeaders(token: string, hasBody: boolean): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    accept: 'application/json',
    ...(hasBody ? {'content-type': 'application/json'} : {}),
    'user-agent': `fz-console/${process.env.FZ_CONSOLE_VERSION ?? 'dev'}`,
  };
}

/** Requests go through a proxy when one of these is set (undici's EnvHttpProxyAgent reads them). */
export function proxyConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some((k) => env[k]);
}

/** The TLS options of a connection: extra CA certificates (replacing the default set, as Node does), or no verification. */
export function tlsOptions(options: {caFile?: string; insecure?: boolean}): {ca?: string; rejectUnauthorized?: false} {
  return {
    ...(options.caFile ? {ca: readCaFile(options.caFile)} : {}),
    ...(options.insecure ? {rejectUnauthorized: false as const} : {}),
  };
}

export function readCaFile(path: string): string {
  let text: string;
  try {
    // Non-blocking open: a FIFO must not hang the constructor; only a regular file is read.
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    try {
      if (!fstatSync(fd).isFile()) throw Object.assign(new Error('not a regular file'), {code: 'not a regular file'});
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new Error(`Cannot read CA file ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new Error(`CA file ${path} contains no PEM certificate (no "-----BEGIN CERTIFICATE-----" line)`);
  }
  return text;
}

export function checkedToken(token: string): string {
  if (/[\r\n]/.test(token)) throw new Error('The API token contains a line break; a token is one line');
  if (/[^\t\x20-\x7e\x80-\xff]/.test(token)) throw new Error('The API token contains a character that cannot be sent in an HTTP header');
  return token;
}

/** A response body larger than this is refused unless the client is told otherwise. */
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024 * 1024;

/**
 * What is kept of an error (non-2xx) body: its start, the rest not read (the connection is
 * dropped), and the error says so. An error is one line of the status bar; the largest real 0.7.36
 * answers are 422s, ~0.9 KB for a device with every field wrong (2 KB with 50 bad DNS entries
 * echoed), ~8 KB for a configuration with 20 broken OIDC providers.
 */
export const ERROR_BODY_KEEP_BYTES = 16 * 1024;

/** A response as the client reads it, whichever transport (undici, or the console's own sockets: http-get.ts) brought it. */
export interface TransportResponse {
  statusCode: number;
  /** The first value of a response header (`name` in lower case). */
  header(name: string): string | undefined;
  body: AsyncIterable<Buffer>;
  /**
   * The body's chunks are views of a buffer the transport reads into again: each is valid only
   * until the next is asked for, and whoever keeps one copies it (http-get.ts).
   */
  borrowed?: boolean;
  /** Stops reading and drops the connection. */
  destroy(): void;
}
