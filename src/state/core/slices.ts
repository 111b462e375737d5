// Long passes over a poll's rows, cut into slices of a few milliseconds with the thread yielded
// in between (docs/architecture.md, "Refreshing 50k devices"). A key that arrives meanwhile is read
// and drawn between two slices instead of waiting behind the whole pass.

/** A pass over positions [0, total) that can stop after any position and go on from `next`. */
export interface SlicedPass {
  readonly next: number;
  run(end: number): void;
}

/** About a third of a 60 fps frame: a key waits at most this long for the pass to let go. */
export const SLICE_MS = 6;
/** Positions between two looks at the clock. */
const BATCH = 512;

/** Runs the pass to `total` at once. */
export function runWhole(pass: SlicedPass, total: number): void {
  if (pass.next < total) pass.run(total);
}

/** Runs the pass to `total` in slices; setImmediate lets the I/O that arrived (keys) in between. */
export async function runSliced(pass: SlicedPass, total: number): Promise<void> {
  for (;;) {
    const started = performance.now();
    while (pass.next < total && performance.now() - started < SLICE_MS) pass.run(Math.min(total, pass.next + BATCH));
    if (pass.next >= total) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
