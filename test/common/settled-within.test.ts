import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {settledWithin} from '../../src/common/settled-within.js';

describe('settledWithin', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is true once the promise resolves, before the time is up', async () => {
    let resolve!: () => void;
    const waiting = settledWithin(new Promise<void>((r) => (resolve = r)), 1500);
    await vi.advanceTimersByTimeAsync(1000);
    resolve();
    await expect(waiting).resolves.toBe(true);
  });

  it('is true for a rejection too (the console reports it once drawn), and never rejects itself', async () => {
    const failed = Promise.reject(new Error('connection refused'));
    await expect(settledWithin(failed, 1500)).resolves.toBe(true);
  });

  it('is false when the time runs out first', async () => {
    const waiting = settledWithin(new Promise<void>(() => undefined), 1500);
    await vi.advanceTimersByTimeAsync(1499);
    let done: boolean | null = null;
    void waiting.then((v) => (done = v));
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(false);
  });
});
