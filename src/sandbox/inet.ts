// IP addresses the way 0.7.36 sees them: parsed with Erlang's `:inet.parse_address/1` (a lenient,
// BSD-style IPv4 parser — "10.1" is 10.0.0.1, "11" is 0.0.0.11, "010.0.0.1" is octal — falling back
// to a strict IPv6 parser) and rendered with `:inet.ntoa/1`. Ports of `inet_parse.erl`.
//
// Values are integers (32 or 128 bits) in a bigint so CIDR arithmetic and set membership are exact.

import {integerParse, ipPortNumber, splitIpPort} from '../common/ip-port.js';
type Family = 4 | 6;

export interface Ip {
  readonly family: Family;
  readonly value: bigint;
}

/** Postgrex.INET: an address with an optional netmask (nil when absent or, on reads, full-length). */
export interface Inet {
  readonly ip: Ip;
  readonly netmask: number | null;
}

export interface Cidr {
  readonly ip: Ip;
  readonly prefix: number;
}

export const bitsOf = (family: Family): number => (family === 4 ? 32 : 128);

class ParseError extends Error {}
const bad = (): never => {
  throw new ParseError();
};

// ---------------------------------------------------------------- IPv4 (lenient, inet_parse:ipv4_address)

function ipv4FieldValue(digits: string, base: number): number {
  if (digits === '' || digits[0] === '+' || digits[0] === '-') bad();
  const valid = base === 16 ? /^[0-9a-fA-F]+$/ : base === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!valid.test(digits)) bad();
  const value = parseInt(digits, base);
  if (!(value <= 0xffffffff)) bad();
  return value;
}

function parseIpv4Lenient(text: string): number {
  const fields: number[] = [];
  let i = 0;
  for (;;) {
    if (fields.length === 4) bad();
    let base: number;
    let budget: number;
    let digits = '';
    if (text.startsWith('0x', i) || text.startsWith('0X', i)) {
      base = 16;
      budget = 8;
      i += 2;
    } else if (text[i] === '0') {
      base = 8;
      budget = 11;
      digits = '0';
      i += 1;
    } else if (text[i] !== undefined && text[i]! >= '0' && text[i]! <= '9') {
      base = 10;
      budget = 10;
    } else {
      return bad();
    }
    while (i < text.length && text[i] !== '.') {
      if (budget <= 0) bad();
      digits += text[i];
      i++;
      budget--;
    }
    fields.push(ipv4FieldValue(digits, base));
    if (i === text.length) break;
    // a dot must be followed by another field
    if (i + 1 >= text.length) bad();
    i++;
  }
  const [a, b, c, d] = fields;
  switch (fields.length) {
    case 1:
      return a!;
    case 2:
      if (a! > 0xff || b! > 0xffffff) bad();
      return a! * 0x1000000 + b!;
    case 3:
      if (a! > 0xff || b! > 0xff || c! > 0xffff) bad();
      return a! * 0x1000000 + b! * 0x10000 + c!;
    default:
      if (a! > 0xff || b! > 0xff || c! > 0xff || d! > 0xff) bad();
      return ((a! * 256 + b!) * 256 + c!) * 256 + d!;
  }
}

// ---------------------------------------------------------------- IPv6 (strict, inet_parse:ipv6strict_address)

function hexDigit(c: string | undefined): number {
  if (c === undefined) return bad();
  const code = c.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return bad();
}

function strictOctet(chars: string): number {
  if (!/^(?:[0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])$/.test(chars)) bad();
  return Number(chars);
}

/** ipv4s_c2: "B.C.D" after the first octet (1–3 strict decimal characters each). */
function ipv4SuffixWords(first: number, rest: string): [number, number] {
  const parts = rest.split('.');
  if (parts.length !== 3) bad();
  const [b, c, d] = parts.map((p) => (p.length >= 1 && p.length <= 3 ? strictOctet(p) : bad()));
  return [(first << 8) | b!, (c! << 8) | d!];
}

function fillZeros(n: number, after: number[], before: number[], compressed: boolean): number[] {
  if (!compressed) {
    if (n === 8) return after;
    return bad();
  }
  if (n === 8) return [...before, ...after];
  return [...before, ...new Array<number>(8 - n).fill(0), ...after];
}

function parseIpv6Strict(text: string): number[] {
  if (text === '') bad();
  if (text === '::') return new Array<number>(8).fill(0);
  // `ar` holds the words of the current run, `br` the run before `::` (both in order here).
  let ar: number[] = [];
  let br: number[] = [];
  let compressed = false;
  let n = 0;
  let rest = text.startsWith(':') ? text.slice(1) : text;

  const scope = (scopeText: string, wordsAr: number[], wordsBr: number[], comp: boolean, count: number, x: number): number[] => {
    if (scopeText === '') bad();
    if (!/^[0-9]/.test(scopeText)) return fillZeros(count + 1, [...wordsAr, x], wordsBr, comp);
    const withX = [...wordsAr, x];
    let id = 0;
    for (let i = 0; i < scopeText.length; i++) {
      const ch = scopeText[i]!;
      if (ch < '0' || ch > '9') return fillZeros(count + 1, withX, wordsBr, comp); // non-numeric zone: ignored
      id = id * 10 + Number(ch);
      if (id > 0xffff) bad();
    }
    const words = fillZeros(count + 1, withX, wordsBr, comp);
    if ((words[0] === 0xfe80 || words[0] === 0xff02) && words[1] === 0) return [words[0]!, id, ...words.slice(2)];
    return bad();
  };

  for (;;) {
    if (n >= 8) bad();
    if (rest.startsWith(':')) {
      if (compressed) bad();
      compressed = true;
      const after = rest.slice(1);
      if (after === '') return fillZeros(n, [], ar, true);
      if (after.startsWith('%')) return scope(after.slice(1), [], ar, true, n, 0);
      br = [...ar, 0];
      ar = [];
      n += 1;
      rest = after;
      continue;
    }
    if (rest.startsWith('%') || rest.startsWith('.')) bad();
    // a field of 1–4 characters ends the text or is followed by ':', '%' or (1–3 chars) '.'
    let len = 0;
    while (len < rest.length && len < 5 && rest[len] !== ':' && rest[len] !== '%' && rest[len] !== '.') len++;
    if (len === 0 || len > 4) bad();
    const field = rest.slice(0, len);
    const sep = rest[len];
    if (sep === '.') {
      if (len > 3) bad();
      if (n > 6) bad();
      const tail = rest.slice(len + 1);
      const pct = tail.indexOf('%');
      const first = strictOctet(field);
      if (pct < 0) {
        const [x6, x7] = ipv4SuffixWords(first, tail);
        return fillZeros(n + 2, [...ar, x6, x7], br, compressed);
      }
      const [x6, x7] = ipv4SuffixWords(first, tail.slice(0, pct));
      return scope(tail.slice(pct + 1), [...ar, x6], br, compressed, n + 1, x7);
    }
    let x = 0;
    for (const ch of field) x = (x << 4) | hexDigit(ch);
    if (sep === undefined) return fillZeros(n + 1, [...ar, x], br, compressed);
    if (sep === '%') return scope(rest.slice(len + 1), ar, br, compressed, n, x);
    // ':' separator: the next field must exist
    const next = rest.slice(len + 1);
    if (next === '') bad();
    ar = [...ar, x];
    n += 1;
    rest = next;
  }
}

function wordsToBigint(words: number[]): bigint {
  let v = 0n;
  for (const w of words) v = (v << 16n) | BigInt(w);
  return v;
}

/** `:inet.parse_address/1`: lenient IPv4 first, then strict IPv6; null when neither parses. */
export function parseAddress(text: string): Ip | null {
  try {
    return {family: 4, value: BigInt(parseIpv4Lenient(text))};
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
  }
  try {
    return {family: 6, value: wordsToBigint(parseIpv6Strict(text))};
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    return null;
  }
}

// ---------------------------------------------------------------- ntoa

function digToDec(x: number): string {
  return `${(x >> 8) & 0xff}.${x & 0xff}`;
}

/** Longest run (≥ 2, first wins on ties) of zero words replaced by "::", lowercase hex. */
function ntoa6(words: number[]): string {
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i >= 2 && j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (ws: number[]): string => ws.map((w) => w.toString(16)).join(':');
  if (bestStart < 0) return hex(words);
  return `${hex(words.slice(0, bestStart))}::${hex(words.slice(bestStart + bestLen))}`;
}

/** `:inet.ntoa/1`. */
export function formatIp(ip: Ip): string {
  if (ip.family === 4) {
    const v = Number(ip.value);
    return `${Math.floor(v / 0x1000000) & 0xff}.${(v >>> 16) & 0xff}.${(v >>> 8) & 0xff}.${v & 0xff}`;
  }
  const words: number[] = [];
  for (let i = 7; i >= 0; i--) words.push(Number((ip.value >> BigInt(i * 16)) & 0xffffn));
  const [a, b, c, d, e, f, g, h] = words as [number, number, number, number, number, number, number, number];
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0) {
    if (f === 0 && g === 0 && h === 0) return '::';
    if (f === 0 && g === 0 && h === 1) return '::1';
    if (f === 0) return `::${digToDec(g)}.${digToDec(h)}`;
    if (f === 0xffff) return `::ffff:${digToDec(g)}.${digToDec(h)}`;
  }
  if ((a === 0xfe80 || a === 0xff02) && b !== 0) return `${ntoa6([a, 0, c, d, e, f, g, h])}%${b}`;
  return ntoa6(words);
}

// ---------------------------------------------------------------- Elixir Integer.parse

export {integerParse};

// ---------------------------------------------------------------- INET / CIDR / IPPort casts

/** FzHttp.Types.INET.cast/1 on a string: trimmed, `address[/netmask]`, netmask an exact integer (any sign or size). */
export function castInet(raw: string): Inet | null {
  const text = raw.trim();
  const slash = text.indexOf('/');
  const addressText = slash < 0 ? text : text.slice(0, slash);
  const ip = parseAddress(addressText);
  if (!ip) return null;
  if (slash < 0) return {ip, netmask: null};
  const parsed = integerParse(text.slice(slash + 1));
  if (!parsed || parsed.rest !== '') return null;
  return {ip, netmask: parsed.value};
}

export function formatInet(inet: Inet): string {
  return inet.netmask === null ? formatIp(inet.ip) : `${formatIp(inet.ip)}/${inet.netmask}`;
}

/** Whether Postgres would store this netmask (otherwise the write fails: an empty 500 in 0.7.36). */
export function inetStorable(inet: Inet): boolean {
  return inet.netmask === null || (Number.isInteger(inet.netmask) && inet.netmask >= 0 && inet.netmask <= bitsOf(inet.ip.family));
}

/** The value as a later read returns it: Postgrex 0.16 decodes a full-length netmask as nil. */
export function readForm(inet: Inet): Inet {
  return inet.netmask === bitsOf(inet.ip.family) ? {ip: inet.ip, netmask: null} : inet;
}

function sameIp(a: Ip, b: Ip): boolean {
  return a.family === b.family && a.value === b.value;
}

export function sameInet(a: Inet, b: Inet): boolean {
  return sameIp(a.ip, b.ip) && a.netmask === b.netmask;
}

function maskOf(family: Family, prefix: number): bigint {
  const bits = BigInt(bitsOf(family));
  const p = BigInt(Math.max(0, Math.min(prefix, bitsOf(family))));
  return ((1n << bits) - 1n) ^ ((1n << (bits - p)) - 1n);
}

/** Postgres `inet && inet`: same family and one network contains the other. */
export function inetOverlaps(a: Inet, b: Inet): boolean {
  if (a.ip.family !== b.ip.family) return false;
  const bits = bitsOf(a.ip.family);
  const prefix = Math.min(a.netmask ?? bits, b.netmask ?? bits);
  const mask = maskOf(a.ip.family, prefix);
  return (a.ip.value & mask) === (b.ip.value & mask);
}

export function parseCidr(text: string): Cidr | null {
  const inet = castInet(text);
  if (!inet) return null;
  const prefix = inet.netmask ?? bitsOf(inet.ip.family);
  if (prefix < 0 || prefix > bitsOf(inet.ip.family)) return null;
  return {ip: inet.ip, prefix};
}

export function formatCidr(cidr: Cidr): string {
  return `${formatIp(cidr.ip)}/${cidr.prefix}`;
}

export class FamilyMismatch extends Error {}

/** FzHttp.Types.CIDR.contains?/2; a family mismatch is a MatchError upstream (thrown here). */
export function cidrContains(cidr: Cidr, ip: Ip): boolean {
  if (cidr.ip.family !== ip.family) throw new FamilyMismatch(`${formatIp(ip)} vs ${formatCidr(cidr)}`);
  const mask = maskOf(ip.family, cidr.prefix);
  return (cidr.ip.value & mask) === (ip.value & mask);
}

interface IpPort {
  readonly ip: Ip;
  readonly port: number | null;
}

/** FzHttp.Types.IPPort.cast/1: `a.b.c.d[:port]`, `[v6][:port]` or a bare IPv6 address. */
export function castIpPort(raw: string): IpPort | null {
  const parts = splitIpPort(raw.trim());
  if (!parts) return null;
  const ip = parseAddress(parts.address);
  if (!ip) return null;
  const port = ipPortNumber(parts.port);
  if (port === undefined) return null;
  return {ip, port};
}

export function formatIpPort(value: IpPort): string {
  const address = formatIp(value.ip);
  if (value.port === null) return address;
  return value.ip.family === 6 ? `[${address}]:${value.port}` : `${address}:${value.port}`;
}
