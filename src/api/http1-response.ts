// An HTTP/1.1 response read from a socket's bytes as they arrive, split anywhere: the status
// line and headers, then the body by the framing RFC 9112 §6.3 gives it (a Content-Length,
// chunked transfer coding, or everything until the server closes). The console's GETs are read
// with it (http-get.ts) so that a 40 MB device list lands in one reused buffer instead of a new
// Buffer per read (docs/performance-poll.md, "Polls on a socket of the console's own").
//
// A server is hostile until proven otherwise: the head is bounded, every number is checked,
// anything that is not HTTP/1.x ends the response with a message saying what was wrong, and no
// input throws.

/** A response head larger than this is refused (Node's default limit is 16 KiB; Firezone's are < 1 KiB). */
export const MAX_HEAD_BYTES = 64 * 1024;
/** A chunk-size line (hex digits and extensions) longer than this is refused. */
const MAX_CHUNK_LINE_BYTES = 4096;
/** A chunk size past 2^52 is refused: no body the client accepts is near it, and it stays exact. */
const MAX_CHUNK_HEX_DIGITS = 13;

export interface ResponseHead {
  statusCode: number;
  /** The first value of each header, by its name in lower case. */
  headers: ReadonlyMap<string, string>;
  /** The connection may carry another request once this response has ended. */
  reusable: boolean;
}

/** What the reader hands on, in order: one head, body bytes (as views of the bytes fed), the end. */
export interface ResponseSink {
  head(head: ResponseHead): void;
  body(buf: Buffer, start: number, end: number): void;
  end(): void;
}

const enum State {
  Head,
  Length,
  ChunkSize,
  ChunkData,
  ChunkEnd,
  Trailers,
  UntilClose,
  Done,
  Failed,
}

const CR = 0x0d;
const LF = 0x0a;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Control characters other than tab are not allowed in a field value (RFC 9110 §5.5).
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;

export class ResponseReader {
  private state = State.Head;
  /** The head's bytes so far (copied: heads are small, and the bytes fed are reused). */
  private head: Buffer[] = [];
  private headBytes = 0;
  /** The current line has a byte other than CR. */
  private lineHasText = false;
  /** A byte other than CR or LF has been seen in this head. */
  private headSeen = false;
  /** Body bytes still to come (Length, ChunkData). */
  private remaining = 0;
  /** The chunk-size line or trailer line so far. */
  private line = '';
  private trailerBytes = 0;
  private sawCr = false;
  private received = false;
  private failure: string | null = null;

  constructor(private readonly sink: ResponseSink) {}

  /** Some byte of a response has arrived. */
  get started(): boolean {
    return this.received;
  }

  /** The response has ended (sink.end() was called). */
  get done(): boolean {
    return this.state === State.Done;
  }

  /** What was malformed, once something was; nothing more is read then. */
  get error(): string | null {
    return this.failure;
  }

  /**
   * Reads `buf[start, end)`. Returns where it stopped: `end`, or where the response ended when
   * bytes follow it (the caller must not reuse such a connection), or where it found something
   * malformed (`error` says what).
   */
  feed(buf: Buffer, start: number, end: number): number {
    if (end > start) this.received = true;
    let at = start;
    while (at < end) {
      switch (this.state) {
        case State.Head:
          at = this.readHead(buf, at, end);
          break;
        case State.Length:
          at = this.takeBody(buf, at, end);
          if (this.remaining === 0) this.finish();
          break;
        case State.ChunkSize:
          at = this.readChunkSize(buf, at, end);
          break;
        case State.ChunkData:
          at = this.takeBody(buf, at, end);
          if (this.remaining === 0) {
            this.state = State.ChunkEnd;
            this.sawCr = false;
          }
          break;
        case State.ChunkEnd: {
          const b = buf[at++]!;
          if (b === CR && !this.sawCr) this.sawCr = true;
          else if (b === LF) {
            this.state = State.ChunkSize;
            this.line = '';
          } else return this.fail('a chunk is not followed by CRLF', at - 1);
          break;
        }
        case State.Trailers:
          at = this.readTrailers(buf, at, end);
          break;
        case State.UntilClose:
          this.sink.body(buf, at, end);
          at = end;
          break;
        case State.Done:
        case State.Failed:
          return at;
      }
    }
    return at;
  }

  /**
   * The server closed the connection. True when that ends the response (a body read until
   * close); false when the response was cut short (or never began).
   */
  closed(): boolean {
    if (this.state === State.UntilClose) {
      this.finish();
      return true;
    }
    return this.state === State.Done;
  }

  /** Hands on up to `remaining` body bytes from `buf[at, end)`; returns where they end. */
  private takeBody(buf: Buffer, at: number, end: number): number {
    const take = Math.min(this.remaining, end - at);
    this.sink.body(buf, at, at + take);
    this.remaining -= take;
    return at + take;
  }

  private fail(message: string, at: number): number {
    this.state = State.Failed;
    this.failure = message;
    return at;
  }

  private finish(): void {
    this.state = State.Done;
    this.sink.end();
  }

  /** Copies head bytes up to the empty line that ends the head, then reads it. */
  private readHead(buf: Buffer, start: number, end: number): number {
    let at = start;
    let lineHasText = this.lineHasText;
    for (; at < end; at++) {
      const b = buf[at]!;
      if (b === LF) {
        // Empty lines before the status line are tolerated (a stray CRLF after the last response).
        if (!lineHasText && this.headSeen) break;
        lineHasText = false;
      } else if (b !== CR) {
        lineHasText = true;
        this.headSeen = true;
      }
    }
    this.lineHasText = lineHasText;
    const taken = Math.min(at + 1, end);
    if (this.headBytes + (taken - start) > MAX_HEAD_BYTES) return this.fail(`the response head is larger than ${MAX_HEAD_BYTES / 1024} KiB`, start);
    this.head.push(Buffer.from(buf.subarray(start, taken)));
    this.headBytes += taken - start;
    if (at === end) return end;
    const text = Buffer.concat(this.head, this.headBytes).toString('latin1');
    this.head = [];
    this.headBytes = 0;
    this.lineHasText = false;
    this.headSeen = false;
    return this.readHeadText(text, taken);
  }

  private readHeadText(text: string, at: number): number {
    const lines = text.replace(/^[\r\n]+/, '').split('\n');
    for (let i = 0; i < lines.length; i++) if (lines[i]!.endsWith('\r')) lines[i] = lines[i]!.slice(0, -1);
    const status = /^HTTP\/1\.([01]) ([0-9]{3})(?: .*)?$/.exec(lines[0]!);
    if (!status) return this.fail('the status line is not HTTP/1.x (is the URL http vs https right?)', at);
    const statusCode = Number(status[2]);
    if (statusCode < 100) return this.fail(`an invalid status code ${status[2]}`, at);
    const headers = new Map<string, string>();
    const lengths: string[] = [];
    const codings: string[] = [];
    const connection: string[] = [];
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      if (line === '') continue;
      if (line.startsWith(' ') || line.startsWith('\t')) return this.fail('a folded header line', at);
      const colon = line.indexOf(':');
      const name = colon > 0 ? line.slice(0, colon) : '';
      if (!TOKEN.test(name)) return this.fail('a header line without a valid name', at);
      const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
      if (CONTROL.test(value)) return this.fail(`a control character in the ${name} header`, at);
      const key = name.toLowerCase();
      if (!headers.has(key)) headers.set(key, value);
      if (key === 'content-length') lengths.push(...value.split(',').map((v) => v.trim()));
      else if (key === 'transfer-encoding') codings.push(...value.split(',').map((v) => v.trim().toLowerCase()));
      else if (key === 'connection') connection.push(...value.split(',').map((v) => v.trim().toLowerCase()));
    }
    // 1xx: an interim response; the final one follows (101 would switch protocols: not asked for).
    if (statusCode < 200) {
      if (statusCode === 101) return this.fail('the server switched protocols', at);
      return at;
    }
    const close = status[1] === '0' || connection.includes('close');
    let reusable = !close;
    if (statusCode === 204 || statusCode === 304) {
      this.sink.head({statusCode, headers, reusable});
      this.finish();
      return at;
    }
    if (codings.length > 0) {
      // Transfer-Encoding overrides Content-Length; a body whose last coding is not chunked runs until close.
      if (codings[codings.length - 1] === 'chunked') {
        this.state = State.ChunkSize;
        this.line = '';
        if (lengths.length > 0) reusable = false;
      } else {
        this.state = State.UntilClose;
        reusable = false;
      }
    } else if (lengths.length > 0) {
      const first = lengths[0]!;
      if (!/^[0-9]{1,15}$/.test(first) || lengths.some((v) => v !== first)) return this.fail('an invalid Content-Length', at);
      this.remaining = Number(first);
      this.state = State.Length;
    } else {
      this.state = State.UntilClose;
      reusable = false;
    }
    this.sink.head({statusCode, headers, reusable});
    if (this.state === State.Length && this.remaining === 0) this.finish();
    return at;
  }

  private readChunkSize(buf: Buffer, start: number, end: number): number {
    let at = start;
    while (at < end && buf[at] !== LF) at++;
    if (this.line.length + (at - start) > MAX_CHUNK_LINE_BYTES) return this.fail('a chunk-size line is too long', start);
    this.line += buf.toString('latin1', start, at);
    if (at === end) return end;
    const line = this.line.endsWith('\r') ? this.line.slice(0, -1) : this.line;
    const size = /^([0-9A-Fa-f]+)[ \t]*(?:;.*)?$/.exec(line);
    if (!size || size[1]!.length > MAX_CHUNK_HEX_DIGITS || CONTROL.test(line)) return this.fail('an invalid chunk size', at);
    this.remaining = parseInt(size[1]!, 16);
    this.line = '';
    if (this.remaining === 0) {
      this.state = State.Trailers;
      this.trailerBytes = 0;
    } else this.state = State.ChunkData;
    return at + 1;
  }

  /** Trailer lines after the last chunk, up to an empty line; read and ignored. */
  private readTrailers(buf: Buffer, start: number, end: number): number {
    let at = start;
    while (at < end && buf[at] !== LF) at++;
    this.trailerBytes += at - start;
    if (this.trailerBytes > MAX_HEAD_BYTES) return this.fail('the trailers are too large', start);
    this.line += buf.toString('latin1', start, at);
    if (at === end) return end;
    const line = this.line.endsWith('\r') ? this.line.slice(0, -1) : this.line;
    this.line = '';
    if (line === '') this.finish();
    return at + 1;
  }
}
