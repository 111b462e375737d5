// One budget for all the work cut into slices (docs/performance-poll.md, "One budget per turn of the
// event loop"). A refresh runs several sliced passes at once — the four lists decoded as their
// bytes arrive, rows derived, changes scanned, rates read — and each used to yield after its own
// few milliseconds. But Node runs every setImmediate queued in one go, and every socket that has
// bytes in one go: three passes and a frame made one long stretch in which no timer ran and no
// key was read. Here a stretch of work ends at the next timers phase (a timer set when it
// began), and every slice in it spends from the same budget; passes waiting for a budget get one
// in turn, first come first served.

/** Work per stretch between two timers phases; the frame and a scavenge come on top. */
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
  // A clock behind the stretch's start is another clock (a test's faked one, then the real one).
  if (stretchStart < 0 || now < stretchStart || now - stretchStart > STRETCH_MAX_MS) {
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

// Passes waiting for a budget, in the order they asked. One is let go per turn of the loop, when
// a stretch is fresh: a pass that spent a budget asks again behind the others, so passes under way
// at once go on side by side instead of the first running to its end.
const waiting: (() => void)[] = [];
let scheduled = false;

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(serve);
}

function serve(): void {
  scheduled = false;
  if (waiting.length === 0) return;
  // Spent (by a decoder reading its bytes, say): look again next turn, after the timers phase.
  if (!turnSpent()) waiting.shift()!();
  // Queued while immediates run, this one runs in the next turn of the loop.
  if (waiting.length > 0) schedule();
}

/** Resolves once the event loop has gone round and a fresh budget is this pass's turn. */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    schedule();
  });
}
