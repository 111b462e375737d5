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
// send it. (docs/architecture.md, "The compact device store".)
import {DeviceColumns, DeviceColumnsBuilder, type DevicePools} from './device-columns.js';
import {ItemCutter, itemId, NEEDS_SCHEMA} from './listcache.js';
import type {Device} from './schemas.js';
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

export interface DecodedDevices {
  data: DeviceColumns;
  issues: SchemaIssue[];
}

export class DeviceDecoder extends ItemCutter {
  private readonly builder: DeviceColumnsBuilder;
  private readonly issues: SchemaIssue[] = [];
  /** Items the guard rejected, to salvage at the end: how many slots come before each, its index in the body. */
  private readonly rejected: {at: number; index: number; raw: unknown}[] = [];
  private readonly seen = new Set<string>();
  private view: DataView | null = null;
  private viewOf: Buffer | null = null;
  private result: DeviceColumns | null = null;
  private readonly digest: [number, number] = [0, 0];

  constructor(
    private readonly previous: DeviceColumns,
    private readonly pools: DevicePools,
    private readonly accept: (item: unknown) => item is Device,
    private readonly schema: () => ObjectSchema | null,
  ) {
    super();
    this.builder = new DeviceColumnsBuilder(pools, previous.length + 64);
  }

  protected item(buf: Buffer, start: number, end: number): boolean {
    const index = this.index++;
    const id = itemId(buf, start, end);
    if (this.viewOf !== buf) {
      this.view = new DataView(buf.buffer, buf.byteOffset, buf.length);
      this.viewOf = buf;
    }
    const a = digestItem(this.view!, buf, start, end);
    const b = laneB;
    // A second item with the same id in one body is parsed: each listing has its own slot.
    const repeat = id !== null && this.seen.has(id);
    let slot = -1;
    if (id !== null && !repeat) {
      this.seen.add(id);
      const prev = this.previous;
      slot = prev.slotOf(id);
      if (slot >= 0 && prev.hashed[slot] === 1 && prev.digest[2 * slot] === a && prev.digest[2 * slot + 1] === b) {
        this.builder.copy(prev, slot);
        return true;
      }
    }
    let raw: unknown;
    try {
      raw = JSON.parse(buf.toString('utf8', start, end));
    } catch {
      return false;
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return false;
    if (this.accept(raw)) {
      this.digest[0] = a;
      this.digest[1] = b;
      this.builder.add(raw, id !== null && !repeat ? this.digest : null, slot >= 0 ? {from: this.previous, slot} : undefined);
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
    this.result = table;
    return {data: table, issues: this.issues};
  }
}

export {DeviceColumns};
