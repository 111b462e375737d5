// The device list's decoder: a body cut into items as it arrives (listcache.ts, ItemCutter), each
// item's bytes digested, and a column table built (device-columns.ts). An item whose id and
// digest (and length) match the last table's is copied from it, neither parsed nor validated
// again; the others are parsed, checked by the fast guard, or salvaged through zod at the end.
//
// The digest replaces the last body's bytes, which the byte-for-byte comparison kept alive
// (~43 MB at 50k devices) until the next poll: a chunk is let go as soon as its items are cut.
// Two 32-bit lanes over the item's bytes read 8 at a time, at offsets from the item's start (so
// the same bytes give the same digest wherever the chunks were cut), seeded with the length. It
// is a change detector, not a defence: a server that wants to show something false can simply
// send it. (docs/performance-poll.md, "The compact device store".)
import {DeviceColumns, DeviceColumnsBuilder, packTimeBytes, type DevicePools, type DeviceStats, type ItemDigest} from './device-columns.js';
import {findItemId, idSpan, ItemCutter, NEEDS_SCHEMA, parseItem, sameLatin1} from './listcache.js';
import type {Device} from './schemas.js';
import {ISO_TIMESTAMP} from './timestamps.js';
import {salvage, type SchemaIssue} from './validate.js';
import type {z} from 'zod';

type ObjectSchema = z.ZodObject<z.ZodRawShape>;

let laneB = 0;

/** Lane a of the digest of `buf[start, end)` (lane b is left in `laneB`). `view` is a DataView of `buf`. */
export function digestItem(view: DataView, buf: Buffer, start: number, end: number): number {
  let a = 0x9747b28c ^ (end - start);
  let b = 0x85ebca6b ^ (end - start);
  let i = start;
  for (const last = end - 8; i <= last; i += 8) {
    const w = view.getInt32(i, true);
    const x = view.getInt32(i + 4, true);
    a = Math.imul(a ^ w, 0x5bd1e995) ^ x;
    b = (Math.imul(b ^ x, 0x27d4eb2d) + w) | 0;
  }
  for (; i < end; i++) {
    a = Math.imul(a ^ buf[i]!, 0x01000193);
    b = Math.imul(b + buf[i]!, 0x5bd1e995);
  }
  // A final mix, so that the last bytes reach every bit.
  a = Math.imul(a ^ (a >>> 15), 0x85ebca6b);
  b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  laneB = b ^ (b >>> 16);
  return a ^ (a >>> 16);
}

// ---- stats only ---------------------------------------------------------------------------------
//
// Between two polls most changed devices changed only their stats: 0.7.36 writes rx/tx, the
// handshake, the remote address and `updated_at` together about once a minute per device. Such an
// item is not parsed: its bytes without those five values are digested (the "static" digest) and
// compared with the last poll's, and when they match only the five values are read, each by a
// strict grammar (null, an integer, or a string without escapes, quotes, controls or non-ASCII
// bytes; a time as the schema wants it). Replacing scalar tokens by scalar tokens keeps the last
// poll's valid item valid, and every byte around them is the same, so the keys found are the
// item's own (a `"key":` inside a string would need an unescaped quote). Only items that had
// exactly the schema's keys (`plain`) take this path; anything unexpected parses the item whole.

const STATS_KEYS = ['latest_handshake', 'remote_ip', 'rx_bytes', 'tx_bytes', 'updated_at'] as const;
const STATS_NEEDLES = STATS_KEYS.map((k) => Buffer.from(`"${k}":`, 'latin1'));
const SCHEMA_KEY_COUNT = 25;

type Stat = string | number | null;

// The readers below allocate nothing per item but the strings they read (per-item result objects,
// span lists and their sort were megabytes of garbage a poll at 50k devices): a reader returns the
// value, or FAIL, and leaves where it ended in `tokenEnd`.
const FAIL = undefined;
let tokenEnd = 0;

/**
 * The value token at `at` (null, an integer, or a plain string), or FAIL; where it ends goes to
 * `tokenEnd`. A string with the same bytes as `reuse` is `reuse` itself (a remote address seldom
 * changes).
 */
function scalarAt(buf: Buffer, at: number, end: number, reuse: string | null = null): Stat | typeof FAIL {
  const c = buf[at];
  let j = at;
  let value: Stat;
  if (c === 0x6e) {
    if (buf[at + 1] !== 0x75 || buf[at + 2] !== 0x6c || buf[at + 3] !== 0x6c) return FAIL;
    j = at + 4;
    value = null;
  } else if (c === 0x22) {
    j = at + 1;
    for (; j < end; j++) {
      const d = buf[j]!;
      if (d === 0x22) break;
      if (d === 0x5c || d < 0x20 || d >= 0x7f) return FAIL;
    }
    if (j >= end) return FAIL;
    value = reuse !== null && sameLatin1(reuse, buf, at + 1, j) ? reuse : buf.toString('latin1', at + 1, j);
    j++;
  } else {
    if (c === 0x2d) j++;
    const first = j;
    // The digits summed as they are read (no string made). Every partial sum of a safe integer is
    // below it, so exact; a value past 2^53 rounds to 2^53 or more, which the check below refuses.
    let n = 0;
    while (j < end && buf[j]! >= 0x30 && buf[j]! <= 0x39) n = n * 10 + (buf[j++]! - 0x30);
    // JSON has no leading zeros: "01" is not an integer a full parse would accept.
    if (j === first || j - first > 16 || (buf[first] === 0x30 && j - first > 1)) return FAIL;
    value = c === 0x2d ? -n : n;
    if (!Number.isSafeInteger(value)) return FAIL;
  }
  const next = buf[j];
  if (next !== 0x2c && next !== 0x7d) return FAIL;
  tokenEnd = j;
  return value;
}

const isTime = (v: Stat): v is string => typeof v === 'string' && ISO_TIMESTAMP.test(v);

/**
 * A time value at `at`: packed straight from the bytes when it is 0.7.36's form (a quote, 27
 * characters, a quote), else as scalarAt reads it (then checked against the schema's form).
 */
function timeAt(buf: Buffer, at: number, end: number): Stat | typeof FAIL {
  if (buf[at] === 0x22 && at + 28 < end && buf[at + 28] === 0x22) {
    const us = packTimeBytes(buf, at + 1, at + 28);
    const next = buf[at + 29];
    if (us === us && (next === 0x2c || next === 0x7d)) {
      tokenEnd = at + 29;
      return us;
    }
  }
  const v = scalarAt(buf, at, end);
  return v === FAIL || v === null || isTime(v) ? v : FAIL;
}

/**
 * Where each key was found last, from the place it was looked for from (the end of the value
 * before it, or the item's start): the bytes between are the same in most items (tx_bytes comes
 * after the server's public key, 44 characters in every device), so each key is looked for there
 * first, with the bytes compared here — a native search or compare costs more to call than that.
 */
const keyDelta = new Int32Array(STATS_KEYS.length).fill(-1);

/** Whether `needle` is at `p` in `buf` (inside `[start, end)`). */
function needleAt(buf: Buffer, needle: Buffer, p: number, end: number): boolean {
  if (p + needle.length >= end) return false;
  for (let j = 0; j < needle.length; j++) if (buf[p + j] !== needle[j]) return false;
  return true;
}

/**
 * Where key `k`'s needle starts in the item, or -1. 0.7.36 writes the keys in one order, so each
 * is looked for first where it was in the last item read, then right after the last key's value,
 * then further on, and only then from the item's start: each key occurs once in an item that had
 * exactly the schema's keys (a `"key":` after a comma or a brace cannot lie inside a string,
 * whose quotes are escaped), so every way finds the same place.
 */
function findKey(buf: Buffer, k: number, from: number, start: number, end: number): number {
  const needle = STATS_NEEDLES[k]!;
  const delta = keyDelta[k]!;
  if (delta >= 0 && needleAt(buf, needle, from + delta, end)) return from + delta;
  let p = -1;
  if (from > start && buf[from] === 0x2c && needleAt(buf, needle, from + 1, end)) p = from + 1;
  else {
    if (from > start) p = buf.indexOf(needle, from);
    if (p < 0 || p + needle.length >= end) p = buf.indexOf(needle, start);
    if (p < 0 || p + needle.length >= end) return -1;
  }
  keyDelta[k] = p >= from ? p - from : -1;
  return p;
}

// The five values' spans, as [from, to) pairs in key order, and the order of the spans in the item.
const spanFrom = new Int32Array(STATS_KEYS.length);
const spanTo = new Int32Array(STATS_KEYS.length);
const spanOrder = new Int32Array(STATS_KEYS.length);
const statValues: Stat[] = [null, null, null, null, null];
/** What readStats read: one object, filled again for each item (the caller copies it out at once). */
const readStatsOut: DeviceStats = {latest_handshake: null, remote_ip: null, rx_bytes: null, tx_bytes: null, updated_at: ''};

/**
 * The item's five stats values and its static digest (into `out`), or null when they are not all
 * there in the strict grammar (the item is then parsed whole). `lastRemote`: the slot's remote
 * address in the last table, reused when the bytes are the same. The object returned is reused
 * by the next call.
 */
function readStats(view: DataView, buf: Buffer, start: number, end: number, out: ItemDigest, lastRemote: string | null, firstFrom: number): DeviceStats | null {
  let from = firstFrom;
  for (let k = 0; k < STATS_NEEDLES.length; k++) {
    const needle = STATS_NEEDLES[k]!;
    const p = findKey(buf, k, from, start, end);
    if (p < 0) return null;
    const before = buf[p - 1];
    if (p === start || (before !== 0x2c && before !== 0x7b)) return null;
    const at = p + needle.length;
    const v = k === 0 || k === 4 ? timeAt(buf, at, end) : scalarAt(buf, at, end, k === 1 ? lastRemote : null);
    if (v === FAIL) return null;
    statValues[k] = v;
    spanFrom[k] = at;
    spanTo[k] = tokenEnd;
    from = tokenEnd;
  }
  // Read by index: a destructuring pattern may make an iterator.
  const handshake = statValues[0]!;
  const remote = statValues[1]!;
  const rx = statValues[2]!;
  const tx = statValues[3]!;
  const updated = statValues[4]!;
  if (remote !== null && typeof remote !== 'string') return null;
  if ((rx !== null && typeof rx !== 'number') || (tx !== null && typeof tx !== 'number') || updated === null) return null;
  // The spans in the order they come in the item (an insertion sort of five: usually key order).
  for (let k = 0; k < STATS_KEYS.length; k++) {
    let m = k;
    while (m > 0 && spanFrom[spanOrder[m - 1]!]! > spanFrom[k]!) {
      spanOrder[m] = spanOrder[m - 1]!;
      m--;
    }
    spanOrder[m] = k;
  }
  // The bytes around the values, segment by segment (each digest is seeded with its length, and
  // the order of the keys counts; not their offsets, which move when a value's length does).
  let sa = 0x27d4eb2d;
  let sb = 0x165667b1;
  let at = start;
  for (let m = 0; m < STATS_KEYS.length; m++) {
    const k = spanOrder[m]!;
    if (spanFrom[k]! < at) return null;
    sa = Math.imul(sa ^ digestItem(view, buf, at, spanFrom[k]!), 0x5bd1e995) ^ k;
    sb = Math.imul(sb ^ laneB, 0x27d4eb2d) + k;
    at = spanTo[k]!;
  }
  sa = Math.imul(sa ^ digestItem(view, buf, at, end), 0x5bd1e995);
  sb = Math.imul(sb ^ laneB, 0x27d4eb2d);
  out.sa = sa ^ (sa >>> 15);
  out.sb = sb ^ (sb >>> 13);
  const stats = readStatsOut;
  stats.latest_handshake = handshake as string | number | null;
  stats.remote_ip = remote as string | null;
  stats.rx_bytes = rx as number | null;
  stats.tx_bytes = tx as number | null;
  stats.updated_at = updated as string | number;
  return stats;
}

/**
 * No stats key occurs again in the item after the place readStats read it. A full parse takes the
 * last of a key written twice, and the stats path reads the one it finds first after the last
 * value; one written before it is part of the bytes around the values, which the static digest
 * covers. A key is also the same key to a parse with spaces before its colon or with an escape in
 * its name: any backslash after the first value refuses the item (0.7.36 writes none there but in
 * a device name with a quote or a backslash, whose changes are then parsed). The values in the
 * grammar hold no quote, so no key can start inside one: what is checked here holds for every
 * later item with the same bytes around its values. One pass over the bytes after the first
 * value, in JavaScript: a native search per key would go on into the next item, a cost paid for
 * every item.
 */
function statsKeysLast(buf: Buffer, end: number): boolean {
  // Stryker disable next-line EqualityOperator: the byte at `end` is the comma before the next item (or past the body)
  for (let i = spanTo[spanOrder[0]!]!; i < end; i++) {
    const b = buf[i];
    if (b === 0x5c) return false;
    // Stryker disable next-line ConditionalExpression: a filter; the name and the colon compared below decide
    if (b !== 0x22) continue;
    // The five keys by their first letters: l, r (e or x), t, u.
    const c = buf[i + 1];
    // Stryker disable next-line ConditionalExpression,UnaryOperator: another letter compared with a key's name misses
    const k = c === 0x6c ? 0 : c === 0x72 ? (buf[i + 2] === 0x65 ? 1 : 2) : c === 0x74 ? 3 : c === 0x75 ? 4 : -1;
    // Stryker disable next-line EqualityOperator: the byte at spanTo[k] ends the value: a comma or a brace
    if (k < 0 || i < spanTo[k]!) continue;
    // The needle without its colon: the key's name and closing quote, then JSON whitespace, then
    // the colon. Nothing here runs past the item, which ends with `}` (and whitespace).
    const needle = STATS_NEEDLES[k]!;
    let j = 1;
    while (j < needle.length - 1 && buf[i + j] === needle[j]) j++;
    if (j < needle.length - 1) continue;
    let colon = i + j;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: past the item only `,{"` or `]}` can follow
    while (colon < end && isJsonSpace(buf[colon]!)) colon++;
    if (buf[colon] === 0x3a) return false;
  }
  return true;
}

const isJsonSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

export interface DecodedDevices {
  data: DeviceColumns;
  issues: SchemaIssue[];
}

export class DeviceDecoder extends ItemCutter {
  /** An item is kept as columns and a digest; its bytes are read and let go. */
  readonly keepsChunks = false;
  private readonly builder: DeviceColumnsBuilder;
  private readonly issues: SchemaIssue[] = [];
  /** Items the guard rejected, to salvage at the end: how many slots come before each, its index in the body. */
  private readonly rejected: {at: number; index: number; raw: unknown}[] = [];
  /** The last table's slots taken by an item of this body, and the ids of the others seen: an id listed twice gets a slot per listing. */
  private readonly used: Uint8Array;
  private readonly seenNew = new Set<string>();
  private view: DataView | null = null;
  private viewOf: Buffer | null = null;
  private result: DeviceColumns | null = null;
  private readonly digest: ItemDigest = {a: 0, b: 0, sa: 0, sb: 0, plain: false};
  /** Each item's length by place in the body, for the next decode (DeviceColumns.itemLengths). */
  private lengths: Int32Array;
  private readonly lastLengths: Int32Array | null;

  constructor(
    private readonly previous: DeviceColumns,
    private readonly pools: DevicePools,
    private readonly accept: (item: unknown) => item is Device,
    private readonly schema: () => ObjectSchema | null,
  ) {
    super();
    this.builder = new DeviceColumnsBuilder(pools, previous.length + 64, previous);
    this.used = new Uint8Array(previous.length);
    this.lastLengths = previous.itemLengths;
    this.lengths = new Int32Array(previous.length + 64);
  }

  protected override lengthHint(index: number): number {
    const last = this.lastLengths;
    return last !== null && index < last.length ? last[index]! : 0;
  }

  protected item(buf: Buffer, start: number, end: number): boolean {
    const index = this.index++;
    if (index === this.lengths.length) {
      const grown = new Int32Array(2 * index + 64);
      grown.set(this.lengths);
      this.lengths = grown;
    }
    this.lengths[index] = end - start;
    if (this.viewOf !== buf) {
      this.view = new DataView(buf.buffer, buf.byteOffset, buf.length);
      this.viewOf = buf;
    }
    const view = this.view!;
    // One digest object per decoder, filled again for each item (the builder copies it out).
    const digest = this.digest;
    digest.a = digestItem(view, buf, start, end);
    digest.b = laneB;
    digest.sa = 0;
    digest.sb = 0;
    digest.plain = false;
    const prev = this.previous;
    const at = this.builder.length;
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,BlockStatement: a shortcut; the id lookup below finds the same slot and copies it the same way
    if (at < prev.length && this.used[at] === 0 && prev.hashed[at] !== 0 && prev.digest[4 * at] === digest.a && prev.digest[4 * at + 1] === digest.b) {
      // The bytes of the last table's item at this place: that device (its id is in those bytes),
      // unchanged. Most items of a poll end here, without their id being looked for.
      this.used[at] = 1;
      this.builder.copy(prev, at);
      return true;
    }
    let slot = -1;
    // A second item with the same id in one body is parsed: each listing has its own slot.
    let repeat = false;
    const hasId = findItemId(buf, start, end);
    if (hasId) {
      // Servers list devices in a stable order: the same place in the last table first (its id
      // compared with the bytes, no string made), the index after.
      const here = at < prev.length ? prev.id[at]! : null;
      if (here !== null && sameLatin1(here, buf, idSpan.from, idSpan.to)) {
        slot = at;
      } else {
        const id = buf.toString('latin1', idSpan.from, idSpan.to);
        slot = prev.slotOf(id);
        if (slot < 0) {
          repeat = this.seenNew.has(id);
          this.seenNew.add(id);
        }
      }
      if (slot >= 0) {
        if (this.used[slot] === 1) {
          repeat = true;
          slot = -1;
        } else {
          this.used[slot] = 1;
        }
      }
      const d = prev.digest;
      if (slot >= 0 && prev.hashed[slot] !== 0 && d[4 * slot] === digest.a && d[4 * slot + 1] === digest.b) {
        this.builder.copy(prev, slot);
        return true;
      }
    }
    // Only for a device the last table has: a new one (every device of the first poll) is parsed
    // anyway, and gets its static digest the first time it changes (start-up pays nothing for it).
    // The first stats key is looked for from the id on (0.7.36 writes the keys by name: latest_handshake comes after id).
    const stats = slot >= 0 ? readStats(view, buf, start, end, digest, prev.remoteIp[slot]!, idSpan.to) : null;
    if (stats !== null && slot >= 0 && prev.hashed[slot] === 3 && prev.digest[4 * slot + 2] === digest.sa && prev.digest[4 * slot + 3] === digest.sb) {
      digest.plain = true;
      this.builder.copyWithStats(prev, slot, stats, digest);
      return true;
    }
    const raw = parseItem(buf, start, end);
    if (raw === null) return false;
    if (this.accept(raw)) {
      digest.plain = stats !== null && Object.keys(raw).length === SCHEMA_KEY_COUNT && statsKeysLast(buf, end);
      this.builder.add(raw, hasId && !repeat ? digest : null, slot >= 0 ? {from: prev, slot} : undefined);
      return true;
    }
    this.rejected.push({at: this.builder.length, index, raw});
    return true;
  }

  /** As ListDecoder.finish: the table, null (parse the body whole), or NEEDS_SCHEMA (load zod, call again). */
  finish(): DecodedDevices | null | typeof NEEDS_SCHEMA {
    if (this.result !== null) return {data: this.result, issues: this.issues};
    if (!this.ended && !this.endBody()) return null;
    let table = this.builder.finish();
    if (this.rejected.length > 0) {
      const schema = this.schema();
      if (!schema) return NEEDS_SCHEMA;
      // Rare: salvaged items (no digest: validated again next time) go between the others.
      const merged = new DeviceColumnsBuilder(this.pools, table.length + this.rejected.length);
      let next = 0;
      for (const {at, index, raw} of this.rejected) {
        for (; next < at; next++) merged.copy(table, next);
        const value = salvage(schema, raw, `data[${index}]`, this.issues) as Device | undefined;
        if (value !== undefined) merged.add(value, null);
      }
      for (; next < table.length; next++) merged.copy(table, next);
      // Copied slots keep their digests; a salvaged one has none.
      table = merged.finish();
    }
    table.itemLengths = this.lengths.subarray(0, this.index);
    this.result = table;
    return {data: table, issues: this.issues};
  }
}

export {DeviceColumns};
