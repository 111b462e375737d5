import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {backoffDelay, liveLabel, Poller, type PollStatus} from '../../src/state/data/poller.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function setup(intervalMs: number, fetch: () => Promise<number>) {
  const data: number[] = [];
  const statuses: PollStatus[] = [];
  const poller = new Poller<number>({intervalMs, fetch, onData: (d) => data.push(d), onStatus: (s) => statuses.push(s)});
  return {poller, data, statuses, last: () => statuses[statuses.length - 1]!};
}

describe('Poller', () => {
  it('does not retry by itself an error that would only come again (a body over the limit): r tries', async () => {
    let calls = 0;
    let tooLarge = true;
    const data: number[] = [];
    const statuses: PollStatus[] = [];
    const poller = new Poller<number>({
      intervalMs: 1000,
      fetch: async () => {
        calls++;
        if (tooLarge) throw new Error('too large');
        return calls;
      },
      onData: (d) => data.push(d),
      onStatus: (st) => statuses.push(st),
      retryable: (err) => (err as Error).message !== 'too large',
    });
    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    expect(statuses.at(-1)).toMatchObject({mode: 'backoff', retryStopped: true, nextAt: null});
    expect(liveLabel(statuses.at(-1)!, Date.now())).toBe('stopped · r retries');
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toBe(1);
    tooLarge = false;
    poller.refreshNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(data).toEqual([2]);
    expect(statuses.at(-1)).toMatchObject({mode: 'live', retryStopped: false});
    poller.stop();
  });

  it('polls every interval and delivers one data callback per cycle', async () => {
    let n = 0;
    const {poller, data, last} = setup(5000, async () => ++n);
    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(data).toEqual([1]);
    expect(last().mode).toBe('live');
    await vi.advanceTimersByTimeAsync(5000);
    await vi.advanceTimersByTimeAsync(5000);
    expect(data).toEqual([1, 2, 3]);
    poller.stop();
  });

  it('pause stops scheduling (no timers), resume restarts, r refreshes while paused', async () => {
    let n = 0;
    const {poller, data, last} = setup(5000, async () => ++n);
    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    poller.setPaused(true);
    expect(last().mode).toBe('paused');
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(data).toEqual([1]);
    poller.refreshNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(data).toEqual([1, 2]);
    expect(vi.getTimerCount()).toBe(0);
    poller.setPaused(false);
    await vi.advanceTimersByTimeAsync(5000);
    expect(data).toEqual([1, 2, 3]);
    poller.stop();
  });

  it('holds while a dialog is open', async () => {
    let n = 0;
    const {poller, data} = setup(1000, async () => ++n);
    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    poller.setHeld(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(data).toEqual([1]);
    // The data is older than one interval: closing the dialog refreshes at once.
    poller.setHeld(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(data).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(data).toEqual([1, 2, 3]);
    poller.stop();
  });

  it('a hold or a pause is said in one status, with what follows it (a cycle or the next one’s time)', async () => {
    let n = 0;
    const {poller, statuses, last} = setup(1000, async () => ++n);
    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    const said = () => statuses.splice(0);
    said();
    poller.setHeld(true);
    expect(said()).toEqual([expect.objectContaining({held: true, nextAt: null, inFlight: false})]);
    poller.setHeld(true);
    expect(said()).toEqual([]);
    // Stale by now: released, it starts a cycle, and that is the one status.
    await vi.advanceTimersByTimeAsync(5000);
    poller.setHeld(false);
    expect(said()).toEqual([expect.objectContaining({held: false, inFlight: true})]);
    await vi.advanceTimersByTimeAsync(0);
    said();
    // Fresh: paused, then resumed within the interval, each is one status with its schedule.
    poller.setPaused(true);
    expect(said()).toEqual([expect.objectContaining({paused: true, mode: 'paused', nextAt: null})]);
    poller.setPaused(false);
    expect(said()).toEqual([expect.objectContaining({paused: false, mode: 'live', nextAt: Date.now() + 1000})]);
    // Released, stale, while a cycle is in flight: the release is said, and no second cycle starts.
    poller.setHeld(true);
    await vi.advanceTimersByTimeAsync(5000);
    const before = n;
    poller.refreshNow();
    said();
    poller.setHeld(false);
    expect(said()).toEqual([expect.objectContaining({held: false, inFlight: true})]);
    await vi.advanceTimersByTimeAsync(0);
    expect(n).toBe(before + 1);
    expect(last()).toMatchObject({held: false, inFlight: false, mode: 'live'});
    poller.stop();
  });

  it('resuming after a pause refreshes at once when the data is stale, and the label shows its time', async () => {
    let n = 0;
    const {poller, data} = setup(1000, async () => ++n);
    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    poller.setPaused(true);
    expect(liveLabel(poller.current, Date.now() + 60_000)).toMatch(/^PAUSED · data of \d\d:\d\d:\d\d$/);
    await vi.advanceTimersByTimeAsync(5000);
    expect(data).toEqual([1]);
    poller.setPaused(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(data).toEqual([1, 2]);
    poller.stop();
  });

  it('backs off 1, 2, 4 … s on errors, shows the countdown and recovers by itself', async () => {
    let fail = true;
    let n = 0;
    const {poller, data, last} = setup(5000, async () => {
      if (fail) throw new Error('down');
      return ++n;
    });
    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(last().mode).toBe('backoff');
    expect(last().failures).toBe(1);
    expect(liveLabel(last(), Date.now())).toBe('offline · retry in 1s');
    await vi.advanceTimersByTimeAsync(1000);
    expect(last().failures).toBe(2);
    expect(liveLabel(last(), Date.now())).toBe('offline · retry in 2s');
    await vi.advanceTimersByTimeAsync(2000);
    expect(last().failures).toBe(3);
    fail = false;
    await vi.advanceTimersByTimeAsync(4000);
    expect(data).toEqual([1]);
    expect(last().mode).toBe('live');
    expect(last().failures).toBe(0);
    poller.stop();
  });

  it('manual mode (interval 0) never schedules while healthy', async () => {
    const {poller, last} = setup(0, async () => 1);
    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(last().mode).toBe('manual');
    expect(vi.getTimerCount()).toBe(0);
    poller.stop();
  });

  it('a refresh asked for while a cycle is in flight runs once that cycle ends (a write is never shown only by a poll that began before it)', async () => {
    const releases: Array<() => void> = [];
    let calls = 0;
    const {poller, data, last} = setup(0, () => {
      const n = ++calls;
      return new Promise<number>((resolve) => releases.push(() => resolve(n)));
    });
    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    // Two writes land while the first cycle is in flight: one more cycle serves both.
    poller.refreshNow();
    poller.refreshNow();
    expect(calls).toBe(1);
    releases[0]!();
    await vi.advanceTimersByTimeAsync(0);
    expect(data).toEqual([1]);
    expect(calls).toBe(2);
    expect(last().inFlight).toBe(true);
    releases[1]!();
    await vi.advanceTimersByTimeAsync(0);
    expect(data).toEqual([1, 2]);
    expect(calls).toBe(2);
    expect(last()).toMatchObject({inFlight: false, mode: 'manual'});
    expect(vi.getTimerCount()).toBe(0);
    poller.stop();
  });

  it('r while a cycle is in flight is served by it (no second fetch); a write asked for then, stopped before it ends, starts none', async () => {
    const releases: Array<() => void> = [];
    let calls = 0;
    const {poller, data} = setup(0, () => {
      const n = ++calls;
      return new Promise<number>((resolve) => releases.push(() => resolve(n)));
    });
    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    poller.refreshIfIdle();
    releases[0]!();
    await vi.advanceTimersByTimeAsync(0);
    expect([calls, data]).toEqual([1, [1]]);
    // Idle now: r fetches.
    poller.refreshIfIdle();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(2);
    poller.refreshNow();
    poller.stop();
    releases[1]!();
    await vi.advanceTimersByTimeAsync(0);
    expect([calls, data]).toEqual([2, [1]]);
  });

  it('a refresh asked for while a failing cycle is in flight still runs', async () => {
    let calls = 0;
    const rejects: Array<() => void> = [];
    const {poller, data} = setup(0, () => {
      calls++;
      if (calls === 1) return new Promise<number>((_, reject) => rejects.push(() => reject(new Error('down'))));
      return Promise.resolve(calls);
    });
    poller.start();
    await vi.advanceTimersByTimeAsync(0);
    poller.refreshNow();
    rejects[0]!();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(2);
    expect(data).toEqual([2]);
    poller.stop();
  });

  it('back-off caps at 60 s', () => {
    expect([1, 2, 3, 7, 8, 50].map(backoffDelay)).toEqual([1000, 2000, 4000, 60000, 60000, 60000]);
  });
});
