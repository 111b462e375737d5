// Request parsing the way 0.7.36's Plug 1.14 / Phoenix 1.7 endpoint does it
// (docs/firezone-0.7.36.md, "Request parsing" and "Content negotiation"): query strings and form bodies
// decoded like Plug.Conn.Query (nested `a[b][c]` keys, `a[]` lists, the last duplicate wins),
// multipart text fields, JSON bodies, and Phoenix's `accepts/2`.

import {isParamsMap, newParams, OpaqueValue, type Params} from '../json.js';

export class MalformedRequest extends Error {}

/**
 * A query string or form body past one of QUERY_LIMITS. Plug raises Plug.Conn.InvalidQueryError
 * for an over-long query (nominally 414), which 0.7.36 answers with the empty 500 like every
 * parse error (docs/firezone-0.7.36.md, "Request parsing"); the depth and pair bounds are the
 * sandbox's own, answered the same way (src/sandbox/README.md, "Deviations from 0.7.36").
 */
export class QueryLimitExceeded extends MalformedRequest {}

export interface QueryLimits {
  /** Bytes of the whole text, checked before anything is decoded. */
  maxBytes: number;
  /** Bracketed segments in one key: `a[b][]` has 2. */
  maxDepth: number;
  /** Non-empty `&`-separated pairs (or multipart fields). */
  maxPairs: number;
}

/**
 * Plug.Parsers' `query_string_length` (1,000,000 bytes; Node's 16 KiB limit on a request head is
 * lower still), and, as Plug has none, Rack's default depth and parameter limits.
 */
export const QUERY_LIMITS: Readonly<QueryLimits> = {maxBytes: 1_000_000, maxDepth: 32, maxPairs: 4096};

/** Plug.Parsers.URLENCODED's default `:length`: a form body is refused past it (nominally 413). */
export const MAX_FORM_BODY_BYTES = 1_000_000;

// ignoreBOM: a decoded U+FEFF is data (Plug keeps it), not a byte-order mark to drop.
const utf8 = new TextDecoder('utf-8', {fatal: true, ignoreBOM: true});

/** A short, printable excerpt of request text for the sandbox's log. */
function excerpt(text: string, start: number, end: number): string {
  return JSON.stringify(text.slice(start, Math.min(end, start + 40))) + (end - start > 40 ? '…' : '');
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/**
 * URI.decode_www_form of `text[start, end)` plus Plug's UTF-8 validation, in one pass; throws
 * MalformedRequest on bad input. The text is the raw bytes read as latin1 (`req.url`, a body's
 * `toString('latin1')`); a wider character can only come from a JS string and is taken as UTF-8.
 */
function decodeWwwForm(text: string, start: number, end: number): string {
  let plain = true;
  for (let i = start; i < end && plain; i++) {
    const code = text.charCodeAt(i);
    plain = code !== 0x25 && code !== 0x2b && code < 0x80;
  }
  if (plain) return text.slice(start, end);
  const bytes = Buffer.allocUnsafe((end - start) * 3);
  let n = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x2b) {
      bytes[n++] = 0x20;
    } else if (code === 0x25) {
      const hi = i + 2 < end ? hexValue(text.charCodeAt(i + 1)) : -1;
      const lo = hi < 0 ? -1 : hexValue(text.charCodeAt(i + 2));
      if (lo < 0) throw new MalformedRequest(`invalid urlencoded params, got ${excerpt(text, start, end)}`);
      bytes[n++] = hi * 16 + lo;
      i += 2;
    } else if (code < 0x100) {
      bytes[n++] = code;
    } else {
      const point = text.codePointAt(i)!;
      n += bytes.write(String.fromCodePoint(point), n, 'utf8');
      if (point > 0xffff) i++;
    }
  }
  try {
    return utf8.decode(bytes.subarray(0, n));
  } catch {
    throw new MalformedRequest('invalid UTF-8 in form data');
  }
}

/** Elixir's `:none`: no container at this place yet. */
const NONE = Symbol('none');

/**
 * Plug.Conn.Query.decode_pair (Plug 1.14) for a key already split into its segments
 * (`segments[0]` is the part before the first `[`), walked down without recursion. Plug's
 * recursion returns, for each place, the container there now: the same one changed, or a new one
 * (where there was none, or a list where a named key is asked for), which is then put where the
 * old one was (`holder[slot]`). Lists are built last item first, as Plug prepends, and reversed
 * once at the end (reverseLists), so no insertion moves what is already there.
 */
function assignSegments(segments: readonly string[], value: unknown, root: Params): void {
  let acc: unknown = root;
  let holder: Record<string | number, unknown> = root;
  let slot: string | number = '';
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const last = i === segments.length - 1;
    if (segment === '') {
      // `[]`: an item of a list; anything else already here stays
      if (acc !== NONE && !(Array.isArray(acc) && acc.length > 0)) return;
      const list = acc === NONE ? [] : (acc as unknown[]);
      if (list !== acc) holder[slot] = list;
      list.push(last ? value : NONE);
      holder = list as unknown as Record<number, unknown>;
      slot = list.length - 1;
      acc = NONE;
      continue;
    }
    // nothing here yet, or a list where a named key is asked for: a new map takes its place
    const map = isParamsMap(acc) ? acc : newParams();
    if (map !== acc) holder[slot] = map;
    if (!(segment in map)) {
      map[segment] = last ? value : NONE;
      acc = NONE;
    } else {
      acc = map[segment];
      // the value already here wins; a container is gone into
      if (last || !(Array.isArray(acc) || isParamsMap(acc))) return;
    }
    holder = map;
    slot = segment;
  }
}

/**
 * Collects pairs the way Plug.Conn.Query.decode reduces them: last pair first, so that for a
 * repeated key the last one wins (an existing entry is kept). Each pair costs its key's length.
 */
class ParamsBuilder {
  readonly params = newParams();

  constructor(private readonly limits: Readonly<QueryLimits>) {}

  /** Plug.Conn.Query.decode_pair. */
  add(key: string, value: unknown): void {
    if (key === '' || key.charCodeAt(key.length - 1) !== 0x5d /* ] */) {
      this.assignTop(key, value);
      return;
    }
    const open = key.indexOf('[');
    if (open < 0) {
      // `a]`: the trailing bracket goes, the rest is a plain key; `]` alone is a list item Plug
      // finds a map for, and leaves
      if (key.length > 1) this.assignTop(key.slice(0, -1), value);
      return;
    }
    const segments = [key.slice(0, open)];
    let from = open + 1;
    const end = key.length - 1;
    for (;;) {
      // the segments so far and the last one still to come
      if (segments.length > this.limits.maxDepth) throw new QueryLimitExceeded(`a key nested deeper than ${this.limits.maxDepth} levels`);
      const next = key.indexOf('][', from);
      if (next < 0 || next >= end) break;
      segments.push(key.slice(from, next));
      from = next + 2;
    }
    segments.push(key.slice(from, end));
    // `[x]=…` at the top: Plug's clause for a list item finds a map there and leaves it
    if (segments[0] === '') return;
    assignSegments(segments, value, this.params);
  }

  private assignTop(key: string, value: unknown): void {
    if (!(key in this.params)) this.params[key] = value;
  }

  /** The params, with every list in the order its items came. */
  finish(): Params {
    reverseLists(this.params);
    return this.params;
  }
}

function reverseLists(params: Params): void {
  const stack: unknown[] = [params];
  for (let value = stack.pop(); value !== undefined; value = stack.pop()) {
    if (Array.isArray(value)) {
      value.reverse();
      for (const item of value) stack.push(item);
    } else if (isParamsMap(value)) {
      for (const key in value) stack.push(value[key]);
    }
  }
}

/**
 * Plug.Conn.Query.decode/1 (also used for x-www-form-urlencoded bodies), in time linear in the
 * text: its length is checked first, then one scan finds the pairs (at most `maxPairs`), and each
 * key is split once (at most `maxDepth` segments).
 */
export function decodeQuery(query: string, limits: Readonly<QueryLimits> = QUERY_LIMITS): Params {
  if (query.length > limits.maxBytes) {
    throw new QueryLimitExceeded(`maximum query string length is ${limits.maxBytes}, got a query with ${query.length} bytes`);
  }
  // [start, equals sign or end, end) of each non-empty pair
  const bounds: number[] = [];
  let start = 0;
  let eq = -1;
  for (let i = 0; i <= query.length; i++) {
    const code = i < query.length ? query.charCodeAt(i) : 0x26;
    if (code === 0x3d /* = */ && eq < 0) eq = i;
    if (code !== 0x26 /* & */) continue;
    if (i > start) {
      if (bounds.length / 3 >= limits.maxPairs) throw new QueryLimitExceeded(`more than ${limits.maxPairs} parameters`);
      bounds.push(start, eq < 0 ? i : eq, i);
    }
    start = i + 1;
    eq = -1;
  }
  const builder = new ParamsBuilder(limits);
  for (let p = bounds.length - 3; p >= 0; p -= 3) {
    const [from, split, to] = [bounds[p]!, bounds[p + 1]!, bounds[p + 2]!];
    builder.add(decodeWwwForm(query, from, split), split < to ? decodeWwwForm(query, split + 1, to) : '');
  }
  return builder.finish();
}

interface MediaType {
  type: string;
  subtype: string;
  params: Record<string, string>;
}

/** Plug.Conn.Utils.media_type/content_type: lowercase type/subtype and `;`-separated params. */
export function parseMediaType(text: string): MediaType | null {
  const [head, ...rest] = text.split(';');
  const m = /^\s*([^\s/;,]+)\/([^\s/;,]+)\s*$/.exec(head ?? '');
  if (!m) return null;
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    params[name] = value;
  }
  return {type: m[1]!.toLowerCase(), subtype: m[2]!.toLowerCase(), params};
}

/** Text fields of a multipart/form-data body; file parts become opaque values that fail every cast. */
export function decodeMultipart(body: Buffer, boundary: string, limits: Readonly<QueryLimits> = QUERY_LIMITS): Params {
  const delimiter = Buffer.from(`--${boundary}`);
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw new MalformedRequest('multipart body without its boundary');
  const fields: Array<[string, unknown]> = [];
  for (;;) {
    pos += delimiter.length;
    if (body.subarray(pos, pos + 2).toString() === '--') break;
    if (body.subarray(pos, pos + 2).toString() !== '\r\n') throw new MalformedRequest('malformed multipart delimiter');
    pos += 2;
    const headerEnd = body.indexOf('\r\n\r\n', pos);
    if (headerEnd < 0) throw new MalformedRequest('multipart part without headers end');
    const headers = body.subarray(pos, headerEnd).toString('utf8');
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
    if (next < 0) throw new MalformedRequest('multipart body not terminated');
    const content = body.subarray(headerEnd + 4, next);
    const disposition = /content-disposition:\s*form-data\s*;([^\r\n]*)/i.exec(headers);
    const name = disposition ? /\bname="([^"]*)"/i.exec(disposition[1]!) : null;
    if (name) {
      const isFile = /\bfilename="/i.test(disposition![1]!);
      let value: unknown;
      if (isFile) {
        value = new OpaqueValue('file upload');
      } else {
        try {
          value = utf8.decode(content);
        } catch {
          throw new MalformedRequest('invalid UTF-8 in multipart field');
        }
      }
      if (fields.length >= limits.maxPairs) throw new QueryLimitExceeded(`more than ${limits.maxPairs} parameters`);
      fields.push([name[1]!, value]);
    }
    pos = next + 2;
  }
  const builder = new ParamsBuilder(limits);
  for (let i = fields.length - 1; i >= 0; i--) builder.add(fields[i]![0], fields[i]![1]);
  return builder.finish();
}

const MIME_EXTENSIONS: Record<string, string[]> = {
  'application/json': ['json'],
  'text/html': ['html', 'htm'],
  'text/plain': ['txt', 'text'],
  'application/xml': ['xml'],
  'text/xml': ['xml'],
  'text/css': ['css'],
  'text/csv': ['csv'],
  'application/javascript': ['js'],
};
const FORMAT_MIME: Record<string, string> = {json: 'application/json', html: 'text/html'};

/**
 * Phoenix.Controller.accepts/2: the format among `accepted` the request asks for (`_format`
 * param first, then the first `Accept` header), or null when it is not acceptable (406).
 */
export function negotiateFormat(accept: string | undefined, formatParam: unknown, accepted: readonly string[]): string | null {
  if (typeof formatParam === 'string') return accepted.includes(formatParam) ? formatParam : null;
  if (accept === undefined) return accepted[0] ?? null;
  const find = (exts: string | string[]): string | null => {
    if (exts === '*/*') return accepted[0] ?? null;
    if (Array.isArray(exts)) return exts.find((e) => accepted.includes(e)) ?? null;
    return accepted.find((format) => (FORMAT_MIME[format] ?? '').split('/')[0] === exts) ?? null;
  };
  const ranked: Array<{q: number; exts: string | string[]}> = [];
  for (const entry of accept.split(',')) {
    const media = parseMediaType(entry);
    if (!media) continue;
    const exts =
      media.type === '*' && media.subtype === '*' ? '*/*' : media.subtype === '*' ? media.type : (MIME_EXTENSIONS[`${media.type}/${media.subtype}`] ?? []);
    const q = media.params.q === undefined ? 1 : Number(media.params.q);
    const quality = Number.isFinite(q) ? q : 1;
    if (quality === 1) {
      const format = find(exts);
      if (format) return format;
    }
    ranked.push({q: quality, exts});
  }
  ranked.sort((a, b) => b.q - a.q);
  for (const {q, exts} of ranked) {
    if (q <= 0) continue;
    const format = find(exts);
    if (format) return format;
  }
  return null;
}
