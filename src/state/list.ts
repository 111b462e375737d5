// The list-view model behind every table: filter, sort, selection tied to ids, and the scroll
// window. Plain TypeScript, no React, sized for 50,000 items (README.md, "Performance";
// docs/architecture.md, "Performance notes"): a filter keystroke must
// stay well under 50 ms and a cursor move must not touch the whole list.

import {runSliced, runWhole, type SlicedPass} from './slices.js';

export interface ColumnSpec<T> {
  key: string;
  /** Value to sort by; `null` always sorts last whatever the direction. */
  sortValue?: (row: T) => string | number | null;
  /**
   * The sort value reads the row object and nothing else (no clock, no other list): a row object
   * kept from the last poll then keeps its value, and re-sorting after a poll looks only at the
   * rows that changed.
   */
  sortValueFromRowOnly?: boolean;
  /** Text the `/` filter searches; columns without it are not searchable. */
  searchText?: (row: T) => string;
}

export interface SortSpec {
  key: string;
  desc: boolean;
}

interface ListViewOptions<T> {
  getId: (t: T) => string;
  filter: string;
  sort: SortSpec | null;
  columns: readonly ColumnSpec<T>[];
}

export interface ListView<T> {
  /** The filtered, sorted rows. Never mutate. */
  readonly rows: readonly T[];
  /** Position of the row with this id in `rows`, or -1. O(1) after the first call on a view. */
  indexOf(id: string): number;
  /** Id of the row at `index` (0 ≤ index < rows.length). No `T` in the signature on purpose: a
   * `ListView<A> | ListView<B>` union must stay usable where a `ListView<A | B>` is expected. */
  idAt(index: number): string;
}

// ---------------------------------------------------------------------------------------------
// Search haystacks

// A haystack (the lowercase searchText of all columns) is cached per item object: polls replace
// the items array but the caller reuses unchanged item objects (resources.ts deriveDeviceRows),
// so only new or changed items pay for it. One WeakMap per set of searchable column keys,
// because the same object may be listed by views that search different columns. `searchText`
// must therefore depend on the row object only.
const haystackCaches = new Map<string, WeakMap<object, string>>();

// Between the texts of two columns, so that a needle never matches across a column boundary
// (typing "ab" must not find name "…a" followed by owner "b…"). Nobody types a NUL.
const FIELD_SEPARATOR = '\u0000';

function haystackCacheFor(signature: string): WeakMap<object, string> {
  let cache = haystackCaches.get(signature);
  if (!cache) {
    cache = new WeakMap();
    haystackCaches.set(signature, cache);
  }
  return cache;
}

function buildHaystack<T>(item: T, searchers: ReadonlyArray<(row: T) => string>): string {
  let text = '';
  for (let i = 0; i < searchers.length; i++) {
    if (i > 0) text += FIELD_SEPARATOR;
    text += searchers[i]!(item);
  }
  return text.toLowerCase();
}

function searchSignature<T>(columns: readonly ColumnSpec<T>[]): string {
  return columns
    .filter((c) => c.searchText !== undefined)
    .map((c) => c.key)
    .join(FIELD_SEPARATOR);
}

function buildHaystacks<T>(rows: readonly T[], columns: readonly ColumnSpec<T>[], signature: string): string[] {
  const searchers = columns.filter((c) => c.searchText !== undefined).map((c) => c.searchText!);
  const cache = haystackCacheFor(signature);
  const out = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const item = rows[i]!;
    if (typeof item === 'object' && item !== null) {
      let hay = cache.get(item);
      if (hay === undefined) {
        hay = searchers.length === 0 ? '' : buildHaystack(item, searchers);
        cache.set(item, hay);
      }
      out[i] = hay;
    } else {
      out[i] = searchers.length === 0 ? '' : buildHaystack(item, searchers);
    }
  }
  return out;
}

/**
 * Computes and caches the search haystacks of `items` ahead of the first filter keystroke (which
 * otherwise pays ~1–2 µs per item once: ~100 ms at 50k on a slow machine). Optional; call it when
 * the filter opens (`/`) or when idle after a poll. Later polls only pay for new or changed items.
 */
export function warmSearch<T>(items: readonly T[], columns: readonly ColumnSpec<T>[]): void {
  buildHaystacks(items, columns, searchSignature(columns));
}

// ---------------------------------------------------------------------------------------------
// Sorting

// One collator for the process: `localeCompare` and `new Intl.Collator` per call cost far more
// than the comparison itself. Default options: `numeric: true` measured 2.5× slower.
const collator = new Intl.Collator();
// ASCII (NUL aside, which the collator ignores): compared by code unit in the fast string sort below.
// eslint-disable-next-line no-control-regex -- the range is the point
const ASCII = /^[\x01-\x7f]*$/;

type SortKey = string | number | null;

/** Where a value sorts: numbers, then strings, then null (and NaN), in both directions. */
function groupOf(v: SortKey): 0 | 1 | 2 {
  return typeof v === 'number' ? (Number.isNaN(v) ? 2 : 0) : typeof v === 'string' ? 1 : 2;
}

function isNonAscii(v: SortKey): boolean {
  return typeof v === 'string' && !ASCII.test(v);
}

interface Sorted {
  /** Ascending: the row at place k is items[order[k]]. */
  order: Int32Array;
  /** The sort value of each item, by item position. */
  values: SortKey[];
  /** How many string values are not plain ASCII (any one makes the collator decide). */
  nonAscii: number;
}

/**
 * Whether nearly all values differ, judged on a sample: then a radix sort of the rows is
 * cheapest; with repeats, ranking the distinct values once is (a Map of 50k distinct keys costs
 * more than the sort it saves, but 2,000 owner emails on 50k devices, or names from a short list,
 * cost a radix sort a pass per character of every repeated value). In a sample of 1,024 from 50k
 * distinct values about 10 repeat; from 2,000 values repeated 25 times, about 200.
 */
function mostlyDistinct(values: readonly string[]): boolean {
  const sample = Math.min(values.length, 1024);
  const step = values.length / sample;
  const seen = new Set<string>();
  for (let k = 0; k < sample; k++) seen.add(values[Math.floor(k * step)]!);
  return seen.size > sample * 0.9;
}

/** Ranges this small are finished by insertion sort: a counting pass over the buckets costs more. */
const INSERTION_MAX = 24;

/** Above this many bytes the strings are not copied into one block (a hostile 255-character name on 50k rows is 12 MB). */
const MATRIX_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Positions of ASCII strings (no NUL) in code-unit order (descending when `desc`), equal strings
 * in position order: an MSD radix sort. The characters are first copied into one block, a row of
 * `width` bytes per string, zero-padded: 50k strings scattered over a large heap cost a cache
 * miss on every visit, which made sorting them 3–4× slower inside the console than alone. Each
 * range is then split by its byte at `depth` (0, an ended string, below every character) with one
 * stable counting pass, and only ranges that still hold different strings go on to the next
 * byte, so distinct names are placed after 3–4 characters whatever their length. A prefix every
 * string shares (`fd00…` of IPv6 keys) is skipped at once.
 */
export function msdOrder(strs: readonly string[], desc: boolean): Int32Array {
  const n = strs.length;
  let width = 0;
  for (let k = 0; k < n; k++) if (strs[k]!.length > width) width = strs[k]!.length;
  if (n * width > MATRIX_MAX_BYTES) {
    return Int32Array.from(strs.keys()).sort((a, b) => {
      const x = strs[a]!;
      const y = strs[b]!;
      return (x < y ? -1 : x > y ? 1 : 0) * (desc ? -1 : 1) || a - b;
    });
  }
  const bytes = new Uint8Array(n * width);
  for (let k = 0; k < n; k++) {
    const v = strs[k]!;
    const base = k * width;
    for (let p = 0; p < v.length; p++) bytes[base + p] = v.charCodeAt(p);
  }
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  let shared = width;
  for (let k = 1; k < n && shared > 0; k++) {
    const base = k * width;
    let l = 0;
    while (l < shared && bytes[base + l] === bytes[l]) l++;
    shared = l;
  }
  const scratch = new Int32Array(n);
  const count = new Int32Array(128);
  const starts = new Int32Array(128);
  // (lo, hi, depth) triples still to sort.
  const stack: number[] = [0, n, shared];
  while (stack.length > 0) {
    const depth = stack.pop()!;
    const hi = stack.pop()!;
    const lo = stack.pop()!;
    if (depth >= width) continue; // all ended: equal strings, already in position order
    if (hi - lo <= INSERTION_MAX) {
      insertionByBytes(order, lo, hi, bytes, width, depth, desc);
      continue;
    }
    // The counting pass also finds the lowest and highest byte used: the loops below stay within
    // them (hex digits use 16 of 128) and leave `count` zeroed for the next range.
    let cmin = 127;
    let cmax = 0;
    for (let k = lo; k < hi; k++) {
      const c = bytes[order[k]! * width + depth]!;
      count[c]!++;
      if (c < cmin) cmin = c;
      if (c > cmax) cmax = c;
    }
    if (cmin === cmax) {
      // The same byte for the whole range (or all ended: equal strings, already in order): nothing moves.
      count[cmin] = 0;
      if (cmin > 0) stack.push(lo, hi, depth + 1);
      continue;
    }
    // Ended strings sort first ascending and last descending.
    let at = lo;
    if (desc) {
      for (let c = cmax; c >= cmin; c--) {
        starts[c] = at;
        at += count[c]!;
      }
    } else {
      for (let c = cmin; c <= cmax; c++) {
        starts[c] = at;
        at += count[c]!;
      }
    }
    for (let k = lo; k < hi; k++) {
      const i = order[k]!;
      scratch[starts[bytes[i * width + depth]!]!++] = i;
    }
    for (let k = lo; k < hi; k++) order[k] = scratch[k]!;
    for (let c = cmin; c <= cmax; c++) {
      // starts[c] now points past bucket c.
      if (c > 0 && count[c]! > 1) stack.push(starts[c]! - count[c]!, starts[c]!, depth + 1);
      count[c] = 0;
    }
  }
  return order;
}

/**
 * Stable insertion sort of order[lo, hi) by the byte rows from `depth` on (descending when
 * `desc`); ties keep their order.
 */
function insertionByBytes(order: Int32Array, lo: number, hi: number, bytes: Uint8Array, width: number, depth: number, desc: boolean): void {
  for (let k = lo + 1; k < hi; k++) {
    const i = order[k]!;
    let j = k - 1;
    while (j >= lo) {
      const a = i * width;
      const b = order[j]! * width;
      let d = 0;
      for (let p = depth; p < width && d === 0; p++) d = bytes[a + p]! - bytes[b + p]!;
      if (desc ? d <= 0 : d >= 0) break;
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = i;
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Positions of numbers (no NaN) in numeric order (descending when `desc`), equal values in
 * position order: an LSD radix sort over the IEEE 754 bits, one stable counting pass per byte
 * (256 buckets stay in the L1 cache; 65,536 did not). The bits are mapped so that unsigned order
 * is numeric order (negative: all bits flipped; positive: the sign bit set), with -0 taken as +0
 * since (a - b) has them equal. A byte every value shares (the high bytes of timestamps, the low
 * ones of integers) costs its counting pass and no moves.
 */
export function numberRadixOrder(nums: readonly number[], desc: boolean): Int32Array {
  const n = nums.length;
  const floats = new Float64Array(n);
  for (let k = 0; k < n; k++) floats[k] = nums[k] === 0 ? 0 : nums[k]!;
  const words = new Uint32Array(floats.buffer);
  const hiAt = LITTLE_ENDIAN ? 1 : 0;
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    const h = words[2 * k + hiAt]!;
    const l = words[2 * k + 1 - hiAt]!;
    if (h & 0x80000000) {
      hi[k] = ~h >>> 0;
      lo[k] = ~l >>> 0;
    } else {
      hi[k] = (h | 0x80000000) >>> 0;
      lo[k] = l;
    }
  }
  let order = new Int32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  let next = new Int32Array(n);
  const count = new Int32Array(256);
  const starts = new Int32Array(256);
  for (let pass = 0; pass < 8; pass++) {
    const src = pass < 4 ? lo : hi;
    const shift = (pass % 4) * 8;
    count.fill(0);
    for (let k = 0; k < n; k++) count[(src[k]! >>> shift) & 0xff]!++;
    if (count[(src[0]! >>> shift) & 0xff] === n) continue;
    let at = 0;
    if (desc) {
      for (let d = 255; d >= 0; d--) {
        starts[d] = at;
        at += count[d]!;
      }
    } else {
      for (let d = 0; d < 256; d++) {
        starts[d] = at;
        at += count[d]!;
      }
    }
    for (let k = 0; k < n; k++) {
      const i = order[k]!;
      next[starts[(src[i]! >>> shift) & 0xff]!++] = i;
    }
    const done = order;
    order = next;
    next = done;
  }
  return order;
}

/**
 * Positions 0..ranks.length-1 ordered by rank (descending ranks when `desc`), equal ranks in
 * position order: a counting sort, stable in both directions, with no comparator calls.
 */
function byRank(ranks: Int32Array, distinct: number, desc: boolean): Int32Array {
  const starts = new Int32Array(distinct + 1);
  for (let k = 0; k < ranks.length; k++) starts[ranks[k]! + 1]!++;
  if (desc) {
    // Bucket r starts after every bucket above it.
    let at = 0;
    for (let r = distinct - 1; r >= 0; r--) {
      const size = starts[r + 1]!;
      starts[r + 1] = at;
      at += size;
    }
    const out = new Int32Array(ranks.length);
    for (let k = 0; k < ranks.length; k++) out[starts[ranks[k]! + 1]!++] = k;
    return out;
  }
  for (let r = 1; r <= distinct; r++) starts[r]! += starts[r - 1]!;
  const out = new Int32Array(ranks.length);
  for (let k = 0; k < ranks.length; k++) out[starts[ranks[k]!]!++] = k;
  return out;
}

/**
 * Ascending stable sort of positions by their sort values (one per item position): numbers
 * numerically, strings by the collator, numbers before strings if a column mixes them, `null`
 * (and NaN) last; `descending` gives the other direction.
 *
 * String columns with repeated values (owners, names from a word list) rank each distinct value
 * once and place rows by rank (a counting sort), instead of comparing rows pairwise.
 */
function sortValues(values: SortKey[]): Sorted {
  const desc = false;
  const n = values.length;
  // Positions by kind, filled from the front; only the first nn / ns / nz entries are used.
  const numIdx = new Int32Array(n);
  const strIdx = new Int32Array(n);
  const nullIdx = new Int32Array(n);
  const nums: number[] = [];
  const strs: string[] = [];
  let nz = 0;
  let nonAscii = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (typeof v === 'number' && !Number.isNaN(v)) {
      numIdx[nums.length] = i;
      nums.push(v);
    } else if (typeof v === 'string') {
      strIdx[strs.length] = i;
      strs.push(v);
      if (!ASCII.test(v)) nonAscii++;
    } else {
      nullIdx[nz++] = i;
    }
  }

  // Repeats cost a radix sort of numbers nothing extra (a byte all values share is skipped).
  const numOrder = nums.length > 0 ? numberRadixOrder(nums, desc) : new Int32Array(0);

  let strOrder: Int32Array = new Int32Array(0);
  if (strs.length > 0 && nonAscii === 0 && mostlyDistinct(strs)) {
    // Plain ASCII values (names, emails, addresses: nearly all the data) sort by code unit.
    strOrder = msdOrder(strs, desc);
  } else if (strs.length > 0) {
    // Owner emails, states and the like repeat a lot: rank each distinct value once and place
    // the rows by rank, with no comparison per pair of rows. Through the collator too, whose calls
    // are ~10× dearer than a code-unit compare.
    const unique = Array.from(new Set(strs));
    const rankOf = new Map<string, number>();
    if (nonAscii === 0) {
      unique.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      for (let r = 0; r < unique.length; r++) rankOf.set(unique[r]!, r);
    } else {
      // Values the collator finds equal (it ignores some characters) share a rank, so ties keep their order.
      unique.sort(collator.compare);
      let rank = 0;
      for (let r = 0; r < unique.length; r++) {
        if (r > 0 && collator.compare(unique[r - 1]!, unique[r]!) !== 0) rank = r;
        rankOf.set(unique[r]!, rank);
      }
    }
    const ranks = new Int32Array(strs.length);
    for (let k = 0; k < strs.length; k++) ranks[k] = rankOf.get(strs[k]!)!;
    strOrder = byRank(ranks, unique.length, desc);
  }

  const order = new Int32Array(n);
  let o = 0;
  for (let k = 0; k < numOrder.length; k++) order[o++] = numIdx[numOrder[k]!]!;
  for (let k = 0; k < strOrder.length; k++) order[o++] = strIdx[strOrder[k]!]!;
  for (let k = 0; k < nz; k++) order[o++] = nullIdx[k]!;
  return {order, values, nonAscii};
}

/**
 * A column's sort values for a poll's items, read in a pass that can stop after any position (so
 * that sorting ahead of time can spread it over several steps). Against the column's previous
 * order, when that was for as many items, it notes the positions whose value changed: if they are
 * few, `orderFromValues` merges them into the previous order instead of sorting everything. With
 * `rowOnly` (see ColumnSpec.sortValueFromRowOnly) a position holding the same row object as before
 * keeps its value without reading the row.
 */
class ColumnValues<T> implements SlicedPass {
  next = 0;
  readonly values: SortKey[];
  /** Positions whose value changed since `prev`; null when there is no comparable previous order or too many changed. */
  changed: number[] | null;
  /** prev.nonAscii brought up to date with the changed values. */
  nonAscii: number;
  private readonly before: readonly T[] | null;

  constructor(
    readonly items: readonly T[],
    private readonly sortValue: (row: T) => SortKey,
    readonly prev: ColumnOrder | undefined,
    rowOnly: boolean,
  ) {
    this.values = new Array<SortKey>(items.length);
    const comparable = prev !== undefined && prev.items.length === items.length;
    this.changed = comparable ? [] : null;
    this.nonAscii = comparable ? prev.nonAscii : 0;
    this.before = comparable && rowOnly ? (prev.items as readonly T[]) : null;
  }

  run(end: number): void {
    const {items, values, before, sortValue} = this;
    const n = items.length;
    const prevValues = this.prev?.values;
    for (let i = this.next; i < end; i++) {
      const item = items[i]!;
      if (before !== null && before[i] === item) {
        values[i] = prevValues![i]!;
        continue;
      }
      const v = sortValue(item);
      values[i] = v;
      const changed = this.changed;
      if (changed === null) continue;
      const old = prevValues![i]!;
      // Only (value, position) decides the order, so another row object with the same value at the
      // same position (a device whose stats changed, sorted by name) keeps its place.
      if (old !== v) {
        changed.push(i);
        // Past a sixteenth of the list, sorting the changed values by comparison costs more than
        // sorting everything again by radix (50k rows, a third with new stats: 100–170 ms against 10–30).
        if (changed.length > (n >> 4) + 64) {
          this.changed = null;
          continue;
        }
        if (isNonAscii(old)) this.nonAscii--;
        if (isNonAscii(v)) this.nonAscii++;
      }
    }
    this.next = end;
  }
}

/** The ascending order of a finished ColumnValues pass: `sortValues`'s order, by merge where it can. */
function orderFromValues<T>(pass: ColumnValues<T>): Sorted {
  const {prev, changed, values, nonAscii} = pass;
  return (prev && changed && resortValues(prev, values, changed, nonAscii)) || sortValues(values);
}

/**
 * The ascending order from an earlier order of the same column, when few positions changed value
 * (the usual refresh: stats changed on some devices). Positions whose value did not change keep
 * their relative order; the others are sorted and merged in. The result is exactly `sortValues`'s,
 * since both order by (group, value, position). Null when the comparison regime changes.
 */
function resortValues(prev: ColumnOrder, values: SortKey[], changed: number[], nonAscii: number): Sorted | null {
  const n = values.length;
  // Code-unit or collator order is decided for the whole list; a change of regime reorders everything.
  if ((nonAscii === 0) !== (prev.nonAscii === 0)) return null;
  const ascii = nonAscii === 0;
  const compare = (i: number, j: number): number => {
    const a = values[i]!;
    const b = values[j]!;
    const ga = groupOf(a);
    const gb = groupOf(b);
    if (ga !== gb) return ga - gb;
    if (ga === 0) {
      const d = (a as number) - (b as number);
      if (d !== 0) return d;
    } else if (ga === 1) {
      const x = a as string;
      const y = b as string;
      const d = ascii ? (x < y ? -1 : x > y ? 1 : 0) : collator.compare(x, y);
      if (d !== 0) return d;
    }
    return i - j;
  };
  const dirty = new Uint8Array(n);
  for (const i of changed) dirty[i] = 1;
  changed.sort(compare);
  const order = new Int32Array(n);
  let o = 0;
  let c = 0;
  for (let k = 0; k < n; k++) {
    const i = prev.order[k]!;
    if (dirty[i] === 1) continue;
    while (c < changed.length && compare(changed[c]!, i) < 0) order[o++] = changed[c++]!;
    order[o++] = i;
  }
  while (c < changed.length) order[o++] = changed[c++]!;
  return {order, values, nonAscii};
}

/**
 * The descending order from the ascending one, in O(n): numbers and strings each reversed with
 * every run of equal values put back in position order (ties keep their order in both
 * directions), `null` still last. The same order a descending sort gives.
 */
function descending(sorted: Sorted): Int32Array {
  const {order: asc, values, nonAscii} = sorted;
  const n = asc.length;
  const out = new Int32Array(n);
  let o = 0;
  // The ascending order holds the numbers, then the strings, then the rest.
  let start = 0;
  for (const kind of ['number', 'string'] as const) {
    let end = start;
    while (end < n) {
      const v = values[asc[end]!]!;
      if (typeof v !== kind || (kind === 'number' && Number.isNaN(v))) break;
      end++;
    }
    const collated = kind === 'string' && nonAscii > 0;
    let j = end - 1;
    while (j >= start) {
      const v = values[asc[j]!]!;
      let r = j;
      while (r > start) {
        const w = values[asc[r - 1]!]!;
        if (w !== v && !(collated && collator.compare(w as string, v as string) === 0)) break;
        r--;
      }
      for (let t = r; t <= j; t++) out[o++] = asc[t]!;
      j = r - 1;
    }
    start = end;
  }
  for (let k = start; k < n; k++) out[o++] = asc[k]!;
  return out;
}

// For a sorted copy: the items array it was sorted from, and each row's position there. The id
// index of the copy is then the items' id index (built once per poll) composed with this
// permutation, instead of hashing 50k ids again for every new sort.
const permutations = new WeakMap<readonly unknown[], {base: readonly unknown[]; order: Int32Array}>();

// The sorted rows of an items array are kept while that array is alive: typing a filter with a
// sort active then only filters (filtering preserves order) instead of re-sorting 50k rows per
// keystroke. Keyed by the sortValue function too, so a caller that rebuilds its columns (new
// closures, e.g. a new `now`) gets a fresh sort.
interface SortCacheEntry<T> {
  sortValue: (row: T) => SortKey;
  desc: boolean;
  rows: T[];
}
const sortCache = new WeakMap<readonly unknown[], SortCacheEntry<unknown>>();

// The ascending order of each column a list was sorted by (or warmed, see warmSortOrders), per
// list (keyed by its getId): a new sort by a column already ordered for these items costs placing
// the rows, and after a poll the order is brought up to date from the last one (ColumnValues, resortValues).
interface ColumnOrder extends Sorted {
  items: readonly unknown[];
  sortValue: (row: never) => SortKey;
  /** The descending order, made on first use. */
  desc: Int32Array | null;
}
const columnOrders = new WeakMap<(t: never) => string, Map<string, ColumnOrder>>();

function ascendingOrder<T>(items: readonly T[], column: ColumnSpec<T>, getId: (t: T) => string): ColumnOrder {
  const perList = ordersOf(getId);
  const prev = perList.get(column.key);
  if (prev && prev.items === items && prev.sortValue === column.sortValue) return prev;
  const pass = valuesPass(items, column, prev);
  runWhole(pass, items.length);
  return keepOrder(perList, column, pass);
}

function ordersOf<T>(getId: (t: T) => string): Map<string, ColumnOrder> {
  let perList = columnOrders.get(getId);
  if (!perList) columnOrders.set(getId, (perList = new Map()));
  return perList;
}

function valuesPass<T>(items: readonly T[], column: ColumnSpec<T>, prev: ColumnOrder | undefined): ColumnValues<T> {
  // The row-only shortcut compares rows with the array the previous order was made for.
  return new ColumnValues(items, column.sortValue!, prev, column.sortValueFromRowOnly === true && prev !== undefined && prev.items !== items);
}

function keepOrder<T>(perList: Map<string, ColumnOrder>, column: ColumnSpec<T>, pass: ColumnValues<T>): ColumnOrder {
  const next: ColumnOrder = {...orderFromValues(pass), items: pass.items, sortValue: column.sortValue as (row: never) => SortKey, desc: null};
  perList.set(column.key, next);
  return next;
}

function sortedItems<T>(items: readonly T[], sort: SortSpec | null, columns: readonly ColumnSpec<T>[], getId: (t: T) => string): readonly T[] {
  if (!sort) return items;
  const column = columns.find((c) => c.key === sort.key);
  const sortValue = column?.sortValue;
  if (!column || !sortValue) return items;
  const hit = sortCache.get(items) as SortCacheEntry<T> | undefined;
  if (hit && hit.sortValue === sortValue && hit.desc === sort.desc) return hit.rows;
  const asc = ascendingOrder(items, column, getId);
  const order = sort.desc ? (asc.desc ??= descending(asc)) : asc.order;
  const rows = new Array<T>(order.length);
  for (let k = 0; k < order.length; k++) rows[k] = items[order[k]!]!;
  sortCache.set(items, {sortValue, desc: sort.desc, rows} as SortCacheEntry<unknown>);
  permutations.set(rows, {base: items, order});
  return rows;
}

/** A column's values being read ahead of time, over several warmSortOrder calls. */
const warmingValues = new WeakMap<(t: never) => string, {key: string; column: ColumnSpec<never>; pass: ColumnValues<never>}>();

/**
 * Orders `items` by the list's sortable columns ahead of time, a bounded step per call, so that
 * the admin's next sort key places rows instead of sorting them (docs/architecture.md, "Sorting
 * 50k rows"). Meant for idle time, a call at a time with input handled in between. A step reads a
 * column's values for at most `budgetMs` (at 50k rows reading them is most of a sort's cost, and a
 * pass can stop after any row); once they are all read it orders the column (a radix sort or a
 * merge, 5–30 ms at 50k). Returns true once every column is ordered for these items.
 */
export function warmSortOrder<T>(items: readonly T[], columns: readonly ColumnSpec<T>[], getId: (t: T) => string, budgetMs = Infinity): boolean {
  const perList = ordersOf(getId);
  for (const column of columns) {
    if (!column.sortValue) continue;
    const done = perList.get(column.key);
    if (done && done.items === items && done.sortValue === column.sortValue) {
      if (done.desc) continue;
      done.desc = descending(done);
      return false;
    }
    let warming = warmingValues.get(getId) as {key: string; column: ColumnSpec<T>; pass: ColumnValues<T>} | undefined;
    if (!warming || warming.pass.items !== items || warming.key !== column.key || warming.column.sortValue !== column.sortValue || warming.pass.prev !== done) {
      warming = {key: column.key, column, pass: valuesPass(items, column, done)};
      warmingValues.set(getId, warming as never);
    }
    const pass = warming.pass;
    const started = performance.now();
    // At least one batch a call, so that a call always makes progress.
    do pass.run(Math.min(items.length, pass.next + 1024));
    while (pass.next < items.length && performance.now() - started < budgetMs);
    if (pass.next < items.length) return false;
    warmingValues.delete(getId);
    keepOrder(perList, column, pass);
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// The view

// Everything derived from one ordered array (the items, or their cached sorted copy), kept while
// that array is alive, i.e. until the next poll or sort change. A filter keystroke then costs one
// `includes` scan over a string[] (or over the previous matches, see `recent`) plus an Int32Array,
// and the new view's `indexOf` reuses the id index instead of hashing 50k ids again.
interface OrderedState<T> {
  getId: ((t: T) => string) | null;
  /** id → position in the ordered array, built on the first `indexOf`. */
  idIndex: {get(id: string): number | undefined} | null;
  signature: string | null;
  haystacks: string[] | null;
  /** Recent filter results (positions in the ordered array), newest last: refinements and backspace reuse them. */
  recent: Array<{needle: string; matches: Int32Array}>;
}

const RECENT_FILTERS = 8;
const orderedStates = new WeakMap<readonly unknown[], OrderedState<unknown>>();

function orderedState<T>(ordered: readonly T[], getId: (t: T) => string): OrderedState<T> {
  let st = orderedStates.get(ordered) as OrderedState<T> | undefined;
  if (!st) {
    st = {getId, idIndex: null, signature: null, haystacks: null, recent: []};
    orderedStates.set(ordered, st as OrderedState<unknown>);
  } else if (st.getId !== getId) {
    st.getId = getId;
    st.idIndex = null;
  }
  return st;
}

function idIndexOf<T>(st: OrderedState<T>, ordered: readonly T[]): {get(id: string): number | undefined} {
  const perm = st.idIndex === null ? permutations.get(ordered) : undefined;
  if (st.idIndex === null && perm) {
    const base = perm.base as readonly T[];
    const baseIndex = idIndexOf(orderedState(base, st.getId!), base);
    const inverse = new Int32Array(perm.order.length);
    for (let k = 0; k < perm.order.length; k++) inverse[perm.order[k]!] = k;
    st.idIndex = {
      get: (id) => {
        const at = baseIndex.get(id);
        return at === undefined ? undefined : inverse[at];
      },
    };
  }
  if (st.idIndex === null) {
    const getId = st.getId!;
    const last = lastIndexes.get(getId);
    if (last && sameIdsAt(last.ordered, ordered, getId)) {
      st.idIndex = last.index;
    } else {
      const index = new Map<string, number>();
      for (let i = 0; i < ordered.length; i++) {
        const key = getId(ordered[i]!);
        // First occurrence wins, like Array.prototype.indexOf.
        if (!index.has(key)) index.set(key, i);
      }
      st.idIndex = index;
    }
    lastIndexes.set(getId, {ordered, index: st.idIndex});
  }
  return st.idIndex;
}

// The last id index built from scratch per getId. A poll replaces the items array, but a server
// lists its items in a stable order and unchanged items keep their objects, so the new array has
// the same ids at the same positions nearly always: checking that is one identity comparison per
// item, against ~30 ms at 50k for hashing every id again.
const lastIndexes = new WeakMap<(t: never) => string, {ordered: readonly unknown[]; index: {get(id: string): number | undefined}}>();

function sameIdsAt<T>(a: readonly unknown[], b: readonly T[], getId: (t: T) => string): boolean {
  const pass = new SameIdsPass(a, b, getId);
  runWhole(pass, b.length);
  return pass.same;
}

/** Whether two arrays of as many items hold the same ids at the same positions, read in a pass that can stop after any position. */
class SameIdsPass<T> implements SlicedPass {
  next = 0;
  same: boolean;

  constructor(
    private readonly a: readonly unknown[],
    private readonly b: readonly T[],
    private readonly getId: (t: T) => string,
  ) {
    this.same = a.length === b.length;
  }

  run(end: number): void {
    const {a, b, getId} = this;
    for (let i = this.next; i < end && this.same; i++) {
      const x = a[i] as T;
      const y = b[i]!;
      if (x !== y && getId(x) !== getId(y)) this.same = false;
    }
    this.next = this.same ? end : this.b.length;
  }
}

/**
 * Takes the id index of a poll's items over from the last one ahead of the first render, in
 * slices (the Controller calls it while the poll is in flight): at 50k devices the check that the
 * ids are at the same places reads every changed row, 10 ms in the frame that shows the poll. When
 * they are not, the render builds the index as before.
 */
export async function prepareIdIndex<T>(items: readonly T[], getId: (t: T) => string): Promise<void> {
  const last = lastIndexes.get(getId);
  if (!last || last.ordered === items || last.ordered.length !== items.length) return;
  const pass = new SameIdsPass(last.ordered, items, getId);
  await runSliced(pass, items.length);
  const st = orderedState(items, getId);
  // Only if no render built an index for either array meanwhile.
  if (pass.same && st.idIndex === null && lastIndexes.get(getId) === last) {
    st.idIndex = last.index;
    lastIndexes.set(getId, {ordered: items, index: last.index});
  }
}

function filterPositions<T>(st: OrderedState<T>, ordered: readonly T[], needle: string, columns: readonly ColumnSpec<T>[]): Int32Array {
  const signature = searchSignature(columns);
  if (st.signature !== signature || st.haystacks === null) {
    st.signature = signature;
    st.haystacks = buildHaystacks(ordered, columns, signature);
    st.recent = [];
  }
  const hay = st.haystacks;
  // Every haystack containing "devi" contains "dev": narrow the longest earlier needle's matches.
  let base: Int32Array | null = null;
  let baseLength = -1;
  for (let r = st.recent.length - 1; r >= 0; r--) {
    const prev = st.recent[r]!;
    if (prev.needle === needle) {
      st.recent.splice(r, 1);
      st.recent.push(prev);
      return prev.matches;
    }
    if (prev.needle.length > baseLength && needle.includes(prev.needle)) {
      base = prev.matches;
      baseLength = prev.needle.length;
    }
  }
  let matches: Int32Array;
  if (base === null) {
    const buf = new Int32Array(hay.length);
    let n = 0;
    for (let i = 0; i < hay.length; i++) if (hay[i]!.includes(needle)) buf[n++] = i;
    matches = buf.slice(0, n);
  } else {
    const buf = new Int32Array(base.length);
    let n = 0;
    for (let k = 0; k < base.length; k++) {
      const i = base[k]!;
      if (hay[i]!.includes(needle)) buf[n++] = i;
    }
    matches = buf.slice(0, n);
  }
  st.recent.push({needle, matches});
  if (st.recent.length > RECENT_FILTERS) st.recent.shift();
  return matches;
}

/**
 * Filters (case-insensitive substring over every column's `searchText`) and sorts `items`.
 * Cheap to call again with the same `items` array: haystacks, the sorted order, the id index and
 * recent filter results are cached while that array is alive.
 */
export function buildListView<T>(items: readonly T[], opts: ListViewOptions<T>): ListView<T> {
  const ordered = sortedItems(items, opts.sort, opts.columns, opts.getId);
  const st = orderedState(ordered, opts.getId);
  const getId = opts.getId;
  const needle = opts.filter.toLowerCase();
  if (needle === '') {
    return {
      rows: ordered,
      idAt: (i: number) => getId(ordered[i]!),
      indexOf: (id: string) => idIndexOf(st, ordered).get(id) ?? -1,
    };
  }
  const matches = filterPositions(st, ordered, needle, opts.columns);
  const rows = new Array<T>(matches.length);
  for (let k = 0; k < matches.length; k++) rows[k] = ordered[matches[k]!]!;
  // Position in the ordered array → position in this view; built on first use, ~0.1 ms at 50k.
  let viewPos: Int32Array | null = null;
  return {
    rows,
    idAt: (i: number) => getId(rows[i]!),
    indexOf(id: string): number {
      const p = idIndexOf(st, ordered).get(id);
      if (p === undefined) return -1;
      if (viewPos === null) {
        viewPos = new Int32Array(ordered.length).fill(-1);
        for (let k = 0; k < matches.length; k++) viewPos[matches[k]!] = k;
      }
      return viewPos[p]!;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Selection, tied to ids, never to row numbers: refreshes, sorting and filtering must not move the
// cursor to another item (k9s#334/#1593: selection drift made admins act on the wrong row)

type SelectionMove = number | 'home' | 'end' | {page: number; pageSize: number};

function clamp(n: number, lo: number, hi: number): number {
  return n < lo ? lo : n > hi ? hi : n;
}

/**
 * The id the cursor lands on after `move`: a row delta, `home`/`end`, or a page of `pageSize`
 * rows (use the number of visible body rows). Clamped, no wrap-around. With no current
 * selection (or one that is not in the view), a move starts from the first row (`end` from the
 * last). Returns null only for an empty view.
 */
export function moveSelection<T>(view: ListView<T>, selectedId: string | null, move: SelectionMove): string | null {
  const n = view.rows.length;
  if (n === 0) return null;
  const current = selectedId === null ? -1 : view.indexOf(selectedId);
  let next: number;
  if (move === 'home') next = 0;
  else if (move === 'end') next = n - 1;
  else if (current < 0) next = 0;
  else if (typeof move === 'number') next = current + move;
  else next = current + Math.sign(move.page) * Math.max(1, Math.floor(move.pageSize));
  return view.idAt(clamp(next, 0, n - 1));
}

/**
 * After a refresh, filter or sort: the same id if it is still in the view (wherever it moved),
 * otherwise the row now at `previousIndex` (clamped), so a deleted or filtered-out row hands
 * the cursor to its neighbour instead of jumping to the top. Null only for an empty view.
 */
export function reconcileSelection<T>(view: ListView<T>, selectedId: string | null, previousIndex: number): string | null {
  const n = view.rows.length;
  if (n === 0) return null;
  if (selectedId !== null && view.indexOf(selectedId) >= 0) return selectedId;
  const index = clamp(Number.isFinite(previousIndex) ? Math.trunc(previousIndex) : 0, 0, n - 1);
  return view.idAt(index);
}

// ---------------------------------------------------------------------------------------------
// Scroll window

interface WindowInput {
  /** Number of rows in the view. */
  total: number;
  /** Index of the cursor row, or -1 for none. */
  selectedIndex: number;
  /** Number of rows the window shows (body rows, without the header). */
  height: number;
  /** The window's current first row. */
  top: number;
  /** Rows kept visible above and below the cursor where possible (lazygit's scrollOffMargin). */
  scrollOff?: number;
}

/**
 * The new first visible row. It moves only when the cursor would enter the scroll-off margin,
 * and then by the least amount (lazygit's `margin` mode), so moving the cursor inside the window
 * never re-centres it. Idempotent: feeding the result back returns it unchanged.
 */
export function computeWindow({total, selectedIndex, height, top, scrollOff = 2}: WindowInput): number {
  const rows = Math.max(0, Math.floor(height));
  const maxTop = Math.max(0, total - rows);
  let t = clamp(Number.isFinite(top) ? Math.floor(top) : 0, 0, maxTop);
  if (rows === 0 || total <= rows) return 0;
  if (selectedIndex >= 0 && selectedIndex < total) {
    // A margin larger than half the window would make the window jump on every move.
    const margin = clamp(Math.floor(scrollOff), 0, Math.floor((rows - 1) / 2));
    if (selectedIndex < t + margin) t = selectedIndex - margin;
    else if (selectedIndex > t + rows - 1 - margin) t = selectedIndex - (rows - 1 - margin);
    t = clamp(t, 0, maxTop);
  }
  return t;
}
