// What a poll's data keeps alive after its snapshot is built. A row that changes keeps pointing at
// the table of the poll before (src/state/data/device-rows.ts), so an old array of rows holds one
// old table per poll since it was made (~5 MB each at 50k devices). The first poll's data stays
// with the session for as long as the console runs (its promise is held by bin.ts and cli.tsx):
// when the rows derived for it were kept beside it, the console grew by a table a poll (the
// built binary at 50k, live 1 s: VmRSS 177 → 253 MB in 40 s; 172 → 190 MB without).
import {setFlagsFromString} from 'node:v8';
import {runInNewContext} from 'node:vm';
import {describe, expect, it} from 'vitest';
import {buildSnapshot, prepareSnapshot, type FetchedData, type Snapshot} from '../../src/state/data/snapshot.js';
import type {Device} from '../../src/api/schemas.js';
import {device, iso, user} from '../fixtures/data.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const users = [user({id: 'u-1', email: 'ann@example.com'})];
const T0 = Date.parse('2026-11-01T00:00:00Z');

function poll(devices: Device[]): FetchedData {
  return {devices, users, rules: [], configuration: null, issues: []};
}

const stats = (rx: number, at: number): Partial<Device> => ({rx_bytes: rx, tx_bytes: rx, latest_handshake: iso(at), updated_at: iso(at)});

describe('a poll whose data outlives its snapshot', () => {
  it('does not keep the tables of later polls', async () => {
    const a = (rx: number, at: number) => device({id: 'd-a', user_id: 'u-1', name: 'a', ...stats(rx, at)});
    const b = (rx: number, at: number) => device({id: 'd-b', user_id: 'u-1', name: 'b', ...stats(rx, at)});
    // Kept to the end, as the session keeps the first poll's.
    const first = poll([a(1, T0), b(1, T0)]);
    await prepareSnapshot(first);
    let snapshot: Snapshot = buildSnapshot(first, null, T0);
    const build = async (data: FetchedData, at: number) => {
      await prepareSnapshot(data);
      snapshot = buildSnapshot(data, snapshot, at);
    };
    // Poll 2: a changes (a new row in table 2); b's first row is re-pointed at table 2.
    await build(poll([a(2, T0 + 1000), b(1, T0)]), T0 + 1000);
    const table2 = new WeakRef(snapshot.devices[1]!.t);
    // Poll 3: b changes, and its first row stays at table 2. Poll 4: both change again.
    await build(poll([a(2, T0 + 1000), b(3, T0 + 2000)]), T0 + 2000);
    await build(poll([a(4, T0 + 3000), b(4, T0 + 3000)]), T0 + 3000);
    expect(snapshot.devices.map((r) => r.rxBytes)).toEqual([4, 4]);

    // A WeakRef's target stays alive until the end of the job that made or read it.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(table2.deref()).toBeUndefined();
    expect(first.devices).toHaveLength(2);
  });
});
