// How long the console waits for its first poll before drawing anything (bin.ts for a server,
// cli.tsx for --demo): the first frame shows the data, unless the server is slow, in which case the
// "loading" screen is better than a terminal that shows nothing. See docs/performance.md, "Start-up".

/** Past this, a slow server gets the console's "loading" screen instead of a terminal that shows nothing. */
export const FIRST_DATA_WAIT_MS = 1500;

/**
 * True once `promise` has settled (resolved or rejected: a failure is the console's to report once
 * it is drawn), false if `ms` passed first. Never rejects.
 */
export function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const done = () => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(done, done);
  });
}
