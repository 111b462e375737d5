// The `/` filter's haystacks: the lowercase search text of a row's columns, cached per row object.
import {runWhole, type SlicedPass} from '../core/slices.js';
import type {ColumnSpec} from './columns.js';

// ---------------------------------------------------------------------------------------------
// Search haystacks

// A haystack (the lowercase searchText of all columns) is cached per item object: polls replace
// the items array but the caller reuses unchanged item objects (src/state/data/device-rows.ts, RowDeriver),
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

export function searchSignature<T>(columns: readonly ColumnSpec<T>[]): string {
  return columns
    .filter((c) => c.searchText !== undefined)
    .map((c) => c.key)
    .join(FIELD_SEPARATOR);
}

export function buildHaystacks<T>(rows: readonly T[], columns: readonly ColumnSpec<T>[], signature: string): string[] {
  const pass = new HaystackPass(rows, columns, signature);
  runWhole(pass, rows.length);
  return pass.out;
}

/** The haystacks of `rows`, made in a pass that can stop after any row (prepareListView in list-view.ts makes them in slices). */
export class HaystackPass<T> implements SlicedPass {
  next = 0;
  readonly out: string[];
  private readonly searchers: ReadonlyArray<(row: T) => string>;
  private readonly cache: WeakMap<object, string>;

  constructor(
    private readonly rows: readonly T[],
    columns: readonly ColumnSpec<T>[],
    signature: string,
  ) {
    this.searchers = columns.filter((c) => c.searchText !== undefined).map((c) => c.searchText!);
    this.cache = haystackCacheFor(signature);
    this.out = new Array<string>(rows.length);
  }

  run(end: number): void {
    const {rows, searchers, cache, out} = this;
    for (let i = this.next; i < end; i++) {
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
    this.next = end;
  }
}

/**
 * Computes and caches the search haystacks of `items` ahead of the first filter keystroke (which
 * otherwise pays for every item at once: a long task at 50k). Optional; call it when
 * the filter opens (`/`) or when idle after a poll. Later polls only pay for new or changed items.
 */
export function warmSearch<T>(items: readonly T[], columns: readonly ColumnSpec<T>[]): void {
  buildHaystacks(items, columns, searchSignature(columns));
}

// ---------------------------------------------------------------------------------------------
// Pasted filters

// A line of `wg show` (`peer: KEY`, `  public key: KEY`) or of a config (`PublicKey = KEY`): the
// admin means the key, which is what a device's row holds.
const KEY_LINE = /^\s*(?:peer|public key|publickey)\s*[:=]\s*([A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=)\s*$/i;

/**
 * What a paste filters by: the key of a pasted `wg show` or config key line (the first such line
 * of a pasted block: a whole `peer:` stanza), else the text itself.
 */
export function filterFromPaste(text: string): {text: string; keyFrom: string | null} {
  let m: RegExpExecArray | null = null;
  for (const line of text.split(/\r\n|\r|\n/)) if ((m = KEY_LINE.exec(line))) break;
  return m
    ? {
        text: m[1]!,
        keyFrom: m[0]
          .trim()
          .split(/\s*[:=]/)[0]!
          .toLowerCase(),
      }
    : {text, keyFrom: null};
}
