// Sliced passes that run at once share one budget per turn of the event loop: between two timer
// turns (keys are read right after, and the event loop's delay is measured there) there is about
// one budget's work however many passes are under way, where each pass with a budget of its own
// made one budget each. A stretch ends at the first timers phase a millisecond after it began, so
// a window between two ticks of a 1 ms timer can hold the end of one stretch and a next one: two
// budgets (three seen on a machine under load).
import {describe, expect, it} from 'vitest';
import {TURN_BUDGET_MS} from '../../src/common/turn-budget.js';
import {runSliced, type SlicedPass} from '../../src/state/core/slices.js';

const BATCH_MS = 0.5;

/** A pass whose every batch is BATCH_MS of work, logged with its times. */
class BusyPass implements SlicedPass {
  next = 0;
  constructor(private readonly log: [number, number][]) {}
  run(end: number): void {
    const start = performance.now();
    while (performance.now() - start < BATCH_MS);
    this.log.push([start, performance.now()]);
    this.next = end;
  }
}

describe('one budget per turn of the event loop', () => {
  it('four passes at once do two budgets of work between two timer turns (three on a loaded machine), not four or more, and all finish', async () => {
    const work: [number, number][] = [];
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(performance.now()), 1);
    ticks.push(performance.now());
    // 30 batches each (BATCH positions a batch): 15 ms of work per pass.
    await Promise.all([0, 1, 2, 3].map(() => runSliced(new BusyPass(work), 30 * 512)));
    clearInterval(timer);
    ticks.push(performance.now());
    expect(work.length).toBe(120);
    let worst = 0;
    for (let k = 1; k < ticks.length; k++) {
      let busy = 0;
      for (const [s, e] of work) busy += Math.max(0, Math.min(e, ticks[k]!) - Math.max(s, ticks[k - 1]!));
      worst = Math.max(worst, busy);
    }
    // A budget per pass made four budgets (and more) between two timer turns.
    expect(worst).toBeLessThanOrEqual(3 * (TURN_BUDGET_MS + BATCH_MS) + 1);
    expect(worst).toBeGreaterThan(TURN_BUDGET_MS / 2);
  });
});
