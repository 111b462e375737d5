// The rows the console shows come from the incremental decoder (src/api/listcache.ts) and the
// identity fast path of buildSnapshot; they must be exactly the rows a full JSON.parse of every
// body gives, poll after poll, whatever the server changes in between.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {finished} from '../helpers/finish.js';
import {ListCache} from '../../src/api/listcache.js';
import {Device} from '../../src/api/schemas.js';
import {isDeviceFast} from '../../src/api/guards.js';
import {salvageList, type SchemaIssue} from '../../src/api/validate.js';
import {buildSnapshot, deriveDeviceRows, prepareSnapshot, type DeviceRow, type FetchedData, type Snapshot} from '../../src/state/data/snapshot.js';
import {DeviceColumns} from '../../src/api/device-columns.js';
import {sortedItems} from '../../src/state/lists/column-order.js';
import type {ColumnSpec} from '../../src/state/lists/columns.js';
import {devices as deviceScreen} from '../../src/state/screens/devices/screen.js';
import {device, rule, user} from '../fixtures/data.js';
import {apply, deviceArb, editArb, rowView, T0, unique} from '../fixtures/device-edits.js';

const users = [user({id: 'u-1', email: 'ann@example.com'}), user({id: 'u-2', email: 'bob@example.com'})];

describe('incremental decoding + buildSnapshot', () => {
  it('gives exactly the rows of a full parse of every body (property over edits, deletions, insertions, reorders)', () => {
    fc.assert(
      fc.property(fc.array(deviceArb, {maxLength: 10}), fc.array(fc.array(editArb, {maxLength: 4}), {minLength: 1, maxLength: 6}), (initial, polls) => {
        const cache = new ListCache<Device>(() => Device, isDeviceFast);
        let list = unique(initial);
        let fast: Snapshot | null = null;
        let full: Snapshot | null = null;
        for (const [k, edits] of polls.entries()) {
          for (const edit of edits) list = unique(apply(list, edit));
          const body = JSON.stringify({data: list});
          const decoder = cache.begin();
          const bytes = Buffer.from(body);
          decoder.push(bytes.subarray(0, bytes.length >> 1));
          decoder.push(bytes.subarray(bytes.length >> 1));
          const decoded = finished(decoder)!;
          const issues: SchemaIssue[] = [];
          const parsed = salvageList(Device, (JSON.parse(body) as {data: unknown}).data, 'data', issues, isDeviceFast)!;
          const nextFast: Snapshot = buildSnapshot({devices: decoded.data, users, rules: [], configuration: null, issues: decoded.issues}, fast, T0 + k);
          const nextFull: Snapshot = buildSnapshot({devices: parsed, users, rules: [], configuration: null, issues}, full, T0 + k);
          expect(nextFast.devices.map(rowView)).toEqual(nextFull.devices.map(rowView));
          expect([...nextFast.deviceCountByUser]).toEqual([...nextFull.deviceCountByUser]);
          // An unchanged device keeps its row object on both paths.
          if (fast && full) {
            const before = new Map(fast.devices.map((r) => [r.id, r]));
            const beforeFull = new Map(full.devices.map((r) => [r.id, r]));
            nextFast.devices.forEach((row, i) => {
              const kept = nextFull.devices[i] === beforeFull.get(row.id);
              expect(row === before.get(row.id)).toBe(kept);
            });
          }
          fast = nextFast;
          full = nextFull;
        }
      }),
      {numRuns: 500},
    );
  });
});

describe('rows derived during the fetch (prepareSnapshot)', () => {
  it('are the rows buildSnapshot derives itself, and are used only on the snapshot they were derived from (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(deviceArb, {maxLength: 10}),
        fc.array(fc.tuple(fc.array(editArb, {maxLength: 4}), fc.boolean()), {minLength: 1, maxLength: 6}),
        async (initial, polls) => {
          let list = unique(initial);
          let viaFetch: Snapshot | null = null;
          let direct: DeviceRow[] = [];
          const usersById = new Map(users.map((u) => [u.id, u]));
          for (const [k, [edits, stale]] of polls.entries()) {
            for (const edit of edits) list = unique(apply(list, edit));
            const data: FetchedData = {devices: list, users, rules: [], configuration: null, issues: []};
            const rows = deriveDeviceRows(list, usersById, direct);
            // A snapshot built between the last one and this fetch (a discarded poll) makes the prepared rows stale.
            if (stale) buildSnapshot({...data}, null, T0);
            await prepareSnapshot(data);
            const a: Snapshot = buildSnapshot(data, viaFetch, T0 + k);
            expect(a.devices.map(rowView)).toEqual(rows.map(rowView));
            if (viaFetch) {
              const before = new Map(viaFetch.devices.map((r) => [r.id, r]));
              const beforeDirect = new Map(direct.map((r) => [r.id, r]));
              a.devices.forEach((row, i) => expect(row === before.get(row.id)).toBe(rows[i] === beforeDirect.get(row.id)));
            }
            direct = rows;
            viaFetch = a;
          }
        },
      ),
      {numRuns: 300},
    );
  });
});

describe('a poll that changed nothing', () => {
  it('keeps everything derived from it: the same rows, user rows, rules in order and user index', () => {
    const devices = DeviceColumns.from([device({id: 'd-1', user_id: 'u-1'}), device({id: 'd-2', user_id: 'u-2'})]);
    const rules = [rule({id: 'r-1', user_id: 'u-1', destination: '10.0.0.1/32'}), rule({id: 'r-2', user_id: 'u-2', destination: '10.0.0.1/32'})];
    const data: FetchedData = {devices, users, rules, configuration: null, issues: []};
    const a = buildSnapshot(data, null, T0);
    const b = buildSnapshot({...data}, a, T0 + 1000);
    expect(b.devices).toBe(a.devices);
    expect(b.userRows).toBe(a.userRows);
    expect(b.rules).toBe(a.rules);
    expect(b.usersById).toBe(a.usersById);
    expect(b.fetchedAt).toBe(T0 + 1000);
    expect(a.rules.map((r) => r.id)).toEqual(['r-1', 'r-2']);
    // An owner's new email orders the rules again (the order reads it), and is in the rows.
    const renamed = [user({id: 'u-1', email: 'zed@example.com'}), users[1]!];
    const c = buildSnapshot({...data, users: renamed}, b, T0 + 2000);
    expect(c.rules.map((r) => r.id)).toEqual(['r-2', 'r-1']);
    expect(c.devices.map((r) => r.ownerEmail)).toEqual(['zed@example.com', 'bob@example.com']);
    expect(c.userRows.map((r) => r.user.email)).toEqual(['zed@example.com', 'bob@example.com']);
    // A rule gone: counted and ordered again, in new arrays.
    const d = buildSnapshot({...data, users: renamed, rules: rules.slice(1)}, c, T0 + 3000);
    expect(d.rules.map((r) => r.id)).toEqual(['r-2']);
    expect(d.userRows.map((r) => r.rules)).toEqual([0, 1]);
    expect(c.userRows.map((r) => r.rules)).toEqual([1, 1]);
  });

  it('finds the device list in each order it was sorted in, not sorted again', () => {
    const list = [device({id: 'd-1', name: 'b', user_id: 'u-2', rx_bytes: 5}), device({id: 'd-2', name: 'a', user_id: 'u-1', rx_bytes: 9})];
    const data: FetchedData = {devices: DeviceColumns.from(list), users, rules: [], configuration: null, issues: []};
    const a = buildSnapshot(data, null, T0);
    const b = buildSnapshot({...data}, a, T0 + 1000);
    const columnsOf = (snap: Snapshot) => deviceScreen.columns(snap, () => snap.fetchedAt) as ColumnSpec<DeviceRow>[];
    const rowOnly = columnsOf(a).filter((c) => c.sortValueFromRowOnly === true);
    expect(rowOnly.map((c) => c.key)).toEqual(['name', 'owner', 'ipv4', 'handshake', 'rx', 'tx', 'remote', 'ipv6', 'created']);
    for (const {key} of rowOnly) {
      for (const desc of [false, true]) {
        const before = sortedItems(a.devices, {key, desc}, columnsOf(a), (r) => r.id);
        expect(
          sortedItems(b.devices, {key, desc}, columnsOf(b), (r) => r.id),
          `${key} ${desc}`,
        ).toBe(before);
      }
    }
    // A device renamed: ordered again, by its new name.
    const renamed = buildSnapshot({...data, devices: DeviceColumns.from([list[0]!, {...list[1]!, name: 'c'}])}, b, T0 + 2000);
    expect(sortedItems(renamed.devices, {key: 'name', desc: false}, columnsOf(renamed), (r) => r.id).map((r) => r.name)).toEqual(['b', 'c']);
    expect(sortedItems(b.devices, {key: 'name', desc: false}, columnsOf(b), (r) => r.id).map((r) => r.name)).toEqual(['a', 'b']);
  });
});
