// Device rows over tables made from objects (devices known otherwise than from a body, e.g. in
// tests and after a write): no digests, so an unchanged row is recognised field by field.
import {describe, expect, it} from 'vitest';
import {DeviceColumns} from '../../src/api/device-columns.js';
import type {Device} from '../../src/api/schemas.js';
import {deriveDeviceRows, type DeviceRow} from '../../src/state/data/snapshot.js';
import {device, iso, user} from '../fixtures/data.js';

const USERS = new Map([
  ['u-1', user({id: 'u-1', email: 'Ann@example.com'})],
  ['u-2', user({id: 'u-2', email: 'bob@example.com'})],
]);

describe('rows over tables without digests (devices known as objects)', () => {
  const T = Date.UTC(2026, 0, 1, 12);
  const rows = (list: Device[], previous: DeviceRow[] = []) => deriveDeviceRows(DeviceColumns.from(list), USERS, previous);

  it('keep a row while every field is the same, text times and missing counters included, and make a new one for any change', () => {
    const base = device({
      id: 'a',
      latest_handshake: '2026-01-01T00:00:00Z',
      inserted_at: '2026-01-01T00:00:00+00:00',
      updated_at: iso(T),
      rx_bytes: null,
      remote_ip: null,
    });
    const first = rows([base]);
    expect(rows([{...base}], first)[0]).toBe(first[0]);
    for (const change of [
      {latest_handshake: '2026-01-01T00:00:01Z'},
      {latest_handshake: null},
      {inserted_at: '2026-01-01T00:00:00Z'},
      {inserted_at: iso(0)},
      {updated_at: iso(T + 1000)},
      {rx_bytes: 0},
      {tx_bytes: 5},
      {remote_ip: '84.1.2.3'},
      {user_id: 'u-2'},
      {name: 'other'},
      {description: 'd'},
      {public_key: 'k2'},
      {preshared_key: null},
      {ipv4: '10.3.2.3'},
      {ipv6: null},
      {endpoint: 'elsewhere:51820'},
    ] as Partial<Device>[]) {
      const next = rows([{...base, ...change}], first);
      expect(next[0], JSON.stringify(change)).not.toBe(first[0]);
      expect(next[0]!.toDevice(), JSON.stringify(change)).toEqual({...base, ...change});
    }
  });

  it('rates: bytes over the seconds between two stats samples; none across a counter reset, the same sample time or a missing counter', () => {
    const at = (s: number, rx: number | null, tx: number | null) =>
      device({id: 'a', rx_bytes: rx, tx_bytes: tx, updated_at: iso(T + s * 1000), latest_handshake: iso(T + s * 1000)});
    const r0 = rows([at(0, 1000, 100)]);
    const r1 = rows([at(2, 3000, 100)], r0);
    expect([r1[0]!.rxRate, r1[0]!.txRate]).toEqual([1000, 0]);
    // A counter that went down (the peer was re-added): no rate for it.
    const r2 = rows([at(4, 500, 300)], r1);
    expect([r2[0]!.rxRate, r2[0]!.txRate]).toEqual([null, 100]);
    // New counters with the same sample time: no time to divide by.
    const r3 = rows([at(4, 900, 900)], r2);
    expect(r3[0]!.rxRate).toBeNull();
    // A counter gone missing: no rate for it, the other still has one.
    const r4 = rows([at(6, null, 1100)], r3);
    expect([r4[0]!.rxRate, r4[0]!.txRate]).toEqual([null, 100]);
    const r5 = rows([at(8, 100, 1100)], r4);
    expect([r5[0]!.rxRate, r5[0]!.txRate]).toEqual([null, 0]);
  });
});
