// The list-view model behind every table: filter, sort, selection tied to ids, and the scroll
// window. Plain TypeScript, no React, sized for 50,000 items (README.md, "Performance";
// docs/architecture.md, "Performance notes"): a filter keystroke must
// stay well under 50 ms and a cursor move must not touch the whole list.

export interface ColumnSpec<T> {
  key: string;
  /** Value to sort by; `null` always sorts last whatever the direction. */
  sortValue?: (row: T) => string | number | null;
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

/**
 * Stable sort by `sortValue`: numbers numerically, strings by the collator, numbers before
 * strings if a column mixes them, `null` (and NaN) last in both directions.
 */
function sortItems<T>(items: readonly T[], sortValue: (row: T) => SortKey, desc: boolean): {rows: T[]; order: Int32Array} {
  const n = items.length;
  const nums: number[] = [];
  const numIdx: number[] = [];
  const strs: string[] = [];
  const strIdx: number[] = [];
  const nullIdx: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = sortValue(items[i]!);
    if (typeof v === 'number' && !Number.isNaN(v)) {
      nums.push(v);
      numIdx.push(i);
    } else if (typeof v === 'string') {
      strs.push(v);
      strIdx.push(i);
    } else {
      nullIdx.push(i);
    }
  }
  const dir = desc ? -1 : 1;

  // Numbers: sort positions 0..k-1 of the compact arrays; ties fall back to the original index,
  // which makes the result stable in both directions (reversing must not reverse equal runs).
  const numOrder = numIdx.map((_, k) => k);
  numOrder.sort((a, b) => (nums[a]! - nums[b]!) * dir || numIdx[a]! - numIdx[b]!);

  // Strings: collate each distinct value once and sort integer ranks. Owner emails, states and
  // the like repeat a lot, and a collator call is ~10× dearer than an integer compare.
  let strOrder: number[] = [];
  if (strs.length > 0 && strs.every((v) => ASCII.test(v))) {
    // Plain ASCII values (names, emails, addresses: nearly all the data) compare by code unit:
    // ~3× faster than ranking through the collator at 50k distinct values. Ties keep their order
    // in both directions.
    strOrder = strIdx.map((_, k) => k);
    strOrder.sort((a, b) => {
      const x = strs[a]!;
      const y = strs[b]!;
      return x < y ? -dir : x > y ? dir : a - b;
    });
  } else if (strs.length > 0) {
    const unique = Array.from(new Set(strs));
    unique.sort(collator.compare);
    const rankOf = new Map<string, number>();
    // Values the collator finds equal (it ignores some characters) share a rank, so ties keep their order.
    let rank = 0;
    for (let r = 0; r < unique.length; r++) {
      if (r > 0 && collator.compare(unique[r - 1]!, unique[r]!) !== 0) rank = r;
      rankOf.set(unique[r]!, rank);
    }
    const ranks = new Int32Array(strs.length);
    for (let k = 0; k < strs.length; k++) ranks[k] = rankOf.get(strs[k]!)!;
    strOrder = strIdx.map((_, k) => k);
    strOrder.sort((a, b) => (ranks[a]! - ranks[b]!) * dir || strIdx[a]! - strIdx[b]!);
  }

  const out: T[] = new Array<T>(n);
  const order = new Int32Array(n);
  let o = 0;
  for (const k of numOrder) out[o] = items[(order[o++] = numIdx[k]!)]!;
  for (const k of strOrder) out[o] = items[(order[o++] = strIdx[k]!)]!;
  for (const i of nullIdx) out[o] = items[(order[o++] = i)]!;
  return {rows: out, order};
}

// For a sorted copy: the items array it was sorted from, and each row's position there. The id
// index of the copy is then the items' id index (built once per poll) composed with this
// permutation, instead of hashing 50k ids again for every new sort.
const permutations = new WeakMap<readonly unknown[], {base: readonly unknown[]; order: Int32Array}>();

// The sorted order of an items array is kept while that array is alive: typing a filter with a
// sort active then only filters (filtering preserves order) instead of re-sorting 50k rows per
// keystroke. Keyed by the sortValue function too, so a caller that rebuilds its columns (new
// closures, e.g. a new `now`) gets a fresh sort.
interface SortCacheEntry<T> {
  sortValue: (row: T) => SortKey;
  desc: boolean;
  rows: T[];
}
const sortCache = new WeakMap<readonly unknown[], SortCacheEntry<unknown>>();

function sortedItems<T>(items: readonly T[], sort: SortSpec | null, columns: readonly ColumnSpec<T>[]): readonly T[] {
  if (!sort) return items;
  const sortValue = columns.find((c) => c.key === sort.key)?.sortValue;
  if (!sortValue) return items;
  const hit = sortCache.get(items) as SortCacheEntry<T> | undefined;
  if (hit && hit.sortValue === sortValue && hit.desc === sort.desc) return hit.rows;
  const {rows, order} = sortItems(items, sortValue, sort.desc);
  sortCache.set(items, {sortValue, desc: sort.desc, rows} as SortCacheEntry<unknown>);
  permutations.set(rows, {base: items, order});
  return rows;
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
    const index = new Map<string, number>();
    for (let i = 0; i < ordered.length; i++) {
      const key = getId(ordered[i]!);
      // First occurrence wins, like Array.prototype.indexOf.
      if (!index.has(key)) index.set(key, i);
    }
    st.idIndex = index;
  }
  return st.idIndex;
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
  const ordered = sortedItems(items, opts.sort, opts.columns);
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
