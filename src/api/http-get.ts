// GET requests on sockets of the console's own: the first poll's (first-poll.ts, before undici is
// loaded) and, when no proxy is configured, every poll after it (client.ts). Writes and proxied
// requests stay on undici.
//
// Why not node:http: every read of its sockets is a new Buffer, and a large device list is hundreds
// of them, each held as memory outside the heap until a collection frees it (resident memory that
// comes and goes with the collector, and collections brought forward to free them). Here each
// connection reads into one buffer of its own (`onread`), the response is read by
// http1-response.ts, and the body is handed over as views of that buffer: the socket pauses until
// the consumer has taken them, so a view stays valid until it asks for the next chunk. The first
// poll, read while the client is still loading, copies what it reads instead, so that the server is
// not held back (docs/performance-poll.md, "Polls on a socket of the console's own").
import {createRequire} from 'node:module';
import {connect as netConnect, isIP, type Socket} from 'node:net';
import type * as Tls from 'node:tls';
import {ERROR_BODY_KEEP_BYTES, type TransportResponse} from './endpoint.js';
import {ResponseReader, type ResponseHead, type ResponseSink} from './http1-response.js';

// node:tls is loaded on the first https:// connection, not with this module: loading it (and the
// crypto it needs) held the first poll's requests back (docs/performance.md, "Start-up"), and
// an http:// server never needs it (test/e2e/startup.e2e.test.ts checks a start's module list).
const requireBuiltin = createRequire(import.meta.url);
let tlsModule: typeof Tls | null = null;
const tlsConnect = (options: Tls.ConnectionOptions) => (tlsModule ??= requireBuiltin('node:tls') as typeof Tls).connect(options);

export interface SentRequest {
  /** performance.now() when it was sent: the client's timeout counts from here. */
  startedAt: number;
  response: Promise<TransportResponse>;
  /** Drops the request (and its connection), whether or not the response has begun. */
  abort(): void;
}

/** TLS settings of an https:// server; null for http://. */
export type GetTls = {ca?: string; rejectUnauthorized?: false} | null;

/**
 * 'borrow', on the keep-alive pool: body chunks are views of the connection's read buffer, valid
 * until the next chunk is asked for (the client copies what it keeps). 'eager', on a connection of
 * its own closed after the response: the body is read as it arrives and copied, whether or not
 * anyone is reading it yet, up to `unreadLimit` unread bytes.
 */
export type GetOptions = {pool: GetPool; mode: 'borrow'} | {pool: null; mode: 'eager'; unreadLimit: number};

/** Bytes one read of a connection lands in. */
const READ_BUFFER_BYTES = 128 * 1024;
/** Buffers a connection keeps for reads while others are lent out (TLS may deliver a few records after a pause). */
const MAX_SPARE_BUFFERS = 2;
/** An idle pooled connection is closed after this (as undici's and node:http's pools did). */
const IDLE_MS = 30_000;

let buffersMade = 0;

/** How many read buffers connections have made so far (tests hold it to two per plain connection). */
export function readBuffersMade(): number {
  return buffersMade;
}

function readBuffer(): Buffer {
  buffersMade++;
  return Buffer.allocUnsafe(READ_BUFFER_BYTES);
}

/** A socket and the buffers its reads land in. */
class Connection {
  readonly socket: Socket;
  /** Where the next read lands. */
  private current: Buffer = readBuffer();
  /** Buffers the exchange holds views of (`current` among them, or not). */
  private lent: Buffer[] = [];
  private spare: Buffer[] = [];
  /** The request it carries now; null while it sits idle in a pool. */
  exchange: Exchange | null = null;
  /** It has carried a response: a request on it now is on a reused connection. */
  used = false;

  constructor(url: URL, tls: GetTls) {
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const port = Number(url.port) || (tls ? 443 : 80);
    // The buffer is asked for again after every read: a read must not land in a buffer whose bytes
    // are still lent out. Pausing the socket stops a plain socket's reads at once, but TLS hands
    // over every record it has already decrypted (nodejs/node#63956), paused or not.
    const onread = {buffer: () => this.nextBuffer(), callback: (n: number, buf: Buffer) => this.read(n, buf)};
    this.socket = tls
      ? // tls.connect takes `onread` since Node 15 (nodejs/node#35753); @types/node does not list it.
        tlsConnect({host, port, ...(isIP(host) ? {} : {servername: host}), ALPNProtocols: ['http/1.1'], ...tls, onread} as Tls.ConnectionOptions)
      : netConnect({host, port, onread});
    this.socket.setNoDelay(true);
    this.socket.on('error', (err) => this.exchange?.socketError(err));
    this.socket.on('close', () => this.exchange?.socketClosed());
    this.socket.on('timeout', () => {
      if (!this.exchange) this.socket.destroy();
    });
  }

  /** The exchange has let go of every view it was given. */
  returned(): void {
    for (const buf of this.lent) if (buf !== this.current && this.spare.length < MAX_SPARE_BUFFERS) this.spare.push(buf);
    this.lent = [];
  }

  private nextBuffer(): Buffer {
    if (this.lent.includes(this.current)) this.current = this.spare.pop() ?? readBuffer();
    return this.current;
  }

  private read(n: number, buf: Buffer): boolean {
    if (!this.exchange) {
      // Bytes on an idle connection answer nothing that was asked: it cannot be trusted with another request.
      this.socket.destroy();
      return false;
    }
    const hold = this.exchange.read(buf, n);
    if (this.exchange?.lends(buf) && !this.lent.includes(buf)) this.lent.push(buf);
    return !hold;
  }
}

/** The client's keep-alive pool for one server. */
export class GetPool {
  private idle: Connection[] = [];
  private closed = false;

  constructor(
    private readonly url: URL,
    private readonly tls: GetTls,
  ) {}

  acquire(): Connection {
    for (let conn = this.idle.pop(); conn; conn = this.idle.pop()) {
      if (conn.socket.destroyed) continue;
      conn.socket.setTimeout(0);
      conn.socket.ref();
      return conn;
    }
    return new Connection(this.url, this.tls);
  }

  release(conn: Connection): void {
    if (this.closed || conn.socket.destroyed) {
      conn.socket.destroy();
      return;
    }
    conn.exchange = null;
    conn.used = true;
    // Idle, it must not keep the process alive, and it reads on so that a close is noticed.
    conn.socket.unref();
    conn.socket.setTimeout(IDLE_MS);
    conn.socket.resume();
    // Connections the server closed while they sat idle go now, with their buffers.
    this.idle = this.idle.filter((c) => !c.socket.destroyed);
    this.idle.push(conn);
  }

  /** Closes the idle connections; connections in use close when their response has ended. */
  close(): void {
    this.closed = true;
    for (const conn of this.idle) conn.socket.destroy();
    this.idle = [];
  }
}

const abortError = () => Object.assign(new Error('The operation was aborted'), {name: 'AbortError', code: 'ABORT_ERR'});
// A connection that closes mid-body is "aborted" to node:http and UND_ERR_SOCKET to undici: the
// admin reads the same line whichever way the request went.
const closedEarly = (cause?: unknown) => Object.assign(new Error('the connection closed before the response ended'), {code: 'UND_ERR_SOCKET', cause});
const hangUp = () => Object.assign(new Error('socket hang up'), {code: 'ECONNRESET'});
const malformed = (what: string) => new Error(`malformed HTTP response: ${what}`);

const EMPTY = Buffer.alloc(0);

interface ExchangeHooks {
  resolve(response: TransportResponse): void;
  reject(err: unknown): void;
  /** Sends the request again on a new connection; null when this attempt may not be repeated. */
  retry: (() => void) | null;
  /** The response has ended and nothing refers to the connection's buffer any more. */
  done(conn: Connection, reusable: boolean): void;
}

/** One request and its response on a connection. */
class Exchange implements ResponseSink {
  private readonly reader = new ResponseReader(this);
  private readonly queue: Buffer[] = [];
  private next = 0;
  private unread = 0;
  /** The socket was paused for this exchange: views are out, or the eager limit was reached. */
  private paused = false;
  private headSeen: ResponseHead | null = null;
  private ended = false;
  /** Bytes followed the response: the connection cannot carry another. */
  private trailing = false;
  private released = false;
  private failure: unknown = null;
  private wake: (() => void) | null = null;
  /** The chunk the consumer is reading now (until it asks for the next). */
  private lastOut: Buffer | null = null;

  constructor(
    private readonly conn: Connection,
    private readonly mode: 'borrow' | 'eager',
    private limit: number,
    private readonly hooks: ExchangeHooks,
  ) {}

  // ResponseSink
  head(head: ResponseHead): void {
    this.headSeen = head;
    // Of an error only the start is kept (client.ts): reading on ahead would copy what is thrown away.
    if (head.statusCode < 200 || head.statusCode > 299) this.limit = Math.min(this.limit, ERROR_BODY_KEEP_BYTES);
    this.hooks.resolve({
      statusCode: head.statusCode,
      header: (name) => head.headers.get(name),
      body: this.chunks(),
      borrowed: this.mode === 'borrow',
      destroy: () => this.abort(abortError()),
    });
  }
  body(buf: Buffer, start: number, end: number): void {
    this.queue.push(this.mode === 'borrow' ? buf.subarray(start, end) : Buffer.from(buf.subarray(start, end)));
    this.unread += end - start;
  }
  end(): void {
    this.ended = true;
  }

  /** A read of `n` bytes into `buf`; true pauses the socket. */
  read(buf: Buffer, n: number): boolean {
    const stop = this.reader.feed(buf, 0, n);
    if (this.reader.error !== null) {
      this.fail(malformed(this.reader.error));
      return true;
    }
    if (this.reader.done && stop < n) this.trailing = true;
    this.notify();
    if (this.releaseIfDone()) return false;
    const hold = this.mode === 'borrow' ? this.next < this.queue.length : this.unread > this.limit;
    if (hold) this.paused = true;
    return hold;
  }

  /** Views of `buf` are out (handed over or queued). */
  lends(buf: Buffer): boolean {
    if (this.mode !== 'borrow' || this.released) return false;
    for (let i = this.next; i < this.queue.length; i++) if (this.queue[i]!.buffer === buf.buffer) return true;
    return this.lastOut?.buffer === buf.buffer;
  }

  socketError(err: unknown): void {
    if (!this.reader.started && this.hooks.retry && (err as NodeJS.ErrnoException).code !== undefined && RETRIED.has((err as NodeJS.ErrnoException).code!)) {
      this.retry();
      return;
    }
    this.fail(err);
  }

  socketClosed(): void {
    if (this.reader.closed()) {
      this.notify();
      this.releaseIfDone();
      return;
    }
    if (!this.reader.started && this.hooks.retry) {
      this.retry();
      return;
    }
    this.fail(this.reader.started ? closedEarly() : hangUp());
  }

  abort(err: unknown): void {
    this.fail(err);
  }

  private retry(): void {
    const retry = this.hooks.retry!;
    this.conn.exchange = null;
    this.conn.socket.destroy();
    retry();
  }

  private fail(err: unknown): void {
    if (this.failure !== null || this.released) return;
    this.failure = err;
    this.conn.exchange = null;
    this.conn.socket.destroy();
    if (this.headSeen === null) this.hooks.reject(err);
    this.notify();
  }

  private notify(): void {
    const resolve = this.wake;
    this.wake = null;
    resolve?.();
  }

  /** Hands the connection back once the response has ended and no view of its buffer is out. */
  private releaseIfDone(): boolean {
    if (!this.ended || this.released || this.failure !== null) return this.released;
    if (this.mode === 'borrow' && (this.next < this.queue.length || this.lastOut !== null)) return false;
    this.released = true;
    this.conn.exchange = null;
    this.hooks.done(this.conn, this.headSeen!.reusable && !this.trailing);
    return true;
  }

  private async *chunks(): AsyncGenerator<Buffer> {
    try {
      for (;;) {
        if (this.next < this.queue.length) {
          const chunk = this.queue[this.next]!;
          this.queue[this.next++] = EMPTY;
          this.unread -= chunk.length;
          this.lastOut = chunk;
          yield chunk;
          this.lastOut = null;
          continue;
        }
        this.queue.length = 0;
        this.next = 0;
        this.conn.returned();
        if (this.failure !== null) throw this.failure;
        if (this.ended) {
          this.releaseIfDone();
          return;
        }
        if (this.paused) {
          this.paused = false;
          this.conn.socket.resume();
        }
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
      }
    } finally {
      // A reader that stops early leaves a connection nobody can reuse.
      if (!this.released && this.failure === null) this.fail(abortError());
    }
  }
}

/** Codes of a pooled connection the server closed while it sat idle. */
const RETRIED = new Set(['ECONNRESET', 'EPIPE']);

/**
 * Sends `GET url` now. A request on a pooled connection that the server closed while it was idle
 * (a reset or hang-up before any response byte) is sent once more on a new connection: the race
 * between a keep-alive timeout and the next poll is not the admin's problem, and a GET has no
 * effect to repeat.
 */
export function sendGet(url: URL, headers: Record<string, string>, tls: GetTls, get: GetOptions): SentRequest {
  const startedAt = performance.now();
  let current: Exchange | null = null;
  let aborted = false;
  const request = requestText(url, headers);
  const done = (conn: Connection, reusable: boolean) => {
    if (get.pool && reusable) get.pool.release(conn);
    else conn.socket.destroy();
  };
  const attempt = (conn: Connection, mayRetry: boolean) =>
    new Promise<TransportResponse>((resolve, reject) => {
      const retry = mayRetry && conn.used ? () => (aborted ? reject(abortError()) : resolve(attempt(new Connection(url, tls), false))) : null;
      const exchange = new Exchange(conn, get.mode, get.mode === 'eager' ? get.unreadLimit : 0, {resolve, reject, retry, done});
      current = exchange;
      conn.exchange = exchange;
      conn.socket.write(request);
    });
  const response = attempt(get.pool ? get.pool.acquire() : new Connection(url, tls), true);
  // The client sees the failure when it takes the response; one nobody takes must not count as unhandled.
  response.catch(() => undefined);
  return {
    startedAt,
    response,
    abort: () => {
      aborted = true;
      (current as Exchange | null)?.abort(abortError());
    },
  };
}

/** The request's bytes. Header values come from the client (the token is checked there); a line break in one is refused here too. */
function requestText(url: URL, headers: Record<string, string>): string {
  let text = `GET ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    if (/[\r\n]/.test(name) || /[\r\n]/.test(value)) throw Object.assign(new Error(`a line break in the ${name} header`), {code: 'ERR_INVALID_CHAR'});
    text += `${name}: ${value}\r\n`;
  }
  return `${text}connection: keep-alive\r\n\r\n`;
}
