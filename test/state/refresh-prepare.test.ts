// A poll's passes over every row run ahead, in slices, while the poll is in flight
// (ActivityTracker.prepare, TrafficHistory.prepare, prepareIdIndex; docs/performance-poll.md,
// "Refreshing 50k devices"). What the console then shows must be exactly what the same calls
// give without the passes made ahead, poll after poll, whatever the server changed, and also
// when a pass was made for another snapshot than the one applied.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {ActivityTracker} from '../../src/state/tracking/tracker.js';
import {type ActivityEvent} from '../../src/state/tracking/events.js';
import {TrafficHistory} from '../../src/state/tracking/traffic-history.js';
import {buildListView, prepareIdIndex, prepareListView} from '../../src/state/lists/list-view.js';
import type {ColumnSpec} from '../../src/state/lists/columns.js';
import {warmSortOrder} from '../../src/state/lists/column-order.js';
import {SCREEN_SPECS} from '../../src/state/screens/index.js';
import type {DeviceRow} from '../../src/state/data/snapshot.js';
import {ScreenLists} from '../../src/state/lists/screen-lists.js';
import {initialListState} from '../../src/state/lists/view-state.js';
import type {ConsoleState} from '../../src/state/core/state.js';
import {buildSnapshot, type Snapshot} from '../../src/state/data/snapshot.js';
import type {Device} from '../../src/api/schemas.js';
import {device, iso, user} from '../fixtures/data.js';
import {apply, deviceArb, editArb, T0, unique} from '../fixtures/device-edits.js';

const users = [user({id: 'u-1', email: 'ann@example.com'}), user({id: 'u-2', email: 'bob@example.com'})];

const event = (e: ActivityEvent) => ({kind: e.kind, at: e.at, object: e.object, owner: e.owner, text: e.text, detail: e.detail, by: e.by});

/** Polls of random edits, each with the seconds since the last one (long gaps make devices go idle). */
const pollsArb = fc.array(fc.tuple(fc.array(editArb, {maxLength: 4}), fc.integer({min: 1, max: 400}), fc.constantFrom('ahead', 'none', 'stale', 'late')), {
  minLength: 1,
  maxLength: 8,
});

function snapshots(initial: Device[], polls: [Parameters<typeof apply>[1][], number, string][], distinct = true): {snap: Snapshot; mode: string}[] {
  const unique_ = distinct ? unique : (list: Device[]) => list;
  let list = unique_(initial);
  let at = T0;
  let prev: Snapshot | null = buildSnapshot({devices: list, users, rules: [], configuration: null, issues: []}, null, at);
  const out = [{snap: prev, mode: 'none'}];
  for (const [edits, seconds, mode] of polls) {
    for (const e of edits) list = unique_(apply(list, e));
    at += seconds * 1000;
    prev = buildSnapshot({devices: list, users, rules: [], configuration: null, issues: []}, prev, at);
    out.push({snap: prev, mode});
  }
  return out;
}

/** A snapshot the poll could have been but is not: the same rows in another order, seen later. */
const otherThan = (snap: Snapshot): Snapshot => ({...snap, devices: [...snap.devices].reverse(), fetchedAt: snap.fetchedAt + 200_000});

describe('passes made ahead of a poll', () => {
  it('change detection: the same events and highlights as observe() alone (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(deviceArb, {maxLength: 10}), pollsArb, async (initial, polls) => {
        const plain = new ActivityTracker();
        const ahead = new ActivityTracker();
        const seq = snapshots(initial, polls);
        for (const {snap, mode} of seq) {
          if (mode === 'ahead') await ahead.prepare(snap);
          // A pass made for a snapshot that is then not the one applied must not be used.
          if (mode === 'stale') await ahead.prepare(otherThan(snap), snap.fetchedAt + 200_000);
          // The same rows, another time: only the time tells the pass apart.
          if (mode === 'late') await ahead.prepare(snap, snap.fetchedAt + 200_000);
          const want = plain.observe(snap).map(event);
          expect(ahead.observe(snap).map(event)).toEqual(want);
          for (const row of snap.devices)
            expect(ahead.highlights.mark('device', row.id, snap.fetchedAt)).toEqual(plain.highlights.mark('device', row.id, snap.fetchedAt));
          expect(ahead.highlights.removed('device', snap.fetchedAt)).toEqual(plain.highlights.removed('device', snap.fetchedAt));
        }
      }),
      {numRuns: 400},
    );
  });

  it('traffic history: the same series, trends and totals as record() alone (property)', async () => {
    await fc.assert(
      // Ids may repeat here: a later row of a repeated id must write to the slot its first row got.
      fc.asyncProperty(fc.array(deviceArb, {maxLength: 10}), pollsArb, fc.boolean(), async (initial, polls, distinct) => {
        const plain = new TrafficHistory({samples: 4, totalSamples: 6});
        const ahead = new TrafficHistory({samples: 4, totalSamples: 6});
        const seq = snapshots(initial, polls, distinct);
        for (const {snap, mode} of seq) {
          if (mode === 'ahead') await ahead.prepare(snap);
          if (mode === 'stale') await ahead.prepare(otherThan(snap), snap.fetchedAt + 200_000);
          if (mode === 'late') {
            // A pass that read the history before another poll was recorded must not be used.
            const pending = ahead.prepare(snap);
            const other = otherThan(snap);
            plain.record(other);
            ahead.record(other);
            await pending;
          }
          plain.record(snap);
          ahead.record(snap);
          expect(ahead.total('rx')).toEqual(plain.total('rx'));
          expect(ahead.total('tx')).toEqual(plain.total('tx'));
          expect(ahead.tracked).toBe(plain.tracked);
          for (const row of snap.devices) {
            expect(ahead.series(row.id, 'rx')).toEqual(plain.series(row.id, 'rx'));
            expect(ahead.series(row.id, 'tx')).toEqual(plain.series(row.id, 'tx'));
            expect(ahead.trend(row.id, 'rx', snap.fetchedAt)).toBe(plain.trend(row.id, 'rx', snap.fetchedAt));
          }
        }
      }),
      {numRuns: 400},
    );
  });

  it('id index: every id at its place, whether it was taken over or built again (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(deviceArb, {maxLength: 12}), pollsArb, async (initial, polls) => {
        // A getId per run: the index taken over is the last one built for that function.
        const getId = (d: Device) => d.id;
        let list = unique(initial);
        buildListView(list, {getId, filter: '', sort: null, columns: []});
        for (const [edits, , mode] of polls) {
          for (const e of edits) list = unique(apply(list, e));
          // A change of stats only keeps the ids where they were: the index is taken over.
          if (mode === 'stale') list = list.map((d) => ({...d, rx_bytes: (d.rx_bytes ?? 0) + 1}));
          if (mode !== 'none') await prepareIdIndex(list, getId);
          const view = buildListView(list, {getId, filter: '', sort: null, columns: []});
          list.forEach((d, i) => expect(view.indexOf(d.id)).toBe(i));
          expect(view.indexOf('no-such-id')).toBe(-1);
        }
      }),
      {numRuns: 400},
    );
  });

  describe('the list on screen, made ahead of the frame that shows the poll', () => {
    /** The Devices list's own columns for a snapshot, with their sort values and filter text counted. */
    function countedColumns(snap: Snapshot): {columns: ColumnSpec<DeviceRow>[]; reads: {sort: number; search: number}} {
      const reads = {sort: 0, search: 0};
      const columns = (SCREEN_SPECS.devices.columns(snap, () => snap.fetchedAt) as ColumnSpec<DeviceRow>[]).map((c) => ({
        ...c,
        ...(c.sortValue ? {sortValue: (r: DeviceRow) => (reads.sort++, c.sortValue!(r))} : {}),
        ...(c.searchText ? {searchText: (r: DeviceRow) => (reads.search++, c.searchText!(r))} : {}),
      }));
      return {columns, reads};
    }
    const sortKeys = (SCREEN_SPECS.devices.columns(snapshots([], [])[0]!.snap, () => T0) as ColumnSpec<DeviceRow>[])
      .filter((c) => c.sortValue)
      .map((c) => c.key);
    const viewArb = fc.record({
      sort: fc.option(fc.record({key: fc.constantFrom(...sortKeys), desc: fc.boolean()}), {nil: null}),
      filter: fc.constantFrom('', 'a', 'dev', 'fd00', '10.', 'state:online', 'state:idle a', '-a', '  '),
    });

    it('the same rows, in the same order, with the same cursor positions as a frame that made them itself (property)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(deviceArb, {maxLength: 12}),
          pollsArb,
          fc.array(fc.tuple(viewArb, viewArb), {minLength: 9, maxLength: 9}),
          async (initial, polls, views) => {
            // A getId each: the orders and indexes of one must not serve the other.
            const plainId = (r: DeviceRow) => r.id;
            const aheadId = (r: DeviceRow) => r.id;
            const fields = SCREEN_SPECS.devices.filters!(snapshots([], [])[0]!.snap, {staleDays: 30}) as never;
            let shownBefore: {snap: Snapshot; columns: ColumnSpec<DeviceRow>[]} | null = null;
            for (const [k, {snap, mode}] of snapshots(initial, polls).entries()) {
              const [shown, other] = views[k % views.length]!;
              const {columns, reads} = countedColumns(snap);
              const opts = {filter: shown.filter, sort: shown.sort, columns, fields, now: snap.fetchedAt};
              // Made for the view shown; for another filter and sort (changed while the poll was in
              // flight); or not at all.
              if (mode === 'ahead') await prepareListView(snap.devices, {...opts, getId: aheadId});
              if (mode === 'stale') await prepareListView(snap.devices, {...opts, ...other, getId: aheadId});
              if (mode === 'late') {
                // While it is made, the list shown (the last poll's) is drawn with other sorts and
                // filters, and its columns are ordered ahead, turn after turn.
                let done = false;
                const pending = prepareListView(snap.devices, {...opts, getId: aheadId}).then(() => (done = true));
                for (let turn = 0; !done; turn++) {
                  if (shownBefore) {
                    const before = shownBefore.snap.devices;
                    const view = turn % 2 === 0 ? other : {...shown, sort: shown.sort && {...shown.sort, desc: !shown.sort.desc}};
                    buildListView(before, {...view, columns: shownBefore.columns, fields, now: shownBefore.snap.fetchedAt, getId: aheadId});
                    warmSortOrder(before, shownBefore.columns, aheadId, 0);
                  }
                  await new Promise((resolve) => setImmediate(resolve));
                }
                await pending;
              }
              const before = {...reads};
              const ahead = buildListView(snap.devices, {...opts, getId: aheadId});
              if (mode === 'ahead' || mode === 'late') {
                // The frame placed the rows and matched the filter: it read no value to sort by and made no filter text.
                expect(reads.sort - before.sort).toBe(0);
                expect(reads.search - before.search).toBe(0);
              }
              // Over a copy: nothing the views cache per array (filter results, filter text) is shared.
              const plain = buildListView([...snap.devices], {...opts, columns: countedColumns(snap).columns, getId: plainId});
              expect(ahead.rows.map(aheadId)).toEqual(plain.rows.map(plainId));
              expect(ahead.filterError).toBe(plain.filterError);
              for (const row of snap.devices) expect(ahead.indexOf(row.id)).toBe(plain.indexOf(row.id));
              shownBefore = {snap, columns};
            }
          },
        ),
        {numRuns: 300},
      );
    });
  });

  describe('the console prepares the list on screen, with its filter and sort as they are now', () => {
    const reads = {sort: 0, search: 0};
    const counting = <T>(c: ColumnSpec<T>): ColumnSpec<T> => ({
      ...c,
      ...(c.sortValue ? {sortValue: (r: T) => (reads.sort++, c.sortValue!(r))} : {}),
      ...(c.searchText ? {searchText: (r: T) => (reads.search++, c.searchText!(r))} : {}),
    });
    let idReads = 0;
    const specs = {
      ...SCREEN_SPECS,
      devices: {
        ...SCREEN_SPECS.devices,
        columns: (s: Snapshot, clock: () => number) => SCREEN_SPECS.devices.columns(s, clock).map(counting),
        getId: (r: unknown) => (idReads++, SCREEN_SPECS.devices.getId(r)),
      },
      users: {...SCREEN_SPECS.users, columns: (s: Snapshot, clock: () => number) => SCREEN_SPECS.users.columns(s, clock).map(counting)},
    } as typeof SCREEN_SPECS;
    const list = Array.from({length: 50}, (_, i) => device({id: `p-${i}`, name: `dev-${i}`, rx_bytes: (i * 7919) % 1000, updated_at: iso(T0)}));
    const first = buildSnapshot({devices: list, users, rules: [], configuration: null, issues: []}, null, T0);
    const moved = list.map((d, i) => (i % 2 ? {...d, rx_bytes: d.rx_bytes! + 3000 - i * 60, updated_at: iso(T0 + 10_000)} : d));
    const second = buildSnapshot({devices: moved, users, rules: [], configuration: null, issues: []}, first, T0 + 10_000);
    const gone = buildSnapshot({devices: [device({id: 'gone'})], users, rules: [], configuration: null, issues: []}, null, T0).devices[0];
    const state = (snapshot: Snapshot, screen: string, staleView = false) =>
      ({
        snapshot,
        screen,
        clock: snapshot.fetchedAt,
        lists: {
          // The stale view is the Devices list's own view.
          devices: {...initialListState({key: 'rx', desc: true}), filter: 'dev-1', ownView: staleView},
          users: {...initialListState({key: 'email', desc: false}), filter: 'ann'},
          rules: initialListState(null),
          activity: initialListState(null),
        },
      }) as unknown as ConsoleState;

    for (const [screen, staleView, ghost, made] of [
      ['devices', false, false, true],
      ['users', false, false, true],
      // The stale view lists other rows than the poll's: the frame makes them.
      ['devices', true, false, false],
      // So does a list that shows a row deleted a moment ago (the items are another array).
      ['devices', false, true, false],
    ] as const) {
      const what = `${screen}${staleView ? ' (the stale view)' : ''}${ghost ? ' (a deleted row shown)' : ''}`;
      it(`${what}: ${made ? 'the frame reads no value to sort by and makes no filter text' : 'nothing is made ahead'}; the Devices list's id index is taken over`, async () => {
        const tracker = new ActivityTracker();
        const lists = new ScreenLists(specs, tracker, () => T0);
        if (ghost) tracker.highlights.removedRow('device', 'gone', gone, first.fetchedAt);
        lists.list('devices', state(first, 'devices', staleView));
        lists.list(screen, state(first, screen, staleView));
        reads.sort = reads.search = 0;
        await lists.prepare(screen, second, state(second, screen, staleView));
        const ahead = {...reads};
        lists.list(screen, state(second, screen, staleView));
        if (made) {
          expect(ahead.sort + ahead.search).toBeGreaterThan(0);
          expect(reads).toEqual(ahead);
        } else {
          expect(ahead).toEqual({sort: 0, search: 0});
        }
        // The Devices list after the poll finds its rows' index made: it reads no ids to build one
        // (checking that the ids stayed where they were reads ~2 per changed row). Not with the
        // deleted row still shown: that list is another array, whose index the frame builds.
        if (ghost) return;
        idReads = 0;
        const devices = lists.list('devices', state(second, 'devices'))!;
        devices.view.indexOf('p-49');
        expect(idReads).toBeLessThan(5);
      });
    }
  });

  it('traffic history: a device listed twice in one poll keeps one history that later polls extend', () => {
    const history = new TrafficHistory({samples: 8, totalSamples: 8});
    const at = (k: number) => T0 + k * 10_000;
    const a = (k: number, rx: number) => device({id: 'a', rx_bytes: rx, tx_bytes: rx, updated_at: iso(at(k)), latest_handshake: iso(at(k))});
    const b = (k: number) => device({id: 'b', rx_bytes: 5, tx_bytes: 5, updated_at: iso(at(k))});
    const polls = [
      [b(0), a(0, 0)],
      [b(1), a(1, 1000), a(1, 1000)],
      [b(2), a(2, 2000)],
      [b(3), a(3, 3000)],
    ];
    let prev: Snapshot | null = null;
    polls.forEach((devices, k) => {
      prev = buildSnapshot({devices, users, rules: [], configuration: null, issues: []}, prev, at(k));
      history.record(prev);
    });
    expect(history.tracked).toBe(1);
    const series = history.series('a', 'rx');
    // 100 B/s from the second poll on, in every poll since: no gap where the duplicate's slot was.
    expect(series.length).toBe(3);
    for (const rate of series) expect(rate).toBeCloseTo(100, -1);
  });

  describe('applying a poll with its passes made ahead reads no row again', () => {
    // The rows of a poll behind a proxy that counts reads by position: what applying the poll costs.
    function counted<T>(rows: readonly T[]): {rows: readonly T[]; reads: () => number} {
      let reads = 0;
      const proxy = new Proxy(rows as T[], {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
      return {rows: proxy, reads: () => reads};
    }
    const n = 200;
    const list = Array.from({length: n}, (_, i) =>
      device({id: `c-${i}`, rx_bytes: i * 1000, tx_bytes: i, updated_at: iso(T0), latest_handshake: iso(T0 - (i % 300) * 1000)}),
    );
    const moved = list.map((d, i) => (i % 3 === 0 ? {...d, rx_bytes: d.rx_bytes! + 5000, updated_at: iso(T0 + 10_000)} : d));
    const first = buildSnapshot({devices: list, users, rules: [], configuration: null, issues: []}, null, T0);
    const second = buildSnapshot({devices: moved, users, rules: [], configuration: null, issues: []}, first, T0 + 10_000);

    for (const ahead of [true, false]) {
      it(`change detection and traffic history${ahead ? ', passes made ahead' : ', nothing made ahead (the reads the passes save)'}`, async () => {
        const tracker = new ActivityTracker();
        const history = new TrafficHistory();
        tracker.observe(first);
        history.record(first);
        const {rows, reads} = counted(second.devices);
        const next: Snapshot = {...second, devices: rows};
        if (ahead) {
          await tracker.prepare(next);
          await history.prepare(next);
        }
        const before = reads();
        tracker.observe(next);
        history.record(next);
        if (ahead) expect(reads() - before).toBe(0);
        else expect(reads() - before).toBeGreaterThanOrEqual(2 * n);
      });
    }

    it('the id index: taken over, not built again', async () => {
      let calls = 0;
      const getId = (d: Device) => {
        calls++;
        return d.id;
      };
      buildListView(list, {getId, filter: '', sort: null, columns: []}).indexOf('c-0');
      await prepareIdIndex(moved, getId);
      calls = 0;
      const view = buildListView(moved, {getId, filter: '', sort: null, columns: []});
      expect(view.indexOf(`c-${n - 1}`)).toBe(n - 1);
      expect(calls).toBe(0);
    });
  });
});
