// Per-device numbers that each poll makes anew (rx/tx bytes, the three times, rates, idle
// deadlines) are plain arrays of doubles, not Float64Arrays (docs/architecture.md, "Where a
// poll's numbers live").
//
// A typed array's bytes are malloc'd outside V8's heap. A poll at 50k devices made ~4 MB of them
// in 0.4 MB pieces and dropped the last poll's; glibc serves such pieces from its main heap once
// the first large block has been freed (its mmap threshold rises to that block's size), and a heap
// full of holes left by dead columns is never given back: the bench measured the resident size
// 25 MB above the same run with the threshold pinned. An array of doubles lives in V8's heap
// instead — past 128 KB on pages of its own, which go back to the system at the collection that
// frees it — and reads and writes at typed-array speed once V8 knows it holds doubles.

/** A column of numbers built per poll: `length` slots, each NaN until written. */
export type NumberColumn = number[];

/** `length` slots of NaN. Filled with a double, so V8 stores doubles unboxed from the first write. */
export function numberColumn(length: number): NumberColumn {
  return new Array<number>(length).fill(NaN);
}

/**
 * The first `length` slots of a column a builder filled (and nobody else holds): cut in place,
 * which V8 does without a copy.
 */
export function cutColumn(column: NumberColumn, length: number): NumberColumn {
  if (column.length > length) column.length = length;
  return column;
}
