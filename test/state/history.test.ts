import {describe, expect, it} from 'vitest';
import {decodeRate, encodeRate, TrafficHistory} from '../../src/state/tracking/traffic-history.js';
import {buildSnapshot, type Snapshot} from '../../src/state/data/snapshot.js';
import {device, iso, user} from '../fixtures/data.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

/** Polls one second apart, each device's counters growing by `rate(i, poll)` bytes a second. */
function polls(count: number, devices: number, rate: (i: number, poll: number) => number, onPoll: (s: Snapshot, at: number) => void) {
  let prev: Snapshot | null = null;
  const rx = new Array<number>(devices).fill(0);
  for (let p = 0; p < count; p++) {
    const at = T0 + p * 1000;
    const list = [];
    for (let i = 0; i < devices; i++) {
      rx[i]! += rate(i, p);
      list.push(device({id: `d-${i}`, rx_bytes: rx[i]!, tx_bytes: rx[i]! * 2, latest_handshake: iso(at), updated_at: iso(at)}));
    }
    prev = buildSnapshot({devices: list, users: [user()], rules: [], configuration: null, issues: []}, prev, at);
    onPoll(prev, at);
  }
}

describe('rate encoding', () => {
  it('a byte per sample, within 6% of the rate, null kept apart', () => {
    for (const r of [0, 1, 10, 999, 123_456, 1e9, 5e11]) {
      const back = decodeRate(encodeRate(r))!;
      expect(Math.abs(back - r)).toBeLessThanOrEqual(Math.max(0.1, r * 0.06));
      expect(encodeRate(r)).toBeLessThan(255);
    }
    expect(decodeRate(encodeRate(null))).toBeNull();
    expect(encodeRate(1e30)).toBe(254);
  });
});

describe('TrafficHistory', () => {
  it('a device series follows its rate, oldest first, newest last', () => {
    const h = new TrafficHistory({samples: 8});
    polls(
      5,
      1,
      (_i, p) => (p + 1) * 1000,
      (s, at) => h.record(s, at),
    );
    const rx = h.series('d-0', 'rx');
    // The first poll has no rate yet (one sample), so the series starts at the second.
    expect(rx).toHaveLength(4);
    rx.forEach((v, k) => expect(v! / ((k + 2) * 1000)).toBeCloseTo(1, 1));
    expect(h.series('d-0', 'tx')[3]! / 10_000).toBeCloseTo(1, 1);
    expect(h.total('rx').slice(1)).toEqual([2000, 3000, 4000, 5000]);
    expect(h.total('rx')[0]).toBeNull();
    expect(h.totalTimes()).toHaveLength(5);
  });

  it('trend: ↑/↓ of the last poll beyond one encoding step, faded after a while', () => {
    const h = new TrafficHistory();
    const rates = [1000, 1000, 4000, 4100, 1000];
    const seen: (string | null)[] = [];
    polls(
      6,
      1,
      (_i, p) => rates[p - 1] ?? 0,
      (s, at) => {
        h.record(s, at);
        seen.push(h.trend('d-0', 'rx', at));
      },
    );
    // poll 0: no rate; 1: first rate; 2: same; 3: ×4; 4: +2.5% (within a step: the ↑ of poll 3
    // stays, a second later); 5: back down
    expect(seen).toEqual([null, null, null, 'up', 'up', 'down']);
    expect(h.trend('d-0', 'rx', T0 + 5000 + 5000)).toBeNull();
    expect(h.trend('nope', 'rx', T0 + 5000)).toBeNull();
  });

  it('trend: the arrow stays while polls repeat the same stats sample, and fades 5 s after the move', () => {
    const h = new TrafficHistory();
    // A new stats sample every 3 polls (one a second): the arrow must not blink off in between.
    const rates = [1000, 1000, 1000, 8000, 8000, 8000, 8000, 8000, 8000, 8000];
    const seen: (string | null)[] = [];
    polls(
      rates.length,
      1,
      (_i, p) => rates[p - 1] ?? 0,
      (s, at) => {
        h.record(s, at);
        seen.push(h.trend('d-0', 'rx', at));
      },
    );
    // The move shows at poll 4 (rates[3]) and stays through the polls 1–4 s after it.
    expect(seen.slice(4)).toEqual(['up', 'up', 'up', 'up', 'up', null]);
  });

  it('is bounded per device and in total, however long the session', () => {
    const h = new TrafficHistory({samples: 10, totalSamples: 20});
    polls(
      50,
      3,
      () => 100,
      (s, at) => h.record(s, at),
    );
    expect(h.series('d-0', 'rx')).toHaveLength(10);
    expect(h.total('rx')).toHaveLength(20);
    const bytes = h.byteLength;
    polls(
      50,
      3,
      () => 100,
      (s, at) => h.record(s, at),
    );
    expect(h.byteLength).toBe(bytes);
  });

  it('devices that never move traffic take no space; deleted devices free theirs', () => {
    const h = new TrafficHistory({samples: 4});
    polls(
      3,
      10,
      (i) => (i < 2 ? 500 : 0),
      (s, at) => h.record(s, at),
    );
    expect(h.tracked).toBe(2);
    expect(h.series('d-5', 'rx')).toEqual([]);
    h.record(buildSnapshot({devices: [], users: [], rules: [], configuration: null, issues: []}, null, T0 + 10_000));
    expect(h.tracked).toBe(0);
  });

  describe('slots reserved ahead by a pass that was not recorded (prepare() made for another poll)', () => {
    const at = (k: number) => T0 + k * 10_000;
    const x = (k: number, rx: number, sampleAt = at(k)) =>
      device({id: 'x', rx_bytes: rx, tx_bytes: 0, updated_at: iso(sampleAt), latest_handshake: iso(at(k))});
    const snap = (prev: Snapshot | null, k: number, ...devices: ReturnType<typeof device>[]) =>
      buildSnapshot({devices, users: [user()], rules: [], configuration: null, issues: []}, prev, at(k));
    const s0 = snap(null, 0, x(0, 0));
    // x moves 100 B/s: a pass over this poll reserves x a slot.
    const s1 = snap(s0, 1, x(1, 1000));

    /** `first` recorded by both; `ahead` prepares `passed` (a pass not recorded); then both record `last`. */
    async function plainAndAhead(first: Snapshot, passed: Snapshot, last: Snapshot, whilePrepared?: (ahead: TrafficHistory) => void) {
      const plain = new TrafficHistory({samples: 8});
      const ahead = new TrafficHistory({samples: 8});
      plain.record(first);
      ahead.record(first);
      await ahead.prepare(passed);
      whilePrepared?.(ahead);
      plain.record(last);
      ahead.record(last);
      return {plain, ahead};
    }

    it('are no history for a device that does not move in the poll recorded', async () => {
      // The same counters at a new handshake: x is listed, at 0 B/s.
      const {plain, ahead} = await plainAndAhead(s0, s1, snap(s1, 2, x(2, 1000)));
      expect(ahead.tracked).toBe(plain.tracked);
      expect(ahead.tracked).toBe(0);
      expect(ahead.series('x', 'rx')).toEqual([]);
    });

    it('are taken by a device that moves, and a later row of the same id writes there', async () => {
      // x listed twice: moving (2000 bytes), then at 0 B/s; the later row's sample is the one kept.
      const {plain, ahead} = await plainAndAhead(s0, s1, snap(s1, 3, x(3, 2000), x(3, 1000)));
      expect(plain.series('x', 'rx')).toEqual([0]);
      expect(ahead.series('x', 'rx')).toEqual(plain.series('x', 'rx'));
      expect(ahead.tracked).toBe(1);
    });

    it('an id listed twice keeps one slot when its place without history moves next poll', () => {
      // Poll 1: d idle, then d at 100 B/s (the slot is the second place's); poll 2: d moves at
      // both places. The first place knew no slot: it must find the one d has, not take another.
      const d = (k: number, rx: number) => device({id: 'd', rx_bytes: rx, tx_bytes: 0, updated_at: iso(at(k)), latest_handshake: iso(at(k))});
      const q0 = snap(null, 0, device({id: 'd', rx_bytes: 0, tx_bytes: 0, updated_at: iso(at(0))}), d(0, 0));
      const q1 = snap(q0, 1, device({id: 'd', rx_bytes: 0, tx_bytes: 0, updated_at: iso(at(0))}), d(1, 1000));
      const q2 = snap(q1, 2, d(2, 3000), d(2, 2000));
      const history = new TrafficHistory({samples: 8});
      for (const s of [q0, q1, q2]) history.record(s);
      expect(history.tracked).toBe(1);
      // Both polls that moved, in one series; the later place's rate is the one kept (100 B/s).
      const series = history.series('d', 'rx');
      expect(series.length).toBe(2);
      for (const rate of series) expect(rate).toBeCloseTo(100, -1);
      // Gone from the next poll: its slot is freed.
      history.record(snap(q2, 3));
      expect(history.tracked).toBe(0);
    });

    it('an id listed twice keeps its history when only its place without a slot is listed next', async () => {
      // Poll 1: d idle at the first place, moving at the second (the slot is the second place's).
      // Poll 2: only the first row is listed, idle: d is still listed, so its history goes on (an
      // unknown sample), made ahead or not. The first place had said "no slot": d was dropped.
      const idle = () => device({id: 'd', rx_bytes: 0, tx_bytes: 0, updated_at: iso(at(0))});
      const d = (k: number, rx: number) => device({id: 'd', rx_bytes: rx, tx_bytes: 0, updated_at: iso(at(k)), latest_handshake: iso(at(k))});
      const q0 = snap(null, 0, idle(), d(0, 0));
      const q1 = snap(q0, 1, idle(), d(1, 1000));
      const q2 = snap(q1, 2, idle());
      for (const prepared of [false, true]) {
        const history = new TrafficHistory({samples: 8});
        for (const s of [q0, q1, q2]) {
          if (prepared) await history.prepare(s);
          history.record(s);
        }
        expect(history.tracked).toBe(1);
        expect(history.series('d', 'rx')).toEqual([expect.closeTo(100, -1), null]);
      }
    });

    it('are freed by the next record, even one that lists an id twice', async () => {
      const r = (k: number, rx: number) => device({id: 'r', rx_bytes: rx, tx_bytes: 0, updated_at: iso(at(k)), latest_handshake: iso(at(k))});
      const p0 = snap(null, 0, x(0, 0), r(0, 0));
      const p1 = snap(p0, 1, x(1, 1000), r(1, 1000));
      // r is gone; x, moving, is listed twice (as many rows as slots held: x's and r's reservation).
      const p2 = snap(p1, 2, x(2, 2000), x(2, 2000));
      const {plain, ahead} = await plainAndAhead(p0, p1, p2, (h) => expect(h.tracked).toBe(2));
      expect(plain.tracked).toBe(1);
      expect(ahead.tracked).toBe(1);
      expect(ahead.series('r', 'rx')).toEqual([]);
    });
  });

  it('at 50k devices × 120 samples the device buffers stay under 13 MB', () => {
    const h = new TrafficHistory();
    const rows = Array.from({length: 50_000}, (_, i) => ({
      id: `d-${i}`,
      rxRate: 1000 + i,
      txRate: 10,
      sample: {rx: 0, tx: 0, at: T0},
      // online: only an online device has a current rate to record
      handshakeAt: T0,
    }));
    const s = {devices: rows, fetchedAt: T0} as unknown as Snapshot;
    for (let p = 0; p < 130; p++) h.record(s, T0 + p);
    expect(h.tracked).toBe(50_000);
    expect(h.byteLength).toBeLessThan(13 * 1024 * 1024 + 3600 * 8 * 3);
    expect(h.series('d-49999', 'rx')).toHaveLength(120);
  });
});

describe("a device detail's traffic history", () => {
  it('never shows a peak below the rate it shows now (the history keeps rates rounded)', async () => {
    const {SCREEN_SPECS} = await import('../../src/state/screens/index.js');
    const {formatRate} = await import('../../src/state/data/format.js');
    // A rate the one-byte encoding rounds down.
    let rate = 5000;
    while (decodeRate(encodeRate(rate))! >= rate) rate += 37;
    const h = new TrafficHistory({samples: 8});
    let last: Snapshot | null = null;
    let lastAt = 0;
    polls(
      4,
      1,
      () => rate,
      (s, at) => {
        h.record(s, at);
        last = s;
        lastAt = at;
      },
    );
    const snapshot = last! as Snapshot;
    const row = snapshot.devices[0]!;
    const lines = SCREEN_SPECS.devices.detail(row, {snapshot, now: lastAt, reveal: false, history: h});
    const value = (label: string) => lines.find((l) => l.label === label)!.value;
    expect(value('Received')).toContain(formatRate(rate));
    expect(value('rx/s history')).toMatch(new RegExp(`peak ${formatRate(rate).replace('.', '\\.')}$`));
  });
});
