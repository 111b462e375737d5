// The refresh pipeline (src/state/data/refresh-pipeline.ts) and sorting ahead (src/state/lists/warm-sort.ts),
// apart from the Controller that sequences them: what a poll fetches, in which order its passes
// are made ahead, that nothing shows until it is observed, and that a long list is ordered a
// column per timer step until it is done.
import {DeviceColumns} from '../../src/api/device-columns.js';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {ApiError} from '../../src/api/index.js';
import type {FetchedData, Snapshot} from '../../src/state/data/snapshot.js';
import {SavedConfiguration} from '../../src/state/data/saved-configuration.js';
import {RefreshPipeline} from '../../src/state/data/refresh-pipeline.js';
import type {ListViewCache} from '../../src/state/lists/view-state.js';
import {WARM_SEARCH_STEP_ROWS, WARM_SORT_MIN_ITEMS, WarmSorter} from '../../src/state/lists/warm-sort.js';
import {buildListView} from '../../src/state/lists/list-view.js';
import type {ScreenColumn} from '../../src/state/screens/display.js';
import {ActivityTracker} from '../../src/state/tracking/tracker.js';
import {TrafficHistory} from '../../src/state/tracking/traffic-history.js';
import {device, user} from '../fixtures/data.js';

const T0 = Date.UTC(2026, 0, 1, 12);

function lists(devices = [device({id: 'd-1', user_id: 'u-1', name: 'laptop'})]) {
  const calls: string[] = [];
  const client = {
    pollDevices: async () => (calls.push('pollDevices'), {data: DeviceColumns.from(devices), issues: []}),
    listUsers: async () => (calls.push('listUsers'), {data: [user({id: 'u-1'})], issues: []}),
    listRules: async () => (calls.push('listRules'), {data: [], issues: []}),
    getConfiguration: async () => {
      calls.push('getConfiguration');
      throw new ApiError({kind: 'forbidden', message: '403 Forbidden', method: 'GET', path: '/v0/configuration', status: 403});
    },
  };
  return {client, calls};
}

function recordingPasses(log: string[]) {
  return {
    tracker: {
      prepare: async (s: {fetchedAt: number}, now?: number) => void log.push(`tracker.prepare ${s.fetchedAt} ${now}`),
      observe: (s: {fetchedAt: number}, now?: number) => (log.push(`tracker.observe ${s.fetchedAt} ${now}`), []),
    },
    history: {
      prepare: async (s: {fetchedAt: number}) => void log.push(`history.prepare ${s.fetchedAt}`),
      record: (s: {fetchedAt: number}) => void log.push(`history.record ${s.fetchedAt}`),
    },
    shownList: {prepare: async (next: Snapshot) => void log.push(`list ${next.devices.length}`)},
  };
}

describe('the refresh pipeline', () => {
  it('fetches, derives against the snapshot shown, and makes every pass ahead before the poll resolves', async () => {
    const {client, calls} = lists();
    const log: string[] = [];
    let now = T0;
    const pipeline = new RefreshPipeline(client, recordingPasses(log), new SavedConfiguration(), null, () => now);
    const first = await pipeline.poll(null);
    expect(calls.sort()).toEqual(['getConfiguration', 'listRules', 'listUsers', 'pollDevices']);
    expect(first.fetchedAt).toBe(T0);
    expect(first.devices.map((r) => r.ownerEmail)).toEqual(['ann@example.com']);
    // the configuration was refused to this token: hidden, not a failed poll, and not the server's data being wrong
    expect([...first.hidden]).toEqual(['configuration']);
    expect(first.issues).toEqual([]);
    expect(log).toEqual([`tracker.prepare ${T0} ${T0}`, `history.prepare ${T0}`, 'list 1']);
    // applying writes what the passes found, for the same snapshot and time
    pipeline.observe(first);
    expect(log.slice(3)).toEqual([`tracker.observe ${T0} ${T0}`, `history.record ${T0}`]);
    // the next poll derives against the last: an unchanged device keeps its row object
    now = T0 + 5000;
    const second = await pipeline.poll(first);
    expect(second.devices[0]).toBe(first.devices[0]);
  });

  it('takes the first poll fetched before the console loaded, once', async () => {
    const {client, calls} = lists();
    const early: FetchedData = {devices: [device({id: 'd-9', user_id: 'u-1'})], users: [user({id: 'u-1'})], rules: [], configuration: null, issues: []};
    const pipeline = new RefreshPipeline(client, recordingPasses([]), new SavedConfiguration(), Promise.resolve(early), () => T0);
    expect((await pipeline.poll(null)).devices.map((r) => r.id)).toEqual(['d-9']);
    expect(calls).toEqual([]);
    expect((await pipeline.poll(null)).devices.map((r) => r.id)).toEqual(['d-1']);
    expect(calls).toContain('pollDevices');
  });

  it('changes nothing the screen reads until the poll is observed', async () => {
    const tracker = new ActivityTracker();
    const history = new TrafficHistory();
    const shownList = {prepare: async () => {}};
    const rows = [device({id: 'd-1', user_id: 'u-1', rx_bytes: 0, tx_bytes: 0, latest_handshake: new Date(T0).toISOString()})];
    let now = T0;
    const pipeline = new RefreshPipeline(lists(rows).client, {tracker, history, shownList}, new SavedConfiguration(), null, () => now);
    const a = await pipeline.poll(null);
    pipeline.observe(a);
    const moved = [{...rows[0]!, name: 'renamed', rx_bytes: 5_000_000, tx_bytes: 1_000}];
    now = T0 + 2000;
    const b = await new RefreshPipeline(lists(moved).client, {tracker, history, shownList}, new SavedConfiguration(), null, () => now).poll(a);
    const events = tracker.events.version;
    const traffic = history.version;
    expect(tracker.events.list()).toHaveLength(0);
    pipeline.observe(b);
    expect(tracker.events.version).not.toBe(events);
    expect(tracker.events.list().map((e) => e.kind)).toEqual(['device.renamed']);
    expect(history.version).not.toBe(traffic);
  });
});

describe('sorting ahead of time', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function fakeCache(stepsToDone: number) {
    const steps: number[] = [];
    const cache = {warm: (items: readonly unknown[], _columns: unknown, budget?: number) => (steps.push(budget ?? -1), steps.length >= stepsToDone)};
    return {cache: cache as unknown as ListViewCache<unknown>, steps};
  }

  it('orders a long list a step per timer turn until every column is done, then stops', () => {
    vi.useFakeTimers();
    const {cache, steps} = fakeCache(3);
    const sorter = new WarmSorter(() => cache);
    const items = Array.from({length: WARM_SORT_MIN_ITEMS}, (_, i) => i);
    const columns: ScreenColumn<unknown>[] = [];
    sorter.notice('devices', items, columns);
    expect(steps).toEqual([]); // not in the caller's turn: keys go first
    vi.advanceTimersToNextTimer();
    expect(steps).toHaveLength(1);
    vi.runAllTimers();
    expect(steps).toHaveLength(3);
    expect(steps.every((b) => b > 0 && b < 50)).toBe(true);
    // the same items again start nothing; new items start again
    sorter.notice('devices', items, columns);
    vi.runAllTimers();
    expect(steps).toHaveLength(3);
    sorter.notice('devices', [...items], columns);
    vi.runAllTimers();
    expect(steps.length).toBeGreaterThan(3);
  });

  it('then makes the rows’ filter text a slice per timer turn, so the first filter keystroke finds it made', () => {
    vi.useFakeTimers();
    const {cache} = fakeCache(1);
    const sorter = new WarmSorter(() => cache);
    let made = 0;
    const columns = [
      {key: 'name', header: 'NAME', priority: 1, width: 10, cell: () => '', searchText: (r: {name: string}) => (made++, r.name)},
    ] as unknown as ScreenColumn<unknown>[];
    const items = Array.from({length: WARM_SEARCH_STEP_ROWS * 2 + 1}, (_, i) => ({id: `d${i}`, name: `device-${i}`}));
    sorter.notice('devices', items, columns);
    vi.advanceTimersToNextTimer(); // the orders (one step here)
    vi.advanceTimersToNextTimer();
    expect(made).toBe(WARM_SEARCH_STEP_ROWS);
    vi.runAllTimers();
    expect(made).toBe(items.length);
    const view = buildListView(items, {getId: (r) => r.id, filter: 'device-7', sort: null, columns: columns as never});
    expect(made).toBe(items.length);
    expect(view.rows.length).toBeGreaterThan(0);
    // A poll: the same list with some rows changed. Their filter text is not made ahead (nobody may
    // filter); the first filter keystroke makes it for them alone.
    const polled = items.map((r, i) => (i % 10 === 0 ? {...r} : r));
    made = 0;
    sorter.notice('devices', polled, columns);
    vi.runAllTimers();
    expect(made).toBe(0);
    buildListView(polled, {getId: (r) => r.id, filter: 'device-7', sort: null, columns: columns as never});
    expect(made).toBe(Math.ceil(items.length / 10));
  });

  it('leaves a short list to be sorted when asked, and stop() cancels a pending step', () => {
    vi.useFakeTimers();
    const {cache, steps} = fakeCache(1);
    const sorter = new WarmSorter(() => cache);
    sorter.notice(
      'users',
      Array.from({length: WARM_SORT_MIN_ITEMS - 1}, (_, i) => i),
      [],
    );
    vi.runAllTimers();
    expect(steps).toEqual([]);
    sorter.notice(
      'devices',
      Array.from({length: WARM_SORT_MIN_ITEMS}, (_, i) => i),
      [],
    );
    sorter.stop();
    vi.runAllTimers();
    expect(steps).toEqual([]);
  });

  it('looks at the items on screen again only when what they are made of changed, not on a cursor move or a modal', () => {
    vi.useFakeTimers();
    const {cache} = fakeCache(1);
    const sorter = new WarmSorter(() => cache);
    const asked: string[] = [];
    const itemsOf = (screen: string) => (asked.push(screen), []);
    const columnsOf = () => [];
    const snapshot = {} as Snapshot;
    const list = {ownView: false, cursor: 0};
    const state = {snapshot, screen: 'devices' as const, clock: 1000, lists: {devices: list} as never};
    sorter.noticeState(state, itemsOf, columnsOf);
    expect(asked).toEqual(['devices']);
    // The cursor moved, a dialog opened: the same snapshot, screen, view and clock.
    sorter.noticeState({...state, lists: {devices: {...list, cursor: 5}} as never}, itemsOf, columnsOf);
    sorter.noticeState({...state}, itemsOf, columnsOf);
    expect(asked).toHaveLength(1);
    // Each of what the items are made of asks again.
    sorter.noticeState({...state, snapshot: {} as Snapshot}, itemsOf, columnsOf);
    sorter.noticeState({...state, clock: 2000}, itemsOf, columnsOf);
    sorter.noticeState({...state, clock: 2000, lists: {devices: {...list, ownView: true}} as never}, itemsOf, columnsOf);
    sorter.noticeState({...state, clock: 2000, screen: 'users', lists: {users: list} as never}, itemsOf, columnsOf);
    expect(asked).toEqual(['devices', 'devices', 'devices', 'devices', 'users']);
    // The clock alone matters only while deleted rows fade (a modal opening holds the poller and sets it).
    const fades = (screen: string) => screen === 'users';
    sorter.noticeState({...state, clock: 3000}, itemsOf, columnsOf, fades);
    sorter.noticeState({...state, clock: 4000}, itemsOf, columnsOf, fades);
    expect(asked).toEqual(['devices', 'devices', 'devices', 'devices', 'users', 'devices']);
    asked.pop();
    // Nothing on Configuration or before the first poll.
    sorter.noticeState({...state, screen: 'configuration'}, itemsOf, columnsOf);
    sorter.noticeState({...state, snapshot: null}, itemsOf, columnsOf);
    expect(asked).toHaveLength(5);
    sorter.stop();
  });
});
