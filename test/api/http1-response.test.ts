// The HTTP/1.1 response reader (src/api/http1-response.ts): the same head and body bytes however
// the response is split across reads, the framing RFC 9112 §6.3 gives (Content-Length, chunked,
// until close), and a message — never a throw, never a guess — for anything malformed.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {MAX_HEAD_BYTES, ResponseReader, type ResponseHead} from '../../src/api/http1-response.js';

interface Read {
  head: ResponseHead | null;
  body: Buffer;
  ended: boolean;
  error: string | null;
  /** Where feeding stopped in the whole input (the bytes after a response are not read). */
  stoppedAt: number;
  /** sink calls after end() */
  late: number;
}

/** Feeds `bytes` cut at `cuts` (positions), as reads of a reused buffer: each read's bytes are overwritten after it. */
function read(bytes: Buffer, cuts: number[] = [], close = false): Read {
  const out: Read = {head: null, body: Buffer.alloc(0), ended: false, error: null, stoppedAt: bytes.length, late: 0};
  const parts: Buffer[] = [];
  const reader = new ResponseReader({
    head: (head) => {
      if (out.head || out.ended) out.late++;
      out.head = head;
    },
    body: (buf, start, end) => {
      if (out.ended) out.late++;
      // Copied now: the reused buffer below is scribbled over before the next read.
      parts.push(Buffer.from(buf.subarray(start, end)));
    },
    end: () => {
      if (out.ended) out.late++;
      out.ended = true;
    },
  });
  const points = [...new Set(cuts.filter((c) => c > 0 && c < bytes.length))].sort((a, b) => a - b);
  const reused = Buffer.alloc(bytes.length + 8);
  let from = 0;
  for (const to of [...points, bytes.length]) {
    reused.fill(0x23);
    bytes.copy(reused, 3, from, to);
    const stop = reader.feed(reused, 3, 3 + to - from);
    if (reader.error !== null || stop < 3 + to - from) {
      out.stoppedAt = from + stop - 3;
      break;
    }
    from = to;
  }
  if (close && reader.error === null && !reader.done) reader.closed();
  out.error = reader.error;
  out.body = Buffer.concat(parts);
  return out;
}

const text = (s: string) => Buffer.from(s, 'latin1');

type Framing = {kind: 'length'} | {kind: 'chunked'; sizes: number[]; ext: boolean; trailers: boolean} | {kind: 'close'};

/** A response as a server may write it, with the body it carries. */
const responses = fc
  .record({
    status: fc.integer({min: 200, max: 599}).filter((s) => s !== 204 && s !== 304),
    reason: fc.constantFrom('', ' OK', ' Not Found', ' x y'),
    headers: fc.array(fc.tuple(fc.constantFrom('X-Request-Id', 'content-type', 'Location', 'x-a'), fc.stringMatching(/^[ -~]{0,20}$/)), {maxLength: 4}),
    body: fc.uint8Array({maxLength: 600}),
    framing: fc.oneof(
      fc.constant<Framing>({kind: 'length'}),
      fc.record({
        kind: fc.constant('chunked' as const),
        sizes: fc.array(fc.integer({min: 1, max: 97}), {maxLength: 12}),
        ext: fc.boolean(),
        trailers: fc.boolean(),
      }),
      fc.constant<Framing>({kind: 'close'}),
    ),
    lf: fc.boolean(),
  })
  .map(({status, reason, headers, body, framing, lf}) => {
    const eol = lf ? '\n' : '\r\n';
    const data = Buffer.from(body);
    let head = `HTTP/1.1 ${status}${reason}${eol}`;
    for (const [name, value] of headers) head += `${name}: ${value}${eol}`;
    let payload: Buffer;
    if (framing.kind === 'length') {
      head += `Content-Length: ${data.length}${eol}`;
      payload = data;
    } else if (framing.kind === 'chunked') {
      head += `Transfer-Encoding: chunked${eol}`;
      const pieces: Buffer[] = [];
      let at = 0;
      for (const size of framing.sizes) {
        if (at >= data.length) break;
        const piece = data.subarray(at, at + size);
        at += piece.length;
        pieces.push(text(`${piece.length.toString(16)}${framing.ext ? ';name="v"' : ''}\r\n`), piece, text('\r\n'));
      }
      if (at < data.length) pieces.push(text(`${(data.length - at).toString(16)}\r\n`), data.subarray(at), text('\r\n'));
      pieces.push(text(`0\r\n${framing.trailers ? 'x-trailer: 1\r\n' : ''}\r\n`));
      payload = Buffer.concat(pieces);
    } else {
      payload = data;
    }
    const headers_ = new Map<string, string>();
    for (const [name, value] of headers) if (!headers_.has(name.toLowerCase())) headers_.set(name.toLowerCase(), value.trim());
    return {status, headers: headers_, body: data, framing, bytes: Buffer.concat([text(`${head}${eol}`), payload])};
  });

describe('an HTTP/1.1 response read as it arrives', () => {
  it('gives the same status, headers and body however the bytes are split, and reads nothing after the end', () => {
    fc.assert(
      fc.property(responses, fc.array(fc.nat(), {maxLength: 30}), fc.uint8Array({minLength: 0, maxLength: 20}), (res, cuts, after) => {
        const close = res.framing.kind === 'close';
        // Bytes after a framed response are another response's (or garbage): not read as this one's body.
        const input = close ? res.bytes : Buffer.concat([res.bytes, Buffer.from(after)]);
        const whole = read(input, [], close);
        const split = read(
          input,
          cuts.map((c) => c % (input.length + 1)),
          close,
        );
        for (const got of [whole, split]) {
          expect(got.error).toBeNull();
          expect(got.head?.statusCode).toBe(res.status);
          for (const [name, value] of res.headers) expect(got.head?.headers.get(name)).toBe(value);
          expect(got.body.equals(res.body)).toBe(true);
          expect(got.ended).toBe(true);
          expect(got.late).toBe(0);
          expect(got.head?.reusable).toBe(!close);
          if (!close) expect(got.stoppedAt).toBe(res.bytes.length);
        }
      }),
      {numRuns: 400},
    );
  });

  it('never throws on any bytes, split anywhere, and says what was wrong when it fails', () => {
    const garbage = fc.oneof(
      fc.uint8Array({maxLength: 300}).map((a) => Buffer.from(a)),
      // Mostly-HTTP: a valid start with random bytes spliced in.
      fc.tuple(responses, fc.nat(), fc.uint8Array({minLength: 1, maxLength: 8})).map(([r, at, junk]) => {
        const cut = at % (r.bytes.length + 1);
        return Buffer.concat([r.bytes.subarray(0, cut), Buffer.from(junk), r.bytes.subarray(cut)]);
      }),
    );
    fc.assert(
      fc.property(garbage, fc.array(fc.nat(), {maxLength: 20}), fc.boolean(), (bytes, cuts, close) => {
        const whole = read(bytes, [], close);
        const split = read(
          bytes,
          cuts.map((c) => c % (bytes.length + 1)),
          close,
        );
        // However it was split, the outcome is the same.
        expect(split.error).toBe(whole.error);
        expect(split.head?.statusCode).toBe(whole.head?.statusCode);
        expect(split.body.equals(whole.body)).toBe(true);
        expect(split.ended).toBe(whole.ended);
        if (whole.error !== null) expect(whole.error.length).toBeGreaterThan(5);
      }),
      {numRuns: 600},
    );
  });

  it('skips interim 1xx responses and leading empty lines; 204 and 304 have no body', () => {
    const got = read(text('\r\nHTTP/1.1 100 Continue\r\n\r\n\r\nHTTP/1.1 199 Other\r\nx-a: 1\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok'));
    expect(got).toMatchObject({error: null, ended: true});
    expect(got.head?.statusCode).toBe(200);
    expect(got.head?.headers.get('x-a')).toBeUndefined();
    expect(got.body.toString()).toBe('ok');
    for (const status of [204, 304]) {
      const none = read(text(`HTTP/1.1 ${status} x\r\ncontent-length: 10\r\n\r\n`));
      expect(none).toMatchObject({error: null, ended: true});
      expect(none.head?.statusCode).toBe(status);
      expect(none.body.length).toBe(0);
    }
  });

  it('a connection is reusable only for a framed HTTP/1.1 response without "Connection: close"', () => {
    const reusable = (head: string) => read(text(`${head}\r\n\r\n`), [], true).head?.reusable;
    expect(reusable('HTTP/1.1 200 OK\r\ncontent-length: 0')).toBe(true);
    expect(reusable('HTTP/1.1 200 OK\r\nconnection: keep-alive, Close\r\ncontent-length: 0')).toBe(false);
    expect(reusable('HTTP/1.0 200 OK\r\ncontent-length: 0')).toBe(false);
    expect(reusable('HTTP/1.1 200 OK')).toBe(false);
    // Transfer-Encoding and Content-Length both: the coding wins, and the connection is not trusted again.
    const both = read(text('HTTP/1.1 200 OK\r\ncontent-length: 3\r\ntransfer-encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n'));
    expect(both).toMatchObject({error: null, ended: true});
    expect(both.body.toString()).toBe('ab');
    expect(both.head?.reusable).toBe(false);
    // A coding other than chunked last: the body runs until the server closes.
    const gz = read(text('HTTP/1.1 200 OK\r\ntransfer-encoding: gzip\r\n\r\nabc'), [], true);
    expect(gz).toMatchObject({error: null, ended: true});
    expect(gz.body.toString()).toBe('abc');
    expect(gz.head?.reusable).toBe(false);
    // Chunked last among codings, in any case and spacing.
    const listed = read(text('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip,  Chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n'));
    expect(listed).toMatchObject({error: null, ended: true});
    expect(listed.body.toString()).toBe('ab');
    expect(listed.head?.reusable).toBe(true);
    // "close" in another header says nothing about the connection.
    expect(reusable('HTTP/1.1 200 OK\r\nx-a: close\r\ncontent-length: 0')).toBe(true);
    expect(reusable('HTTP/1.1 200 OK\r\nconnection: upgrade ,  close \r\ncontent-length: 0')).toBe(false);
  });

  it('a body cut short by a close is not ended; a close after a whole response, or one that ends the body, is fine', () => {
    const closing = (bytes: string) => {
      const reader = new ResponseReader({head: () => undefined, body: () => undefined, end: () => undefined});
      reader.feed(text(bytes), 0, bytes.length);
      return reader.closed();
    };
    for (const bytes of [
      'HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nabc',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nab',
      'HTTP/1.1 200 OK\r\ncontent-le',
      '',
    ]) {
      const got = read(text(bytes), [], true);
      expect(got.error).toBeNull();
      expect(got.ended).toBe(false);
      expect(closing(bytes)).toBe(false);
    }
    expect(closing('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok')).toBe(true);
    expect(closing('HTTP/1.1 200 OK\r\n\r\nuntil close')).toBe(true);
  });

  it('header values lose the spaces around them; one Content-Length header may repeat its value', () => {
    const got = read(text('HTTP/1.1 200 OK\r\nx-a: \t v w \t \r\ncontent-length: 2, 2\r\n\r\nok'));
    expect(got).toMatchObject({error: null, ended: true});
    expect(got.head?.headers.get('x-a')).toBe('v w');
    expect(got.body.toString()).toBe('ok');
    // A chunk size of 13 hex digits is read (a leading-zero one here), 14 are not.
    expect(read(text('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0000000000002\r\nok\r\n0\r\n\r\n')).body.toString()).toBe('ok');
  });

  it.each([
    ['not HTTP (a TLS alert on an http:// URL)', Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x46, 0x0a, 0x0a]), /not HTTP\/1\.x.*http vs https/],
    ['HTTP/2 status line', text('HTTP/2 200\r\n\r\n'), /not HTTP\/1\.x/],
    ['a status of two digits', text('HTTP/1.1 20 OK\r\n\r\n'), /not HTTP\/1\.x/],
    ['a folded header', text('HTTP/1.1 200 OK\r\nx-a: 1\r\n  more\r\ncontent-length: 0\r\n\r\n'), /folded/],
    ['a header without a name', text('HTTP/1.1 200 OK\r\n: v\r\n\r\n'), /without a valid name/],
    ['a header name with a space', text('HTTP/1.1 200 OK\r\nbad name: v\r\n\r\n'), /without a valid name/],
    ['a control character in a value', text('HTTP/1.1 200 OK\r\nx-a: a\x1bb\r\n\r\n'), /control character in the x-a header/],
    ['a bare CR in a value', text('HTTP/1.1 200 OK\r\nx-a: a\rb\r\n\r\n'), /control character/],
    ['a negative Content-Length', text('HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\n'), /invalid Content-Length/],
    ['two different Content-Lengths', text('HTTP/1.1 200 OK\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\n'), /invalid Content-Length/],
    ['a Content-Length past 2^53', text('HTTP/1.1 200 OK\r\ncontent-length: 99999999999999999\r\n\r\n'), /invalid Content-Length/],
    ['a chunk size that is not hex', text('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n'), /invalid chunk size/],
    ['a chunk size past 2^52', text('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n10000000000000\r\n'), /invalid chunk size/],
    ['a chunk longer than its size', text('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1\r\nab\r\n0\r\n\r\n'), /not followed by CRLF/],
    ['a chunk followed by CR CR LF', text('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1\r\na\r\r\n0\r\n\r\n'), /not followed by CRLF/],
    ['a status line after other bytes', text('XHTTP/1.1 200 OK\r\n\r\n'), /not HTTP\/1\.x/],
    ['a status of four digits', text('HTTP/1.1 2000 OK\r\n\r\n'), /not HTTP\/1\.x/],
    ['a status under 100', text('HTTP/1.1 099 x\r\ncontent-length: 0\r\n\r\n'), /invalid status code 099/],
    ['a header folded with a tab', text('HTTP/1.1 200 OK\r\nx-a: 1\r\n\tmore\r\ncontent-length: 0\r\n\r\n'), /folded/],
    ['a header line without a colon', text('HTTP/1.1 200 OK\r\njusttext\r\ncontent-length: 0\r\n\r\n'), /without a valid name/],
    ['a chunk size after other bytes', text('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\ng1\r\na\r\n0\r\n\r\n'), /invalid chunk size/],
    ['a chunk size followed by other bytes', text('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1x\r\na\r\n0\r\n\r\n'), /invalid chunk size/],
    ['101 Switching Protocols', text('HTTP/1.1 101 Switching Protocols\r\nupgrade: h2c\r\n\r\n'), /switched protocols/],
  ])('%s is refused with a message', (_what, bytes, message) => {
    const got = read(bytes, [], true);
    expect(got.error).toMatch(message);
    expect(got.ended).toBe(false);
  });

  it('says whether any byte of a response has arrived (a pooled connection closed before one is asked again)', () => {
    const reader = new ResponseReader({head: () => undefined, body: () => undefined, end: () => undefined});
    reader.feed(text('x'), 0, 0);
    expect(reader.started).toBe(false);
    reader.feed(text('H'), 0, 1);
    expect(reader.started).toBe(true);
  });

  it('a head past the limit is refused before it is all read (an endless header line too)', () => {
    const long = text(`HTTP/1.1 200 OK\r\nx-a: ${'a'.repeat(MAX_HEAD_BYTES)}\r\n\r\n`);
    const got = read(long, [1000, 2000, 40_000]);
    expect(got.error).toMatch(/head is larger than 64 KiB/);
    expect(got.stoppedAt).toBeLessThanOrEqual(MAX_HEAD_BYTES + 1);
    // A head of exactly the limit is read, one byte more is not, wherever the reads are cut.
    const frame = 'HTTP/1.1 200 OK\r\nx-a: \r\ncontent-length: 0\r\n\r\n';
    const exact = text(frame.replace('x-a: ', `x-a: ${'a'.repeat(MAX_HEAD_BYTES - frame.length)}`));
    expect(exact.length).toBe(MAX_HEAD_BYTES);
    const over = text(frame.replace('x-a: ', `x-a: ${'a'.repeat(MAX_HEAD_BYTES - frame.length + 1)}`));
    for (const cuts of [[], [7, 30_000], [60_000, 65_000]]) {
      expect(read(exact, cuts)).toMatchObject({error: null, ended: true});
      expect(read(over, cuts).error).toMatch(/larger than 64 KiB/);
    }
    // A chunk-size line of exactly its limit (4096 bytes with the extension) is read.
    const chunkLine = `1;${'e'.repeat(4096 - 3)}\r`;
    expect(read(text(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${chunkLine}\na\r\n0\r\n\r\n`), [60, 2000]).error).toBeNull();
  });

  it('an endless chunk-size line or trailer section is refused', () => {
    expect(read(text(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1;${'x'.repeat(5000)}`)).error).toMatch(/chunk-size line is too long/);
    expect(read(text(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0\r\n${'x-t: 1\r\n'.repeat(10_000)}`)).error).toMatch(/trailers are too large/);
  });
});
