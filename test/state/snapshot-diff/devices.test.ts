// Change detection event by event (devices, and going idle): the exact text and detail of every
// kind, the row marks it leaves. Helpers in ./harness.ts; the mutation group "change detection"
// runs these (test/mutation/).
import {describe, expect, it} from 'vitest';
import {Highlights} from '../../../src/state/tracking/highlights.js';
import {LocalWrites} from '../../../src/state/tracking/local-writes.js';
import {diffSnapshots} from '../../../src/state/tracking/snapshot-diff.js';
import {device, iso} from '../../fixtures/data.js';
import {T0, ann, bob, snap, diff, lines, mark, cells, DEVICE_KEYS, online} from './harness.js';

describe('devices, event by event', () => {
  it('created: text with the address, the owner, no detail, an "added" mark', () => {
    const r = diff({devices: []}, {devices: [device()]});
    expect(lines(r)).toEqual(['device.created device:d-1 [laptop] owner=ann@example.com by=null | Device laptop created for ann@example.com (10.3.2.2) | ']);
    expect(r.events[0]!.detail).toEqual([]);
    expect(mark(r, 'device', 'd-1')).toMatchObject({kind: 'added'});
    // No IPv4 (an IPv6-only server): no empty parentheses.
    expect(diff({devices: []}, {devices: [device({ipv4: null})]}).events[0]!.text).toBe('Device laptop created for ann@example.com');
  });

  it('deleted: text, owner, no detail, the row kept as "removed"', () => {
    const r = diff({devices: [device(), device({id: 'd-2', name: 'phone', user_id: 'u-2'})]}, {devices: [device()]});
    expect(lines(r)).toEqual(['device.deleted device:d-2 [phone] owner=bob@example.com by=null | Device phone (bob@example.com) deleted | ']);
    expect(r.events[0]!.detail).toEqual([]);
    expect(mark(r, 'device', 'd-2')).toMatchObject({kind: 'removed'});
    expect(r.hl.removed<{id: string}>('device', r.at).map((row) => row.id)).toEqual(['d-2']);
  });

  it('a new key (deleted and created again with the same owner, name and addresses, another key): one event, "added" mark, no removed row', () => {
    const old = device({id: 'd-1', public_key: 'old-key'});
    const renewed = device({id: 'd-9', public_key: 'new-key'});
    const r = diff({devices: [old]}, {devices: [renewed]});
    expect(lines(r)).toEqual([
      'device.rekeyed device:d-9 [laptop] owner=ann@example.com by=null | Device laptop (ann@example.com) got a new key: deleted and created again with the same name and addresses | public key: old-key → new-key; id: d-1 → d-9',
    ]);
    expect(mark(r, 'device', 'd-9')).toMatchObject({kind: 'added'});
    expect(r.hl.removed('device', r.at)).toEqual([]);
  });

  it('a new key by this console is "by you" and settles both writes; one write alone of the two is not', () => {
    const old = device({id: 'd-1', public_key: 'old-key'});
    const renewed = device({id: 'd-9', public_key: 'new-key'});
    const local = new LocalWrites();
    local.note({type: 'device', id: 'd-1', action: 'deleted'}, T0 - 1000);
    local.note({type: 'device', id: 'd-9', action: 'created'}, T0 - 900);
    const r = diff({devices: [old]}, {devices: [renewed]}, T0, local);
    expect(r.events.map((e) => `${e.kind} ${e.by}`)).toEqual(['device.rekeyed you']);
    const half = new LocalWrites();
    half.note({type: 'device', id: 'd-1', action: 'deleted'}, T0 - 1000);
    expect(diff({devices: [old]}, {devices: [renewed]}, T0, half).events.map((e) => `${e.kind} ${e.by}`)).toEqual(['device.rekeyed null']);
  });

  it('not a new key: the same key, another name, another address, another owner, or two devices that keep the same', () => {
    const old = device({id: 'd-1', public_key: 'k1'});
    const kinds = (next: ReturnType<typeof device>[], prev = [old]) => diff({devices: prev}, {devices: next}).events.map((e) => `${e.kind} ${e.object.id}`);
    expect(kinds([device({id: 'd-9', public_key: 'k1'})])).toEqual(['device.created d-9', 'device.deleted d-1']);
    expect(kinds([device({id: 'd-9', public_key: 'k2', name: 'other'})])).toEqual(['device.created d-9', 'device.deleted d-1']);
    expect(kinds([device({id: 'd-9', public_key: 'k2', ipv4: '10.3.2.9'})])).toEqual(['device.created d-9', 'device.deleted d-1']);
    expect(kinds([device({id: 'd-9', public_key: 'k2', ipv6: null})])).toEqual(['device.created d-9', 'device.deleted d-1']);
    expect(kinds([device({id: 'd-9', public_key: 'k2', user_id: 'u-2'})])).toEqual(['device.created d-9', 'device.deleted d-1']);
    // Two gone devices that keep the same (a server that gives two devices one address): no pairing is sure.
    expect(kinds([device({id: 'd-9', public_key: 'k3'})], [old, device({id: 'd-2', public_key: 'k2'})])).toEqual([
      'device.created d-9',
      'device.deleted d-1',
      'device.deleted d-2',
    ]);
  });

  it('came online: from never and from idle, with and without a remote IP; the state cell says from what to what', () => {
    const r = diff({devices: [device()]}, {devices: [online()]});
    expect(lines(r)).toEqual(['device.online device:d-1 [laptop] owner=ann@example.com by=null | laptop (ann@example.com) came online from 198.51.100.7 | ']);
    expect(mark(r, 'device', 'd-1')).toMatchObject({kind: 'changed', notable: true, stateFrom: 'never', stateTo: 'online'});
    expect(cells(r, 'device', 'd-1', DEVICE_KEYS)).toEqual({state: 'changed', remote: 'changed'});
    const noIp = diff({devices: [online({latest_handshake: iso(T0 - 3_600_000)})]}, {devices: [online({remote_ip: null})]});
    expect(noIp.events.map((e) => e.text)).toEqual(['laptop (ann@example.com) came online']);
    expect(mark(noIp, 'device', 'd-1')).toMatchObject({stateFrom: 'idle', stateTo: 'online'});
  });

  it('never → idle (a first handshake already old) is no event, but the state cell is marked', () => {
    const r = diff({devices: [device()]}, {devices: [device({latest_handshake: iso(T0 - 3_600_000), updated_at: iso(T0)})]});
    expect(r.events).toEqual([]);
    expect(mark(r, 'device', 'd-1')).toMatchObject({stateFrom: 'never', stateTo: 'idle'});
  });

  it('went idle with the data changed: the handshake age in the text, marked online → idle', () => {
    const hs = T0 - 182_000;
    const r = diff({devices: [online({latest_handshake: iso(hs), rx_bytes: 1})]}, {devices: [online({latest_handshake: iso(hs), rx_bytes: 2})]}, T0);
    expect(lines(r)).toEqual(['device.idle device:d-1 [laptop] owner=ann@example.com by=null | laptop (ann@example.com) went idle (last handshake 3m ago) | ']);
    expect(mark(r, 'device', 'd-1')).toMatchObject({notable: true, stateFrom: 'online', stateTo: 'idle'});
  });

  it('roamed: old → new in the text and the detail; a first address or losing it is no roam', () => {
    const r = diff({devices: [online()]}, {devices: [online({remote_ip: '203.0.113.9'})]});
    expect(lines(r)).toEqual([
      'device.roamed device:d-1 [laptop] owner=ann@example.com by=null | laptop (ann@example.com) roamed: 198.51.100.7 → 203.0.113.9 | remote IP: 198.51.100.7 → 203.0.113.9',
    ]);
    expect(cells(r, 'device', 'd-1', DEVICE_KEYS)).toEqual({remote: 'changed'});
    const lost = diff({devices: [online()]}, {devices: [online({remote_ip: null})]});
    expect(lost.events).toEqual([]);
    expect(cells(lost, 'device', 'd-1', DEVICE_KEYS)).toEqual({remote: 'changed'});
  });

  it('renamed: old and new name, the new name as the label', () => {
    const r = diff({devices: [device()]}, {devices: [device({name: 'work-laptop'})]});
    expect(lines(r)).toEqual([
      'device.renamed device:d-1 [work-laptop] owner=ann@example.com by=null | Device laptop renamed to work-laptop (ann@example.com) | name: laptop → work-laptop',
    ]);
    expect(cells(r, 'device', 'd-1', DEVICE_KEYS)).toEqual({name: 'changed'});
    // No state change: the mark says none.
    expect(mark(r, 'device', 'd-1')!.stateFrom).toBeUndefined();
    expect(mark(r, 'device', 'd-1')!.stateTo).toBeUndefined();
  });

  it('description and addresses edited: one event that names each field, (none) for empty', () => {
    const r = diff({devices: [device({description: ''})]}, {devices: [device({description: 'ThinkPad', ipv4: '10.3.2.9', ipv6: null})]});
    expect(lines(r)).toEqual([
      'device.updated device:d-1 [laptop] owner=ann@example.com by=null | laptop (ann@example.com): description, IPv4, IPv6 changed | description: (none) → ThinkPad; IPv4: 10.3.2.2 → 10.3.2.9; IPv6: fd00::3:2:2 → (none)',
    ]);
    expect(cells(r, 'device', 'd-1', DEVICE_KEYS)).toEqual({description: 'changed', ipv4: 'changed', ipv6: 'changed'});
    const v4 = diff({devices: [device()]}, {devices: [device({ipv4: '10.3.2.9'})]});
    expect(v4.events.map((e) => e.text)).toEqual(['laptop (ann@example.com): IPv4 changed']);
    expect(cells(v4, 'device', 'd-1', DEVICE_KEYS)).toEqual({ipv4: 'changed'});
    const v6 = diff({devices: [device()]}, {devices: [device({ipv6: 'fd00::3:2:9'})]});
    expect(v6.events.map((e) => e.detail)).toEqual([['IPv6: fd00::3:2:2 → fd00::3:2:9']]);
    expect(cells(v6, 'device', 'd-1', DEVICE_KEYS)).toEqual({ipv6: 'changed'});
  });

  it("an owner's new email marks the device's owner cell (the user's event says the rest)", () => {
    const r = diff({devices: [device()]}, {devices: [device()], users: [{...ann, email: 'anna@example.com'}, bob]});
    expect(r.events.map((e) => e.kind)).toEqual(['user.email']);
    expect(cells(r, 'device', 'd-1', DEVICE_KEYS)).toEqual({owner: 'changed'});
  });

  it('traffic alone is no event and no mark, in order or not', () => {
    const a = online({rx_bytes: 10});
    const b = online({rx_bytes: 20, updated_at: iso(T0)});
    const inOrder = diff({devices: [a]}, {devices: [b]});
    expect(inOrder.events).toEqual([]);
    expect(mark(inOrder, 'device', 'd-1')).toBeNull();
    const other = device({id: 'd-0', name: 'zero'});
    const reordered = diff({devices: [a, other]}, {devices: [other, b]});
    expect(reordered.events).toEqual([]);
    expect(mark(reordered, 'device', 'd-1')).toBeNull();
  });

  it('a change while the order moved is still reported (the pairing by id)', () => {
    const other = device({id: 'd-0', name: 'zero'});
    const r = diff({devices: [device(), other]}, {devices: [other, device({name: 'renamed'})]});
    expect(r.events.map((e) => `${e.kind} ${e.object.id}`)).toEqual(['device.renamed d-1']);
  });

  it('a device deleted while the rest moved: [a b c] → [c a] deletes b', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((id) => device({id, name: id}));
    expect(diff({devices: [a!, b!, c!]}, {devices: [c!, a!]}).events.map((e) => `${e.kind} ${e.object.id}`)).toEqual(['device.deleted b']);
  });
});

describe('going idle with nothing else changed: the 180 s boundary, both ways of pairing', () => {
  // The same DeviceRow object is kept across polls when nothing changed; only time moves it.
  const cases = [
    {name: 'online at the window edge at prevNow, idle now', hs: T0 - 180_000 - 5000, idle: true},
    {name: 'still online now (exactly 180 s)', hs: T0 - 180_000, idle: false},
    {name: 'already idle at prevNow', hs: T0 - 180_000 - 5001, idle: false},
    {name: 'well within the window', hs: T0 - 60_000, idle: false},
  ];
  for (const {name, hs, idle} of cases) {
    it(`${name}: ${idle ? 'one idle event' : 'nothing'}`, () => {
      const world = {devices: [online({latest_handshake: iso(hs)})]};
      const first = snap(world, null, T0 - 5000);
      const second = snap(world, first, T0);
      expect(second.devices[0]).toBe(first.devices[0]);
      const hl = new Highlights();
      const events = diffSnapshots(first, second, T0, {highlights: hl});
      expect(events.map((e) => e.kind)).toEqual(idle ? ['device.idle'] : []);
      if (idle) {
        expect(events[0]).toMatchObject({object: {type: 'device', id: 'd-1', label: 'laptop'}, owner: 'ann@example.com', detail: []});
        expect(hl.mark('device', 'd-1', T0)).toMatchObject({notable: true, stateFrom: 'online', stateTo: 'idle'});
      }
      // The same, with another device added in front (the rows are paired by id, not position).
      const other = device({id: 'd-0', name: 'zero'});
      const moved = snap({devices: [other, ...world.devices]}, first, T0);
      expect(moved.devices[1]).toBe(first.devices[0]);
      expect(diffSnapshots(first, moved, T0).map((e) => e.kind)).toEqual(idle ? ['device.created', 'device.idle'] : ['device.created']);
    });
  }

  it('a never-connected device never goes idle, even near the epoch', () => {
    const world = {devices: [device()]};
    const first = snap(world, null, 100_000);
    expect(diffSnapshots(first, snap(world, first, 200_000), 200_000)).toEqual([]);
    const other = device({id: 'd-0', name: 'zero'});
    expect(diffSnapshots(first, snap({devices: [other, device()]}, first, 200_000), 200_000).map((e) => e.kind)).toEqual(['device.created']);
  });
});
