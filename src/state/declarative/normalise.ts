// What 0.7.36 normalises, so that a file and the server are compared as the server will store the
// file (docs/server-as-a-file.md, "What is never a change"): the lost /32 and /128
// (docs/firezone-0.7.36.md, "Scalar encodings and the lost /32"), port ranges written
// `"L - U"` (docs/firezone-0.7.36.md, "Rules: fields and port ranges"), emails compared without
// case (docs/firezone-0.7.36.md, "Users: lookup by id or email"), and address and DNS lists
// compared as sets.
import {cidrOverlaps, cidrRange, formatCidr, parseCidr, type Cidr} from '../../common/cidr.js';

/** An email as 0.7.36 compares it: trimmed, case-insensitive (citext). */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/** An address or CIDR as stored and read back: the full-length mask dropped, the address in its usual form, host bits kept. */
export function canonicalCidr(text: string): string {
  const trimmed = text.trim();
  const cidr = parseCidr(trimmed);
  if (!cidr) return trimmed;
  const full = cidr.family === 4 ? 32 : 128;
  const address = formatCidr({family: cidr.family, value: cidr.value, prefix: full});
  return cidr.prefix === full ? address : `${address}/${cidr.prefix}`;
}

/** `"80-443"`, `"80 - 443"`, `"[80,443]"` → `"80 - 443"`; `"80-80"` → `"80"`; unreadable text is kept (the server judges it). */
export function canonicalPortRange(text: string | null | undefined): string | null {
  if (text === null || text === undefined || text.trim() === '') return null;
  const v = text.trim();
  let lower: number;
  let upper: number;
  const bracket = /^([[(])\s*(\d+)\s*,\s*(\d+)\s*([\])])$/.exec(v);
  const plain = /^(\d+)\s*(?:-\s*(\d+))?$/.exec(v);
  if (bracket) {
    lower = Number(bracket[2]) + (bracket[1] === '(' ? 1 : 0);
    upper = Number(bracket[3]) - (bracket[4] === ')' ? 1 : 0);
  } else if (plain) {
    lower = Number(plain[1]);
    upper = plain[2] === undefined ? lower : Number(plain[2]);
  } else return v;
  return lower === upper ? String(lower) : `${lower} - ${upper}`;
}

/** A port range's bounds, or null. */
export function portBounds(text: string | null): {from: number; to: number} | null {
  const canonical = canonicalPortRange(text);
  const m = canonical === null ? null : /^(\d+)(?: - (\d+))?$/.exec(canonical);
  if (!m) return null;
  return {from: Number(m[1]), to: Number(m[2] ?? m[1])};
}

/** An allowed-IPs list as a set: each entry canonical, sorted, null as empty. */
export function cidrSet(list: readonly string[] | null | undefined): string[] {
  return [...new Set((list ?? []).map(canonicalCidr).filter((s) => s !== ''))].sort();
}

/** A DNS list as a set: entries trimmed, sorted, null as empty. */
export function dnsSet(list: readonly string[] | null | undefined): string[] {
  return [...new Set((list ?? []).map((s) => s.trim()).filter((s) => s !== ''))].sort();
}

export const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** A rule's fields as they identify it. */
export interface RuleShape {
  action: 'accept' | 'drop';
  destination: string;
  port_type: 'tcp' | 'udp' | null;
  port_range: string | null;
  /** The user's email as compared (emailKey), or null for a global rule. */
  user: string | null;
}

/** One string per rule: two rules with the same key are the same rule to the server. */
export function ruleKey(r: RuleShape): string {
  const ports = r.port_type === null ? '' : ` ${r.port_type} ${canonicalPortRange(r.port_range) ?? ''}`;
  return `${r.action} ${canonicalCidr(r.destination)}${ports}${r.user === null ? '' : ` for ${r.user}`}`;
}

/** A rule's destination and ports as numbers, made once per shape: the file's rules are compared pairwise. */
const parsedShapes = new WeakMap<RuleShape, {dest: Cidr | null; ports: {from: number; to: number} | null}>();
function parsedShape(r: RuleShape): {dest: Cidr | null; ports: {from: number; to: number} | null} {
  let parsed = parsedShapes.get(r);
  if (!parsed) {
    parsed = {dest: parseCidr(r.destination.trim()), ports: portBounds(r.port_range)};
    parsedShapes.set(r, parsed);
  }
  return parsed;
}

/** Whether 0.7.36's exclusion constraints would refuse both rules at once (docs/firezone-0.7.36.md, "Rules: overlap constraints"). */
export function rulesOverlap(a: RuleShape, b: RuleShape): boolean {
  if (a.action !== b.action || a.user !== b.user || (a.port_type === null) !== (b.port_type === null)) return false;
  const {dest: da, ports: pa} = parsedShape(a);
  const {dest: db, ports: pb} = parsedShape(b);
  if (!da || !db || !cidrOverlaps(da, db)) return false;
  if (a.port_type === null) return true;
  if (a.port_type !== b.port_type) return false;
  return pa !== null && pb !== null && pa.from <= pb.to && pb.from <= pa.to;
}

/**
 * Every pair of `items` whose rules overlap (rulesOverlap), without comparing every pair: 0.7.36's
 * constraints only compare rules of one partition (action, user, with or without ports), and two
 * blocks either nest or do not meet, so a sweep in address order compares each rule only with the
 * blocks still open around it.
 */
export function overlappingPairs<T>(items: readonly T[], shapeOf: (item: T) => RuleShape): Array<[T, T]> {
  const groups = new Map<string, Array<{item: T; first: bigint; last: bigint}>>();
  for (const item of items) {
    const shape = shapeOf(item);
    const {dest} = parsedShape(shape);
    if (!dest) continue;
    const partition = `${shape.action} ${shape.user ?? ''} ${shape.port_type ?? '-'} ${dest.family}`;
    const {first, last} = cidrRange(dest);
    let group = groups.get(partition);
    if (!group) groups.set(partition, (group = []));
    group.push({item, first, last});
  }
  const pairs: Array<[T, T]> = [];
  for (const group of groups.values()) {
    // By first address: a block that holds the next one is still open when it comes (ties need no order: both are open to each other).
    group.sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
    let open: typeof group = [];
    for (const current of group) {
      open = open.filter((o) => o.last >= current.first);
      for (const o of open) if (rulesOverlap(shapeOf(o.item), shapeOf(current.item))) pairs.push([o.item, current.item]);
      open.push(current);
    }
  }
  return pairs;
}
