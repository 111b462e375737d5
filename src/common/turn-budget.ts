// One budget for all the work cut into slices (docs/architecture.md, "One budget per turn of the
// event loop"). A refresh runs several sliced passes at once — the four lists decoded as their
// bytes arrive, rows derived, changes tracked, columns ordered ahead — and each used to yield after
// its own few milliseconds. But Node runs every setImmediate queued in one go, and every socket
// that has bytes in one go: three passes of 6 ms and a frame made a 30 ms stretch in which no
// timer ran and no key was read. Here a stretch of work ends at the next timers phase (a timer set
// when it began), and every slice in it spends from the same budget.

/** Work per stretch between two timers phases; the frame (~5 ms) and a scavenge come on top. */
export const TURN_BUDGET_MS = 5;
/**
 * A stretch older than this is over whatever the timer says: its timer cannot run when timers are
 * faked (tests), and a stretch stuck open would starve every sliced pass.
 */
const STRETCH_MAX_MS = 100;

let stretchStart = -1;
const endStretch = (): void => {
  stretchStart = -1;
};

/** Milliseconds of the current stretch's budget left; the first call of a stretch opens it. */
export function turnBudgetLeft(): number {
  const now = performance.now();
  if (stretchStart < 0 || now - stretchStart > STRETCH_MAX_MS) {
    stretchStart = now;
    // Runs in the next timers phase: where the event loop's delay is measured, and right before
    // the poll phase reads the keys that arrived.
    setTimeout(endStretch, 0).unref();
  }
  return TURN_BUDGET_MS - (now - stretchStart);
}

/** Whether this stretch's budget is spent: a sliced pass should yield (`nextTurn`). */
export function turnSpent(): boolean {
  return turnBudgetLeft() <= 0;
}

/**
 * Resolves once the event loop has gone round and this stretch's budget is free again: after a
 * timers phase (and the poll phase, with any key, after it). A pass that yields here and finds the
 * budget spent by another pass yields once more.
 */
export async function nextTurn(): Promise<void> {
  do await new Promise<void>((resolve) => setImmediate(resolve));
  while (turnSpent());
}
