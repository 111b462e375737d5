// Pairing the items of two polls by id, and the ids a list holds more than once. A list that holds
// an id twice is the server's error (issue #44): two records under one id cannot be told apart,
// and compared with the last poll they invent changes — a device "renamed", then "deleted" while
// it still exists. So such a list generates no events; the last list that held each id once stays
// the one the next poll is compared with (ActivityTracker), and what was seen is said (the status
// line, the recorder's stderr). Finding repeats costs nothing on the usual path: the earlier list
// holds each id once (the tracker sees to it), so a new list repeats an id exactly when two of its
// items pair with one earlier item, or two new items share an id — both found by the pairing
// itself, with a mark per earlier position, never by a second pass over the list.

export type TrackedList = 'devices' | 'users' | 'rules';

/** A list in which the server repeated ids. */
export interface ListedTwice {
  readonly list: TrackedList;
  /** The first few ids repeated (at most IDS_SAID), each cut to ID_CHARS. */
  readonly ids: readonly string[];
  /** How many ids the list repeats. */
  readonly count: number;
}

/** At most this many ids are named in what is said. */
export const IDS_SAID = 3;
/** An id is server text: named, it is cut to this many characters. */
export const ID_CHARS = 64;

const PATHS: Record<TrackedList, string> = {devices: '/v0/devices', users: '/v0/users', rules: '/v0/rules'};
const SINGULAR: Record<TrackedList, string> = {devices: 'device', users: 'user', rules: 'rule'};

/** The ids a pass found repeated, each counted once. */
export class Repeats {
  private seen: Set<string> | null = null;

  add(id: string): void {
    (this.seen ??= new Set()).add(id);
  }

  result(list: TrackedList): ListedTwice | null {
    if (this.seen === null) return null;
    const ids: string[] = [];
    for (const id of this.seen) {
      if (ids.length === IDS_SAID) break;
      ids.push(id.length > ID_CHARS ? `${id.slice(0, ID_CHARS - 1)}…` : id);
    }
    return {list, ids, count: this.seen.size};
  }
}

/** The ids a whole list repeats, by a set of its ids: for a list with no earlier one to pair with (a baseline). Linear. */
export function repeatsIn(list: TrackedList, items: readonly {readonly id: string}[]): ListedTwice | null {
  const ids = new Set<string>();
  const repeats = new Repeats();
  for (const item of items) {
    if (ids.has(item.id)) repeats.add(item.id);
    else ids.add(item.id);
  }
  return repeats.result(list);
}

/**
 * One line: `Server error: /v0/devices lists device id "d-1" more than once: …`. `baseline` is
 * false where there is no earlier list to keep (the first poll).
 */
export function listedTwiceText(f: ListedTwice, baseline: boolean): string {
  const quoted = f.ids.map((id) => JSON.stringify(id)).join(', ');
  const what = f.count === 1 ? `${SINGULAR[f.list]} id ${quoted}` : `${f.count} ${SINGULAR[f.list]} ids (${quoted}${f.count > f.ids.length ? ', …' : ''})`;
  const then = baseline ? 'the next poll is compared with the last list that held each id once' : 'the first list that holds each id once becomes the baseline';
  return `Server error: ${PATHS[f.list]} lists ${what} more than once: no ${SINGULAR[f.list]} changes are taken from it; ${then}`;
}

/** Each id's position in a list that holds each id once. */
export function positionsOf(items: readonly {readonly id: string}[]): Map<string, number> {
  const index = new Map<string, number>();
  for (let i = 0; i < items.length; i++) index.set(items[i]!.id, i);
  return index;
}

/** Two polls' items paired: `before[i]` is the earlier item of `next[i]` (undefined: new); `gone` what `next` lacks. */
export interface Paired<T> {
  before: (T | undefined)[];
  gone: T[];
}

/**
 * Pairs the items of two polls by id — by position while the order holds, by an index after —
 * and returns the items of `prev` that are gone; or, when `next` repeats an id, what it repeats
 * (and no pairing: nothing can be said about such a list). `prev` holds each id once.
 * Users and rules are few next to devices, but this is still every poll.
 */
export function pairById<T extends {readonly id: string}>(list: TrackedList, prev: readonly T[], next: readonly T[]): Paired<T> | ListedTwice {
  const before = new Array<T | undefined>(next.length);
  // As in DeviceScan, the shortcuts' surviving mutants give the same result by the index.
  // Stryker disable next-line BooleanLiteral
  let aligned = true;
  /** prev[0, prefix) were paired by position; later positions paired by the index are marked in `taken`. */
  let prefix = 0;
  let taken: Uint8Array | null = null;
  let created: Set<string> | null = null;
  let matched = 0;
  let index: Map<string, number> | null = null;
  const repeats = new Repeats();
  for (let i = 0; i < next.length; i++) {
    const b = next[i]!;
    // Stryker disable next-line ConditionalExpression
    if (aligned && i < prev.length && prev[i]!.id === b.id) {
      before[i] = prev[i]!;
      prefix = i + 1;
      matched++;
      continue;
    }
    aligned = false;
    index ??= positionsOf(prev);
    const at = index.get(b.id);
    if (at === undefined) {
      created ??= new Set();
      if (created.has(b.id)) repeats.add(b.id);
      else created.add(b.id);
      continue;
    }
    taken ??= new Uint8Array(prev.length);
    if (at < prefix || taken[at] === 1) {
      repeats.add(b.id);
      continue;
    }
    taken[at] = 1;
    before[i] = prev[at]!;
    matched++;
  }
  const twice = repeats.result(list);
  if (twice !== null) return twice;
  // Stryker disable next-line ConditionalExpression
  if (matched === prev.length) return {before, gone: []};
  // Stryker disable next-line ConditionalExpression
  if (aligned) return {before, gone: prev.slice(next.length)};
  const gone: T[] = [];
  for (let j = prefix; j < prev.length; j++) if (taken?.[j] !== 1) gone.push(prev[j]!);
  return {before, gone};
}
