// A poll's device table told across the thread boundary (src/api/device-delta.ts): poll after poll
// of random edits, the table the console's thread rebuilds from what the decoding thread told
// (structured-cloned, as postMessage does) equals, slot by slot, the table the decoder made —
// every value, the digests the next derivation compares, and the interned values shared.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {DeviceColumns, DevicePools} from '../../src/api/device-columns.js';
import {applyDelta, DeltaMismatch, encodeDelta, internTold, TOLD_PER_PIECE, type Delta} from '../../src/api/device-delta.js';
import {device, iso} from '../fixtures/data.js';
import {poll} from '../fixtures/device-store.js';

const body = (items: Record<string, unknown>[]) => JSON.stringify({data: items});

const deviceArb = fc
  .record({
    n: fc.nat(30),
    owner: fc.constantFrom('u-1', 'u-2'),
    name: fc.oneof(fc.constantFrom('laptop', 'phone', 'é😀', '"q"'), fc.string({maxLength: 6})),
    description: fc.option(fc.constantFrom('desk', 'x\\y')),
    rx: fc.option(fc.nat()),
    handshake: fc.option(
      fc.oneof(
        fc.integer({min: 0, max: 8e12}).map((ms) => iso(ms)),
        fc.constant('2026-01-01T00:00:00Z'),
      ),
    ),
    remote: fc.option(fc.constantFrom('84.1.2.3', '2001:db8::1')),
    dns: fc.option(fc.constantFrom(['1.1.1.1'], ['9.9.9.9', '8.8.8.8']).map((l) => [...l])),
    psk: fc.boolean(),
  })
  .map(
    (r) =>
      device({
        id: `d-${r.n}`,
        user_id: r.owner,
        name: r.name,
        description: r.description,
        rx_bytes: r.rx,
        latest_handshake: r.handshake,
        remote_ip: r.remote,
        dns: r.dns,
        preshared_key: r.psk ? `psk-${r.n}` : null,
      }) as unknown as Record<string, unknown>,
  );

type Edit = {kind: 'stats' | 'change' | 'insert' | 'delete' | 'swap' | 'none'; at: number; other: number; device: Record<string, unknown>; rx: number};
const editArb: fc.Arbitrary<Edit> = fc.record({
  // Mostly what 0.7.36 changes between polls: the stats alone, or nothing.
  kind: fc.constantFrom('stats', 'stats', 'stats', 'none', 'change', 'insert', 'delete', 'swap'),
  at: fc.nat(),
  other: fc.nat(),
  device: deviceArb,
  rx: fc.nat(),
});

function edit(list: Record<string, unknown>[], e: Edit): Record<string, unknown>[] {
  const next = [...list];
  const at = next.length === 0 ? 0 : e.at % next.length;
  if (e.kind === 'insert') next.splice(e.at % (next.length + 1), 0, e.device);
  else if (next.length === 0) return next;
  else if (e.kind === 'stats') next[at] = {...next[at], rx_bytes: e.rx, updated_at: iso(1_800_000_000_000 + e.rx)};
  else if (e.kind === 'change') next[at] = {...e.device, id: next[at]!.id};
  else if (e.kind === 'delete') next.splice(at, 1);
  else if (e.kind === 'swap') [next[at], next[e.other % next.length]] = [next[e.other % next.length]!, next[at]!];
  return next;
}

/** Every column of two tables, slot by slot. */
function expectSame(mine: DeviceColumns, theirs: DeviceColumns, what: string): void {
  expect(mine.length, what).toBe(theirs.length);
  expect(mine.materialiseAll(), what).toEqual(theirs.materialiseAll());
  expect([...mine.digest], what).toEqual([...theirs.digest.slice(0, 4 * theirs.length)]);
  expect([...mine.hashed], what).toEqual([...theirs.hashed.slice(0, theirs.length)]);
  for (let i = 0; i < mine.length; i++) expect(mine.sameBytes(i, theirs, i) || theirs.hashed[i] === 0, what).toBe(true);
}

/** Through the boundary: what postMessage hands the other thread, each piece interned as it arrives. */
const across = (delta: Delta, pools = new DevicePools()): Delta => {
  const copy = structuredClone(delta);
  return {head: copy.head, pieces: copy.pieces.map((p) => internTold(p, pools))};
};

describe('a device table told across threads', () => {
  it('rebuilds, poll after poll of random edits, the table the decoder made', () => {
    fc.assert(
      fc.property(fc.array(deviceArb, {maxLength: 25}), fc.array(fc.array(editArb, {maxLength: 4}), {minLength: 1, maxLength: 6}), (first, rounds) => {
        const theirPools = new DevicePools();
        const myPools = new DevicePools();
        let list = first;
        let theirs = poll(DeviceColumns.EMPTY, theirPools, Buffer.from(body(list)), []).table;
        let told: DeviceColumns | null = null;
        let mine = DeviceColumns.EMPTY;
        for (const [n, edits] of [[], ...rounds].entries()) {
          if (n > 0) {
            list = edits.reduce(edit, list);
            theirs = poll(theirs, theirPools, Buffer.from(body(list)), [0.5]).table;
          }
          const delta = across(encodeDelta(told, theirs), myPools);
          mine = applyDelta(mine, delta);
          told = theirs;
          expectSame(mine, theirs, `poll ${n}`);
        }
      }),
      {numRuns: 150},
    );
  });

  it('tells nothing but the new columns when no device was added, moved or edited, and shares the kept values', () => {
    const list = Array.from({length: 50}, (_, i) => device({id: `d-${i}`, rx_bytes: i, remote_ip: '84.1.2.3'}) as unknown as Record<string, unknown>);
    const pools = new DevicePools();
    const first = poll(DeviceColumns.EMPTY, pools, Buffer.from(body(list)), []).table;
    const mine1 = applyDelta(DeviceColumns.EMPTY, across(encodeDelta(null, first)));
    // Poll 1 told every slot whole; poll 2 changes the stats of two devices only (one roams).
    const changed = list.map((d, i) => (i === 3 ? {...d, rx_bytes: 999} : i === 7 ? {...d, remote_ip: '84.9.9.9', rx_bytes: 5} : d));
    const second = poll(first, pools, Buffer.from(body(changed)), []).table;
    const delta = encodeDelta(first, second);
    expect(delta.head.from).toBeNull();
    expect(delta.pieces).toEqual([]);
    expect([...delta.head.remoteSlots]).toEqual([7]);
    const mine2 = applyDelta(mine1, across(delta));
    expectSame(mine2, second, 'stats only');
    // The values kept are the console's own arrays, not copies.
    expect(mine2.id).toBe(mine1.id);
    expect(mine2.name).toBe(mine1.name);
    expect(mine2.rx(3)).toBe(999);
    expect(mine2.remoteIp[7]).toBe('84.9.9.9');
  });

  it('tells a large first table in pieces a few ms each to receive, and a table that does not fit is refused', () => {
    const n = TOLD_PER_PIECE * 2 + 5;
    const table = DeviceColumns.from(Array.from({length: n}, (_, i) => device({id: `d-${i}`, name: `n${i}`})));
    const delta = encodeDelta(null, table);
    expect(delta.pieces.map((p) => p.id.length)).toEqual([TOLD_PER_PIECE, TOLD_PER_PIECE, 5]);
    expect(delta.head.told).toBe(n);
    const mine = applyDelta(DeviceColumns.EMPTY, across(delta));
    expectSame(mine, table, 'pieces');
    // A piece lost, or a delta meant for another table: said, never a wrong table.
    expect(() => applyDelta(DeviceColumns.EMPTY, {...delta, pieces: delta.pieces.slice(1)})).toThrow(DeltaMismatch);
    const next = DeviceColumns.from(Array.from({length: 3}, (_, i) => device({id: `d-${i}`, name: `n${i}`})));
    const kept = encodeDelta(next, next);
    expect(kept.head.from).toBeNull();
    expect(() => applyDelta(mine, kept)).toThrow(DeltaMismatch);
    const moved = encodeDelta(table, DeviceColumns.from([device({id: 'd-1', name: 'n1'})]));
    expect(() => applyDelta(DeviceColumns.EMPTY, moved)).toThrow(DeltaMismatch);
  });
});
