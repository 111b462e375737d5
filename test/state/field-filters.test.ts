// Field filters through the list model: real snapshots (buildSnapshot), each screen's columns and
// field table, ScreenLists as the body uses it, and the narrowing of list-view.ts against a
// reference written here.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import type {Device} from '../../src/api/index.js';
import type {ConsoleState, ListScreenId} from '../../src/state/core/state.js';
import {buildSnapshot, type Snapshot} from '../../src/state/data/snapshot.js';
import {staleDevices} from '../../src/state/data/stale.js';
import type {ColumnSpec} from '../../src/state/lists/columns.js';
import {countField, textField, type FilterFields} from '../../src/state/lists/filter-query.js';
import {buildListView} from '../../src/state/lists/list-view.js';
import {ScreenLists} from '../../src/state/lists/screen-lists.js';
import {initialListState, ListViewCache} from '../../src/state/lists/view-state.js';
import {SCREEN_SPECS} from '../../src/state/screens/index.js';
import {activity} from '../../src/state/screens/activity/screen.js';
import type {ActivityEvent} from '../../src/state/tracking/events.js';
import {ActivityTracker} from '../../src/state/tracking/tracker.js';
import {configuration, device, iso, rule, user} from '../fixtures/data.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const DAY = 86_400_000;
const GiB = 1024 ** 3;

const ann = user({id: 'u-1', email: 'ann@example.com', role: 'admin', last_signed_in_at: iso(T0 - 2 * DAY), last_signed_in_method: 'google'});
const bob = user({id: 'u-2', email: 'bob@example.com'});
const carol = user({id: 'u-3', email: 'carol@example.org', disabled_at: iso(T0 - DAY)});

function devices(at: number, laptopRx: number): Device[] {
  return [
    device({
      id: 'laptop',
      name: 'laptop',
      user_id: 'u-1',
      ipv4: '10.3.2.2',
      ipv6: 'fd00::3:2:2',
      remote_ip: '198.51.100.7',
      latest_handshake: iso(at - 5000),
      rx_bytes: laptopRx,
      tx_bytes: 1000,
      inserted_at: iso(T0 - 100 * DAY),
      updated_at: iso(at - 5000),
    }),
    device({
      id: 'phone',
      name: 'phone',
      user_id: 'u-2',
      ipv4: '10.3.9.9',
      ipv6: 'fd00::3:9:9',
      latest_handshake: iso(T0 - 40 * DAY),
      rx_bytes: 500_000_000,
      tx_bytes: 10,
      inserted_at: iso(T0 - 200 * DAY),
    }),
    device({id: 'tablet', name: 'tablet', user_id: 'u-1', ipv4: '10.4.0.1', ipv6: 'fd00::4:0:1', inserted_at: iso(T0 - 45 * DAY)}),
    device({id: 'desk', name: 'desk-lap', user_id: 'u-3', ipv4: '10.3.0.5', ipv6: null, inserted_at: iso(T0 - DAY)}),
    device({
      id: 'server',
      name: 'server',
      user_id: 'u-2',
      ipv4: '10.5.0.1',
      ipv6: 'fd00::5:0:1',
      latest_handshake: iso(T0 - 10 * DAY),
      rx_bytes: 3_000_000_000,
      tx_bytes: 0,
      inserted_at: iso(T0 - 20 * DAY),
    }),
  ];
}

const RULES = [
  rule({id: 'r1', action: 'accept', destination: '10.2.0.0/16', port_type: 'tcp', port_range: '443', user_id: 'u-1'}),
  rule({id: 'r2', action: 'drop', destination: '10.2.3.4/32'}),
  rule({id: 'r3', action: 'drop', destination: '192.168.0.0/16', user_id: 'u-2'}),
];

/** Two polls 10 s apart, so the laptop has a rate (1 GiB in 10 s). */
function world(): Snapshot {
  const data = (at: number, rx: number) => ({
    devices: devices(at, rx),
    users: [ann, bob, carol],
    rules: RULES,
    configuration: configuration({vpn_session_duration: 0}),
    issues: [],
  });
  const first = buildSnapshot(data(T0 - 10_000, GiB), null, T0 - 10_000);
  return buildSnapshot(data(T0, 2 * GiB), first, T0);
}

function state(snapshot: Snapshot, screen: ListScreenId, filter: string, clock = snapshot.fetchedAt): ConsoleState {
  const lists = {
    devices: initialListState(null),
    users: initialListState(null),
    rules: initialListState(null),
    activity: initialListState(null),
  };
  lists[screen] = {...lists[screen], filter};
  // Only what ScreenLists reads of the state.
  return {snapshot, lists, clock} as unknown as ConsoleState;
}

function listOf(lists: ScreenLists, snapshot: Snapshot, screen: ListScreenId, filter: string, clock?: number) {
  const list = lists.list(screen, state(snapshot, screen, filter, clock))!;
  return {ids: list.view.rows.map((r) => SCREEN_SPECS[screen].getId(r)).sort(), error: list.filterError, total: list.total, list};
}

describe('field filters on the Devices list', () => {
  const snap = world();
  const lists = new ScreenLists(SCREEN_SPECS, new ActivityTracker(), () => T0);
  const devs = (filter: string) => listOf(lists, snap, 'devices', filter);

  it('the examples: state, owner, rx and state with handshake', () => {
    expect(devs('state:online')).toMatchObject({ids: ['laptop'], error: null, total: 5});
    expect(devs('owner:ann@example.com').ids).toEqual(['laptop', 'tablet']);
    expect(devs('rx>1GiB').ids).toEqual(['laptop', 'server']);
    expect(devs('state:idle handshake>30d').ids).toEqual(['phone']);
  });

  it('the other fields, through the rows the snapshot derived', () => {
    expect(devs('ip:10.3.0.0/16').ids).toEqual(['desk', 'laptop', 'phone']);
    expect(devs('ip:fd00::3:0:0/96').ids).toEqual(['laptop', 'phone']);
    expect(devs('name:lap').ids).toEqual(['desk', 'laptop']);
    expect(devs('rate>100MB/s').ids).toEqual(['laptop']);
    expect(devs('rate>200MB/s').ids).toEqual([]);
    expect(devs('created<7d').ids).toEqual(['desk']);
    expect(devs('handshake>7d').ids).toEqual(['desk', 'phone', 'server', 'tablet']);
  });

  it('stale is the S view: the same devices as staleDevices', () => {
    const expected = staleDevices(snap, snap.fetchedAt)
      .map((s) => s.row.id)
      .sort();
    expect(expected).toEqual(['phone', 'tablet']);
    expect(devs('stale').ids).toEqual(expected);
    expect(devs('"stale"').ids).toEqual([]);
  });

  it('words and fields together; a word is a substring of the search text', () => {
    expect(devs('lap').ids).toEqual(['desk', 'laptop']);
    expect(devs('lap state:never').ids).toEqual(['desk']);
    expect(devs('lap !state:never').ids).toEqual(['laptop']);
    expect(devs('bob@ !phone').ids).toEqual(['server']);
    expect(devs('fd00::3:2:2').ids).toEqual(['laptop']);
  });

  it('an unknown key is an error, not zero matches: the term is left out and said', () => {
    expect(devs('foo:bar')).toMatchObject({
      ids: ['desk', 'laptop', 'phone', 'server', 'tablet'],
      error: 'unknown filter key "foo" — devices know: state, owner, name, ip, key, rx, tx, rate, handshake, created, stale',
    });
    expect(devs('state:online foo:bar')).toMatchObject({ids: ['laptop'], error: expect.stringContaining('unknown filter key "foo"') as unknown});
    expect(devs('rx>1XB state:never')).toMatchObject({ids: ['desk', 'tablet'], error: 'rx>1XB: not a size (e.g. 500MB, 1.5GiB)'});
  });

  it('ages and states are measured at the snapshot time: the live clock moving on changes nothing until the next poll', () => {
    const now = listOf(lists, snap, 'devices', 'state:online');
    const later = listOf(lists, snap, 'devices', 'state:online', T0 + 10 * 60_000);
    expect(later.ids).toEqual(['laptop']);
    expect(later.list.view).toBe(now.list.view);
  });
});

describe('earlier results of field terms', () => {
  it('are reused only for the same field table and time', () => {
    const snap = world();
    const spec = SCREEN_SPECS.devices;
    const columns = spec.columns(snap, () => T0);
    const view = (filter: string, now: number, staleDays = 30) =>
      buildListView(snap.devices, {getId: spec.getId, filter, sort: null, columns, fields: spec.filters!(snap, {staleDays}), now})
        .rows.map((r) => spec.getId(r))
        .sort();
    expect(view('state:online', T0)).toEqual(['laptop']);
    expect(view('state:online', T0 + 10 * 60_000)).toEqual([]);
    expect(view('state:online', T0)).toEqual(['laptop']);
    expect(view('stale', T0)).toEqual(['phone', 'tablet']);
    expect(view('stale', T0, 42)).toEqual(['tablet']);
    expect(view('stale', T0, 50)).toEqual([]);
  });
});

describe('field filters on the other lists', () => {
  const snap = world();
  const lists = new ScreenLists(SCREEN_SPECS, new ActivityTracker(), () => T0);

  it('Users', () => {
    expect(listOf(lists, snap, 'users', 'role:admin').ids).toEqual(['u-1']);
    expect(listOf(lists, snap, 'users', 'status:disabled').ids).toEqual(['u-3']);
    expect(listOf(lists, snap, 'users', 'devices>1').ids).toEqual(['u-1', 'u-2']);
    expect(listOf(lists, snap, 'users', 'rules:0').ids).toEqual(['u-3']);
    expect(listOf(lists, snap, 'users', 'seen<7d').ids).toEqual(['u-1']);
    expect(listOf(lists, snap, 'users', 'example.com !role:admin').ids).toEqual(['u-2']);
    expect(listOf(lists, snap, 'users', 'state:online').error).toBe(
      'unknown filter key "state" — users know: email, role, status, signin, devices, online, rate, rules, seen',
    );
  });

  it('Rules', () => {
    expect(listOf(lists, snap, 'rules', 'dest:10.2.3.4').ids).toEqual(['r1', 'r2']);
    expect(listOf(lists, snap, 'rules', 'dest:10.2.3.0/24').ids).toEqual(['r1']);
    expect(listOf(lists, snap, 'rules', 'user:global').ids).toEqual(['r2']);
    expect(listOf(lists, snap, 'rules', 'user:bob').ids).toEqual(['r3']);
    expect(listOf(lists, snap, 'rules', 'port:443').ids).toEqual(['r1']);
    expect(listOf(lists, snap, 'rules', 'action:drop').ids).toEqual(['r2', 'r3']);
    expect(listOf(lists, snap, 'rules', 'dest:10.2.x').error).toBe('dest:10.2.x: not an address or CIDR (e.g. dest:10.2.3.4, dest:10.0.0.0/8)');
  });

  it('Activity (its columns and field table, on events made by hand)', () => {
    const ev = (seq: number, kind: ActivityEvent['kind'], by: 'you' | null): ActivityEvent => ({
      seq,
      kind,
      at: T0,
      object: {type: kind.split('.')[0] as 'device', id: `o${seq}`, label: `thing-${seq}`},
      owner: null,
      text: `text ${seq}`,
      detail: [],
      by,
    });
    const events = [ev(3, 'device.roamed', null), ev(2, 'rule.added', 'you'), ev(1, 'user.created', null)];
    const view = (filter: string) =>
      buildListView(events, {
        getId: (e) => String(e.seq),
        filter,
        sort: null,
        columns: activity.columns(snap, () => T0),
        fields: activity.filters!(snap, {staleDays: 30}),
        now: T0,
      }).rows.map((e) => e.seq);
    expect(view('by:you')).toEqual([2]);
    expect(view('by:other type:device')).toEqual([3]);
    expect(view('kind:roamed')).toEqual([3]);
    expect(view('thing !kind:user')).toEqual([3, 2]);
  });
});

describe('ListViewCache with fields', () => {
  interface Item {
    id: string;
    name: string;
  }
  const columns: ColumnSpec<Item>[] = [{key: 'name', searchText: (i) => i.name}];
  const items: Item[] = [
    {id: '1', name: 'alpha'},
    {id: '2', name: 'beta'},
  ];
  const fields = (): FilterFields<Item> => ({noun: 'items', fields: [textField('name', 'name:a', (i) => i.name)], flags: []});

  it('keeps a text-only view across new field tables and times, and rebuilds a view with field terms', () => {
    const cache = new ListViewCache<Item>((i) => i.id);
    const st = (filter: string) => ({filter, sort: null});
    const plain = cache.get(items, st('alp'), columns, fields(), 1);
    expect(cache.get(items, st('alp'), columns, fields(), 2)).toBe(plain);
    const withField = cache.get(items, st('name:bet'), columns, fields(), 2);
    expect(withField.rows.map((i) => i.id)).toEqual(['2']);
    const table = fields();
    const again = cache.get(items, st('name:bet'), columns, table, 3);
    expect(again).not.toBe(withField);
    expect(cache.get(items, st('name:bet'), columns, table, 3)).toBe(again);
  });
});

describe('narrowing from earlier matches', () => {
  interface Row {
    id: string;
    name: string;
    n: number;
  }
  const columns: ColumnSpec<Row>[] = [{key: 'name', searchText: (r) => r.name}];
  const FIELDS: FilterFields<Row> = {noun: 'rows', fields: [textField('name', 'name:a', (r) => r.name), countField('n', 'n>1', (r) => r.n)], flags: []};
  const getId = (r: Row) => r.id;

  /** The reference: each term tested on each row, by hand. */
  function expected(rows: readonly Row[], filter: string): string[] {
    const terms = filter.split(' ').filter((t) => t !== '' && t !== '!');
    return rows
      .filter((r) =>
        terms.every((term) => {
          const neg = term.startsWith('!');
          const t = neg ? term.slice(1) : term;
          let pass: boolean;
          const m = /^(name|n)([:<>])(.*)$/.exec(t);
          if (m && m[3] === '') return true; // no value: an error, the term is left out
          if (m && m[1] === 'name' && m[2] === ':') pass = r.name.includes(m[3]!);
          else if (m && m[1] === 'n' && /^\d+$/.test(m[3]!))
            pass = m[2] === ':' ? r.n === Number(m[3]) : m[2] === '>' ? r.n > Number(m[3]) : r.n < Number(m[3]);
          else if (m)
            return true; // an error: the term is left out
          else return r.name.includes(t) !== neg;
          return pass !== neg;
        }),
      )
      .map(getId);
  }

  it('"lap" then "a" does not search the matches of "lap"', () => {
    const rows: Row[] = [
      {id: '1', name: 'laptop', n: 1},
      {id: '2', name: 'tablet', n: 2},
      {id: '3', name: 'phone', n: 3},
    ];
    const v = (filter: string) => buildListView(rows, {getId, filter, sort: null, columns, fields: FIELDS, now: 0}).rows.map(getId);
    expect(v('lap')).toEqual(['1']);
    expect(v('a')).toEqual(['1', '2']);
    expect(v('n>1')).toEqual(['2', '3']);
    expect(v('n>1 a')).toEqual(['2']);
    expect(v('n>2')).toEqual(['3']);
    expect(v('n>1 !a')).toEqual(['3']);
  });

  it('typing, deleting and retyping terms gives what the terms say (property)', () => {
    const term = fc.oneof(fc.constantFrom('a', 'b', 'ab', 'ba', 'aa', 'x'), fc.constantFrom('n>1', 'n<3', 'n:2', 'name:a', 'name:b', 'n>x', 'name:', 'n:'));
    const query = fc.array(fc.tuple(fc.boolean(), term), {maxLength: 3}).map((ts) => ts.map(([neg, t]) => `${neg ? '!' : ''}${t}`).join(' '));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({unit: fc.constantFrom('a', 'b', 'x'), maxLength: 4}), fc.nat(4)), {minLength: 1, maxLength: 12}),
        fc.array(query, {minLength: 1, maxLength: 10}),
        (made, typed) => {
          const rows = made.map(([name, n], i) => ({id: String(i), name, n}));
          for (const filter of typed) {
            // Every prefix, as it is typed, then the whole line again after the others.
            for (let end = 1; end <= filter.length; end++) {
              const text = filter.slice(0, end);
              const got = buildListView(rows, {getId, filter: text, sort: null, columns, fields: FIELDS, now: 0}).rows.map(getId);
              expect(got, text).toEqual(expected(rows, text));
            }
          }
        },
      ),
      {numRuns: 200},
    );
  });
});
