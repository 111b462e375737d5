// Long passes over a poll's rows, cut into slices of a few milliseconds with the thread yielded
// in between (docs/performance-poll.md, "Refreshing 50k devices"). A key that arrives meanwhile is read
// and drawn between two slices instead of waiting behind the whole pass. Passes running at once
// share one budget per turn of the event loop (src/common/turn-budget.ts).
import {nextTurn, turnSpent} from '../../common/turn-budget.js';

/** A pass over positions [0, total) that can stop after any position and go on from `next`. */
export interface SlicedPass {
  readonly next: number;
  run(end: number): void;
}

/** Positions between two looks at the clock. */
const BATCH = 512;

/** Runs the pass to `total` at once. */
export function runWhole(pass: SlicedPass, total: number): void {
  if (pass.next < total) pass.run(total);
}

/**
 * Runs the pass to `total` in slices, each within what is left of the turn's budget; between them
 * the event loop goes round (timers, and the keys that arrived).
 */
export async function runSliced(pass: SlicedPass, total: number): Promise<void> {
  while (pass.next < total) {
    if (turnSpent()) await nextTurn();
    do pass.run(Math.min(total, pass.next + BATCH));
    while (pass.next < total && !turnSpent());
  }
}
