// The stats-only path of the device decoder (src/api/device-decoder.ts): a device whose only
// change is its stats (handshake, remote address, counters, updated_at) has those five values read
// from the body without a parse, and must come out exactly as a full parse would give it.
import {describe, expect, it} from 'vitest';
import {DeviceColumns, DevicePools} from '../../src/api/device-columns.js';
import {isDeviceFast} from '../../src/api/guards.js';
import type {Device} from '../../src/api/schemas.js';
import {device, iso} from '../fixtures/data.js';
import {expectFullParseEachPoll, fullParse, poll} from '../fixtures/device-store.js';

const STATS = ['latest_handshake', 'remote_ip', 'rx_bytes', 'tx_bytes', 'updated_at'];
const statsRank = (key: string) => (key === 'rx_bytes' ? 2 : STATS.includes(key) ? 1 : 0);

describe('the stats-only path', () => {
  it('reads a change of stats alone without parsing the item, exactly as a full parse would', () => {
    let parsed = 0;
    const counting = (v: unknown): v is Device => {
      parsed++;
      return isDeviceFast(v);
    };
    const pools = new DevicePools();
    const list = Array.from({length: 20}, (_, i) => device({id: `d-${i}`, rx_bytes: i, latest_handshake: null}));
    const text = (l: unknown[]) => JSON.stringify({data: l});
    let table = poll(DeviceColumns.EMPTY, pools, Buffer.from(text(list)), [], counting).table;
    // A device's first change is parsed (a new device gets no static digest: start-up pays nothing for it)…
    const warm = list.map((d) => ({...d, rx_bytes: (d.rx_bytes ?? 0) + 1}));
    parsed = 0;
    table = poll(table, pools, Buffer.from(text(warm)), [], counting).table;
    expect(parsed).toBe(20);
    // …and from then on a change of stats alone is read without a parse.
    parsed = 0;
    const stats = list.map((d, i) => ({
      ...d,
      rx_bytes: 10 * i,
      tx_bytes: i === 3 ? null : 7,
      latest_handshake: iso(5000 + i),
      remote_ip: '84.1.2.3',
      updated_at: '2026-01-01T00:00:01.000001Z',
    }));
    table = poll(table, pools, Buffer.from(text(stats)), [0.37], counting).table;
    expect(parsed).toBe(0);
    expect(table.materialiseAll()).toEqual(stats);
    // Values outside the strict grammar are parsed whole; the outcome is the full parse's.
    const odd = [
      '"rx_bytes":01,',
      '"rx_bytes":1.5,',
      '"rx_bytes":1e3,',
      '"rx_bytes":-0,',
      '"rx_bytes":99999999999999999,',
      '"remote_ip":"a\\"b",',
      '"remote_ip":"é",',
      '"remote_ip":7,',
      '"latest_handshake":"yesterday",',
      '"latest_handshake":"2026-01-01T00:00:00Z",',
      '"rx_bytes":12345678901234567,',
      '"rx_bytes":-,',
      '"remote_ip":nul,',
      '"remote_ip":nulx,',
      '"remote_ip":"a\u0001b",',
      '"remote_ip":"a\u007fb",',
      '"tx_bytes":"7",',
      '"updated_at":null,',
      // 0.7.36's form, but no such day: kept as text, as a full parse keeps it.
      '"updated_at":"2026-02-30T00:00:00.000000Z",',
      '"latest_handshake":"2026-13-01T00:00:00.000000Z",',
      '"latest_handshake":"2026-01-01T00:00:00.000000Z"',
      '"updated_at":7,',
      // Escapes mean something else than their bytes; a misspelt null is no null.
      '"remote_ip":"a\\nb",',
      '"remote_ip":"a\\\\b",',
      '"remote_ip":nxll,',
      '"remote_ip":nuxl,',
      '"remote_ip":nulx,',
      '"rx_bytes":"7",',
      '"latest_handshake":7,',
      '"latest_handshake":"2026-01-01T00:00:00.000000Z"x,',
      // The integers around 2^53: the largest safe one is read, the next ones are parsed.
      '"rx_bytes":9007199254740991,',
      '"rx_bytes":9007199254740993,',
      '"tx_bytes":-9007199254740991,',
    ];
    for (const value of odd) {
      const key = value.slice(0, value.indexOf(':') + 1);
      const base = text(stats);
      const at = base.indexOf(key, base.indexOf('"d-5"') - 2000 > 0 ? base.indexOf('"d-5"') - 2000 : 0);
      const item5 = base.indexOf(key, base.lastIndexOf('{', base.indexOf('"id":"d-5"')));
      const valueEnd = base.indexOf(',', item5 + key.length);
      const edited = `${base.slice(0, item5)}${value.slice(0, -1)}${base.slice(valueEnd)}`;
      expect(at).toBeGreaterThanOrEqual(0);
      parsed = 0;
      let reference: unknown;
      try {
        reference = fullParse(edited);
      } catch {
        reference = 'malformed';
      }
      let got: unknown;
      try {
        const r = poll(table, pools, Buffer.from(edited), [], counting);
        got = {data: r.table.materialiseAll(), issues: r.issues};
      } catch {
        got = 'malformed';
      }
      expect(got, value).toEqual(reference);
    }
  });

  it.each([
    // Reverse order: each stats key is found from the item's start, not after the last.
    ['in reverse', (d: Record<string, unknown>) => Object.fromEntries(Object.entries(d).reverse())],
    // The stats keys last, rx_bytes the very last: a number that ends the item (followed by `}`).
    ['with the stats last', (d: Record<string, unknown>) => Object.fromEntries(Object.entries(d).sort(([a], [b]) => statsRank(a) - statsRank(b)))],
  ])('reads stats alone in items whose keys come in another order than 0.7.36 writes them (%s)', (_, order) => {
    let parsed = 0;
    const counting = (v: unknown): v is Device => {
      parsed++;
      return isDeviceFast(v);
    };
    const pools = new DevicePools();
    const text = (l: Record<string, unknown>[]) => JSON.stringify({data: l.map(order)});
    const list = Array.from({length: 12}, (_, i) => device({id: `r-${i}`, rx_bytes: i, remote_ip: `10.0.0.${i}`}));
    let table = poll(DeviceColumns.EMPTY, pools, Buffer.from(text(list)), [], counting).table;
    table = poll(table, pools, Buffer.from(text(list.map((d) => ({...d, rx_bytes: 99})))), [], counting).table;
    parsed = 0;
    const stats = list.map((d, i) => ({
      ...d,
      rx_bytes: 1000 + i,
      tx_bytes: i,
      latest_handshake: iso(77 + i),
      remote_ip: i % 2 ? d.remote_ip : '84.1.2.3',
      updated_at: iso(99),
    }));
    table = poll(table, pools, Buffer.from(text(stats)), [0.5], counting).table;
    expect(parsed).toBe(0);
    expect(table.materialiseAll()).toEqual(stats);
  });

  // Each stats key written twice in an item, the other one before all stats keys or after the
  // last (a full parse takes the last), there also spelt otherwise (a space before its colon, an
  // escape in its name: the same key to a parse); polls change the other one, the item's own, and
  // another stats value (so that every poll is a change of stats).
  const STATS_VALUES: Record<string, unknown[]> = {
    latest_handshake: [iso(1), iso(2), iso(3)],
    remote_ip: ['1.1.1.1', '2.2.2.2', '3.3.3.3'],
    rx_bytes: [1, 2, 3],
    tx_bytes: [1, 2, 3],
    updated_at: [iso(1), iso(2), iso(3)],
  };
  // 'just before': the other one right before the item's own, so that the own one is where the
  // key lay in the other item (the decoder looks there first) and the other one is found first by a search.
  const PLACES = ['before', 'just before', 'after', 'after, spaced,', 'after, escaped,'] as const;
  it.each(Object.keys(STATS_VALUES).flatMap((key) => PLACES.map((where) => [key, where] as const)))(
    'reads stats as a full parse does when an item writes %s twice (%s its own)',
    (key, where) => {
      const pools = new DevicePools();
      const values = STATS_VALUES[key]!;
      const ticker = key === 'rx_bytes' ? 'tx_bytes' : 'rx_bytes';
      const body = ([own, other]: readonly [number, number], tick: number) => {
        const items = [0, 1].map((i) => JSON.stringify(device({id: `k-${i}`, [key]: values[own], [ticker]: tick})));
        const name = where === 'after, escaped,' ? key.replace('_', '\\u005f') : key;
        // Each of JSON's four spaces, so that leaving one out lets the key through.
        const odd = `"${name}"${where === 'after, spaced,' ? ' \t\r\n' : ''}:${JSON.stringify(values[other])}`;
        items[0] =
          where === 'before'
            ? items[0]!.replace('"description":null,', `$&${odd},`)
            : where === 'just before'
              ? items[0]!.replace(`"${key}":`, `${odd},$&`)
              : items[0]!.replace(/}$/, `,${odd}}`);
        return `{"data":[${items.join(',')}]}`;
      };
      const steps = [
        [0, 0],
        [0, 1],
        [0, 1],
        [1, 1],
        [2, 1],
        [2, 2],
        [2, 0],
      ] as const;
      const polls = steps.map((step, tick) => body(step, tick));
      expectFullParseEachPoll(pools, polls);
    },
  );

  it('reads stats as a full parse does when the place a key had in the item before holds its second writing', () => {
    // tx_bytes is looked for first where it lay in the last item read, from the end of rx_bytes'
    // value. Item A's longer server key puts it exactly where item B writes tx_bytes a second time
    // (a full parse takes that last one); a search from rx_bytes finds B's first writing.
    const pools = new DevicePools();
    const body = (own: number, other: number, tick: number) => {
      const odd = `"tx_bytes":${other},`;
      // The keys in 0.7.36's order (by name): server_public_key between rx_bytes and tx_bytes.
      const sorted = (d: Device) => JSON.stringify(Object.fromEntries(Object.entries(d).sort(([x], [y]) => (x < y ? -1 : 1))));
      const a = sorted(device({id: 'a', rx_bytes: tick, tx_bytes: 1, server_public_key: `spk${'x'.repeat(odd.length)}`}));
      const b = sorted(device({id: 'b', rx_bytes: tick, tx_bytes: own})).replace('"tx_bytes":', `${odd}$&`);
      return `{"data":[${a},${b}]}`;
    };
    const steps = [
      [1, 2],
      [1, 3],
      [4, 3],
      [5, 6],
      [5, 6],
      [7, 7],
    ] as const;
    expectFullParseEachPoll(
      pools,
      steps.map(([own, other], tick) => body(own, other, tick)),
    );
  });

  it('reads stats alone when text after the first value only looks like a stats key', () => {
    let parsed = 0;
    const counting = (v: unknown): v is Device => {
      parsed++;
      return isDeviceFast(v);
    };
    const pools = new DevicePools();
    // Keys in 0.7.36's order (sorted), so user_id comes last, after every stats value: owners
    // named like a stats key (no colon after the name), starting like one with a colon after, or
    // nearly like one.
    const owners = ['rx_bytes', 'u :x', 'updated', 'tx_bytes :', 'remote_ipx'];
    const sorted = (d: Record<string, unknown>) => Object.fromEntries(Object.entries(d).sort(([a], [b]) => (a < b ? -1 : 1)));
    const text = (rx: number) =>
      JSON.stringify({data: owners.map((owner, i) => sorted(device({id: `n-${i}`, user_id: owner, rx_bytes: rx + i, updated_at: iso(rx)})))});
    let table = poll(DeviceColumns.EMPTY, pools, Buffer.from(text(1)), [], counting).table;
    table = poll(table, pools, Buffer.from(text(2)), [], counting).table;
    parsed = 0;
    table = poll(table, pools, Buffer.from(text(3)), [], counting).table;
    expect(parsed).toBe(0);
    expect(table.materialiseAll()).toEqual(fullParse(text(3)).data);
  });

  it.each([
    ['inside a key the schema does not have', (item: string) => item.replace(/("remote_ip":[^,]*,)/, '$1"x":{"rx_bytes":1},')],
    // The item's own key written before the stats keys: the nested one is found after remote_ip,
    // and nothing after it is a stats key (only the key count refuses the item).
    [
      'inside a key the schema does not have, its own written before',
      (item: string) => {
        const own = /"rx_bytes":\d+,/.exec(item)![0];
        return item
          .replace(own, '')
          .replace('"description":null,', `$&${own}`)
          .replace(/("remote_ip":[^,]*,)/, '$1"x":{"rx_bytes":1},');
      },
    ],
    // The item's own key with a space before its colon: the nested one is the only one found.
    [
      'inside a key the schema does not have, and its own spaced',
      (item: string) => item.replace('"rx_bytes":', '"rx_bytes" :').replace(/("remote_ip":[^,]*,)/, '$1"x":{"rx_bytes":1},'),
    ],
  ])('reads stats as a full parse does when a stats key is %s', (_, edit) => {
    const pools = new DevicePools();
    // Item 0 has the odd key, at first with the value of the item's own; the next polls change
    // the odd one, then the stats.
    const body = (rx: number, tx: number, odd: number) => {
      const items = [0, 1].map((i) => JSON.stringify(device({id: `k-${i}`, rx_bytes: rx, tx_bytes: tx})));
      items[0] = edit(items[0]!).replace(/"rx_bytes":1\b/, `"rx_bytes":${odd}`);
      return `{"data":[${items.join(',')}]}`;
    };
    const polls = [body(2, 2, 2), body(2, 3, 5), body(2, 4, 5), body(3, 5, 6), body(3, 5, 8)];
    expectFullParseEachPoll(pools, polls);
  });
});
