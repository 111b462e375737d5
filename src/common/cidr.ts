// IP addresses and CIDR blocks as numbers, for questions of containment: which devices sit in
// 10.3.0.0/16 (the `/` filter's `ip:`), which rules cover an address (`dest:`, and the access
// explainer). Exact for both families; the literal checks are the ones of ip-literal.ts, so what
// counts as an address here is what the forms and the client-config validation accept.
import {isIPv4Literal, isIPv6Literal} from './ip-literal.js';

export type IpFamily = 4 | 6;

/** An address or a block. `value` is the address as written: `10.2.3.4/16` keeps its host bits, as Postgres's `inet` (a rule's destination) does. */
export interface Cidr {
  readonly family: IpFamily;
  readonly value: bigint;
  /** 0–32 for IPv4, 0–128 for IPv6; a bare address has the full length. */
  readonly prefix: number;
}

const BITS: Record<IpFamily, number> = {4: 32, 6: 128};

/** A dotted quad's value; the caller has checked the literal. */
function ipv4Value(text: string): bigint {
  let value = 0n;
  for (const part of text.split('.')) value = (value << 8n) | BigInt(Number(part));
  return value;
}

/** An IPv6 literal's value (`::` and an embedded IPv4 allowed); the caller has checked the literal. */
function ipv6Value(text: string): bigint {
  const groups = (part: string): bigint[] => {
    if (part === '') return [];
    const out: bigint[] = [];
    for (const g of part.split(':')) {
      if (g.includes('.')) {
        // An embedded IPv4 (::ffff:10.0.0.1) stands for the last two groups.
        const v4 = ipv4Value(g);
        out.push(v4 >> 16n, v4 & 0xffffn);
      } else {
        out.push(BigInt(`0x${g}`));
      }
    }
    return out;
  };
  const gap = text.indexOf('::');
  const head = groups(gap === -1 ? text : text.slice(0, gap));
  const tail = gap === -1 ? [] : groups(text.slice(gap + 2));
  const all = [...head, ...new Array<bigint>(8 - head.length - tail.length).fill(0n), ...tail];
  let value = 0n;
  for (const g of all) value = (value << 16n) | g;
  return value;
}

/** An IPv4 or IPv6 address, or null. No zone (`%eth0`), no surrounding spaces. */
export function parseAddress(text: string): Cidr | null {
  if (isIPv4Literal(text)) return {family: 4, value: ipv4Value(text), prefix: 32};
  if (isIPv6Literal(text)) return {family: 6, value: ipv6Value(text), prefix: 128};
  return null;
}

/** `address` or `address/prefix` (the prefix decimal, within the family's length), or null. */
export function parseCidr(text: string): Cidr | null {
  const slash = text.indexOf('/');
  if (slash === -1) return parseAddress(text);
  const address = parseAddress(text.slice(0, slash));
  const prefixText = text.slice(slash + 1);
  if (address === null || !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  return prefix <= BITS[address.family] ? {family: address.family, value: address.value, prefix} : null;
}

/** The first and last address of a block (its host bits cleared, then all set). */
export function cidrRange(cidr: Cidr): {first: bigint; last: bigint} {
  const hostBits = BigInt(BITS[cidr.family] - cidr.prefix);
  const first = (cidr.value >> hostBits) << hostBits;
  return {first, last: first + (1n << hostBits) - 1n};
}

/**
 * The first and last address of a block as `ipSortKey` (ip-literal.ts) writes addresses: an IPv4
 * as its number, an IPv6 as 32 lower-case hex digits. A list that keeps those keys per row (the
 * Devices rows do) then tests "is this address in the block" with two comparisons, without
 * parsing 50k addresses into bigints on every keystroke.
 */
export function cidrSortKeyRange(cidr: Cidr): {family: 4; first: number; last: number} | {family: 6; first: string; last: string} {
  const {first, last} = cidrRange(cidr);
  if (cidr.family === 4) return {family: 4, first: Number(first), last: Number(last)};
  return {family: 6, first: first.toString(16).padStart(32, '0'), last: last.toString(16).padStart(32, '0')};
}

/**
 * Whether every address of `inner` (an address or a block) lies in `outer`: same family, a prefix
 * at least as long, the same network bits. An IPv4 is never inside an IPv6 block, the mapped
 * `::ffff:0:0/96` included: WireGuard and nftables keep the families apart too.
 */
export function cidrContains(outer: Cidr, inner: Cidr): boolean {
  if (outer.family !== inner.family || inner.prefix < outer.prefix) return false;
  const hostBits = BigInt(BITS[outer.family] - outer.prefix);
  return outer.value >> hostBits === inner.value >> hostBits;
}

/** Whether two blocks share any address: one of them holds the other (blocks never partly overlap). */
export function cidrOverlaps(a: Cidr, b: Cidr): boolean {
  return cidrContains(a, b) || cidrContains(b, a);
}

/** The block in its usual form: the network address with host bits cleared, IPv6 compressed as RFC 5952 says. */
export function formatCidr(cidr: Cidr): string {
  const {first} = cidrRange(cidr);
  const full = cidr.prefix === BITS[cidr.family];
  return `${formatAddress(cidr.family, first)}${full ? '' : `/${cidr.prefix}`}`;
}

function formatAddress(family: IpFamily, value: bigint): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
  const groups = Array.from({length: 8}, (_, i) => Number((value >> BigInt(16 * (7 - i))) & 0xffffn));
  // RFC 5952: the longest run of two or more zero groups (the first of equal ones) becomes `::`.
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      best = i;
      bestLength = j - i;
    }
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best === -1) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLength).join(':')}`;
}
