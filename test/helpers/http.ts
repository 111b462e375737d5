// A tiny wrapper around Node's global fetch for tests that talk to a server over real HTTP.
// It never throws on an HTTP status: every response comes back with its status, headers, raw body
// text and (when the text is JSON) the parsed body, so tests can assert on exact bytes.

export interface HttpResponse {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  /** The raw body text ('' when empty). */
  text: string;
  /** The parsed body, or undefined when the body is empty or not JSON. */
  json: unknown;
}

export interface RequestOptions {
  /** Sends `Authorization: Bearer <token>`. */
  token?: string;
  /** A raw `Authorization` header value; wins over `token`. */
  authorization?: string;
  /** A value sent JSON-encoded. */
  body?: unknown;
  /** A body sent byte for byte (e.g. malformed JSON, a form body). */
  rawBody?: string;
  /** Default `application/json` when a body is sent; null sends no Content-Type. */
  contentType?: string | null;
  /** Default `application/json`; null sends no Accept header of ours (fetch then sends `*` `/` `*`). */
  accept?: string | null;
  headers?: Record<string, string>;
}

export async function request(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse> {
  const headers: Record<string, string> = {};
  if (options.accept !== null) headers.accept = options.accept ?? 'application/json';
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  else if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
  Object.assign(headers, options.headers ?? {});
  const res = await fetch(new URL(path, baseUrl), {method, headers, body, redirect: 'manual'});
  const text = await res.text();
  let json: unknown;
  if (text !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return {method, path, status: res.status, headers: res.headers, text, json};
}

export interface HttpClient {
  get(path: string, options?: RequestOptions): Promise<HttpResponse>;
  head(path: string, options?: RequestOptions): Promise<HttpResponse>;
  post(path: string, body?: unknown, options?: RequestOptions): Promise<HttpResponse>;
  put(path: string, body?: unknown, options?: RequestOptions): Promise<HttpResponse>;
  patch(path: string, body?: unknown, options?: RequestOptions): Promise<HttpResponse>;
  delete(path: string, options?: RequestOptions): Promise<HttpResponse>;
  request(method: string, path: string, options?: RequestOptions): Promise<HttpResponse>;
}

/** A client bound to a base URL and (optionally) a bearer token; per-call options override. */
export function httpClient(baseUrl: string, token?: string): HttpClient {
  const base: RequestOptions = token === undefined ? {} : {token};
  const send = (method: string, path: string, options: RequestOptions = {}) => request(baseUrl, method, path, {...base, ...options});
  const withBody = (body: unknown, options: RequestOptions = {}): RequestOptions => (body === undefined ? options : {body, ...options});
  return {
    get: (path, options) => send('GET', path, options),
    head: (path, options) => send('HEAD', path, options),
    post: (path, body, options) => send('POST', path, withBody(body, options)),
    put: (path, body, options) => send('PUT', path, withBody(body, options)),
    patch: (path, body, options) => send('PATCH', path, withBody(body, options)),
    delete: (path, options) => send('DELETE', path, options),
    request: send,
  };
}
