// The /v0 client: one method per route of docs/firezone-0.7.36.md ("Routes"). GETs go on
// sockets of the console's own with a keep-alive pool (http-get.ts; the first poll's were sent
// before the client existed, first-poll.ts); writes, and everything when a proxy is configured, over undici, loaded
// on the first request it carries.
import type {Dispatcher, request as undiciRequest} from 'undici';
import {
  checkedToken,
  DEFAULT_MAX_BODY_BYTES,
  ERROR_BODY_KEEP_BYTES,
  normaliseBaseUrl,
  proxyConfigured,
  requestHeaders,
  routeUrl,
  tlsOptions,
  type TransportResponse,
} from './endpoint.js';
import {LoopDeadline, type Expiry} from './deadline.js';
import {ApiError, errorFromResponse, errorFromTransport, formatSize, timeoutError, type BodyCut} from './errors.js';
import type {FirstPoll} from './first-poll.js';
import {GetPool, sendGet, type SentRequest} from './http-get.js';
import {decodeConfigurationFast, isDeviceFast, isRuleFast, isUserFast} from './guards.js';
import type * as Schemas from './schemas.js';
import {tokenSubject} from './token-claims.js';
import type {Configuration, ConfigurationUpdate, Device, DeviceCreate, DeviceUpdate, Rule, RuleWrite, User, UserCreate, UserUpdate} from './schemas.js';
import {ListCache, NEEDS_SCHEMA} from './listcache.js';
import {DeviceColumns, DevicePools} from './device-columns.js';
import {DeviceDecoder} from './device-decoder.js';
import {POLL_WORKER_MIN_DEVICES, PollWorker, pollWorkerScript} from './poll-worker.js';
import type {WorkerClientOptions} from './poll-worker-protocol.js';
import type {ApiResult, RequestEvent} from './results.js';

export type {ApiResult, RequestEvent} from './results.js';
import {salvage, salvageList, type SchemaIssue} from './validate.js';
import {nextTurn, turnSpent} from '../common/turn-budget.js';

export interface ClientOptions {
  /** Server root, e.g. `https://vpn.example.com` or `https://host/firezone/`; `/v0` is appended. */
  baseUrl: string;
  token: string;
  /** Whole-request timeout including the body; default 15 s. */
  timeoutMs?: number;
  /** PEM file with extra CA certificates to trust. */
  caFile?: string;
  /** Skip TLS certificate verification (the UI shows a banner while this is on). */
  insecure?: boolean;
  /** Called after every request with no secrets in it; used by the debug log. */
  onRequest?: (event: RequestEvent) => void;
  /** A response body larger than this is aborted with an error; default 256 MiB. */
  maxBodyBytes?: number;
  /**
   * The first poll's requests, already sent with this base URL and token (and the same CA file,
   * insecure flag and body limit): the client reads their responses instead of sending them again.
   */
  firstPoll?: FirstPoll;
  /** The device poll's worker script (src/api/poll-worker.ts); default: the executable's, if it has one. */
  pollWorker?: URL | null;
}

/** ~75 devices: a piece of decoding too short to hold a key back, even when they all changed. */
const DECODE_PIECE_BYTES = 64 * 1024;
/**
 * A list body is kept whole only this far while its decoder reads it. A decoder that gives up does
 * so early (an error page, a cut body, whitespace between items: within its first megabyte); past
 * this point the chunks are let go as they are decoded, so a 40 MB body is never held whole, and
 * the rare body that breaks later is asked for once more and parsed whole (docs/performance-poll.md,
 * "The compact device store"). Once a list's last body was decoded, the next is not kept at all (a
 * copy of its first 4 MiB each poll was costly at 50k devices): one that breaks is asked for again.
 */
const KEEP_WHOLE_BYTES = 4 * 1024 * 1024;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

interface RawResponse {
  status: number;
  /** The body's chunks as they arrived; decoded to text only where the caller needs it. */
  chunks: Buffer[];
  bytes: number;
  location?: string;
  /** What the list decoder made of the body, or null when it gave up (the chunks are kept then, unless `again`). */
  decoded?: {data: unknown; issues: SchemaIssue[]} | null;
  /**
   * The decoder gave up after the body's start had been let go (past KEEP_WHOLE_BYTES, or from the
   * start when the list's last body was decoded): ask again without one.
   */
  again?: boolean;
}

/** What `send` feeds a 2xx body to as it arrives: a ListDecoder or the DeviceDecoder. */
interface BodyDecoder {
  push(chunk: Buffer): void;
  /** It holds on to (views of) the chunks pushed after push() returns: a borrowed chunk is copied for it. */
  readonly keepsChunks: boolean;
  /** True once the decoder has given up on the body (it is not the plain shape). */
  readonly gaveUp: boolean;
  finish(): {data: unknown; issues: SchemaIssue[]} | null | typeof NEEDS_SCHEMA;
}

function bodyText(res: RawResponse): string {
  return Buffer.concat(res.chunks, res.bytes).toString('utf8');
}

export class FirezoneClient {
  readonly baseUrl: URL;
  private token: string;
  private readonly timeoutMs: number;
  private readonly tls: ReturnType<typeof tlsOptions>;
  private undici: Promise<Undici> | null = null;
  /** The GETs' connection pool (http-get.ts); null until the first GET, and when a proxy is configured (undici carries them). */
  private getPool: GetPool | null = null;
  private readonly proxied = proxyConfigured();
  private firstPoll: FirstPoll | null;
  private readonly onRequest: ((event: RequestEvent) => void) | undefined;
  private readonly maxBodyBytes: number;
  private closing: Promise<void> | null = null;
  /** What a device poll's worker thread is made of, and the worker once made (pollDevices). */
  private readonly workerScript: URL | null;
  private readonly workerOptions: Omit<WorkerClientOptions, 'token'>;
  private worker: PollWorker | null = null;

  constructor(options: ClientOptions) {
    this.baseUrl = normaliseBaseUrl(options.baseUrl);
    // Refused here, in words, rather than by undici on every request as "invalid authorization header".
    this.token = checkedToken(options.token);
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.onRequest = options.onRequest;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    // Read now, so that a bad CA file is refused here rather than on the first request.
    this.tls = tlsOptions(options);
    const firstPoll = options.firstPoll ?? null;
    const matches = firstPoll !== null && firstPoll.baseUrl === this.baseUrl.href && firstPoll.token === this.token;
    if (firstPoll && !matches) firstPoll.close();
    this.firstPoll = matches ? firstPoll : null;
    this.workerScript = options.pollWorker === undefined ? pollWorkerScript() : options.pollWorker;
    const {baseUrl, timeoutMs, caFile, insecure, maxBodyBytes} = options;
    this.workerOptions = JSON.parse(JSON.stringify({baseUrl, timeoutMs, caFile, insecure, maxBodyBytes})) as Omit<WorkerClientOptions, 'token'>;
  }

  /** A GET on the keep-alive pool (http-get.ts), made on the first GET. */
  private get(url: URL): SentRequest {
    if (this.closing) {
      const response = Promise.reject(new Error('the client is closed'));
      response.catch(() => undefined);
      return {startedAt: performance.now(), response, abort: () => undefined};
    }
    const tls = this.baseUrl.protocol === 'https:' ? this.tls : null;
    this.getPool ??= new GetPool(this.baseUrl, tls);
    return sendGet(url, requestHeaders(this.token, false), tls, {pool: this.getPool, mode: 'borrow'});
  }

  /** undici and the connection pool, made on the first request that needs them. */
  private transport(): Promise<Undici> {
    if (this.closing) return Promise.reject(new Error('the client is closed'));
    this.undici ??= import('undici').then((module) => {
      // undici is CommonJS: Node's import() finds its named exports, but the bundle's chunk for it
      // exports only `default` (module.exports).
      const {Agent, EnvHttpProxyAgent, request} = 'Agent' in module ? module : (module as {default: typeof module}).default;
      const tls = this.tls;
      // keep-alive: the console polls every few seconds; reusing the connection saves a TLS handshake per cycle
      const dispatcher = proxyConfigured() ? new EnvHttpProxyAgent({connect: tls, requestTls: tls}) : new Agent({connect: tls, keepAliveTimeout: 30_000});
      return {request, dispatcher};
    });
    return this.undici;
  }

  private readonly writes = new Set<AbortController>();
  private readonly cancelled = new WeakSet<AbortController>();

  /**
   * Aborts the writes in flight (Esc during a hung save). Their outcome is unknown: the server may
   * have applied them. Returns how many were aborted.
   */
  cancelWrites(): number {
    const n = this.writes.size;
    for (const c of this.writes) {
      this.cancelled.add(c);
      c.abort();
    }
    this.writes.clear();
    return n;
  }

  /** The id of the user the token acts for, from its `sub` claim (src/api/token-claims.ts); null if unknown. */
  tokenUserId(): string | null {
    return tokenSubject(this.token);
  }

  /** A new token for the requests from now on (the old one was revoked or expired). */
  setToken(token: string): void {
    this.token = checkedToken(token);
    // Responses to requests sent with the old token are not taken any more.
    this.firstPoll?.close();
    this.firstPoll = null;
    this.worker?.setToken(this.token);
  }

  /** The server root for display (never includes the token). */
  get origin(): string {
    return this.baseUrl.origin + this.baseUrl.pathname.replace(/\/+$/, '');
  }

  /**
   * Closes the connection pool. Idempotent: a signal handler and the normal teardown may both
   * call it; every call gets the same promise, and it never rejects.
   */
  close(): Promise<void> {
    this.firstPoll?.close();
    this.firstPoll = null;
    void this.worker?.close();
    this.getPool?.close();
    this.closing ??= (this.undici ?? Promise.resolve(null)).then(
      (undici) =>
        undici?.dispatcher.close().then(
          () => undefined,
          () =>
            undici.dispatcher.destroy().then(
              () => undefined,
              () => undefined,
            ),
        ),
      () => undefined,
    );
    return this.closing;
  }

  // ---- devices ---------------------------------------------------------------------------
  /** Every device, as plain objects (materialised from the table pollDevices makes). */
  async listDevices(): Promise<ApiResult<Device[]>> {
    const {data, issues} = await this.pollDevices();
    return {data: data.materialiseAll(), issues};
  }
  /**
   * Every device, column-wise (device-columns.ts): what the console polls. Items unchanged since
   * the last table this client made are copied from it, neither parsed nor validated again.
   */
  async pollDevices(): Promise<ApiResult<DeviceColumns>> {
    // A long list is decoded on a worker thread when one is given (poll-worker.ts; FZ_POLL_WORKER=1).
    if (!this.worker && this.workerScript && !this.closing && this.lastDevices.length >= POLL_WORKER_MIN_DEVICES)
      this.worker = new PollWorker(this.workerScript, {...this.workerOptions, token: this.token}, this.devicePools, this.onRequest);
    if (this.worker?.serving) {
      const result = await this.worker.poll();
      this.lastDevices = result.data;
      return result;
    }
    const path = '/devices';
    const decoder = new DeviceDecoder(this.lastDevices, this.devicePools, isDeviceFast, () => this.loaded?.Device ?? null);
    let res = await this.send('GET', path, undefined, decoder);
    if (res.again) res = await this.send('GET', path);
    let table: DeviceColumns;
    let issues: SchemaIssue[];
    if (res.decoded) {
      ({data: table, issues} = res.decoded as {data: DeviceColumns; issues: SchemaIssue[]});
    } else {
      // Not the plain {"data":[{…}]} shape: the whole body, parsed and salvaged as ever.
      const data = this.dataOf('GET', path, res);
      issues = [];
      const items = salvageList((await this.schemas()).Device, data, 'data', issues, isDeviceFast) as Device[] | undefined;
      if (!items) throw schemaError('GET', path, issues);
      table = DeviceColumns.from(items, this.devicePools);
    }
    this.lastDevices = table;
    return {data: table, issues};
  }
  getDevice(id: string): Promise<ApiResult<Device>> {
    return this.one('GET', `/devices/${seg(id)}`, 'Device');
  }
  async createDevice(body: DeviceCreate): Promise<ApiResult<Device>> {
    return this.one('POST', '/devices', 'Device', {device: (await this.schemas()).DeviceCreate.parse(body)});
  }
  async updateDevice(id: string, body: DeviceUpdate): Promise<ApiResult<Device>> {
    return this.one('PATCH', `/devices/${seg(id)}`, 'Device', {device: (await this.schemas()).DeviceUpdate.parse(body)});
  }
  deleteDevice(id: string): Promise<void> {
    return this.remove(`/devices/${seg(id)}`);
  }

  // ---- users -----------------------------------------------------------------------------
  listUsers(): Promise<ApiResult<User[]>> {
    return this.list('/users', 'User', isUserFast, this.userCache);
  }
  /** `idOrEmail`: 0.7.36 looks the user up by UUID or by case-insensitive email (docs/firezone-0.7.36.md, "Users: lookup by id or email"). */
  getUser(idOrEmail: string): Promise<ApiResult<User>> {
    return this.one('GET', `/users/${seg(idOrEmail)}`, 'User');
  }
  async createUser(body: UserCreate): Promise<ApiResult<User>> {
    return this.one('POST', '/users', 'User', {user: (await this.schemas()).UserCreate.parse(body)});
  }
  async updateUser(idOrEmail: string, body: UserUpdate): Promise<ApiResult<User>> {
    return this.one('PATCH', `/users/${seg(idOrEmail)}`, 'User', {user: (await this.schemas()).UserUpdate.parse(body)});
  }
  deleteUser(idOrEmail: string): Promise<void> {
    return this.remove(`/users/${seg(idOrEmail)}`);
  }

  // ---- rules -----------------------------------------------------------------------------
  listRules(): Promise<ApiResult<Rule[]>> {
    return this.list('/rules', 'Rule', isRuleFast, this.ruleCache);
  }
  getRule(id: string): Promise<ApiResult<Rule>> {
    return this.one('GET', `/rules/${seg(id)}`, 'Rule');
  }
  async createRule(body: RuleWrite): Promise<ApiResult<Rule>> {
    return this.one('POST', '/rules', 'Rule', {rule: (await this.schemas()).RuleWrite.parse(body)});
  }
  async updateRule(id: string, body: RuleWrite): Promise<ApiResult<Rule>> {
    return this.one('PATCH', `/rules/${seg(id)}`, 'Rule', {rule: (await this.schemas()).RuleWrite.parse(body)});
  }
  deleteRule(id: string): Promise<void> {
    return this.remove(`/rules/${seg(id)}`);
  }

  // ---- configuration ---------------------------------------------------------------------
  getConfiguration(): Promise<ApiResult<Configuration>> {
    return this.one('GET', '/configuration', 'Configuration', undefined, decodeConfigurationFast);
  }
  /** Provider lists are replaced wholesale by the server (docs/firezone-0.7.36.md, "Configuration and providers (wholesale replacement)"): send complete arrays. */
  async updateConfiguration(body: ConfigurationUpdate): Promise<ApiResult<Configuration>> {
    return this.one('PATCH', '/configuration', 'Configuration', {configuration: (await this.schemas()).ConfigurationUpdate.parse(body)});
  }

  // ---- plumbing --------------------------------------------------------------------------
  // Per list, the items of the last poll by their exact bytes (src/api/listcache.ts): an unchanged
  // item is neither parsed nor validated again and keeps its object.
  private readonly devicePools = new DevicePools();
  /** The lists whose last body was decoded as it came: the next one is not kept whole (KEEP_WHOLE_BYTES). */
  private readonly decodedLast = new Set<string>();
  private lastDevices = DeviceColumns.EMPTY;
  private readonly userCache = new ListCache<User>(() => this.loaded?.User ?? null, isUserFast);
  private readonly ruleCache = new ListCache<Rule>(() => this.loaded?.Rule ?? null, isRuleFast);

  // The zod schemas, loaded when something needs them: a request body to check, or a response
  // the fast guards (guards.ts) did not accept. A poll of well-formed lists needs none.
  private loaded: typeof Schemas | null = null;
  private loading: Promise<typeof Schemas> | null = null;
  private schemas(): Promise<typeof Schemas> {
    this.loading ??= import('./schemas.js').then((module) => (this.loaded = module));
    return this.loading;
  }

  private async list<N extends 'Device' | 'User' | 'Rule'>(
    path: string,
    name: N,
    accept: (item: unknown) => item is Resources[N],
    cache: ListCache<Resources[N]>,
  ): Promise<ApiResult<Resources[N][]>> {
    let res = await this.send('GET', path, undefined, cache.begin());
    if (res.again) res = await this.send('GET', path);
    if (res.decoded) return {data: res.decoded.data as Resources[N][], issues: res.decoded.issues};
    // Not the plain {"data":[{…}]} shape: the whole body, parsed and salvaged as ever.
    const data = this.dataOf('GET', path, res);
    const issues: SchemaIssue[] = [];
    const items = salvageList((await this.schemas())[name], data, 'data', issues, accept) as Resources[N][] | undefined;
    if (!items) throw schemaError('GET', path, issues);
    return {data: items, issues};
  }

  private async one<N extends keyof Resources>(
    method: Method,
    path: string,
    name: N,
    body?: unknown,
    fast?: (data: unknown) => Resources[N] | null,
  ): Promise<ApiResult<Resources[N]>> {
    const res = await this.send(method, path, body);
    const data = this.dataOf(method, path, res);
    const quick = fast?.(data);
    if (quick) return res.location === undefined ? {data: quick, issues: []} : {data: quick, issues: [], location: res.location};
    const issues: SchemaIssue[] = [];
    const value = salvage((await this.schemas())[name], data, 'data', issues) as Resources[N] | undefined;
    if (value === undefined) throw schemaError(method, path, issues);
    return res.location === undefined ? {data: value, issues} : {data: value, issues, location: res.location};
  }

  private async remove(path: string): Promise<void> {
    await this.send('DELETE', path);
  }

  private dataOf(method: Method, path: string, res: RawResponse): unknown {
    let parsed: unknown;
    const body = bodyText(res);
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new ApiError({
        kind: 'schema',
        method,
        path: `/v0${path}`,
        status: res.status,
        message:
          body.trim() === ''
            ? `Empty response from ${method} /v0${path} (HTTP ${res.status}); expected JSON`
            : `Malformed JSON from ${method} /v0${path} (HTTP ${res.status}, ${body.length} bytes)`,
      });
    }
    if (parsed === null || typeof parsed !== 'object' || !('data' in parsed)) {
      throw new ApiError({
        kind: 'schema',
        method,
        path: `/v0${path}`,
        status: res.status,
        message: `Unexpected response from ${method} /v0${path}: no "data" key`,
      });
    }
    return (parsed as {data: unknown}).data;
  }

  /** `decoder`, when given, sees the chunks of a 2xx body as they arrive (and yields the thread now and then). */
  private async send(method: Method, path: string, body?: unknown, decoder?: BodyDecoder): Promise<RawResponse> {
    const url = routeUrl(this.baseUrl, path);
    const started = performance.now();
    const controller = new AbortController();
    const sent = this.firstPoll?.take(method, path) ?? (method === 'GET' && !this.proxied ? this.get(url) : undefined);
    const via = sent ? 'socket' : 'undici';
    // A request of the first poll has been on its way since it was sent: that time counts. Time
    // the event loop was busy does not: the answer may have been waiting unread (deadline.ts).
    let expiry: Expiry | null = null;
    const deadline = new LoopDeadline(
      this.timeoutMs,
      (spent) => {
        expiry = spent;
        controller.abort();
      },
      sent ? sent.startedAt : started,
    );
    if (method !== 'GET') this.writes.add(controller);
    const displayPath = `/v0${path}`;
    let status: number | null = null;
    let bytes = 0;
    try {
      let res: TransportResponse;
      if (sent) {
        controller.signal.addEventListener('abort', sent.abort, {once: true});
        res = await sent.response;
      } else {
        res = await this.viaUndici(url, method, body, controller.signal);
      }
      status = res.statusCode;
      const chunks: Buffer[] = [];
      const failed = status < 200 || status > 299;
      const sink = failed ? undefined : decoder;
      let keepWhole = !(sink && this.decodedLast.has(path));
      let cut: BodyCut | undefined;
      for await (const chunk of res.body) {
        if (failed && bytes + chunk.length > ERROR_BODY_KEEP_BYTES) {
          // An error is told in one line: its body's start is enough, and the rest is not read
          // (a 250 MB page would otherwise be held, and made a string, for that line).
          chunks.push(Buffer.from(chunk.subarray(0, ERROR_BODY_KEEP_BYTES - bytes)));
          cut = {kept: ERROR_BODY_KEEP_BYTES, announced: announcedLength(res.header('content-length'))};
          bytes = ERROR_BODY_KEEP_BYTES;
          res.destroy();
          break;
        }
        bytes += chunk.length;
        if (bytes > this.maxBodyBytes) {
          // Stop reading (and buffering) at once: an endless body must not grow memory without bound.
          res.destroy();
          controller.abort();
          throw new ApiError({
            kind: 'too_large',
            method,
            path: displayPath,
            status,
            message: `Response too large from ${method} ${displayPath}: more than ${formatSize(this.maxBodyBytes)}; aborted`,
          });
        }
        // A borrowed chunk is read into again once the next is asked for: what is kept is copied.
        if (keepWhole) chunks.push(res.borrowed ? Buffer.from(chunk) : chunk);
        const piece = res.borrowed && sink?.keepsChunks ? Buffer.from(chunk) : chunk;
        // The stream hands over everything it buffered as one chunk (megabytes when decoding lags
        // behind the network): decode it in pieces, and let keys and frames in every few ms. The
        // four lists of a refresh arrive at once: their decoders share one budget per turn of the
        // event loop with the rest of the refresh (src/common/turn-budget.ts).
        for (let at = 0; sink && at < piece.length; at += DECODE_PIECE_BYTES) {
          if (turnSpent()) await nextTurn();
          sink.push(at === 0 && piece.length <= DECODE_PIECE_BYTES ? piece : piece.subarray(at, at + DECODE_PIECE_BYTES));
        }
        if (keepWhole && sink && bytes > KEEP_WHOLE_BYTES && !sink.gaveUp) {
          keepWhole = false;
          chunks.length = 0;
        }
      }
      const header = (name: string): string | undefined => res.header(name);
      if (failed) {
        const requestId = header('x-request-id');
        throw errorFromResponse({
          method,
          path: displayPath,
          status,
          body: Buffer.concat(chunks, bytes).toString('utf8'),
          contentType: header('content-type') ?? '',
          ...(requestId === undefined ? {} : {requestId}),
          ...(cut === undefined ? {} : {cut}),
        });
      }
      const location = header('location');
      this.onRequest?.({method, path: displayPath, status, ms: performance.now() - started, bytes, via});
      let decoded = sink ? sink.finish() : null;
      if (decoded === NEEDS_SCHEMA) {
        await this.schemas();
        decoded = sink!.finish();
        // The schema getter had it by now; should it not, the body is parsed and salvaged whole.
        if (decoded === NEEDS_SCHEMA) decoded = null;
      }
      // A decoded body is not needed again; one the decoder gave up on is parsed whole, from the
      // chunks when they were kept, else asked for again.
      if (sink && decoded) this.decodedLast.add(path);
      else if (sink) this.decodedLast.delete(path);
      const kept = decoded ? [] : chunks;
      const again = !decoded && !keepWhole;
      return location === undefined ? {status, chunks: kept, bytes, decoded, again} : {status, chunks: kept, bytes, location, decoded, again};
    } catch (err) {
      const apiError =
        err instanceof ApiError
          ? err
          : this.cancelled.has(controller)
            ? new ApiError({
                kind: 'cancelled',
                method,
                path: displayPath,
                message: `Cancelled ${method} ${displayPath}: the outcome is unknown (the server may have applied it)`,
              })
            : expiry
              ? timeoutError(method, displayPath, this.timeoutMs, (expiry as Expiry).busyMs)
              : errorFromTransport(err, method, displayPath, this.baseUrl.origin);
      this.onRequest?.({method, path: displayPath, status, ms: performance.now() - started, bytes, via, error: apiError.kind});
      throw redact(apiError, this.token);
    } finally {
      deadline.cancel();
      this.writes.delete(controller);
    }
  }

  private async viaUndici(url: URL, method: Method, body: unknown, signal: AbortSignal): Promise<TransportResponse> {
    const {request, dispatcher} = await this.transport();
    const res = await request(url, {
      method,
      dispatcher,
      signal,
      headers: requestHeaders(this.token, body !== undefined),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      statusCode: res.statusCode,
      header: (name) => {
        const value = res.headers[name];
        return Array.isArray(value) ? value[0] : value;
      },
      body: res.body,
      destroy: () => res.body.destroy(),
    };
  }
}

interface Resources {
  Device: Device;
  User: User;
  Rule: Rule;
  Configuration: Configuration;
}

interface Undici {
  request: typeof undiciRequest;
  dispatcher: Dispatcher;
}

function seg(id: string): string {
  return encodeURIComponent(id);
}

function schemaError(method: string, path: string, issues: SchemaIssue[]): ApiError {
  const first = issues[0];
  const detail = first ? `${first.path}: ${first.message}` : 'unexpected shape';
  return new ApiError({
    kind: 'schema',
    method,
    path: `/v0${path}`,
    message: `Unexpected response from ${method} /v0${path}: ${detail}${issues.length > 1 ? ` (+${issues.length - 1} more)` : ''}`,
  });
}

/** A Content-Length header's value as a number of bytes; null when absent or not one number. */
function announcedLength(value: string | undefined): number | null {
  return value !== undefined && /^[0-9]{1,15}$/.test(value.trim()) ? Number(value.trim()) : null;
}

/** Belt and braces: no message may carry the token, whatever a server or library echoed. */
function redact(error: ApiError, token: string): ApiError {
  if (token.length < 8 || !error.message.includes(token)) return error;
  return error.withMessage(error.message.split(token).join('[redacted]'));
}
