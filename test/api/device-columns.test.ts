// The compact device store (src/api/device-columns.ts, device-decoder.ts) and the rows over it
// (src/state/data/device-rows.ts), held to a plain full parse of the same bodies.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {DeviceColumns, DevicePools} from '../../src/api/device-columns.js';
import {isDeviceFast} from '../../src/api/guards.js';
import type {Device} from '../../src/api/schemas.js';
import {deriveDeviceRows, deviceState, ONLINE_WINDOW_MS} from '../../src/state/data/snapshot.js';
import {deriveDeviceRowsWhole} from '../../src/state/data/device-rows.js';
import type {DeviceRow} from '../../src/state/data/snapshot.js';
import {device, iso, user} from '../fixtures/data.js';
import {ipSortKey} from '../../src/common/ip-literal.js';
import {fullParse, poll, project} from '../fixtures/device-store.js';

// Times in 0.7.36's form (packed), and in others a server might send (kept as text).
const timeArb = fc.oneof(
  fc.integer({min: 0, max: 8_000_000_000_000}).map((ms) => iso(ms)),
  fc
    .tuple(fc.integer({min: 0, max: 8_000_000_000_000}), fc.nat(999_999))
    .map(([ms, us]) => `${new Date(ms).toISOString().slice(0, 19)}.${String(us).padStart(6, '0')}Z`),
  fc.constantFrom(
    '2026-01-01T00:00:00Z',
    '2026-01-01T00:00:00.5Z',
    '2026-01-01T01:00:00+01:00',
    '2026-02-30T00:00:00.000000Z',
    '2026-13-01T00:00:00.000000Z',
    '1969-12-31T23:59:59.999999Z',
    '9999-12-31T23:59:59.999999Z',
  ),
);
const nasty = fc.oneof(fc.string({unit: 'binary', maxLength: 10}), fc.constantFrom('"', '\\', '},{"allowed_ips":', 'é😀', '\u2028'));
const listArb = fc.option(fc.array(fc.constantFrom('0.0.0.0/0', '::/0', '10.0.0.0/8', '1.1.1.1', 'a,b'), {maxLength: 3}));

const deviceArb = fc
  .record({
    n: fc.nat(40),
    owner: fc.constantFrom('u-1', 'u-2', 'u-gone'),
    name: nasty,
    description: fc.option(nasty),
    rx: fc.option(fc.nat()),
    tx: fc.option(fc.maxSafeNat()),
    handshake: fc.option(timeArb),
    inserted: timeArb,
    updated: timeArb,
    remote: fc.option(fc.constantFrom('84.1.2.3', '2001:db8::1', 'x')),
    allowed: listArb,
    dns: listArb,
    mtu: fc.option(fc.constantFrom(1280, 1420)),
    flag: fc.boolean(),
    // Each client setting varies on its own: interning must tell every one of them apart.
    endpoint: fc.option(fc.constantFrom('vpn.example.com:51820', 'vpn2.example.com:51820')),
    keepalive: fc.option(fc.constantFrom(0, 25)),
    serverKey: fc.option(fc.constantFrom('spk', 'spk2')),
    defaults: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean()),
    bad: fc.nat(25),
  })
  .map((r) => {
    const d: Record<string, unknown> = {
      ...device({
        id: `d-${r.n}`,
        user_id: r.owner,
        name: r.name,
        description: r.description,
        rx_bytes: r.rx,
        tx_bytes: r.tx,
        latest_handshake: r.handshake,
        inserted_at: r.inserted,
        updated_at: r.updated,
        remote_ip: r.remote,
        allowed_ips: r.allowed,
        dns: r.dns,
        mtu: r.mtu,
        use_default_dns: r.flag,
        preshared_key: r.flag ? null : `psk-${r.n}`,
        endpoint: r.endpoint,
        persistent_keepalive: r.keepalive,
        server_public_key: r.serverKey,
        use_default_allowed_ips: r.defaults[0],
        use_default_endpoint: r.defaults[1],
        use_default_mtu: r.defaults[2],
        use_default_persistent_keepalive: r.defaults[3],
      }),
    };
    // Now and then an item the fast guard refuses: salvaged (a neutral value), or dropped (no usable id).
    if (r.bad === 0) d.rx_bytes = 'lots';
    if (r.bad === 1) d.id = 7;
    if (r.bad === 2) d.extra = {nested: ['x', {y: '}'}]};
    return d;
  });

type Stats = {rx: number | null; tx: number | null; handshake: string | null; remote: string | null; updated: string};
type Edit =
  | {kind: 'change' | 'insert'; at: number; device: Record<string, unknown>}
  | {kind: 'delete' | 'duplicate'; at: number}
  | {kind: 'swap'; at: number; with: number}
  | {kind: 'stats'; at: number; stats: Stats};
const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({kind: fc.constant('change' as const), at: fc.nat(), device: deviceArb}),
  fc.record({kind: fc.constant('insert' as const), at: fc.nat(), device: deviceArb}),
  fc.record({kind: fc.constant('delete' as const), at: fc.nat()}),
  fc.record({kind: fc.constant('duplicate' as const), at: fc.nat()}),
  fc.record({kind: fc.constant('swap' as const), at: fc.nat(), with: fc.nat()}),
  // What 0.7.36 changes between most polls: the stats fields alone (also to values only a full parse reads).
  fc.record({
    kind: fc.constant('stats' as const),
    at: fc.nat(),
    stats: fc.record({
      rx: fc.option(fc.oneof(fc.nat(), fc.maxSafeNat())),
      tx: fc.option(fc.nat()),
      handshake: fc.option(timeArb),
      remote: fc.option(fc.oneof(fc.constantFrom('84.1.2.3', '2001:db8::1', 'a"b', 'é', '\\'), fc.string({maxLength: 4}))),
      updated: timeArb,
    }),
  }),
);

function apply(list: Record<string, unknown>[], edit: Edit): Record<string, unknown>[] {
  const next = [...list];
  const at = next.length === 0 ? 0 : edit.at % next.length;
  if (edit.kind === 'change' && next.length > 0) next[at] = {...edit.device, id: next[at]!.id};
  if (edit.kind === 'insert') next.splice(edit.at % (next.length + 1), 0, edit.device);
  if (edit.kind === 'delete') next.splice(at, 1);
  if (edit.kind === 'duplicate' && next.length > 0) next.splice(at, 0, next[at]!);
  if (edit.kind === 'stats' && next.length > 0) {
    const {rx, tx, handshake, remote, updated} = edit.stats;
    next[at] = {...next[at], rx_bytes: rx, tx_bytes: tx, latest_handshake: handshake, remote_ip: remote, updated_at: updated};
  }
  if (edit.kind === 'swap' && next.length > 0) {
    const other = edit.with % next.length;
    [next[at], next[other]] = [next[other]!, next[at]!];
  }
  return next;
}

const USERS = new Map([
  ['u-1', user({id: 'u-1', email: 'Ann@example.com'})],
  ['u-2', user({id: 'u-2', email: 'bob@example.com'})],
]);

// The users of a poll: as they were, one with another email, one deleted (its devices then show
// the user id). Owner columns are shared from poll to poll only while every email is the same.
const USER_SETS = [USERS, new Map([...USERS, ['u-1', user({id: 'u-1', email: 'ann.new@Example.com'})]]), new Map([...USERS].filter(([id]) => id !== 'u-2'))];

/** The online/idle/never state just at, at and just past the end of the online window after a handshake. */
function statesAround(at: number | null, state: (now: number) => string): string[] {
  return [-1, 0, ONLINE_WINDOW_MS, ONLINE_WINDOW_MS + 1].map((d) => state((at ?? 1e12) + d));
}

/** What each column the screens show must read, computed from a plainly parsed device. */
function expectedRow(d: Record<string, unknown>, users: ReadonlyMap<string, ReturnType<typeof user>> = USERS) {
  const ownerEmail = (users.get(d.user_id as string)?.email ?? d.user_id) as string;
  const ms = (t: unknown) => (t === null ? null : Number.isNaN(Date.parse(t as string)) ? null : Date.parse(t as string));
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    publicKey: d.public_key,
    userId: d.user_id,
    ownerEmail,
    ownerKey: ownerEmail.toLowerCase(),
    ipv4: d.ipv4,
    ipv6: d.ipv6,
    remoteIp: d.remote_ip,
    rxBytes: d.rx_bytes,
    txBytes: d.tx_bytes,
    handshakeAt: ms(d.latest_handshake),
    createdAt: ms(d.inserted_at) ?? 0,
    nameKey: (d.name as string).toLowerCase(),
    states: statesAround(ms(d.latest_handshake), (now) => deviceState({handshakeAt: ms(d.latest_handshake)}, now)),
    ipv4Key: ipSortKey(d.ipv4 as string | null),
    ipv6Key: ipSortKey(d.ipv6 as string | null),
    remoteKey: ipSortKey(d.remote_ip as string | null),
    device: d,
  };
}

const shown = (r: DeviceRow) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  publicKey: r.publicKey,
  userId: r.userId,
  ownerEmail: r.ownerEmail,
  ownerKey: r.ownerKey,
  ipv4: r.ipv4,
  ipv6: r.ipv6,
  remoteIp: r.remoteIp,
  rxBytes: r.rxBytes,
  txBytes: r.txBytes,
  handshakeAt: r.handshakeAt,
  createdAt: r.createdAt,
  nameKey: r.nameKey,
  states: statesAround(r.handshakeAt, (now) => deviceState(r, now)),
  ipv4Key: r.ipv4Key,
  ipv6Key: r.ipv6Key,
  remoteKey: r.remoteKey,
  device: r.toDevice(),
});

const formats: Array<(v: unknown) => string> = [(v) => JSON.stringify(v), (v) => JSON.stringify(v, null, 2)];

describe('the compact device store', () => {
  it('gives every column the screens show exactly as a full parse does, poll after poll (property)', () => {
    fc.assert(
      fc.property(
        fc.array(deviceArb, {maxLength: 10}),
        fc.array(fc.tuple(fc.array(editArb, {maxLength: 4}), fc.array(fc.double({min: 0, max: 1, noNaN: true}), {maxLength: 6}), fc.constantFrom(0, 0, 1, 2)), {
          minLength: 1,
          maxLength: 5,
        }),
        fc.nat(formats.length - 1),
        (initial, polls, format) => {
          const pools = new DevicePools();
          let table = DeviceColumns.EMPTY;
          let rows: DeviceRow[] = [];
          let list = initial;
          for (const [edits, cuts, usersAt] of polls) {
            const users = USER_SETS[usersAt]!;
            for (const edit of edits) list = apply(list, edit);
            const body = formats[format]!({data: list});
            const reference = fullParse(body);
            const got = poll(table, pools, Buffer.from(body, 'utf8'), cuts);
            if (format === 0) expect(got.incremental).toBe(true);
            expect(got.table.materialiseAll()).toEqual(reference.data);
            expect(got.issues).toEqual(reference.issues);
            rows = deriveDeviceRows(got.table, users, rows);
            expect(rows.map(shown)).toEqual(reference.data.map((d) => expectedRow(d, users)));
            table = got.table;
          }
        },
      ),
      {numRuns: 300},
    );
  });

  it('parses only what changed: an unchanged item is copied from the last table, wherever the chunks were cut', () => {
    let parsed = 0;
    const counting = (v: unknown): v is Device => {
      parsed++;
      return isDeviceFast(v);
    };
    const pools = new DevicePools();
    // 150 devices: more than a first poll's table is made for (it grows as they come).
    const list = Array.from({length: 150}, (_, i) => device({id: `d-${i}`, name: `n${i}`, rx_bytes: i}));
    const body = (l: Device[]) => Buffer.from(JSON.stringify({data: l}));
    const first = poll(DeviceColumns.EMPTY, pools, body(list), [0.3, 0.61], counting);
    expect(parsed).toBe(150);
    expect(first.table.materialiseAll()).toEqual(list);
    parsed = 0;
    // The same bytes, cut elsewhere (so at other offsets of other buffers): nothing is parsed.
    const second = poll(first.table, pools, body(list), [0.1, 0.5, 0.77], counting);
    expect(parsed).toBe(0);
    expect(second.table.materialiseAll()).toEqual(list);
    // Nothing changed at all: the poll's table is the last one itself.
    expect(second.table).toBe(first.table);
    // Nothing added, removed or moved: the columns stats never change are the last table's own arrays.
    expect(second.table.id).toBe(first.table.id);
    expect(second.table.settings).toBe(first.table.settings);
    // Devices whose first stats change is parsed (no digest without stats yet) keep them shared too.
    const firstStats = list.map((d, i) => (i % 3 === 0 ? {...d, rx_bytes: 1e6 + i, latest_handshake: iso(5 + i), remote_ip: '84.1.2.3'} : d));
    parsed = 0;
    const traffic = poll(second.table, pools, body(firstStats), [0.2], counting);
    expect(parsed).toBe(50);
    expect(traffic.table.materialiseAll()).toEqual(firstStats);
    expect(traffic.table.id).toBe(first.table.id);
    expect(traffic.table.settings).toBe(first.table.settings);
    // …but not when anything else of such a device changed (here its settings).
    const edited = firstStats.map((d, i) => (i === 9 ? {...d, rx_bytes: 7, mtu: 1300} : d));
    const editedPoll = poll(traffic.table, pools, body(edited), [0.6], counting);
    expect(editedPoll.table.materialiseAll()).toEqual(edited);
    expect(editedPoll.table.settings).not.toBe(first.table.settings);
    parsed = 0;
    // The same items in another order (and one gone): found by id, still not parsed.
    const reordered = [...list.slice(75), ...list.slice(1, 75)];
    const shuffled = poll(second.table, pools, body(reordered), [0.4], counting);
    expect(parsed).toBe(0);
    expect(shuffled.table.materialiseAll()).toEqual(reordered);
    expect(shuffled.table.id).not.toBe(second.table.id);
    // One device's name changes: that item alone is parsed.
    const renamed = list.map((d, i) => (i === 17 ? {...d, name: 'renamed'} : d));
    const third = poll(second.table, pools, body(renamed), [0.5], counting);
    expect(parsed).toBe(1);
    expect(third.table.name[17]).toBe('renamed');
    // An edit makes the table's own copies; the last table (still shown until the poll applies) is untouched.
    expect(third.table.name).not.toBe(second.table.name);
    expect(second.table.name[17]).toBe('n17');
    // A changed byte anywhere in an item is seen, also past the last whole 8 bytes: eight items
    // whose lengths differ by one, each changed 2 bytes from its end (`…-1"}` → `…-2"}`).
    const last = (d: Device) => {
      const {user_id, ...rest} = d;
      return {...rest, user_id};
    };
    const ragged = Array.from({length: 8}, (_, i) => last(device({id: `r-${i}`, name: 'x'.repeat(i), user_id: 'u-1'})));
    const t4 = poll(third.table, pools, body(ragged as Device[]), [], counting).table;
    parsed = 0;
    const moved = ragged.map((d) => ({...d, user_id: 'u-2'}));
    const t5 = poll(t4, pools, body(moved as Device[]), [], counting).table;
    expect(parsed).toBe(8);
    expect(t5.materialiseAll()).toEqual(moved.map((d) => project(d)));
  });

  it('a poll that changed nothing gives the last table; the first change, wherever it is, writes the slots before it', () => {
    const pools = new DevicePools();
    const list = Array.from({length: 40}, (_, i) => device({id: `u-${i}`, rx_bytes: i, latest_handshake: iso(i), remote_ip: `84.0.0.${i}`}));
    const body = (l: Device[]) => Buffer.from(JSON.stringify({data: l}));
    const first = poll(DeviceColumns.EMPTY, pools, body(list), []).table;
    expect(poll(first, pools, body(list), [0.5]).table).toBe(first);
    // A change at the start, in the middle or at the end (stats only, or parsed), a device gone
    // from the end, one added at the end: a table of its own, every slot as a full parse gives it.
    const variants: Device[][] = [
      list.map((d, i) => (i === 0 ? {...d, rx_bytes: 999} : d)),
      list.map((d, i) => (i === 23 ? {...d, rx_bytes: 999, latest_handshake: iso(99), remote_ip: '84.9.9.9'} : d)),
      list.map((d, i) => (i === 39 ? {...d, name: 'renamed'} : d)),
      list.slice(0, 39),
      [...list, device({id: 'new'})],
    ];
    for (const changed of variants) {
      // From the first table and from one that has static digests (a change of stats seen once).
      const seen = poll(first, pools, body(list.map((d) => ({...d, rx_bytes: (d.rx_bytes ?? 0) + 1}))), []).table;
      for (const from of [first, seen]) {
        const before = from.materialiseAll();
        const next = poll(from, pools, body(changed), [0.3]).table;
        expect(next).not.toBe(from);
        expect(next.materialiseAll()).toEqual(changed);
        expect(from.materialiseAll()).toEqual(before);
        // …and the poll after it, unchanged again, is that table.
        expect(poll(next, pools, body(changed), []).table).toBe(next);
      }
    }
  });

  it('derives nothing for a poll that changed nothing: the last rows, in the same array', () => {
    const pools = new DevicePools();
    const list = Array.from({length: 12}, (_, i) => device({id: `s-${i}`, user_id: i % 2 ? 'u-1' : 'u-2', rx_bytes: i}));
    const table = poll(DeviceColumns.EMPTY, pools, Buffer.from(JSON.stringify({data: list})), []).table;
    const a = deriveDeviceRowsWhole(table, USERS, []);
    const b = deriveDeviceRowsWhole(table, new Map(USERS), a.rows);
    expect(b.rows).toBe(a.rows);
    expect(b.table).toBe(a.table);
    expect(b.deviceCountByUser).toBe(a.deviceCountByUser);
    // An owner's email changed: rows derived again, with it.
    const renamed = new Map([...USERS, ['u-1', user({id: 'u-1', email: 'x@example.com'})]]);
    const c = deriveDeviceRowsWhole(table, renamed, b.rows);
    expect(c.rows).not.toBe(b.rows);
    expect(c.rows.map((r) => r.ownerEmail)).toEqual(list.map((d) => renamed.get(d.user_id)!.email));
    // The same table, but rows that are not its rows in its order (a sorted or filtered list):
    // derived, in the table's order.
    const reversed = [...c.rows].reverse();
    const d = deriveDeviceRowsWhole(table, renamed, reversed);
    expect(d.rows).not.toBe(reversed);
    expect(d.rows.map((r) => r.id)).toEqual(list.map((x) => x.id));
    const fewer = c.rows.slice(1);
    expect(deriveDeviceRowsWhole(table, renamed, fewer).rows.map((r) => r.id)).toEqual(list.map((x) => x.id));
  });

  it('derives again only the columns whose source changed: a poll of traffic shares owners, names and addresses', () => {
    const pools = new DevicePools();
    const list = Array.from({length: 30}, (_, i) => device({id: `s-${i}`, name: `Dev-${i}`, user_id: i % 2 ? 'u-1' : 'u-2', rx_bytes: i}));
    const body = (l: Device[]) => Buffer.from(JSON.stringify({data: l}));
    const first = poll(DeviceColumns.EMPTY, pools, body(list), []).table;
    const a = deriveDeviceRowsWhole(first, USERS, []);
    const traffic = list.map((d, i) => ({...d, rx_bytes: 1000 + i, latest_handshake: iso(i)}));
    const second = poll(first, pools, body(traffic), []).table;
    const b = deriveDeviceRowsWhole(second, new Map(USERS), a.rows);
    expect(b.table.nameKey).toBe(a.table.nameKey);
    expect(b.table.ownerEmail).toBe(a.table.ownerEmail);
    expect(b.table.ipv4Key).toBe(a.table.ipv4Key);
    expect(b.deviceCountByUser).toBe(a.deviceCountByUser);
    expect(b.table.rxRate).not.toBe(a.table.rxRate);
    expect(b.rows.map((r) => [r.nameKey, r.ownerEmail, r.rxBytes])).toEqual(
      traffic.map((d) => [d.name.toLowerCase(), USERS.get(d.user_id)!.email, d.rx_bytes]),
    );
    // An email changed: the owners are derived again (the names are still shared).
    const renamed = new Map([...USERS, ['u-1', user({id: 'u-1', email: 'x@example.com'})]]);
    const c = deriveDeviceRowsWhole(poll(second, pools, body(traffic), []).table, renamed, b.rows);
    expect(c.table.ownerEmail).not.toBe(b.table.ownerEmail);
    expect(c.table.nameKey).toBe(a.table.nameKey);
    expect(c.rows.map((r) => r.ownerEmail)).toEqual(traffic.map((d) => renamed.get(d.user_id)!.email));
    expect([...c.deviceCountByUser]).toEqual([...a.deviceCountByUser]);
  });

  it('rows of unchanged devices keep their identity, and read the same values after the poll', () => {
    const pools = new DevicePools();
    const list = [device({id: 'a', rx_bytes: 1}), device({id: 'b', rx_bytes: 2})];
    const t1 = poll(DeviceColumns.EMPTY, pools, Buffer.from(JSON.stringify({data: list})), []).table;
    const r1 = deriveDeviceRows(t1, USERS, []);
    const before = r1.map(shown);
    const t2 = poll(t1, pools, Buffer.from(JSON.stringify({data: [list[0], {...list[1], rx_bytes: 5}]})), []).table;
    const r2 = deriveDeviceRows(t2, USERS, r1);
    expect(r2[0]).toBe(r1[0]);
    expect(r2[1]).not.toBe(r1[1]);
    // The previous poll's rows still read what they read (the changed one from its own table).
    expect(r1.map(shown)).toEqual(before);
    expect(r2[1]!.rxBytes).toBe(5);
  });

  it('interns what devices share: one settings value and one string per repeated value', () => {
    const pools = new DevicePools();
    const list = Array.from({length: 5}, (_, i) => device({id: `d-${i}`, user_id: 'u-1', allowed_ips: ['10.0.0.0/8'], dns: ['1.1.1.1']}));
    const table = poll(DeviceColumns.EMPTY, pools, Buffer.from(JSON.stringify({data: list})), []).table;
    expect(new Set(table.settings).size).toBe(1);
    expect(Object.isFrozen(table.settings[0]!.allowed_ips)).toBe(true);
    // ["a,b"] and ["a", "b"] do not meet.
    const other = DeviceColumns.from([device({allowed_ips: ['a,b']}), device({id: 'x', allowed_ips: ['a', 'b']})], pools);
    expect(other.settings[0]).not.toBe(other.settings[1]);
    expect(other.materialise(0).allowed_ips).toEqual(['a,b']);
    expect(other.materialise(1).allowed_ips).toEqual(['a', 'b']);
  });
});
