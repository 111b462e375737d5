// Change detection event by event: the exact text and detail of every kind, the row marks it
// leaves, "by you", and the pairing of two polls by id whatever the order (a property test against
// a plain by-id model). The mutation group "change detection" runs these (test/mutation/).
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import type {Device, Rule, User} from '../../src/api/index.js';
import {buildSnapshot, type Snapshot} from '../../src/state/data/snapshot.js';
import {type ActivityEvent} from '../../src/state/tracking/events.js';
import {cellChange, Highlights, HIGHLIGHT_MS} from '../../src/state/tracking/highlights.js';
import {LocalWrites} from '../../src/state/tracking/local-writes.js';
import {configurationChanges, DeviceScan, diffSnapshots} from '../../src/state/tracking/snapshot-diff.js';
import {configuration, device, iso, rule, user} from '../fixtures/data.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const ann = user();
const bob = user({id: 'u-2', email: 'bob@example.com'});

interface World {
  devices?: Device[];
  users?: User[];
  rules?: Rule[];
  issues?: {path: string; message: string}[];
  config?: ReturnType<typeof configuration>;
}

const baseConfig = configuration();

function snap(world: World, previous: Snapshot | null, at: number): Snapshot {
  return buildSnapshot(
    {
      devices: world.devices ?? [],
      users: world.users ?? [ann, bob],
      rules: world.rules ?? [],
      configuration: world.config ?? baseConfig,
      issues: world.issues ?? [],
    },
    previous,
    at,
  );
}

interface Run {
  events: ActivityEvent[];
  hl: Highlights;
  at: number;
}

/** Two polls 5 s apart, with highlights; `local` notes writes of this console between them. */
function diff(a: World, b: World, at = T0, local?: LocalWrites): Run {
  const hl = new Highlights();
  const first = snap(a, null, at - 5000);
  const events = diffSnapshots(first, snap(b, first, at), at, {highlights: hl, local});
  return {events, hl, at};
}

const line = (e: ActivityEvent) =>
  `${e.kind} ${e.object.type}:${e.object.id} [${e.object.label}] owner=${e.owner} by=${e.by} | ${e.text} | ${e.detail.join('; ')}`;
const lines = (r: Run) => r.events.map(line);
const mark = (r: Run, type: 'device' | 'user' | 'rule', id: string) => r.hl.mark(type, id, r.at);
const cells = (r: Run, type: 'device' | 'user' | 'rule', id: string, keys: readonly string[]) =>
  Object.fromEntries(keys.map((k) => [k, cellChange(mark(r, type, id), type, k)]).filter(([, v]) => v !== null));

const DEVICE_KEYS = ['state', 'name', 'description', 'owner', 'ipv4', 'ipv6', 'remote'];
const USER_KEYS = ['email', 'role', 'vpn', 'signin', 'devices', 'rules'];
const RULE_KEYS = ['action', 'destination', 'ports', 'scope'];

const online = (extra: Partial<Device> = {}) => device({latest_handshake: iso(T0 - 10_000), remote_ip: '198.51.100.7', updated_at: iso(T0 - 10_000), ...extra});

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

describe('users, event by event', () => {
  it('created and deleted: exact text, marks', () => {
    const created = diff({users: [ann]}, {users: [ann, bob]});
    expect(lines(created)).toEqual(['user.created user:u-2 [bob@example.com] owner=null by=null | User bob@example.com created (unprivileged) | ']);
    expect(mark(created, 'user', 'u-2')).toMatchObject({kind: 'added'});
    const deleted = diff({users: [ann, bob]}, {users: [ann]});
    expect(lines(deleted)).toEqual(['user.deleted user:u-2 [bob@example.com] owner=null by=null | User bob@example.com deleted | ']);
    expect(mark(deleted, 'user', 'u-2')).toMatchObject({kind: 'removed'});
  });

  it('email, role, disabled, enabled, signed in: text, detail and the cell marked', () => {
    const email = diff({users: [ann]}, {users: [{...ann, email: 'anna@example.com'}]});
    expect(lines(email)).toEqual([
      'user.email user:u-1 [anna@example.com] owner=null by=null | User ann@example.com is now anna@example.com | email: ann@example.com → anna@example.com',
    ]);
    expect(cells(email, 'user', 'u-1', USER_KEYS)).toEqual({email: 'changed'});
    const role = diff({users: [ann]}, {users: [{...ann, role: 'admin'}]});
    expect(lines(role)).toEqual([
      'user.role user:u-1 [ann@example.com] owner=null by=null | ann@example.com role changed: unprivileged → admin | role: unprivileged → admin',
    ]);
    expect(cells(role, 'user', 'u-1', USER_KEYS)).toEqual({role: 'changed'});
    expect(mark(role, 'user', 'u-1')).toMatchObject({notable: true});
    const disabled = diff({users: [ann]}, {users: [{...ann, disabled_at: iso(T0)}]});
    expect(lines(disabled)).toEqual(['user.disabled user:u-1 [ann@example.com] owner=null by=null | ann@example.com disabled | ']);
    expect(cells(disabled, 'user', 'u-1', USER_KEYS)).toEqual({vpn: 'changed'});
    const enabled = diff({users: [{...ann, disabled_at: iso(T0)}]}, {users: [ann]});
    expect(lines(enabled)).toEqual(['user.enabled user:u-1 [ann@example.com] owner=null by=null | ann@example.com enabled again | ']);
    const signedIn = diff({users: [ann]}, {users: [{...ann, last_signed_in_at: iso(T0)}]});
    expect(lines(signedIn)).toEqual(['user.signed_in user:u-1 [ann@example.com] owner=null by=null | ann@example.com signed in | ']);
    expect(cells(signedIn, 'user', 'u-1', USER_KEYS)).toEqual({signin: 'up'});
    expect(diff({users: [ann]}, {users: [{...ann, last_signed_in_at: iso(T0), last_signed_in_method: 'okta'}]}).events[0]!.text).toBe(
      'ann@example.com signed in (okta)',
    );
  });

  it('no event: disabled again at another time, the sign-in cleared, only updated_at moved', () => {
    const d1 = {...ann, disabled_at: iso(T0 - 1000)};
    const again = diff({users: [d1]}, {users: [{...d1, disabled_at: iso(T0)}]});
    expect(again.events).toEqual([]);
    expect(mark(again, 'user', 'u-1')).toBeNull();
    const cleared = diff({users: [{...ann, last_signed_in_at: iso(T0 - 1000)}]}, {users: [ann]});
    expect(cleared.events).toEqual([]);
    expect(mark(cleared, 'user', 'u-1')).toBeNull();
    const signedEarlier = {...ann, last_signed_in_at: iso(T0 - 60_000)};
    expect(diff({users: [signedEarlier]}, {users: [{...signedEarlier, role: 'admin'}]}).events.map((e) => e.kind)).toEqual(['user.role']);
    const touched = diff({users: [ann]}, {users: [{...ann, updated_at: iso(T0)}]});
    expect(touched.events).toEqual([]);
    expect(mark(touched, 'user', 'u-1')).toBeNull();
  });

  it('device and rule counts: up or down, a quiet mark (the row itself need not light up)', () => {
    const more = diff({devices: [device()], rules: []}, {devices: [device(), device({id: 'd-2', name: 'phone'})], rules: [rule({user_id: 'u-1'})]});
    expect(cells(more, 'user', 'u-1', USER_KEYS)).toEqual({devices: 'up', rules: 'up'});
    expect(mark(more, 'user', 'u-1')).toMatchObject({notable: false});
    expect(mark(more, 'user', 'u-2')).toBeNull();
    const fewer = diff({devices: [device(), device({id: 'd-2', name: 'phone'})], rules: [rule({user_id: 'u-1'})]}, {devices: [device()], rules: []});
    expect(cells(fewer, 'user', 'u-1', USER_KEYS)).toEqual({devices: 'down', rules: 'down'});
    const rulesOnly = diff({rules: [rule({user_id: 'u-1'})]}, {rules: [rule({user_id: 'u-1'}), rule({id: 'r-2', user_id: 'u-1', destination: '10.9.0.0/16'})]});
    expect(cells(rulesOnly, 'user', 'u-1', USER_KEYS)).toEqual({rules: 'up'});
    // A role change with a count change: the row lights up.
    const both = diff({devices: []}, {devices: [device()], users: [{...ann, role: 'admin'}, bob]});
    expect(cells(both, 'user', 'u-1', USER_KEYS)).toEqual({role: 'changed', devices: 'up'});
    expect(mark(both, 'user', 'u-1')).toMatchObject({notable: true});
  });

  it('users paired by id whatever the order: [a b c] → [c a] deletes b; all replaced', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((id) => user({id, email: `${id}@example.com`}));
    expect(diff({users: [a!, b!, c!]}, {users: [c!, a!]}).events.map((e) => `${e.kind} ${e.object.id}`)).toEqual(['user.deleted b']);
    expect(diff({users: [a!, b!]}, {users: [c!, {...a!, role: 'admin'}]}).events.map((e) => `${e.kind} ${e.object.id}`)).toEqual([
      'user.created c',
      'user.role a',
      'user.deleted b',
    ]);
    expect(diff({users: [a!, b!]}, {users: [c!]}).events.map((e) => `${e.kind} ${e.object.id}`)).toEqual([
      'user.created c',
      'user.deleted a',
      'user.deleted b',
    ]);
  });
});

describe('rules, event by event', () => {
  const ports = rule({id: 'r-2', action: 'accept', destination: '10.2.0.0/16', port_type: 'tcp', port_range: '443', user_id: 'u-1'});

  it('added: the summary with ports, the scope, the owner, an "added" mark', () => {
    const r = diff({rules: []}, {rules: [ports]});
    expect(lines(r)).toEqual([
      'rule.added rule:r-2 [ACCEPT 10.2.0.0/16 TCP 443] owner=ann@example.com by=null | Rule added: ACCEPT 10.2.0.0/16 TCP 443 for ann@example.com | ',
    ]);
    expect(mark(r, 'rule', 'r-2')).toMatchObject({kind: 'added'});
    expect(diff({rules: []}, {rules: [rule()]}).events.map((e) => e.text)).toEqual(['Rule added: DROP 10.0.0.0/8 all ports for everyone']);
    // A protocol without a range (a hand-made row): no trailing space.
    expect(diff({rules: []}, {rules: [rule({port_type: 'udp'})]}).events[0]!.object.label).toBe('DROP 10.0.0.0/8 UDP');
  });

  it('removed: the scope as it was, an unknown user by id', () => {
    const r = diff({rules: [ports, rule({id: 'r-3', user_id: 'u-9'})]}, {rules: []});
    expect(lines(r)).toEqual([
      'rule.removed rule:r-2 [ACCEPT 10.2.0.0/16 TCP 443] owner=ann@example.com by=null | Rule removed: ACCEPT 10.2.0.0/16 TCP 443 for ann@example.com | ',
      'rule.removed rule:r-3 [DROP 10.0.0.0/8 all ports] owner=u-9 by=null | Rule removed: DROP 10.0.0.0/8 all ports for u-9 | ',
    ]);
    expect(mark(r, 'rule', 'r-3')).toMatchObject({kind: 'removed'});
  });

  it('changed: one detail line per field that moved, exactly those cells marked', () => {
    const dest = diff({rules: [ports]}, {rules: [{...ports, destination: '10.3.0.0/16'}]});
    expect(lines(dest)).toEqual([
      'rule.changed rule:r-2 [ACCEPT 10.3.0.0/16 TCP 443] owner=ann@example.com by=null | Rule changed: ACCEPT 10.3.0.0/16 TCP 443 for ann@example.com | destination: 10.2.0.0/16 → 10.3.0.0/16',
    ]);
    expect(cells(dest, 'rule', 'r-2', RULE_KEYS)).toEqual({destination: 'changed'});
    expect(mark(dest, 'rule', 'r-2')).toMatchObject({kind: 'changed', notable: true});
    const range = diff({rules: [ports]}, {rules: [{...ports, port_range: '8443'}]});
    expect(range.events.map((e) => e.detail)).toEqual([['ports: tcp 443 → tcp 8443']]);
    expect(cells(range, 'rule', 'r-2', RULE_KEYS)).toEqual({ports: 'changed'});
    const proto = diff({rules: [ports]}, {rules: [{...ports, port_type: 'udp'}]});
    expect(proto.events.map((e) => e.detail)).toEqual([['ports: tcp 443 → udp 443']]);
    const action = diff({rules: [ports]}, {rules: [{...ports, action: 'drop'}]});
    expect(action.events.map((e) => e.detail)).toEqual([['action: accept → drop']]);
    expect(cells(action, 'rule', 'r-2', RULE_KEYS)).toEqual({action: 'changed'});
    const scope = diff({rules: [ports]}, {rules: [{...ports, user_id: null}]});
    expect(lines(scope)).toEqual([
      'rule.changed rule:r-2 [ACCEPT 10.2.0.0/16 TCP 443] owner=null by=null | Rule changed: ACCEPT 10.2.0.0/16 TCP 443 for everyone | scope: ann@example.com → everyone',
    ]);
    expect(cells(scope, 'rule', 'r-2', RULE_KEYS)).toEqual({scope: 'changed'});
  });

  it('only updated_at moved: no event, no mark', () => {
    const r = diff({rules: [ports]}, {rules: [{...ports, updated_at: iso(T0)}]});
    expect(r.events).toEqual([]);
    expect(mark(r, 'rule', 'r-2')).toBeNull();
  });
});

describe('configuration', () => {
  it('one change or several: the count in the text, the lines as detail', () => {
    const one = diff({}, {config: configuration({default_client_mtu: 1420})});
    expect(lines(one)).toEqual([
      'configuration.changed configuration:c [Configuration] owner=null by=null | Configuration changed (1 change) | MTU: 1280 → 1420',
    ]);
    const two = diff({}, {config: configuration({default_client_mtu: 1420, logo: {url: 'https://example.com/logo.png'}})});
    expect(two.events.map((e) => e.text)).toEqual(['Configuration changed (2 changes)']);
    expect(two.events[0]!.detail.at(-1)).toBe('Logo changed');
    // The same values in a new object: nothing.
    expect(diff({}, {config: configuration()}).events).toEqual([]);
  });

  it('a secret of 4 characters or more is masked wherever it turns up; a shorter one would mask ordinary words, so it is not', () => {
    const provider = (secret: string, label: string) => ({
      id: 'google',
      label,
      scope: 'openid',
      response_type: 'code',
      client_id: 'id',
      client_secret: secret,
      discovery_document_uri: 'https://accounts.google.com/.well-known/openid-configuration',
      redirect_uri: null,
      auto_create_users: false,
    });
    const withProvider = (secret: string, label: string) => configuration({openid_connect_providers: [provider(secret, label)]});
    expect(configurationChanges(withProvider('abcd', 'one'), withProvider('abcd', 'has abcd')).join('\n')).not.toContain('abcd');
    expect(configurationChanges(withProvider('abc', 'one'), withProvider('abc', 'abcdef')).join('\n')).toContain('abcdef');
  });
});

describe('sections a token cannot see', () => {
  const hiddenRules = [{path: '/v0/rules', message: 'not visible'}];
  it('a hidden section is skipped, the others are still compared', () => {
    const r = diff({users: [ann, bob], rules: [rule()], issues: hiddenRules}, {users: [ann], rules: [], issues: hiddenRules});
    expect(r.events.map((e) => e.kind)).toEqual(['user.deleted']);
    const users = [{path: '/v0/users', message: 'not visible'}];
    expect(diff({users: [ann], rules: [rule()], issues: users}, {users: [], rules: [], issues: users}).events.map((e) => e.kind)).toEqual(['rule.removed']);
    const config = [{path: '/v0/configuration', message: 'not visible'}];
    expect(diff({issues: config}, {config: configuration({default_client_mtu: 1420}), issues: config}).events).toEqual([]);
  });
});

describe('"by you"', () => {
  it('a configuration write is matched and settled', () => {
    const local = new LocalWrites();
    local.note({type: 'configuration', id: 'anything', action: 'updated'}, T0 - 1000);
    const r = diff({}, {config: configuration({default_client_mtu: 1420})}, T0, local);
    expect(r.events.map((e) => e.by)).toEqual(['you']);
    expect(local.size).toBe(0);
  });

  it("a configuration save is credited with its own change only: another admin's before it (re-applied over) or after it is not", () => {
    const at = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}.000000Z`;
    const prev = configuration({updated_at: at(1), default_client_mtu: 1420});
    // Another admin set the MTU; this console, shown that conflict, re-applied its DNS edit over it.
    const base = configuration({updated_at: at(2), default_client_mtu: 1300});
    const saved = configuration({updated_at: at(3), default_client_mtu: 1300, default_client_dns: ['9.9.9.9']});
    const credited = (next: ReturnType<typeof configuration>) => {
      const local = new LocalWrites();
      local.note({type: 'configuration', id: 'configuration', action: 'updated'}, T0 - 1000);
      local.noteConfigurationSave({base, saved}, T0 - 900);
      const r = diff({config: prev}, {config: next}, T0, local);
      return {
        events: r.events.map((e) => `${e.by ?? 'other'}: ${e.detail.join('; ')}`),
        pending: local.size,
        saves: local.configurationSaves(prev, saved)?.included.length ?? 0,
      };
    };
    expect(credited(saved)).toEqual({events: ['other: MTU: 1420 → 1300', 'you: DNS servers: 1.1.1.1, 1.0.0.1 → 9.9.9.9'], pending: 0, saves: 0});
    // And a change made after the save, shown by the same poll: someone else's too.
    const later = configuration({updated_at: at(4), default_client_mtu: 1500, default_client_dns: ['9.9.9.9']});
    expect(credited(later).events).toEqual(['other: MTU: 1420 → 1300', 'you: DNS servers: 1.1.1.1, 1.0.0.1 → 9.9.9.9', 'other: MTU: 1300 → 1500']);
    // A poll older than the save shows only the other admin's change; the save waits for the poll that shows it.
    const older = configuration({updated_at: at(2), default_client_mtu: 1300});
    expect(credited(older)).toEqual({events: ['other: MTU: 1420 → 1300'], pending: 1, saves: 1});
  });

  it('two saves before one poll: each is credited with its own change; a poll between them credits the first and keeps the second', () => {
    const at = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}.000000Z`;
    const prev = configuration({updated_at: at(1)});
    const first = configuration({updated_at: at(2), default_client_mtu: 1300});
    const other = configuration({updated_at: at(3), default_client_mtu: 1300, default_client_dns: ['9.9.9.9']});
    const second = configuration({updated_at: at(4), default_client_mtu: 1300, default_client_dns: ['9.9.9.9'], default_client_persistent_keepalive: 15});
    const local = () => {
      const l = new LocalWrites();
      l.note({type: 'configuration', id: 'configuration', action: 'updated'}, T0 - 1000);
      l.noteConfigurationSave({base: prev, saved: first}, T0 - 900);
      l.noteConfigurationSave({base: other, saved: second}, T0 - 800);
      return l;
    };
    const by = (r: Run) => r.events.map((e) => `${e.by ?? 'other'}: ${e.detail.join('; ')}`);
    const both = local();
    expect(by(diff({config: prev}, {config: second}, T0, both))).toEqual([
      'you: MTU: 1280 → 1300',
      'other: DNS servers: 1.1.1.1, 1.0.0.1 → 9.9.9.9',
      'you: Persistent keepalive: 25 → 15',
    ]);
    expect([both.size, both.configurationSaves(prev, second)]).toEqual([0, null]);
    // A poll that shows the first save and the other admin's change, not the second save yet.
    const between = local();
    expect(by(diff({config: prev}, {config: other}, T0, between))).toEqual(['you: MTU: 1280 → 1300', 'other: DNS servers: 1.1.1.1, 1.0.0.1 → 9.9.9.9']);
    expect([between.size, between.configurationSaves(other, second)?.included.length]).toEqual([1, 1]);
  });

  it('a save shown by a poll that overtook its answer is not reported again by the next poll', () => {
    const at = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}.000000Z`;
    const prev = configuration({updated_at: at(1)});
    const saved = configuration({updated_at: at(2), default_client_mtu: 1400});
    const local = new LocalWrites();
    local.note({type: 'configuration', id: 'configuration', action: 'updated'}, T0 - 1000);
    // The poll came back before the save's answer: the note made before sending credits it.
    const first = diff({config: prev}, {config: saved}, T0, local);
    expect(first.events.map((e) => `${e.by ?? 'other'}: ${e.detail.join('; ')}`)).toEqual(['you: MTU: 1280 → 1400']);
    local.noteConfigurationSave({base: prev, saved}, T0);
    // The next poll shows another admin's change after it: that alone is reported.
    const later = configuration({updated_at: at(3), default_client_mtu: 1500});
    expect(diff({config: saved}, {config: later}, T0, local).events.map((e) => `${e.by ?? 'other'}: ${e.detail.join('; ')}`)).toEqual([
      'other: MTU: 1400 → 1500',
    ]);
    expect(local.configurationSaves(later, later)).toBeNull();
  });

  it('a time that cannot be read leaves the attribution to the note made before sending', () => {
    const saved = configuration({updated_at: 'not a time', default_client_mtu: 1300});
    for (const [save, next] of [
      [saved, configuration({default_client_mtu: 1300})],
      [configuration({default_client_mtu: 1300}), configuration({updated_at: 'not a time', default_client_mtu: 1300})],
    ] as const) {
      const local = new LocalWrites();
      local.note({type: 'configuration', id: 'configuration', action: 'updated'}, T0 - 1000);
      local.noteConfigurationSave({base: configuration(), saved: save}, T0 - 900);
      expect(local.configurationSaves(configuration(), next)).toBeNull();
      expect(diff({}, {config: next}, T0, local).events.map((e) => e.by)).toEqual(['you']);
    }
  });

  it('after a user deleted here, only its deletions are ours: a device created for the id meanwhile, and a global rule removed, are not', () => {
    const local = new LocalWrites();
    local.note({type: 'user', id: 'u-2', action: 'deleted'}, T0 - 1000);
    const r = diff(
      {
        devices: [device({id: 'd-2', user_id: 'u-2', name: 'phone'})],
        rules: [rule({id: 'r-2', user_id: 'u-2'}), rule({id: 'r-g', destination: '10.9.0.0/16'})],
      },
      {users: [ann], devices: [device({id: 'd-3', user_id: 'u-2', name: 'late'})], rules: []},
      T0,
      local,
    );
    expect(r.events.map((e) => `${e.kind} ${e.object.id} ${e.by}`)).toEqual([
      'user.deleted u-2 you',
      'device.created d-3 null',
      'device.deleted d-2 you',
      'rule.removed r-2 you',
      'rule.removed r-g null',
    ]);
  });

  it('an edit of a user here does not make that user’s device deletions ours', () => {
    const local = new LocalWrites();
    local.note({type: 'user', id: 'u-2', action: 'updated'}, T0 - 1000);
    const r = diff({devices: [device({id: 'd-2', user_id: 'u-2'})]}, {users: [ann, {...bob, role: 'admin'}], devices: []}, T0, local);
    expect(r.events.map((e) => `${e.kind} ${e.by}`)).toEqual(['user.role you', 'device.deleted null']);
  });
});

describe('bookkeeping', () => {
  it('event numbers only grow, within a batch and across batches', () => {
    const a = diff({users: [ann]}, {users: [ann, bob]}).events;
    const b = diff({users: [ann, bob]}, {users: []}).events;
    const seqs = [...a, ...b].map((e) => e.seq);
    expect(seqs).toHaveLength(3);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]!).toBeGreaterThan(seqs[i - 1]!);
  });

  it('the highlights are pruned and their version moves on each diff (the lists redraw their marks)', () => {
    const hl = new Highlights();
    const first = snap({devices: []}, null, T0 - 5000);
    const second = snap({devices: [device()]}, first, T0);
    diffSnapshots(first, second, T0, {highlights: hl});
    expect(hl.version).toBe(1);
    expect(hl.size('device')).toBe(1);
    const third = snap({devices: [device()]}, second, T0 + 1000);
    diffSnapshots(second, third, T0 + 1000, {highlights: hl});
    expect(hl.version).toBe(2);
    diffSnapshots(third, snap({devices: [device()]}, third, T0 + HIGHLIGHT_MS + 1), T0 + HIGHLIGHT_MS + 1, {highlights: hl});
    expect(hl.version).toBeGreaterThan(2);
    expect(hl.size('device')).toBe(0);
  });

  it('a prepared scan is used only when made for these rows and times', () => {
    const hs = T0 - 180_000 - 2000;
    const world = {devices: [online({latest_handshake: iso(hs)})]};
    const first = snap(world, null, T0 - 5000);
    const second = snap(world, first, T0);
    const other = snap({devices: []}, first, T0);
    const expected = diffSnapshots(first, second, T0).map((e) => e.kind);
    expect(expected).toEqual(['device.idle']);
    // Scans made for other rows or other times would say something else; each is ignored.
    const wrong = [
      new DeviceScan(first.devices, other.devices, first.fetchedAt, T0),
      new DeviceScan(other.devices, second.devices, first.fetchedAt, T0),
      new DeviceScan(first.devices, second.devices, T0 - 1000, T0),
      new DeviceScan(first.devices, second.devices, first.fetchedAt, T0 - 4000),
    ];
    for (const scan of wrong) expect(diffSnapshots(first, second, T0, {scan}).map((e) => e.kind)).toEqual(expected);
    expect(diffSnapshots(first, second, T0, {scan: new DeviceScan(first.devices, second.devices, first.fetchedAt, T0)}).map((e) => e.kind)).toEqual(expected);
  });
});

describe('pairing two polls by id, whatever the order (property)', () => {
  // A plain model: created = ids only in the new poll, deleted = ids only in the old one, renamed =
  // ids in both whose name differs. The diff pairs by position while it can and by id after.
  const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
  const poll = fc
    .uniqueArray(fc.constantFrom(...ids), {maxLength: ids.length})
    .chain((order) => fc.tuple(fc.constant(order), fc.array(fc.boolean(), {minLength: order.length, maxLength: order.length})));

  function model(prev: readonly string[], next: readonly string[], renamed: ReadonlySet<string>): string[] {
    const out: string[] = [];
    for (const id of next) {
      if (!prev.includes(id)) out.push(`created ${id}`);
      else if (renamed.has(id)) out.push(`renamed ${id}`);
    }
    for (const id of prev) if (!next.includes(id)) out.push(`deleted ${id}`);
    return out.sort();
  }

  it('devices, users and rules', () => {
    fc.assert(
      fc.property(poll, poll, ([before], [after, flips]) => {
        const renamed = new Set(after.filter((id, i) => flips[i] && before.includes(id)));
        const name = (id: string, later: boolean) => (later && renamed.has(id) ? `${id}-new` : id);
        const expected = model(before, after, renamed);
        const r = diff(
          {
            devices: before.map((id) => device({id, name: name(id, false)})),
            users: before.map((id) => user({id, email: `${name(id, false)}@example.com`})),
            rules: before.map((id) => rule({id, destination: `10.${ids.indexOf(id)}.0.0/16`, action: 'drop'})),
          },
          {
            devices: after.map((id) => device({id, name: name(id, true)})),
            users: after.map((id) => user({id, email: `${name(id, true)}@example.com`})),
            rules: after.map((id) => rule({id, destination: `10.${ids.indexOf(id)}.0.0/16`, action: renamed.has(id) ? 'accept' : 'drop'})),
          },
        );
        const of = (type: string, verbs: Record<string, string>) =>
          r.events
            .filter((e) => e.object.type === type)
            .map((e) => `${verbs[e.kind]} ${e.object.id}`)
            .sort();
        expect(of('device', {'device.created': 'created', 'device.deleted': 'deleted', 'device.renamed': 'renamed'})).toEqual(expected);
        expect(of('user', {'user.created': 'created', 'user.deleted': 'deleted', 'user.email': 'renamed'})).toEqual(expected);
        expect(of('rule', {'rule.added': 'created', 'rule.removed': 'deleted', 'rule.changed': 'renamed'})).toEqual(expected);
      }),
      {numRuns: 300},
    );
  });
});
