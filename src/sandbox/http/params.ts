// Request parsing the way 0.7.36's Plug 1.14 / Phoenix 1.7 endpoint does it
// (docs/firezone-0.7.36.md, "Request parsing" and "Content negotiation"): query strings and form bodies
// decoded like Plug.Conn.Query (nested `a[b][c]` keys, `a[]` lists, the last duplicate wins),
// multipart text fields, JSON bodies, and Phoenix's `accepts/2`.

import {isParamsMap, newParams, OpaqueValue, type Params} from '../json.js';

export class MalformedRequest extends Error {}

const utf8 = new TextDecoder('utf-8', {fatal: true});

/** URI.decode_www_form plus Plug's UTF-8 validation; throws MalformedRequest on bad input. */
function decodeWwwForm(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '+') {
      bytes.push(0x20);
    } else if (ch === '%') {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new MalformedRequest(`invalid percent-encoding in ${JSON.stringify(text)}`);
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      // the text is the raw bytes read as latin1; anything wider came from a JS string
      const code = ch.charCodeAt(0);
      if (code < 0x100) bytes.push(code);
      else bytes.push(...Buffer.from(ch, 'utf8'));
    }
  }
  try {
    return utf8.decode(Uint8Array.from(bytes));
  } catch {
    throw new MalformedRequest('invalid UTF-8 in form data');
  }
}

/** Plug.Conn.Query.decode_pair: applied to pairs in reverse order, so existing entries win. */
function assignPair(acc: Params, key: string, value: unknown): void {
  if (key !== '' && key.endsWith(']')) {
    const sub = key.slice(0, -1);
    const open = sub.indexOf('[');
    if (open >= 0) {
      assignPath(acc, sub.slice(0, open), sub.slice(open + 1).split(']['), value);
      return;
    }
    key = sub;
  }
  if (!(key in acc)) acc[key] = value;
}

function assignPath(acc: Params, key: string, parts: string[], value: unknown): void {
  const [head, ...rest] = parts;
  if (head === undefined) {
    if (!(key in acc)) acc[key] = value;
    return;
  }
  if (head === '') {
    const current = acc[key];
    if (current !== undefined && !Array.isArray(current)) return;
    const list = (current as unknown[] | undefined) ?? [];
    if (rest.length === 0) {
      list.unshift(value);
    } else {
      const item = newParams();
      assignPath(item, rest[0]!, rest.slice(1), value);
      list.unshift(item);
    }
    acc[key] = list;
    return;
  }
  const current = acc[key];
  if (current !== undefined && !isParamsMap(current)) return;
  const map = current ?? newParams();
  acc[key] = map;
  assignPath(map, head, rest, value);
}

/** Plug.Conn.Query.decode/1 (also used for x-www-form-urlencoded bodies). */
export function decodeQuery(query: string, into: Params = newParams()): Params {
  if (query === '') return into;
  const pairs = query.split('&').reverse();
  for (const pair of pairs) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = decodeWwwForm(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decodeWwwForm(pair.slice(eq + 1));
    assignPair(into, key, value);
  }
  return into;
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
export function decodeMultipart(body: Buffer, boundary: string): Params {
  const out = newParams();
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
      fields.push([name[1]!, value]);
    }
    pos = next + 2;
  }
  for (const [key, value] of fields.reverse()) assignPair(out, key, value);
  return out;
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
