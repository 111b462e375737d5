// Sort by column: the order of a list by one column, kept per list and column, carried over a poll
// by re-placing only the rows whose value changed, and made ahead of time in bounded steps
// (docs/performance.md, "Sorting 50k rows").
import {runSliced, runWhole, type SlicedPass} from '../core/slices.js';
import {nextTurn} from '../../common/turn-budget.js';
import type {ColumnSpec, SortSpec} from './columns.js';
import type {SortKey, Sorted} from './radix-sort.js';
import {collator, groupOf, isNonAscii, sortValues} from './radix-sort.js';

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
  /** The values; the previous order's own array until one differs (a column nothing changed in allocates nothing). */
  values: SortKey[];
  private own: boolean;
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
    const comparable = prev !== undefined && prev.items.length === items.length;
    this.own = !comparable;
    this.values = comparable ? (prev.values as SortKey[]) : new Array<SortKey>(items.length);
    this.changed = comparable ? [] : null;
    this.nonAscii = comparable ? prev.nonAscii : 0;
    this.before = comparable && rowOnly ? (prev.items as readonly T[]) : null;
  }

  run(end: number): void {
    const {items, before, sortValue} = this;
    const n = items.length;
    const prevValues = this.prev?.values;
    for (let i = this.next; i < end; i++) {
      const item = items[i]!;
      if (before !== null && before[i] === item) {
        // Its value is the previous one, which an array still shared already holds.
        if (this.own) this.values[i] = prevValues![i]!;
        continue;
      }
      const v = sortValue(item);
      if (!this.own) {
        if (prevValues![i] === v) continue;
        // The first value that differs: from here on the values are an array of their own.
        this.values = prevValues!.slice();
        this.own = true;
      }
      this.values[i] = v;
      const changed = this.changed;
      if (changed === null) continue;
      const old = prevValues![i]!;
      // Only (value, position) decides the order, so another row object with the same value at the
      // same position (a device whose stats changed, sorted by name) keeps its place.
      if (old !== v) {
        changed.push(i);
        // Past a sixteenth of the list, sorting the changed values by comparison costs more than
        // sorting everything again by radix (docs/performance.md, "Sorting 50k rows").
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
  // Nothing changed place: the previous order is this one (and so is its descending order, see keepOrder).
  if (changed.length === 0) return {order: prev.order, values, nonAscii};
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
export const permutations = new WeakMap<readonly unknown[], {base: readonly unknown[]; order: Int32Array}>();

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

// Per list, the columns sorting ahead has found volatile: most of their values change every poll
// (traffic, rates, handshake), so their order cannot be carried over a poll by a merge. Ordering
// them again after every poll was a large share of a refresh's CPU at 50k rows, for sorts the admin
// may never ask for; a sort by one is made on the key instead (a radix sort, within the sort
// budget), and the list sorted by it is kept up to date by drawing it. A column is tried again
// every VOLATILE_RETRY_POLLS polls, so one mass change (a bulk rename) does not mark it for good.
const VOLATILE_RETRY_POLLS = 8;
const volatileColumns = new WeakMap<(t: never) => string, Map<string, {items: readonly unknown[]; polls: number}>>();

function volatileOf(getId: (t: never) => string): Map<string, {items: readonly unknown[]; polls: number}> {
  let columns = volatileColumns.get(getId);
  if (!columns) volatileColumns.set(getId, (columns = new Map()));
  return columns;
}

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
  const sorted = orderFromValues(pass);
  const desc = pass.prev !== undefined && sorted.order === pass.prev.order ? pass.prev.desc : null;
  const next: ColumnOrder = {...sorted, items: pass.items, sortValue: column.sortValue as (row: never) => SortKey, desc};
  perList.set(column.key, next);
  return next;
}

export function sortedItems<T>(items: readonly T[], sort: SortSpec | null, columns: readonly ColumnSpec<T>[], getId: (t: T) => string): readonly T[] {
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

/**
 * The rows of a poll's items in the order the list is sorted by, made before the poll is shown
 * (the refresh pipeline calls it while the poll is in flight), so that the frame showing the poll
 * finds them in the sort cache. Reading a column's values is most of a sort at 50k rows, more for
 * a column whose values all move (traffic, rates, handshakes), and all of it would be in the task
 * that applies the poll if made there. Here the values are
 * read in slices; ordering and placing them are a turn each. The same calls as `sortedItems`, so
 * the rows are the same whichever made them (test/state/refresh-prepare.test.ts).
 */
export async function prepareSortedItems<T>(
  items: readonly T[],
  sort: SortSpec | null,
  columns: readonly ColumnSpec<T>[],
  getId: (t: T) => string,
): Promise<void> {
  const column = sort ? columns.find((c) => c.key === sort.key) : undefined;
  if (!column?.sortValue) return;
  const perList = ordersOf(getId);
  const made = (o: ColumnOrder | undefined) => o !== undefined && o.items === items && o.sortValue === column.sortValue;
  if (!made(perList.get(column.key))) {
    const pass = valuesPass(items, column, perList.get(column.key));
    await runSliced(pass, items.length);
    // Ordering them (a radix sort or a merge) starts a turn, placing the rows the next.
    await nextTurn();
    // Something else may have ordered these items meanwhile: that order stands.
    if (!made(perList.get(column.key))) keepOrder(perList, column, pass);
    await nextTurn();
  }
  sortedItems(items, sort, columns, getId);
}

/** A column's values being read ahead of time, over several warmSortOrder calls. */
const warmingValues = new WeakMap<(t: never) => string, {key: string; column: ColumnSpec<never>; pass: ColumnValues<never>}>();

/**
 * Orders `items` by the list's sortable columns ahead of time, a bounded step per call, so that
 * the admin's next sort key places rows instead of sorting them (docs/performance.md, "Sorting
 * 50k rows"). Meant for idle time, a call at a time with input handled in between. A step reads a
 * column's values for at most `budgetMs` (at 50k rows reading them is most of a sort's cost, and a
 * pass can stop after any row); once they are all read it orders the column (a radix sort or a
 * merge, one step). Returns true once every column is ordered for these items.
 */
export function warmSortOrder<T>(items: readonly T[], columns: readonly ColumnSpec<T>[], getId: (t: T) => string, budgetMs = Infinity): boolean {
  const perList = ordersOf(getId);
  const volatile = volatileOf(getId as (t: never) => string);
  for (const column of columns) {
    if (!column.sortValue) continue;
    const skipped = volatile.get(column.key);
    if (skipped !== undefined) {
      if (skipped.items !== items) {
        skipped.items = items;
        skipped.polls++;
      }
      if (skipped.polls < VOLATILE_RETRY_POLLS) continue;
      volatile.delete(column.key);
    }
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
    if (pass.prev !== undefined && pass.prev.items.length === items.length && pass.changed === null) {
      // Too many values changed to merge: volatile. Its stale order goes too (it is memory).
      volatile.set(column.key, {items, polls: 0});
      perList.delete(column.key);
      return false;
    }
    keepOrder(perList, column, pass);
    return false;
  }
  return true;
}
