// One error type for every way a /v0 call can fail, with a one-line message fit for the
// status bar. The shapes are the ones Firezone 0.7.36 produces (docs/firezone-0.7.36.md: "Error responses
// at a glance", "Validation errors (422)", "Empty-body 500s", "Authentication and the three 401
// shapes", "Roles and permissions") plus what sits between the console and the server (proxies,
// sockets, TLS).

type ApiErrorKind =
  | 'unauthenticated' // 401 {"errors":{"auth":"unauthenticated"}}: no token reached the server
  | 'invalid_token' // 401 {"errors":{"auth":"invalid_token"}}: bad signature or expired JWT
  | 'no_resource_found' // 401 {"errors":{"auth":"no_resource_found"}}: token revoked/expired in the DB
  | 'forbidden' // 401 {"error":"Unauthorized"}: authenticated but not allowed (0.7.36 never sends 403)
  | 'not_found' // 404
  | 'validation' // 422 field errors
  | 'server' // 5xx, including 0.7.36's empty-body 500 and proxy HTML pages
  | 'http' // any other unexpected status (400/406/413/429 from older 0.7.x or a proxy)
  | 'timeout'
  | 'network' // refused, reset, DNS, TLS
  | 'schema' // a 2xx body that does not match what 0.7.36 sends
  | 'cancelled' // a write the admin cancelled (Esc during a save): its outcome is unknown
  | 'too_large'; // a body over the client's size limit: the read was aborted (not retried: it would only come again)

/** `path` of a field error, flattened: `email`, `base`, `openid_connect_providers[1].client_id`. */
export type FieldErrors = Record<string, string[]>;

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  method: string;
  path: string;
  status?: number;
  fieldErrors?: FieldErrors;
  requestId?: string;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  readonly fieldErrors: FieldErrors;
  readonly requestId: string | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : {cause: init.cause});
    this.name = 'ApiError';
    this.kind = init.kind;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.fieldErrors = init.fieldErrors ?? {};
    this.requestId = init.requestId;
  }

  /** The same error told in other words (a note added, a secret taken out). */
  withMessage(message: string): ApiError {
    return new ApiError({
      kind: this.kind,
      method: this.method,
      path: this.path,
      status: this.status,
      fieldErrors: this.fieldErrors,
      requestId: this.requestId,
      message,
    });
  }

  /** Auth failures that no retry will fix: polling should stop hammering the server. */
  get isAuthFailure(): boolean {
    return this.kind === 'unauthenticated' || this.kind === 'invalid_token' || this.kind === 'no_resource_found';
  }

  /** Worth retrying a GET for: the server or the path to it may recover by itself. */
  get isTransient(): boolean {
    return this.kind === 'server' || this.kind === 'timeout' || this.kind === 'network' || this.kind === 'schema' || this.status === 429 || this.status === 408;
  }
}

/** How deep flattenFieldErrors descends, and how many paths it keeps: a hostile or broken body cannot blow the stack or the status bar. */
const FIELD_ERRORS_MAX_DEPTH = 16;
const FIELD_ERRORS_MAX_PATHS = 50;
/**
 * Server text is cut before an error keeps it (docs/architecture.md, "Untrusted text"): each field
 * error message, each path, the messages of one path, and the one-line message made of them. A real
 * 0.7.36 message is under 100 characters and a path under 60; a field rarely has more than a few
 * (a DNS list echoes each bad entry).
 */
const FIELD_MESSAGE_MAX_CHARS = 300;
const FIELD_PATH_MAX_CHARS = 200;
const FIELD_MESSAGES_MAX = 20;
const JOINED_MAX_CHARS = 600;

/**
 * `text` cut to at most `max` UTF-16 units (never between the two of a surrogate pair), with a mark
 * that says how many characters (code points) were dropped: `abc…(+119,700 characters)`.
 */
export function cutServerText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const before = text.charCodeAt(end - 1);
  if (before >= 0xd800 && before <= 0xdbff) end--;
  let dropped = 0;
  for (let i = end; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xdc00 || code > 0xdfff) dropped++;
  }
  return `${text.slice(0, end)}…(+${counted(dropped, 'character')})`;
}

/** `1 character`, `3,700 characters` */
function counted(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * 0.7.36 words two of its checks with Elixir module names (docs/firezone-0.7.36.md, "Configuration:
 * field rules"): what they mean, in the words the console's own checks use
 * (src/state/data/validators.ts). Any other message is the server's as it is.
 */
export const SERVER_WORDS_PLAIN: Readonly<Record<string, string>> = {
  'must be one of: Elixir.FzHttp.Types.IPPort, string': 'must be an IP address or a host name, with an optional :port',
  'must be one of: Elixir.FzHttp.Types.IP, string': 'must be IP addresses or host names, without a port',
};

/** A 422 message as the console shows it: SERVER_WORDS_PLAIN's, or the server's own. */
export const plainWords = (message: string): string =>
  Object.prototype.hasOwnProperty.call(SERVER_WORDS_PLAIN, message) ? SERVER_WORDS_PLAIN[message]! : message;

/**
 * Flattens a 422 `errors` object into dotted/indexed paths. Embedded provider lists come
 * back aligned with the input, `[{}, {"client_id": ["can't be blank"]}]`, so valid entries
 * are empty objects and are skipped. Nesting deeper than FIELD_ERRORS_MAX_DEPTH is reported
 * at the path where it was cut; past FIELD_ERRORS_MAX_PATHS paths the rest is counted under `base`.
 */
export function flattenFieldErrors(errors: unknown, prefix = ''): FieldErrors {
  // No prototype: a path is the server's text, and `__proto__` or `constructor` is a path like any other.
  const out: FieldErrors = Object.create(null) as FieldErrors;
  let paths = 0;
  let truncated = false;
  /** Messages past FIELD_MESSAGES_MAX per path, counted and said once the walk is done. */
  const over = new Map<string, number>();
  const add = (rawPath: string, messages: readonly string[]) => {
    const path = cutServerText(rawPath, FIELD_PATH_MAX_CHARS);
    if (!Object.prototype.hasOwnProperty.call(out, path)) {
      if (paths >= FIELD_ERRORS_MAX_PATHS) {
        truncated = true;
        return;
      }
      paths++;
      out[path] = [];
    }
    const list = out[path]!;
    const room = Math.max(0, FIELD_MESSAGES_MAX - list.length);
    for (let i = 0; i < Math.min(room, messages.length); i++) list.push(cutServerText(plainWords(messages[i]!), FIELD_MESSAGE_MAX_CHARS));
    if (messages.length > room) over.set(path, (over.get(path) ?? 0) + messages.length - room);
  };
  // Past the last path the walk stops: the loops below test `truncated` before each step.
  const walk = (value: unknown, path: string, depth: number) => {
    if (Array.isArray(value)) {
      if (value.every((v) => typeof v === 'string')) {
        add(path, value as string[]);
      } else if (depth >= FIELD_ERRORS_MAX_DEPTH) {
        add(path, ['(error details nested too deeply to show)']);
      } else {
        for (let i = 0; i < value.length && !truncated; i++) walk(value[i], `${path}[${i}]`, depth + 1);
      }
    } else if (value !== null && typeof value === 'object') {
      if (depth >= FIELD_ERRORS_MAX_DEPTH) {
        if (Object.keys(value).length > 0) add(path, ['(error details nested too deeply to show)']);
        return;
      }
      for (const [key, inner] of Object.entries(value)) {
        if (truncated) break;
        walk(inner, path === '' ? key : `${path}.${key}`, depth + 1);
      }
    } else if (value !== null && value !== undefined) {
      // A message, or a number or boolean said as one.
      add(path, [String(value)]);
    }
  };
  walk(errors, prefix, 0);
  for (const [path, more] of over) out[path]!.push(`(+${counted(more, 'more message')})`);
  if (truncated) (out.base ??= []).push(`(more field errors than the ${FIELD_ERRORS_MAX_PATHS} shown)`);
  return out;
}

/** `email: has already been taken; password: should be at least 12 character(s)`, cut at JOINED_MAX_CHARS. */
export function joinFieldErrors(fields: FieldErrors): string {
  const joined = Object.entries(fields)
    .map(([path, messages]) => (path === 'base' ? messages.join('; ') : `${path}: ${messages.join(', ')}`))
    .join('; ');
  return cutServerText(joined, JOINED_MAX_CHARS);
}

const AUTH_MESSAGES: Record<string, string> = {
  unauthenticated: 'Not authenticated: the server received no API token (401 unauthenticated)',
  invalid_token: 'API token rejected: bad signature or expired (401 invalid_token)',
  no_resource_found: 'API token no longer exists on the server: revoked, expired or its user deleted (401 no_resource_found)',
};

interface ResponseFacts {
  method: string;
  path: string;
  status: number;
  contentType: string;
  /** The body, or its first bytes when `cut` says it was longer. */
  body: string;
  requestId?: string;
  /** The body was longer than what was kept (ERROR_BODY_KEEP_BYTES in endpoint.ts): the rest was not read. */
  cut?: BodyCut;
}

export interface BodyCut {
  /** Bytes kept (the start of the body). */
  kept: number;
  /** The body's length as its Content-Length announced it; null when it did not say. */
  announced: number | null;
}

/** `its body (238.4 MiB) was cut to its first 16 KiB, the rest not read` */
function cutNote(cut: BodyCut): string {
  const size = cut.announced === null ? '' : ` (${formatSize(cut.announced)})`;
  return `its body${size} was cut to its first ${formatSize(cut.kept)}, the rest not read`;
}

/** `16 KiB`, `238.4 MiB`, `1000 bytes` */
export function formatSize(n: number): string {
  const MiB = 1024 * 1024;
  if (n >= MiB) return n % MiB === 0 ? `${n / MiB} MiB` : `${(n / MiB).toFixed(1)} MiB`;
  if (n >= 1024) return n % 1024 === 0 ? `${n / 1024} KiB` : `${(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}

/**
 * A request without its answer after `timeoutMs` of the server's time. `busyMs` is what the
 * console's own busy event loop added to the wall time (deadline.ts): said when it matters.
 */
export function timeoutError(method: string, path: string, timeoutMs: number, busyMs: number): ApiError {
  const busy = busyMs < 500 ? '' : `; not counting ${formatSeconds(Math.round(busyMs / 100) * 100)} the console itself was busy`;
  return new ApiError({
    kind: 'timeout',
    method,
    path,
    message: `Request timed out after ${formatSeconds(timeoutMs)}: ${method} ${path} (server slow or unreachable${busy})`,
  });
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** Maps a non-2xx response to an ApiError. Never includes request headers, so never the token. */
export function errorFromResponse(res: ResponseFacts): ApiError {
  const error = classifyResponse(res);
  if (res.cut === undefined || error.kind === 'validation') return error;
  return error.withMessage(`${error.message}; ${cutNote(res.cut)}`);
}

function classifyResponse(res: ResponseFacts): ApiError {
  const {method, path, status, requestId} = res;
  const where = `${method} ${path}`;
  const json = parseJsonLoose(res.body, res.contentType);
  const base = {method, path, status, requestId};

  if (status === 401) {
    const authType = json && typeof json === 'object' ? (json as {errors?: {auth?: unknown}}).errors?.auth : undefined;
    // Own keys only: the server's text is not to find `toString` on the prototype.
    if (typeof authType === 'string' && Object.hasOwn(AUTH_MESSAGES, authType)) {
      return new ApiError({...base, kind: authType as ApiErrorKind, message: AUTH_MESSAGES[authType]!});
    }
    if (json && typeof json === 'object' && (json as {error?: unknown}).error === 'Unauthorized') {
      return new ApiError({...base, kind: 'forbidden', message: `Permission denied for ${where}: the token's user is not an admin (401 Unauthorized)`});
    }
    return new ApiError({...base, kind: 'forbidden', message: `Unauthorized (401) for ${where}${describeBody(res)}`});
  }
  if (status === 403) {
    return new ApiError({...base, kind: 'forbidden', message: `Forbidden (403) for ${where}${describeBody(res)}`});
  }
  if (status === 404) {
    const isFirezone = json && typeof json === 'object' && (json as {error?: unknown}).error === 'not_found';
    return new ApiError({
      ...base,
      kind: 'not_found',
      message: isFirezone ? `Not found: ${where} (it may have been deleted)` : `Not found (404) for ${where}${describeBody(res)}: is the server URL right?`,
    });
  }
  if (status === 422) {
    const errors = json && typeof json === 'object' ? (json as {errors?: unknown}).errors : undefined;
    const fieldErrors = flattenFieldErrors(errors ?? {});
    const joined = joinFieldErrors(fieldErrors);
    // A cut body is the start of one: it is not JSON, so what it says about the fields is unknown.
    const unread = res.cut === undefined ? '' : `; ${cutNote(res.cut)}${json === undefined ? ', so its field errors could not be read' : ''}`;
    return new ApiError({
      ...base,
      kind: 'validation',
      fieldErrors,
      message: joined === '' ? `Rejected by the server (422) for ${where}${unread}` : `Rejected: ${joined}${unread}`,
    });
  }
  if (status >= 500) {
    if (res.body.trim() === '' && res.cut === undefined) {
      return new ApiError({
        ...base,
        kind: 'server',
        message:
          status === 500
            ? `Server error 500 with an empty body for ${where} (Firezone 0.7.36 answers unhandled errors this way, a malformed API token among them; see the server log${requestId ? `, request id ${requestId}` : ''})`
            : `Server error ${status} with an empty body for ${where}`,
      });
    }
    return new ApiError({...base, kind: 'server', message: `Server error ${status} for ${where}${describeBody(res)}`});
  }
  return new ApiError({...base, kind: 'http', message: `Unexpected HTTP ${status} for ${where}${describeBody(res)}`});
}

function parseJsonLoose(body: string, contentType: string): unknown {
  if (body === '' || (!/json/i.test(contentType) && !/^\s*[{[]/.test(body))) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** A short description of an unexpected body: an HTML page's <title>, a JSON `error`, or nothing. */
function describeBody(res: ResponseFacts): string {
  const body = res.body;
  if (/html/i.test(res.contentType) || /^\s*<(!doctype|html)/i.test(body)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1]?.trim() ?? /<h1[^>]*>([^<]*)<\/h1>/i.exec(body)?.[1]?.trim();
    // Firezone itself never answers HTML on /v0: it is a proxy or a wrong URL.
    return title ? `: HTML page "${oneLine(title, 60)}" (from a proxy?)` : ': an HTML page (from a proxy?)';
  }
  const json = parseJsonLoose(body, res.contentType);
  if (json && typeof json === 'object' && typeof (json as {error?: unknown}).error === 'string') {
    return `: ${oneLine((json as {error: string}).error, 80)}`;
  }
  if (typeof json === 'string') return `: ${oneLine(json, 80)}`;
  return '';
}

export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the server',
  EPIPE: 'connection closed by the server',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'DNS lookup failed (temporary)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed unexpectedly',
  UND_ERR_CLOSED: 'connection closed',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS: the server certificate is self-signed (use --ca-file, or --insecure to skip verification)',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS: a self-signed certificate is in the chain (use --ca-file with your CA)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS: cannot verify the server certificate (use --ca-file with your CA)',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'TLS: the certificate issuer is unknown (use --ca-file with your CA)',
  CERT_HAS_EXPIRED: 'TLS: the server certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS: the certificate does not match the host name',
  EPROTO: 'TLS/protocol error (is the URL http vs https right?)',
};

/** Maps a thrown transport error (undici/Node) to an ApiError of kind network. */
export function errorFromTransport(err: unknown, method: string, path: string, origin: string): ApiError {
  const codes = collectCodes(err);
  const known = codes.find((c) => c in NETWORK_CODES);
  const detail = known ? `${NETWORK_CODES[known]} (${known})` : (firstMessage(err) ?? 'request failed');
  // host:port rather than the full origin keeps the line short enough for the status bar
  const host = origin.replace(/^[a-z]+:\/\//, '');
  return new ApiError({kind: 'network', method, path, cause: err, message: `Cannot reach ${host} (${method} ${path}): ${detail}`});
}

function collectCodes(err: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const code = (current as {code?: unknown}).code;
    if (typeof code === 'string') codes.push(code);
    current = (current as {cause?: unknown}).cause;
  }
  return codes;
}

function firstMessage(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const cause = (current as {cause?: unknown}).cause;
    if (!cause) {
      const message = (current as {message?: unknown}).message;
      return typeof message === 'string' ? oneLine(message, 120) : undefined;
    }
    current = cause;
  }
  return undefined;
}
