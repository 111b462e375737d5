// The bulk job runner: bounded concurrency, each item once, a clean stop, and a stop of its own
// when the server is gone.
import {describe, expect, it} from 'vitest';
import {ApiError} from '../../src/api/index.js';
import {isServerGone, Job, outcomeUnknown, progressBar, type JobProgress} from '../../src/state/interactions/jobs.js';

const tick = () => new Promise((r) => setTimeout(r, 1));

const apiError = (kind: ConstructorParameters<typeof ApiError>[0]['kind']) => new ApiError({kind, method: 'DELETE', path: '/v0/devices/x', message: kind});

describe('what an error means for the job', () => {
  it('stops the job: the server or the token is gone, or the admin cancelled; not a 404, 422 or 500', () => {
    for (const kind of ['network', 'timeout', 'forbidden', 'cancelled', 'invalid_token', 'no_resource_found', 'unauthenticated'] as const)
      expect(isServerGone(apiError(kind)), kind).toBe(true);
    for (const kind of ['not_found', 'validation', 'server', 'http', 'schema', 'too_large'] as const) expect(isServerGone(apiError(kind)), kind).toBe(false);
    expect(isServerGone(new Error('network'))).toBe(false);
  });

  it('leaves the outcome unknown: no answer came (the write may have been applied)', () => {
    for (const kind of ['network', 'timeout', 'cancelled'] as const) expect(outcomeUnknown(apiError(kind)), kind).toBe(true);
    for (const kind of ['forbidden', 'not_found', 'validation', 'server', 'invalid_token'] as const) expect(outcomeUnknown(apiError(kind)), kind).toBe(false);
    expect(outcomeUnknown(new Error('x'))).toBe(false);
    expect(outcomeUnknown(undefined)).toBe(false);
  });
});

describe('Job', () => {
  it('reports progress as it goes: started, finished, failed; says when it is stopping', async () => {
    const seen: JobProgress[] = [];
    const job = new Job(
      [1, 2, 3],
      async (n: number) => {
        await tick();
        if (n === 2) throw new Error('no');
        return n;
      },
      {concurrency: 1},
    );
    expect(job.stopping).toBe(false);
    const outcome = await job.run((p) => seen.push(p));
    expect(seen[0]).toEqual({total: 3, started: 0, finished: 0, failed: 0, unknown: 0});
    expect(seen.at(-1)).toEqual({total: 3, started: 3, finished: 3, failed: 1, unknown: 0});
    expect(seen.map((p) => p.finished)).toEqual([0, 1, 2, 3]);
    expect(outcome).toMatchObject({notStarted: [], stoppedBy: null, serverError: null});
    expect(outcome.failed).toEqual([{item: 2, reason: 'no', error: new Error('no')}]);
    job.stop();
    expect(job.stopping).toBe(true);
  });

  it('a stop after the last item started is no stop: nothing was left', async () => {
    const job = new Job([1], async (n: number) => n);
    const running = job.run();
    job.stop();
    expect((await running).stoppedBy).toBeNull();
  });

  it('runs every item exactly once with at most `concurrency` in flight, and reports progress', async () => {
    const calls = new Map<number, number>();
    let inFlight = 0;
    let peak = 0;
    const progress: number[] = [];
    const items = Array.from({length: 50}, (_, i) => i);
    const outcome = await new Job(
      items,
      async (i) => {
        calls.set(i, (calls.get(i) ?? 0) + 1);
        inFlight++;
        peak = Math.max(peak, inFlight);
        await tick();
        inFlight--;
        return i * 2;
      },
      {concurrency: 4},
    ).run((p) => progress.push(p.finished));
    expect(peak).toBe(4);
    expect([...calls.values()].every((n) => n === 1)).toBe(true);
    expect(calls.size).toBe(50);
    expect(outcome.done.map((d) => d.result).sort((a, b) => a - b)).toEqual(items.map((i) => i * 2));
    expect(outcome.stoppedBy).toBeNull();
    expect(progress.at(-1)).toBe(50);
  });

  it('without a concurrency given, keeps exactly 4 requests in flight (a 0.7.36 server rewrites WireGuard and nftables on each write)', async () => {
    let inFlight = 0;
    let peak = 0;
    await new Job(
      Array.from({length: 20}, (_, i) => i),
      async () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await tick();
        inFlight--;
      },
    ).run();
    expect(peak).toBe(4);
  });

  it('a failing item is reported with its reason and the rest go on', async () => {
    const outcome = await new Job([1, 2, 3, 4], async (i) => {
      if (i % 2 === 0) throw new Error(`no ${i}`);
      return i;
    }).run();
    expect(outcome.failed.map((f) => [f.item, f.reason])).toEqual([
      [2, 'no 2'],
      [4, 'no 4'],
    ]);
    expect(outcome.done.map((d) => d.item)).toEqual([1, 3]);
    expect(outcome.notStarted).toEqual([]);
  });

  it('stop() starts nothing new; what was in flight finishes; the rest is listed as not started', async () => {
    let started = 0;
    const job: Job<number, number> = new Job(
      Array.from({length: 20}, (_, i) => i),
      async (i) => {
        started++;
        if (started === 6) job.stop();
        await tick();
        return i;
      },
    );
    const outcome = await job.run();
    expect(outcome.stoppedBy).toBe('admin');
    expect(outcome.done.length).toBe(started);
    expect(outcome.done.length + outcome.notStarted.length).toBe(20);
    expect(outcome.notStarted[0]).toBe(started);
  });

  it('a network error stops the job by itself instead of failing every item', async () => {
    const gone = new ApiError({kind: 'network', method: 'DELETE', path: '/v0/devices/x', message: 'Cannot reach 127.0.0.1: ECONNREFUSED'});
    const seen: JobProgress[] = [];
    const outcome = await new Job(
      Array.from({length: 30}, (_, i) => i),
      async (i) => {
        await tick();
        if (i >= 5) throw gone;
        return i;
      },
      {concurrency: 2},
    ).run((p) => seen.push(p));
    // No answer is not a refusal: the progress counts them apart (the write may have been applied).
    expect(seen.at(-1)).toMatchObject({failed: 0, unknown: outcome.failed.length});
    expect(outcome.failed.length).toBeGreaterThan(0);
    expect(outcome.stoppedBy).toBe('server');
    expect(outcome.serverError).toContain('ECONNREFUSED');
    expect(outcome.failed.length).toBeLessThanOrEqual(2);
    expect(outcome.done.length + outcome.failed.length + outcome.notStarted.length).toBe(30);
  });
});

describe('progressBar', () => {
  it('fills in proportion, in Unicode or ASCII', () => {
    expect(progressBar(5, 10, 20, false)).toBe('[███████░░░░░░] 5/10');
    expect(progressBar(5, 10, 20, false)).toHaveLength(20);
    expect(progressBar(10, 10, 20, true)).toBe('[############] 10/10');
    expect(progressBar(0, 0, 12, true)).toBe('[######] 0/0');
  });
});
