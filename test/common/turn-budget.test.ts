// Sliced passes that run at once share one budget per turn of the event loop: between two timer
// turns (keys are read right after, and the event loop's delay is measured there) there is about
// one budget's work however many passes are under way, where each pass with a budget of its own
// made one budget each. And they share it in turn: none waits for another to finish.
//
// Windows are read by the batches begun in them, and by the typical window, not the worst: a
// machine under load preempts some batches and stretches some turns.
import {describe, expect, it} from 'vitest';
import {TURN_BUDGET_MS} from '../../src/common/turn-budget.js';
import {runSliced, type SlicedPass} from '../../src/state/core/slices.js';

const BATCH_MS = 0.5;
const BATCHES = 30;

/** A pass whose every batch is BATCH_MS of work, logged with its times and its pass. */
class BusyPass implements SlicedPass {
  next = 0;
  constructor(
    private readonly id: number,
    private readonly log: {pass: number; start: number; end: number}[],
  ) {}
  run(end: number): void {
    const start = performance.now();
    while (performance.now() - start < BATCH_MS);
    this.log.push({pass: this.id, start, end: performance.now()});
    this.next = end;
  }
}

async function fourPasses(): Promise<{work: {pass: number; start: number; end: number}[]; ticks: number[]}> {
  const work: {pass: number; start: number; end: number}[] = [];
  const ticks: number[] = [performance.now()];
  const timer = setInterval(() => ticks.push(performance.now()), 1);
  // BATCHES batches each (runSliced gives a pass 512 positions a batch): 15 ms of work per pass.
  await Promise.all([0, 1, 2, 3].map((id) => runSliced(new BusyPass(id, work), BATCHES * 512)));
  clearInterval(timer);
  ticks.push(performance.now());
  return {work, ticks};
}

describe('one budget per turn of the event loop', () => {
  it('four passes at once do about one budget of work between two timer turns, not four', async () => {
    const {work, ticks} = await fourPasses();
    expect(work.length).toBe(4 * BATCHES);
    // Batches begun between two ticks of a 1 ms timer: counted, not timed, so that a batch a
    // loaded machine preempts (its wall time grows) cannot make a window look fuller than it was.
    const windows: number[] = [];
    for (let k = 1; k < ticks.length; k++) {
      const begun = work.filter(({start}) => start >= ticks[k - 1]! && start < ticks[k]!).length;
      if (begun > 0) windows.push(begun);
    }
    windows.sort((a, b) => a - b);
    const median = windows[Math.floor(windows.length / 2)]!;
    const perBudget = Math.ceil(TURN_BUDGET_MS / BATCH_MS);
    // One budget's batches (~10); a window can hold the end of one stretch and the next (a stretch
    // ends at the first timers phase a millisecond after it began; the ticker's turns fall
    // elsewhere). A budget per pass made the typical window four budgets' worth (~48).
    expect(median).toBeLessThanOrEqual(2 * perBudget + 2);
    expect(median).toBeGreaterThanOrEqual(perBudget / 2);
  });

  it('passes take the budget in turn: when the first is done, the others are well under way', async () => {
    const {work} = await fourPasses();
    // Counted in turns (a run of one pass's batches), not batches: how many batches fit a turn
    // depends on the machine's load, whose turn it is does not.
    const batches = new Map<number, number>();
    const turns = new Map<number, number>();
    let firstDone = -1;
    for (let k = 0; k < work.length; k++) {
      const {pass} = work[k]!;
      if (k === 0 || work[k - 1]!.pass !== pass) turns.set(pass, (turns.get(pass) ?? 0) + 1);
      batches.set(pass, (batches.get(pass) ?? 0) + 1);
      if (batches.get(pass) === BATCHES) {
        firstDone = pass;
        break;
      }
    }
    const own = turns.get(firstDone)!;
    expect(own).toBeGreaterThanOrEqual(3);
    // First come first served: the others had a turn each time it had one (the first pass began
    // before the others asked, so it may be two ahead), where a pass that asked again ahead of
    // them ran to its end before they began.
    for (const pass of [0, 1, 2, 3].filter((p) => p !== firstDone)) expect(turns.get(pass) ?? 0).toBeGreaterThanOrEqual(own - 2);
  });
});
