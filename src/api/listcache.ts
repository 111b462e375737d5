// Incremental decoding of a list body (`{"data":[{…},{…},…]}`), chunk by chunk as it arrives.
//
// 0.7.x has no pagination, so every poll of a 50k-device server sends the whole list again, ~40 MB,
// most of it unchanged. A JSON.parse of the whole body is one long task on the keyboard's path
// (docs/performance-poll.md, "Decoding the lists as they arrive"), and the objects it makes are all new,
// so every later stage compares every device again. Here the body is cut into items as its chunks
// arrive; an item whose bytes are exactly those of the item with the same id in the previous poll
// gets that poll's (validated) object back, and only new or changed items are parsed and validated.
// The work is spread over the chunks, and unchanged items keep their identity, which
// `buildSnapshot` (src/state/data/snapshot.ts) and the list model (src/state/lists/list-view.ts)
// build on.
//
// Items are cut where `},{"<first key>":` occurs, found by the native Buffer.indexOf: the first
// key is that of the first item (0.7.36 sorts keys, so every item starts with the same one). In
// valid JSON that sequence is always a boundary between sibling objects, since a `"` inside a string
// is escaped and `},{` inside an item could only separate objects of a nested array, whose piece
// before the cut would then leave that array open and fail to parse. A cached piece was a whole
// valid object, so it is never such a piece. Anything else — other top-level keys, whitespace
// between items, malformed JSON, a BOM — makes `finish()` return null, and the caller parses the
// whole body the ordinary way, so errors and salvage stay exactly those of a full parse
// (test/api/listcache.test.ts holds the two paths to the same rows).
//
// An item the fast guard rejects is salvaged with its zod schema when the decode finishes. The
// schema comes from a getter: the client loads zod only when some item needs it (`finish()`
// says so), which lets the first poll be decoded before zod has loaded.
import type {z} from 'zod';
import {salvage, type SchemaIssue} from './validate.js';

type ObjectSchema = z.ZodObject<z.ZodRawShape>;

interface Entry<T> {
  /** Where the item's bytes are: a chunk of the body they came in (kept until the next poll), or a copy for an item cut across chunks. */
  buf: Buffer;
  start: number;
  end: number;
  value: T;
}

export interface DecodedList<T> {
  data: T[];
  issues: SchemaIssue[];
}

/**
 * The items of the last complete decode, by id. Only items the fast guard accepted are kept: a
 * salvaged item is validated again each time (its issue names its position, which may change).
 */
export class ListCache<T> {
  private entries = new Map<string, Entry<T>>();

  constructor(
    /** The item schema, for salvage; null while it has not been loaded. */
    readonly schema: () => ObjectSchema | null,
    readonly accept: (item: unknown) => item is T,
    /** Called on each newly parsed item the guard accepted, before anything else sees it. */
    readonly share?: (item: T) => void,
  ) {}

  /** A decoder for one response. The cache changes only when it finishes with a result. */
  begin(): ListDecoder<T> {
    return new ListDecoder(this);
  }

  /** @internal */
  lookup(id: string): Entry<T> | undefined {
    return this.entries.get(id);
  }

  /** @internal */
  replace(entries: Map<string, Entry<T>>, data: T[]): void {
    this.entries = entries;
    this.lastData = data;
  }

  /** The list the last complete decode gave: given again when every item is the same object in the same place. */
  private lastData: T[] | null = null;

  /** @internal `data`, or the last decode's list when it holds the same objects in the same order. */
  sameAsLast(data: T[]): T[] {
    const last = this.lastData;
    if (last === null || last.length !== data.length) return data;
    for (let k = 0; k < data.length; k++) if (last[k] !== data[k]) return data;
    return last;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** What `finish()` returns when items need salvaging and the schema getter has none yet: load it and call again. */
export const NEEDS_SCHEMA = Symbol('needs the schema');

const PREFIX = Buffer.from('{"data":[', 'latin1');
const ID = Buffer.from('"id":"', 'latin1');
const QUOTE = 0x22;
const MAX_ITEM_BYTES = 1024 * 1024;

/** Whether `sep` is at `at` in `buf`. */
function sepAt(buf: Buffer, sep: Buffer, at: number): boolean {
  if (at + sep.length > buf.length) return false;
  for (let j = 0; j < sep.length; j++) if (buf[at + j] !== sep[j]) return false;
  return true;
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Where the id of the item in `buf[start, end)` lies (its `"id":"…"`): sets `idSpan.from`/`to` and returns true, or false. */
export function findItemId(buf: Buffer, start: number, end: number): boolean {
  const p = buf.indexOf(ID, start);
  if (p >= 0 && p < end) {
    const q = buf.indexOf(QUOTE, p + ID.length);
    if (q >= 0 && q < end) {
      idSpan.from = p + ID.length;
      idSpan.to = q;
      return true;
    }
  }
  return false;
}
export const idSpan = {from: 0, to: 0};

/** The id of the item in `buf[start, end)`, read from its `"id":"…"`, or null. */
export function itemId(buf: Buffer, start: number, end: number): string | null {
  return findItemId(buf, start, end) ? buf.toString('latin1', idSpan.from, idSpan.to) : null;
}

/** The item in `buf[start, end)` parsed, or null when it is not a JSON object (the decoder gives up). */
export function parseItem(buf: Buffer, start: number, end: number): object | null {
  let raw: unknown;
  try {
    raw = JSON.parse(buf.toString('utf8', start, end));
  } catch {
    return null;
  }
  return raw === null || typeof raw !== 'object' || Array.isArray(raw) ? null : raw;
}

/** `text` is the latin1 reading of `buf[from, to)` (no string made to compare). */
export function sameLatin1(text: string, buf: Buffer, from: number, to: number): boolean {
  if (text.length !== to - from) return false;
  for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) !== buf[from + k]) return false;
  return true;
}

/**
 * Cuts a list body into its items as the chunks arrive (see the top of this file); what is done
 * with each item is the subclass's `item()`. ListDecoder below keeps objects by their bytes; the
 * device list's decoder (device-decoder.ts) builds columns.
 */
export abstract class ItemCutter {
  /** Bytes not yet cut into items: the start of the body, or the current item so far. */
  private carry: Buffer = Buffer.alloc(0);
  /** `},{"<first key>":`, once the first item's first key has been read. */
  private separator: Buffer | null = null;
  private started = false;
  private failed = false;
  /** The item's position in the body, counted by `item()`. */
  protected index = 0;
  protected ended = false;

  /** True once the body turned out not to be the plain shape (until finish() ends it). */
  get gaveUp(): boolean {
    return this.failed && !this.ended;
  }

  /** The subclass's `item()` holds on to the bytes it is given (a borrowed chunk must be copied for it). */
  abstract readonly keepsChunks: boolean;

  /**
   * The length of the item at place `index` of the last body, or 0: where this item's end is
   * looked for first, compared here (a native search costs more to call than that). A separator
   * found there that is not the first after `start` gives an item holding a separator: either it
   * is one JSON object (the item a full parse gives: the separator lay inside it, in a nested
   * list), or it does not parse and the decoder gives up (the body is parsed whole); and its
   * bytes equal the last body's item only when they hold no separator, the same cut a search makes.
   */
  protected lengthHint(_index: number): number {
    return 0;
  }

  /** Takes the item in `buf[start, end)`; false when it is not a JSON object (the decoder gives up). */
  protected abstract item(buf: Buffer, start: number, end: number): boolean;

  push(chunk: Buffer): void {
    if (this.failed) return;
    let body = chunk;
    if (!this.started) {
      const rest = this.start(this.carry.length === 0 ? chunk : Buffer.concat([this.carry, chunk]));
      if (rest === null) return;
      this.carry = Buffer.alloc(0);
      body = rest;
    }
    const sep = this.separator!;
    if (sep.length === 0) {
      // After an empty list's `]` only `}` and whitespace may follow: nothing to cut.
      this.carry = Buffer.concat([this.carry, body]);
      if (this.carry.length > 64) this.fail();
      return;
    }
    let start = 0;
    if (this.carry.length > 0) {
      const next = this.cutCarry(sep, body);
      if (next === null) return;
      start = next;
    }
    // Items that lie wholly in this chunk are compared and kept where they are, without a copy.
    // An item's end is looked for first where the last body's item at its place ended.
    for (;;) {
      const hinted = start + this.lengthHint(this.index) - 1;
      const cut = hinted > start && sepAt(body, sep, hinted) ? hinted : body.indexOf(sep, start);
      if (cut < 0) break;
      if (!this.item(body, start, cut + 1)) return this.fail();
      start = cut + 2;
    }
    this.carry = Buffer.from(body.subarray(start));
  }

  /**
   * Reads `{"data":[` and the first item's first key from the start of the body. Returns the bytes
   * from the first item on, or null when more bytes are needed (kept in the carry) or the body is
   * not of the plain shape (the decoder gives up).
   */
  private start(buf: Buffer): Buffer | null {
    let at = 0;
    while (at < buf.length && isWs(buf[at]!)) at++;
    const wait = (): null => {
      if (buf.length > 4096) this.fail();
      else this.carry = Buffer.from(buf);
      return null;
    };
    if (buf.length - at < PREFIX.length + 2) return wait();
    if (!buf.subarray(at, at + PREFIX.length).equals(PREFIX)) {
      this.fail();
      return null;
    }
    at += PREFIX.length;
    if (buf[at] === 0x5d) {
      // An empty list: `]}` and whitespace are checked at the end.
      this.started = true;
      this.separator = Buffer.alloc(0);
      return buf.subarray(at);
    }
    if (buf[at] !== 0x7b || buf[at + 1] !== QUOTE) {
      this.fail();
      return null;
    }
    const keyEnd = buf.indexOf(QUOTE, at + 2);
    if (keyEnd < 0 || keyEnd + 1 >= buf.length) return wait();
    const key = buf.subarray(at + 2, keyEnd);
    if (key.includes(0x5c) || buf[keyEnd + 1] !== 0x3a) {
      this.fail();
      return null;
    }
    this.separator = Buffer.concat([Buffer.from('},{"', 'latin1'), key, Buffer.from('":', 'latin1')]);
    this.started = true;
    return buf.subarray(at);
  }

  /**
   * Cuts the items that begin in the carry (the bytes after the last cut) and end in `chunk` or
   * in the carry itself. Returns where the next item begins in `chunk`, or null when the carry
   * goes on past the chunk (or the decoder gave up).
   */
  private cutCarry(sep: Buffer, chunk: Buffer): number | null {
    for (;;) {
      const carry = this.carry;
      if (carry.length === 0) return 0;
      // The separator lies across the two, or in the chunk: the carry holds none of its own.
      const tail = Math.min(carry.length, sep.length - 1);
      const window = Buffer.concat([carry.subarray(carry.length - tail), chunk.subarray(0, sep.length - 1)]);
      const w = window.indexOf(sep);
      let cut: number;
      if (w >= 0) {
        cut = carry.length - tail + w;
      } else {
        const c = chunk.indexOf(sep);
        if (c < 0) {
          if (carry.length + chunk.length > MAX_ITEM_BYTES) {
            // No item is that long: the items are not cut the way this decoder cuts them
            // (whitespace between them, another first key). Stop before the carry grows to the body.
            this.fail();
            return null;
          }
          this.carry = Buffer.concat([carry, chunk]);
          return null;
        }
        cut = carry.length + c;
      }
      const item = cut < carry.length ? carry.subarray(0, cut + 1) : Buffer.concat([carry, chunk.subarray(0, cut + 1 - carry.length)]);
      if (!this.item(item, 0, item.length)) {
        this.fail();
        return null;
      }
      const next = cut + 2;
      if (next >= carry.length) {
        this.carry = Buffer.alloc(0);
        return next - carry.length;
      }
      this.carry = carry.subarray(next);
    }
  }

  private fail(): void {
    this.failed = true;
    this.carry = Buffer.alloc(0);
  }

  /**
   * Reads the end of the body once all of it has been pushed: the last item and `]}`. False when
   * the body was not the plain shape (parse it whole instead).
   */
  protected endBody(): boolean {
    if (this.failed || !this.started) return false;
    const rest = this.carry;
    let end = rest.length;
    while (end > 0 && isWs(rest[end - 1]!)) end--;
    if (end < 2 || rest[end - 1] !== 0x7d || rest[end - 2] !== 0x5d) return false;
    if (this.separator!.length === 0) {
      if (end !== 2) return false;
    } else if (!this.item(rest, 0, end - 2)) {
      return false;
    }
    this.ended = true;
    this.failed = true;
    return true;
  }
}

export class ListDecoder<T> extends ItemCutter {
  /** Unchanged items are recognised next poll by comparing their bytes with these. */
  readonly keepsChunks = true;
  private readonly data: T[] = [];
  private readonly issues: SchemaIssue[] = [];
  private readonly next = new Map<string, Entry<T>>();
  /** Items the guard rejected, to salvage at the end: where they go in `data`, their index in the body. */
  private readonly rejected: {at: number; index: number; raw: unknown}[] = [];

  constructor(private readonly cache: ListCache<T>) {
    super();
  }

  protected item(buf: Buffer, start: number, end: number): boolean {
    const index = this.index++;
    const id = itemId(buf, start, end);
    // A second item with the same id in one body is parsed and not cached: each listing has its own object.
    const repeat = id !== null && this.next.has(id);
    if (id !== null && !repeat) {
      const hit = this.cache.lookup(id);
      if (hit && hit.end - hit.start === end - start && buf.compare(hit.buf, hit.start, hit.end, start, end) === 0) {
        // Moved to the same bytes in this body, in place (no entry object per item and poll, which
        // the old generation would collect): a decode that fails later leaves it equally valid.
        hit.buf = buf;
        hit.start = start;
        hit.end = end;
        this.next.set(id, hit);
        this.data.push(hit.value);
        return true;
      }
    }
    const raw = parseItem(buf, start, end);
    if (raw === null) return false;
    if (this.cache.accept(raw)) {
      this.cache.share?.(raw);
      this.data.push(raw);
      if (id !== null && !repeat) this.next.set(id, {buf, start, end, value: raw});
      return true;
    }
    this.rejected.push({at: this.data.length, index, raw});
    this.data.push(undefined as T);
    return true;
  }

  /**
   * The decoded list, or null when the body was not the plain shape (parse it whole instead), or
   * NEEDS_SCHEMA when items need salvaging and the cache's schema getter has none: call again
   * once it has.
   */
  finish(): DecodedList<T> | null | typeof NEEDS_SCHEMA {
    if (!this.ended && !this.endBody()) return null;
    let data = this.data;
    if (this.rejected.length > 0) {
      const schema = this.cache.schema();
      if (!schema) return NEEDS_SCHEMA;
      const dropped = new Set<number>();
      for (const {at, index, raw} of this.rejected) {
        const value = salvage(schema, raw, `data[${index}]`, this.issues) as T | undefined;
        if (value === undefined) dropped.add(at);
        else data[at] = value;
      }
      if (dropped.size > 0) data = data.filter((_, at) => !dropped.has(at));
      this.rejected.length = 0;
    }
    // An unchanged list is the same array as last time (snapshot.ts reuses what it derived from it).
    data = this.cache.sameAsLast(data);
    this.cache.replace(this.next, data);
    return {data, issues: this.issues};
  }
}
