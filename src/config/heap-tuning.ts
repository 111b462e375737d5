// V8's heap, set for a console that holds one large list for hours and replaces most of it every
// poll (docs/performance.md, "The heap's settings"). bin.ts applies it before any data is decoded.
import {PerformanceObserver} from 'node:perf_hooks';
import {getHeapSpaceStatistics, setFlagsFromString} from 'node:v8';

/** The next full collection once the old generation has grown this much past what the last one kept (V8 picks 10–300% by itself). */
export const HEAP_GROWING_PERCENT = 20;

/** The young generation (both semi-spaces) grows to this and no further (V8 lets it reach 32 MB, 128 MB on Node 24). */
export const YOUNG_GENERATION_CAP_BYTES = 8 * 1024 * 1024;

export interface HeapTuning {
  /** The flags set so far, in order: the young generation's once it reached the cap. */
  readonly applied: readonly string[];
  /** Stops watching the young generation (it stops by itself once the cap is reached). */
  stop(): void;
}

/** A flag the user gave Node themselves (NODE_OPTIONS, or node's own arguments) is theirs to keep. */
function givenByUser(name: string, execArgv: readonly string[], nodeOptions: string): boolean {
  return execArgv.some((a) => a.includes(name)) || nodeOptions.includes(name);
}

/** Sets the flags below, except those the user set themselves. */
export function tuneHeap(execArgv: readonly string[] = process.execArgv, nodeOptions: string = process.env.NODE_OPTIONS ?? ''): HeapTuning {
  const applied: string[] = [];
  const set = (flag: string) => {
    setFlagsFromString(flag);
    applied.push(flag);
  };
  if (!givenByUser('heap-growing-percent', execArgv, nodeOptions)) set(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);

  // V8 takes a young generation's maximum only at start-up (--max-semi-space-size), but it grows
  // the generation by --semi-space-growth-factor, which it reads at each growth: the generation
  // grows as V8 sees fit up to the cap, and a factor of 1 holds it there. V8 grows it only at a
  // collection, and every collection is reported to a 'gc' observer just after it.
  let observer: PerformanceObserver | null = null;
  const stop = () => {
    observer?.disconnect();
    observer = null;
  };
  if (!givenByUser('semi-space', execArgv, nodeOptions)) {
    const hold = () => {
      if (youngGenerationBytes() < YOUNG_GENERATION_CAP_BYTES) return false;
      set('--semi-space-growth-factor=1');
      stop();
      return true;
    };
    if (!hold()) {
      observer = new PerformanceObserver(hold);
      observer.observe({entryTypes: ['gc']});
    }
  }
  return {applied, stop};
}

/** The young generation's size (both semi-spaces), as V8 reports it. */
export function youngGenerationBytes(): number {
  for (const space of getHeapSpaceStatistics()) if (space.space_name === 'new_space') return space.space_size;
  return 0;
}
