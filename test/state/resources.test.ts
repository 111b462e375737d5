import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {buildSnapshot, currentRate, deviceState, stateCounts, vpnStatus, type Snapshot} from '../../src/state/data/snapshot.js';
import {explainRank, ruleRank, sortRulesByPrecedence} from '../../src/state/data/rule-precedence.js';
import {device, iso, rule, user} from '../fixtures/data.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

function snap(devices: ReturnType<typeof device>[], previous: Snapshot | null = null, users = [user()]) {
  return buildSnapshot({devices, users, rules: [], configuration: null, issues: []}, previous, T0);
}

describe('device state', () => {
  it('online within 180 s of the handshake, idle after, never without one', () => {
    expect(deviceState({handshakeAt: null}, T0)).toBe('never');
    expect(deviceState({handshakeAt: T0 - 180_000}, T0)).toBe('online');
    expect(deviceState({handshakeAt: T0 - 181_000}, T0)).toBe('idle');
  });
});

describe('buildSnapshot', () => {
  it('joins the owner email', () => {
    const s = snap([device()]);
    expect(s.devices[0]!.ownerEmail).toBe('ann@example.com');
  });

  it('rates are Δbytes ÷ Δupdated_at between distinct stats samples, kept until the next sample', () => {
    const first = snap([device({rx_bytes: 1000, tx_bytes: 0, updated_at: iso(T0 - 60_000), latest_handshake: iso(T0 - 60_000)})]);
    expect(first.devices[0]!.rxRate).toBeNull();
    const second = snap([device({rx_bytes: 61_000, tx_bytes: 6000, updated_at: iso(T0), latest_handshake: iso(T0)})], first);
    expect(second.devices[0]!.rxRate).toBe(1000);
    expect(second.devices[0]!.txRate).toBe(100);
    // the next poll sees the same sample: the rate is kept and the row object reused
    const third = snap([device({rx_bytes: 61_000, tx_bytes: 6000, updated_at: iso(T0), latest_handshake: iso(T0)})], second);
    expect(third.devices[0]).toBe(second.devices[0]);
    // a rename bumps updated_at but is not a stats sample
    const renamed = snap([device({name: 'x', rx_bytes: 61_000, tx_bytes: 6000, updated_at: iso(T0 + 5000), latest_handshake: iso(T0)})], third);
    expect(renamed.devices[0]!.rxRate).toBe(1000);
    expect(renamed.devices[0]!.sampleAt).toBe(T0);
  });

  it('a counter that goes down yields no rate; a stale rate reads as unknown', () => {
    const a = snap([device({rx_bytes: 5000, updated_at: iso(T0 - 60_000)})]);
    const b = snap([device({rx_bytes: 10, updated_at: iso(T0)})], a);
    expect(b.devices[0]!.rxRate).toBeNull();
    const c = snap([device({rx_bytes: 70, tx_bytes: 0, updated_at: iso(T0 + 60_000), latest_handshake: iso(T0 + 60_000)})], b);
    expect(currentRate(c.devices[0]!, 'rx', T0 + 60_000)).toBe(1);
    expect(currentRate(c.devices[0]!, 'rx', T0 + 60_000 + 181_000)).toBeNull();
  });

  it('counts devices online, idle and never connected at a given time', () => {
    const s = snap([
      device({id: 'a', latest_handshake: iso(T0 - 60_000)}),
      device({id: 'b', latest_handshake: iso(T0 - 170_000)}),
      device({id: 'c', latest_handshake: iso(T0 - 3_600_000)}),
      device({id: 'd', latest_handshake: null}),
    ]);
    expect(stateCounts(s.devices, T0)).toEqual({online: 2, idle: 1, never: 1});
    // 20 s later b's handshake is past the 3-minute window
    expect(stateCounts(s.devices, T0 + 20_000)).toEqual({online: 1, idle: 2, never: 1});
  });

  it('counts from the handshake column what the rows say, through polls that add, drop and reorder devices (property)', () => {
    // Times the store packs, and forms it keeps as text (an offset, nanoseconds, a date that does not exist).
    const handshake = fc.oneof(
      fc.constant(null),
      fc.integer({min: -400, max: 60}).map((s) => iso(T0 + s * 1000)),
      fc.integer({min: -400, max: 60}).map((s) => new Date(T0 + s * 1000).toISOString().replace('Z', '+00:00')),
      fc.integer({min: -400, max: 60}).map((s) => new Date(T0 + s * 1000).toISOString().replace('Z', '123456Z')),
      fc.constant('2026-02-30T00:00:00Z'),
    );
    const poll = fc.array(fc.record({id: fc.integer({min: 0, max: 30}), hs: handshake}), {maxLength: 40});
    fc.assert(
      fc.property(fc.array(poll, {minLength: 1, maxLength: 4}), fc.integer({min: -200, max: 300}), (polls, at) => {
        let last: Snapshot | null = null;
        for (const p of polls) {
          last = snap(
            p.map((d) => device({id: `d-${d.id}`, latest_handshake: d.hs})),
            last,
          );
          const now = T0 + at * 1000;
          const expected = {online: 0, idle: 0, never: 0};
          for (const row of last.devices) expected[deviceState({handshakeAt: row.handshakeAt}, now)]++;
          expect(stateCounts(last.devices, now)).toEqual(expected);
          // A copy is not a poll's array: counted row by row, the same.
          expect(stateCounts([...last.devices], now)).toEqual(expected);
        }
      }),
      {numRuns: 300},
    );
  });

  it('an idle or never-connected device has no current rate, however fresh its last sample: its last rate is history', () => {
    const a = snap([device({rx_bytes: 0, updated_at: iso(T0), latest_handshake: iso(T0)})]);
    const b = snap([device({rx_bytes: 60_000, updated_at: iso(T0 + 60_000), latest_handshake: iso(T0)})], a);
    expect(b.devices[0]!.rxRate).toBe(1000);
    // online (handshake 60 s ago): the rate
    expect(currentRate(b.devices[0]!, 'rx', T0 + 60_000)).toBe(1000);
    // idle (handshake more than 3 minutes ago), the sample 2 minutes old: no rate, sorts last, '–'
    expect(currentRate(b.devices[0]!, 'rx', T0 + 181_000)).toBeNull();
    const never = snap([device({rx_bytes: 60_000, updated_at: iso(T0 + 60_000), latest_handshake: null})], snap([device({rx_bytes: 0, updated_at: iso(T0)})]));
    expect(currentRate(never.devices[0]!, 'rx', T0 + 60_000)).toBeNull();
  });

  it('a changed effective default (no updated_at change) gives a fresh row', () => {
    const a = snap([device()]);
    const b = snap([device({dns: ['9.9.9.9']})], a);
    expect(b.devices[0]).not.toBe(a.devices[0]);
    expect(b.devices[0]!.settings.dns).toEqual(['9.9.9.9']);
  });

  it('counts devices and rules per user', () => {
    const s = buildSnapshot(
      {devices: [device(), device({id: 'd-2'})], users: [user()], rules: [rule({user_id: 'u-1'}), rule({id: 'r-2'})], configuration: null, issues: []},
      null,
      T0,
    );
    expect(s.deviceCountByUser.get('u-1')).toBe(2);
    expect(s.ruleCountByUser.get('u-1')).toBe(1);
  });
});

describe('vpnStatus (0.7.36 rules)', () => {
  it('disabled wins', () => {
    expect(vpnStatus(user({disabled_at: iso(T0)}), 0, T0)).toBe('DISABLED');
  });
  it('expired only when sessions expire and the user signed in long enough ago', () => {
    const signedIn = user({last_signed_in_at: iso(T0 - 2 * 3600_000)});
    expect(vpnStatus(signedIn, 3600, T0)).toBe('EXPIRED');
    expect(vpnStatus(signedIn, 86400, T0)).toBe('ENABLED');
    expect(vpnStatus(signedIn, 0, T0)).toBe('ENABLED');
    expect(vpnStatus(signedIn, 2147483647, T0)).toBe('ENABLED');
    expect(vpnStatus(user(), 3600, T0)).toBe('ENABLED');
  });
});

// See docs/firezone-0.7.36.md, "Rules and nftables precedence".
describe('rule precedence', () => {
  it('per-user before global, port rules before port-less, accept before drop', () => {
    const rules = [
      rule({id: 'global-drop'}),
      rule({id: 'global-accept', action: 'accept'}),
      rule({id: 'global-port-drop', port_type: 'tcp', port_range: '80'}),
      rule({id: 'user-drop', user_id: 'u-1'}),
      rule({id: 'user-port-accept', user_id: 'u-1', action: 'accept', port_type: 'udp', port_range: '53'}),
    ];
    expect(sortRulesByPrecedence(rules, () => 'ann@example.com').map((r) => r.id)).toEqual([
      'user-port-accept',
      'user-drop',
      'global-port-drop',
      'global-accept',
      'global-drop',
    ]);
    expect(ruleRank(rule({user_id: 'u', action: 'accept', port_type: 'tcp'}))).toBe(0);
    expect(ruleRank(rule())).toBe(7);
  });

  it('says why in words that hold across kinds: a port drop is checked before a port-less accept, not overridden by it', () => {
    expect(explainRank(rule({port_type: 'tcp', port_range: '80'}))).toBe(
      'global rule, checked after every per-user rule; port-specific (checked before port-less); drop, checked after an accept of the same kind',
    );
    expect(explainRank(rule({user_id: 'u-1', action: 'accept'}))).toBe(
      'per-user rule, checked before global rules; port-less; accept, checked before a drop of the same kind',
    );
  });
});
