// Who moves the most traffic (#47): the Devices list's RATE column is received + sent per second,
// sorts by that sum (the top row by RX/S alone may move less than the second), and is what the
// `rate>` filter term reads; an owner's email is cut in its name, so the domain stays.
import {describe, expect, it} from 'vitest';
import {buildSnapshot, type Snapshot} from '../../src/state/data/snapshot.js';
import {buildListView} from '../../src/state/lists/list-view.js';
import {devices as DEVICES} from '../../src/state/screens/devices/screen.js';
import {deviceFilters} from '../../src/state/screens/devices/filters.js';
import {shortenEmail} from '../../src/ui/text.js';
import {device, iso, user} from '../fixtures/data.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const MiB = 1024 * 1024;

function polls(rates: Array<[string, number, number]>): Snapshot {
  const at = (t: number, k: number) =>
    rates.map(([name, rx, tx], i) =>
      device({id: `d-${i}`, name, rx_bytes: Math.round(rx * k), tx_bytes: Math.round(tx * k), updated_at: iso(t), latest_handshake: iso(t)}),
    );
  const data = (t: number, k: number) => ({devices: at(t, k), users: [user()], rules: [], configuration: null, issues: []});
  const first = buildSnapshot(data(T0 - 60_000, 0), null, T0 - 60_000);
  return buildSnapshot(data(T0, 60), first, T0);
}

describe('top talkers', () => {
  // The issue's case: RX/S puts a first (1.90 + 0.25), but b moved more (1.76 + 0.77).
  const snapshot = polls([
    ['a', 1.9 * MiB, 0.25 * MiB],
    ['b', 1.76 * MiB, 0.77 * MiB],
    ['c', 0, 0],
  ]);
  const columns = DEVICES.columns(snapshot, () => T0);
  const rate = columns.find((c) => c.key === 'rate')!;
  const order = (key: string) =>
    buildListView(snapshot.devices, {getId: (r) => r.id, filter: '', sort: {key, desc: true}, columns, now: T0}).rows.map((r) => r.name);

  it('RATE is received + sent per second, and sorts by the sum', () => {
    expect(rate.header).toBe('RATE');
    expect(rate.cell(snapshot.devices[1]!)).toBe('2.53 MiB/s');
    expect(order('rxRate')).toEqual(['a', 'b', 'c']);
    expect(order('rate')).toEqual(['b', 'a', 'c']);
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
    expect(shortenEmail('maria.rossi@example.com', 30)).toBe('maria.rossi@example.com');
    // A domain that leaves fewer than three cells of the name, or text that is no plain email: cut at the end.
    expect(shortenEmail('ann@sandbox.example.org', 16)).toBe('ann@sandbox.exa…');
    expect(shortenEmail('no-at-sign-in-this-text', 10)).toBe('no-at-sig…');
    expect(shortenEmail('zoë.müller@example.com', 16)).toBe('zoë.müller@exam…');
  });
});
