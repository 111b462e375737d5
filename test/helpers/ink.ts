// Shared by the ink-testing-library suites: wait for frame content, press keys one by one.

// eslint-disable-next-line no-control-regex
export const strip = (s: string | undefined): string => (s ?? '').replace(/\x1b\[[0-9;]*m/g, '');

/** Polls the last frame until it contains `test`; never a fixed sleep. */
export async function waitFor(read: () => string | undefined, test: string | RegExp, timeoutMs = 8000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    last = strip(read());
    if (typeof test === 'string' ? last.includes(test) : test.test(last)) return last;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${String(test)}; last frame:\n${last}`);
}

/** One key per write, with a scheduler turn between (docs/terminal-notes.md, "ink-testing-library" and "Key events"). */
export async function press(stdin: {write: (s: string) => void}, ...keys: string[]): Promise<void> {
  for (const key of keys) {
    stdin.write(key);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setTimeout(r, 0));
  }
}
