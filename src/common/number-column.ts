// Per-device numbers that each poll makes anew (rx/tx bytes, the three times, rates, idle
// deadlines) are plain arrays of doubles, not Float64Arrays (docs/performance-poll.md, "Where a
// poll's numbers live").
//
// A typed array's bytes are malloc'd outside V8's heap. A poll at 50k devices made megabytes of
// them in pieces a column long and dropped the last poll's; glibc serves such pieces from its main
// heap once the first large block has been freed (its mmap threshold rises to that block's size),
// and a heap full of holes left by dead columns is never given back: the bench measured a larger
// resident size than the same run with the threshold pinned. An array of doubles lives in V8's heap
// instead — past 128 KB on pages of its own, which go back to the system at the collection that
// frees it — and reads and writes at typed-array speed once V8 knows it holds doubles.

/** A column of numbers built per poll: `length` slots, each NaN until written. */
export type NumberColumn = number[];

// What new columns are cut from. V8 reads an array of doubles without holes (PACKED_DOUBLE) faster
// than one that may have holes, and `new Array(n).fill(NaN)` has none but is marked as if it had
// (docs/performance-poll.md, "Where a poll's numbers live"); the change tracker reads several such
// columns a poll. A slice of a packed array is packed, and is made with one copy. The template only
// grows (by the largest list seen: 400 KB at 50k devices).
const template: number[] = [];

/** `length` slots of NaN, stored as unboxed doubles in an array without holes. */
export function numberColumn(length: number): NumberColumn {
  // Pushing NaN (a double) onto the empty array makes it an array of doubles from the first slot.
  while (template.length < length) template.push(NaN);
  return template.slice(0, length);
}

/**
 * The first `length` slots of a column a builder filled (and nobody else holds): cut in place,
 * which V8 does without a copy. A builder writes its slots in order, so a slot past the end is
 * appended, and the column stays without holes.
 */
export function cutColumn(column: NumberColumn, length: number): NumberColumn {
  if (column.length > length) column.length = length;
  return column;
}
