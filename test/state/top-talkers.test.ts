// Who moves the most traffic (#47): the Devices list's RATE column is received + sent per second,
// sorts by that sum (the top row by RX/S alone may move less than the second), and is what the
// `rate>` filter term reads; an owner's email is cut in its name, so the domain stays.
import {describe, expect, it} from 'vitest';
import {buildSnapshot, currentRate, currentTotalRate, type Snapshot} from '../../src/state/data/snapshot.js';
import {buildListView} from '../../src/state/lists/list-view.js';
import {devices as DEVICES} from '../../src/state/screens/devices/screen.js';
import {users as USERS} from '../../src/state/screens/users/screen.js';
import {userFilters} from '../../src/state/screens/users/filters.js';
import {deviceFilters} from '../../src/state/screens/devices/filters.js';
import {shortenEmail} from '../../src/ui/text.js';
import {fitColumns, rowText} from '../../src/ui/table/Table.js';
import {device, iso, user} from '../fixtures/data.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const MiB = 1024 * 1024;

const PEOPLE = [user({id: 'u-1', email: 'ann@example.com'}), user({id: 'u-2', email: 'bob@example.com'}), user({id: 'u-3', email: 'cy@example.com'})];

/** Two polls a minute apart; each device [name, rx/s, tx/s, owner], online unless it moves nothing. */
function polls(rates: Array<[string, number, number, string?]>): Snapshot {
  const at = (t: number, k: number) =>
    rates.map(([name, rx, tx, owner], i) =>
      device({
        id: `d-${i}`,
        name,
        user_id: owner ?? 'u-1',
        rx_bytes: Math.round(rx * k),
        tx_bytes: Math.round(tx * k),
        updated_at: iso(t),
        latest_handshake: rx + tx > 0 ? iso(t) : iso(T0 - 3_600_000),
      }),
    );
  const data = (t: number, k: number) => ({devices: at(t, k), users: PEOPLE, rules: [], configuration: null, issues: []});
  const first = buildSnapshot(data(T0 - 60_000, 0), null, T0 - 60_000);
  return buildSnapshot(data(T0, 60), first, T0);
}

describe('top talkers', () => {
  // The issue's case: RX/S puts a first (1.90 + 0.25), but b moved more (1.76 + 0.77).
  const snapshot = polls([
    ['a', 1.9 * MiB, 0.25 * MiB, 'u-1'],
    ['b', 1.76 * MiB, 0.77 * MiB, 'u-2'],
    ['c', 0, 0, 'u-2'],
    ['d', 0.5 * MiB, 0, 'u-1'],
  ]);
  const columns = DEVICES.columns(snapshot, () => T0);
  const rate = columns.find((c) => c.key === 'rate')!;
  const order = (key: string) =>
    buildListView(snapshot.devices, {getId: (r) => r.id, filter: '', sort: {key, desc: true}, columns, now: T0}).rows.map((r) => r.name);

  it('RATE is received + sent per second, and sorts by the sum', () => {
    expect(rate.header).toBe('RATE');
    expect(rate.cell(snapshot.devices[1]!)).toBe('2.53 MiB/s');
    expect(order('rxRate')).toEqual(['a', 'b', 'd', 'c']);
    expect(order('rate')).toEqual(['b', 'a', 'd', 'c']);
  });

  it('the rate> filter term reads the same sum', () => {
    const view = buildListView(snapshot.devices, {
      getId: (r) => r.id,
      filter: 'rate>2.3MiB/s',
      sort: null,
      columns,
      fields: deviceFilters(),
      now: T0,
    });
    expect(view.rows.map((r) => r.name)).toEqual(['b']);
  });

  it('an owner email is cut in its name, so its domain stays', () => {
    expect(DEVICES.columns(snapshot, () => T0).find((c) => c.key === 'owner')!.cut).toBe('email');
    expect(shortenEmail('maria.rossi@example.com', 20)).toBe('maria.r…@example.com');
    // The table cuts the owner column that way, and other columns at their end.
    const column = {key: 'owner', header: 'OWNER', priority: 1, width: 20, cut: 'email' as const, cell: (r: {owner: string}) => r.owner};
    const plain = {...column, key: 'note', header: 'NOTE', cut: undefined};
    expect(rowText({owner: 'maria.rossi@example.com'}, fitColumns([column], 20))).toBe('maria.r…@example.com');
    expect(rowText({owner: 'maria.rossi@example.com'}, fitColumns([plain], 20))).toBe('maria.rossi@example…');
    expect(shortenEmail('maria.rossi@example.com', 30)).toBe('maria.rossi@example.com');
    // A domain that leaves fewer than three cells of the name, or text that is no plain email: cut at the end.
    expect(shortenEmail('ann@sandbox.example.org', 16)).toBe('ann@sandbox.exa…');
    expect(shortenEmail('no-at-sign-in-this-text', 10)).toBe('no-at-sig…');
    expect(shortenEmail('zoë.müller@example.com', 16)).toBe('zoë.müller@exam…');
  });

  it('Users count their devices online and sum their rates; both sort and filter', () => {
    const columns = USERS.columns(snapshot, () => T0);
    const row = (id: string) => snapshot.userRows.find((r) => r.user.id === id)!;
    const online = columns.find((c) => c.key === 'online')!;
    const rate = columns.find((c) => c.key === 'rate')!;
    expect([online.cell(row('u-1')), online.cell(row('u-2')), online.cell(row('u-3'))]).toEqual(['2/2', '1/2', '–']);
    // ann: a (2.15) + d (0.5) = 2.65 MiB/s; bob: b (2.53) and c (none).
    expect([rate.cell(row('u-1')), rate.cell(row('u-2')), rate.cell(row('u-3'))]).toEqual(['2.65 MiB/s', '2.53 MiB/s', '–']);
    const view = (filter: string, sort: {key: string; desc: boolean} | null = null) =>
      buildListView(snapshot.userRows, {getId: (r) => r.user.id, filter, sort, columns, fields: userFilters(snapshot), now: T0}).rows.map((r) => r.user.email);
    expect(view('', {key: 'rate', desc: true})).toEqual(['ann@example.com', 'bob@example.com', 'cy@example.com']);
    expect(view('online>1')).toEqual(['ann@example.com']);
    expect(view('rate>2.6MiB/s')).toEqual(['ann@example.com']);
    expect(view('online:0')).toEqual(['cy@example.com']);
  });

  it('the sum is the two current rates, read once: none when idle, stale or without a sample', () => {
    for (const at of [T0, T0 + 100_000, T0 + 179_000, T0 + 181_000, T0 + 3_600_000])
      for (const row of snapshot.devices) {
        const rx = currentRate(row, 'rx', at);
        const tx = currentRate(row, 'tx', at);
        expect(currentTotalRate(row, at), `${row.name} at +${at - T0}`).toBe(rx === null && tx === null ? null : (rx ?? 0) + (tx ?? 0));
      }
  });
});
