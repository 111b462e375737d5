// Sorting one column's values fast at 50k rows: MSD radix over a byte block for strings, byte-wise
// radix for numbers, ranks for repeated values (docs/performance.md, "Sorting 50k rows").

// ---------------------------------------------------------------------------------------------
// Sorting

// One collator for the process: `localeCompare` and `new Intl.Collator` per call cost far more
// than the comparison itself. Default options: `numeric: true` measured slower.
export const collator = new Intl.Collator();

// ASCII (NUL aside, which the collator ignores): compared by code unit in the fast string sort below.
// eslint-disable-next-line no-control-regex -- the range is the point
const ASCII = /^[\x01-\x7f]*$/;

export type SortKey = string | number | null;

/** Where a value sorts: numbers, then strings, then null (and NaN), in both directions. */
export function groupOf(v: SortKey): 0 | 1 | 2 {
  return typeof v === 'number' ? (Number.isNaN(v) ? 2 : 0) : typeof v === 'string' ? 1 : 2;
}

export function isNonAscii(v: SortKey): boolean {
  return typeof v === 'string' && !ASCII.test(v);
}

export interface Sorted {
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
 * miss on every visit, which made sorting them far slower inside the console than alone. Each
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
export function sortValues(values: SortKey[]): Sorted {
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
    // are far dearer than a code-unit compare.
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
