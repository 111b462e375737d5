// Choosing the sort column from the keyboard. Every column sorts by its natural value (▲ is
// ascending: A→Z, smallest, oldest); a column whose useful default is "most first" (traffic,
// rates, counts, recency) starts descending (▼). `null` values sort last either way (radix-sort.ts).
import type {SortSpec} from './columns.js';

export interface SortableColumn {
  key: string;
  /** Start descending when this column is chosen (rates, bytes, counts, most recent first). */
  defaultDesc?: boolean;
}

/**
 * `>` / `o` (delta 1) and `<` (delta −1): the next or previous sortable column in its default
 * direction. From unsorted, the first (or last); past either end, unsorted again (the server's
 * order, the meaningful default for devices and rules).
 */
export function stepSort(current: SortSpec | null, columns: readonly SortableColumn[], delta: 1 | -1): SortSpec | null {
  if (columns.length === 0) return null;
  const at = current === null ? -1 : columns.findIndex((c) => c.key === current.key);
  let next: number;
  if (current === null || at < 0) next = delta === 1 ? 0 : columns.length - 1;
  else next = at + delta;
  if (next < 0 || next >= columns.length) return null;
  const column = columns[next]!;
  return {key: column.key, desc: column.defaultDesc === true};
}

/** `O`: the same column the other way; from unsorted, the first column in its non-default direction. */
export function flipSortDirection(current: SortSpec | null, columns: readonly SortableColumn[]): SortSpec | null {
  if (current !== null) return {key: current.key, desc: !current.desc};
  const first = columns[0];
  return first ? {key: first.key, desc: first.defaultDesc !== true} : null;
}
