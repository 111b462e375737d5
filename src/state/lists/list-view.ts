// The list-view model behind every table: filter, sort, selection tied to ids, and the scroll
// window. Plain TypeScript, no React, sized for 50,000 items (README.md, "Performance";
// docs/performance.md, "Filtering 50k rows"): a filter keystroke must
// stay well under 50 ms and a cursor move must not touch the whole list.
import {runSliced, runWhole, type SlicedPass} from '../core/slices.js';
import type {ColumnSpec, SortSpec} from './columns.js';
import {compileFilter, impliesQuery, type CompiledFilter, type FilterFields} from './filter-query.js';
import {buildHaystacks, HaystackPass, searchSignature} from './search.js';
import {permutations, prepareSortedItems, sortedItems} from './column-order.js';

interface ListViewOptions<T> {
  getId: (t: T) => string;
  /** The `/` filter as typed (src/state/lists/filter-query.ts has its grammar). */
  filter: string;
  sort: SortSpec | null;
  columns: readonly ColumnSpec<T>[];
  /** The screen's filter fields and flags; without them every term is text. */
  fields?: FilterFields<T> | null;
  /** When ages and states are measured for field terms: the snapshot's time, so a view stays the same between polls. */
  now?: number;
}

export interface ListView<T> {
  /** The filtered, sorted rows. Never mutate. */
  readonly rows: readonly T[];
  /** Position of the row with this id in `rows`, or -1. O(1) after the first call on a view. */
  indexOf(id: string): number;
  /** Id of the row at `index` (0 ≤ index < rows.length). No `T` in the signature on purpose: a
   * `ListView<A> | ListView<B>` union must stay usable where a `ListView<A | B>` is expected. */
  idAt(index: number): string;
  /** Why a term of the filter was left out (an unknown key, a value its field cannot read), or null. */
  readonly filterError: string | null;
  /** The filter read the field table: the view depends on the table and `now`, not on the text alone. */
  readonly readsFields: boolean;
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
  recent: RecentFilter<T>[];
}

interface RecentFilter<T> {
  query: CompiledFilter<T>;
  /** The field table and time its predicates were made for (a text-only query depends on neither). */
  fields: FilterFields<T> | null;
  now: number;
  matches: Int32Array;
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
// item, against hashing every id again (docs/performance-poll.md, "Decoding the lists as they arrive").
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
 * Takes the id index of a poll's items over from the last one ahead of the first render, in slices
 * (the refresh pipeline calls it while the poll is in flight): at 50k devices the check that the
 * ids are at the same places reads every changed row, which the frame that shows the poll would
 * pay. When they are not, the render builds the index as before.
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

/**
 * What the frame that shows a poll's items would make in one task, made ahead in slices while the
 * poll is in flight (the refresh pipeline calls it for the list on screen): the id index taken
 * over, the rows in the list's sort order (prepareSortedItems), and the rows' filter text when the
 * filter has words. The frame is left placing the cursor and matching the filter. Nothing here
 * changes what buildListView returns for `items`, only how much of it is made already.
 */
export async function prepareListView<T>(items: readonly T[], opts: ListViewOptions<T>): Promise<void> {
  await prepareIdIndex(items, opts.getId);
  await prepareSortedItems(items, opts.sort, opts.columns, opts.getId);
  if (opts.filter === '') return;
  const query = compileFilter(opts.filter, opts.fields ?? null, opts.now ?? 0);
  if (query.key === '' || query.texts.length === 0) return;
  const ordered = sortedItems(items, opts.sort, opts.columns, opts.getId);
  const st = orderedState(ordered, opts.getId);
  const signature = searchSignature(opts.columns);
  if (st.signature === signature && st.haystacks !== null) return;
  const pass = new HaystackPass(ordered, opts.columns, signature);
  await runSliced(pass, ordered.length);
  if (st.signature !== signature) {
    st.signature = signature;
    st.haystacks = null;
    st.recent = [];
  }
  st.haystacks ??= pass.out;
}

function haystacksOf<T>(st: OrderedState<T>, ordered: readonly T[], columns: readonly ColumnSpec<T>[]): string[] {
  st.haystacks ??= buildHaystacks(ordered, columns, st.signature!);
  return st.haystacks;
}

/** Positions (in `ordered`) of the rows `query` matches, or of `base`'s rows when given: its matches of a query this one implies. */
function matchPositions<T>(
  st: OrderedState<T>,
  ordered: readonly T[],
  query: CompiledFilter<T>,
  columns: readonly ColumnSpec<T>[],
  base: Int32Array | null,
): Int32Array {
  const count = base === null ? ordered.length : base.length;
  const buf = new Int32Array(count);
  let n = 0;
  const {texts, predicates} = query;
  if (predicates.length === 0 && texts.length === 1 && !texts[0]!.negate) {
    // One word, as the filter was before it had fields: one `includes` per candidate.
    const hay = haystacksOf(st, ordered, columns);
    const needle = texts[0]!.needle;
    if (base === null) {
      for (let i = 0; i < count; i++) if (hay[i]!.includes(needle)) buf[n++] = i;
    } else {
      for (let k = 0; k < count; k++) {
        const i = base[k]!;
        if (hay[i]!.includes(needle)) buf[n++] = i;
      }
    }
    return buf.slice(0, n);
  }
  // Haystacks only when a term reads them: `state:online` alone never builds the 50k strings.
  const hay = texts.length > 0 ? haystacksOf(st, ordered, columns) : null;
  rows: for (let k = 0; k < count; k++) {
    const i = base === null ? k : base[k]!;
    if (hay !== null) {
      const h = hay[i]!;
      for (let t = 0; t < texts.length; t++) if (h.includes(texts[t]!.needle) === texts[t]!.negate) continue rows;
    }
    if (predicates.length > 0) {
      const row = ordered[i]!;
      for (let p = 0; p < predicates.length; p++) if (!predicates[p]!.test(row)) continue rows;
    }
    buf[n++] = i;
  }
  return buf.slice(0, n);
}

function filterPositions<T>(
  st: OrderedState<T>,
  ordered: readonly T[],
  query: CompiledFilter<T>,
  columns: readonly ColumnSpec<T>[],
  fields: FilterFields<T> | null,
  now: number,
): Int32Array {
  const signature = searchSignature(columns);
  if (st.signature !== signature) {
    st.signature = signature;
    st.haystacks = null;
    st.recent = [];
  }
  // A query whose terms imply an earlier one's ("devi" after "dev", `state:idle handshake>30d`
  // after `state:idle`) tests only the earlier matches: the fewest of those that qualify. Field
  // terms only for the same field table and time (src/state/lists/filter-query.ts, the header).
  let base: Int32Array | null = null;
  for (let r = st.recent.length - 1; r >= 0; r--) {
    const prev = st.recent[r]!;
    if (prev.query.predicates.length > 0 && (prev.fields !== fields || prev.now !== now)) continue;
    if (prev.query.key === query.key) {
      st.recent.splice(r, 1);
      st.recent.push(prev);
      return prev.matches;
    }
    if ((base === null || prev.matches.length < base.length) && impliesQuery(query, prev.query)) base = prev.matches;
  }
  const matches = matchPositions(st, ordered, query, columns, base);
  st.recent.push({query, fields, now, matches});
  if (st.recent.length > RECENT_FILTERS) st.recent.shift();
  return matches;
}

/**
 * Filters (src/state/lists/filter-query.ts: words over every column's `searchText`, and the
 * screen's field terms) and sorts `items`. Cheap to call again with the same `items` array:
 * haystacks, the sorted order, the id index and recent filter results are cached while that
 * array is alive.
 */
export function buildListView<T>(items: readonly T[], opts: ListViewOptions<T>): ListView<T> {
  const ordered = sortedItems(items, opts.sort, opts.columns, opts.getId);
  const st = orderedState(ordered, opts.getId);
  const getId = opts.getId;
  const fields = opts.fields ?? null;
  const now = opts.now ?? 0;
  const query = opts.filter === '' ? null : compileFilter(opts.filter, fields, now);
  const filterError = query?.error ?? null;
  const readsFields = query?.readsFields ?? false;
  if (query === null || query.key === '') {
    // No filter, or nothing in it that filters (spaces, a term with an error).
    return {
      rows: ordered,
      idAt: (i: number) => getId(ordered[i]!),
      indexOf: (id: string) => idIndexOf(st, ordered).get(id) ?? -1,
      filterError,
      readsFields,
    };
  }
  const matches = filterPositions(st, ordered, query, opts.columns, fields, now);
  const rows = new Array<T>(matches.length);
  for (let k = 0; k < matches.length; k++) rows[k] = ordered[matches[k]!]!;
  // Position in the ordered array → position in this view; built on first use.
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
    filterError,
    readsFields,
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
