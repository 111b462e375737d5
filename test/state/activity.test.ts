import {describe, expect, it} from 'vitest';
import type {Configuration, Device, Rule, User} from '../../src/api/index.js';
import {ActivityTracker} from '../../src/state/tracking/tracker.js';
import {cellChange, Highlights, HIGHLIGHT_MS} from '../../src/state/tracking/highlights.js';
import {configurationChanges, diffSnapshots} from '../../src/state/tracking/snapshot-diff.js';
import {EventRing} from '../../src/state/tracking/event-ring.js';
import {LOCAL_WRITE_TTL_MS} from '../../src/state/tracking/local-writes.js';
import {type ActivityEvent} from '../../src/state/tracking/events.js';
import {buildSnapshot, type HiddenList, type Snapshot} from '../../src/state/data/snapshot.js';
import {configuration as baseConfiguration, device, iso, rule, user} from '../fixtures/data.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

/** The shared fixture with a secret in each kind of provider (the diff must never show them). */
function configuration(overrides: Partial<Configuration> = {}): Configuration {
  return baseConfiguration({
    id: 'c-1',
    default_client_allowed_ips: ['0.0.0.0/0'],
    default_client_dns: ['1.1.1.1'],
    default_client_endpoint: 'vpn.example.com',
    openid_connect_providers: [
      {
        id: 'google',
        label: 'Google',
        scope: 'openid email profile',
        response_type: 'code',
        client_id: 'client-id',
        client_secret: 'TOP-SECRET-1',
        discovery_document_uri: 'https://accounts.google.com/.well-known/openid-configuration',
        redirect_uri: null,
        auto_create_users: false,
      },
    ],
    saml_identity_providers: [
      {
        id: 'okta',
        label: 'Okta',
        base_url: null,
        metadata: '<EntityDescriptor><IDPSSODescriptor>SECRET-METADATA</IDPSSODescriptor></EntityDescriptor>',
        sign_requests: true,
        sign_metadata: true,
        signed_assertion_in_resp: true,
        signed_envelopes_in_resp: true,
        auto_create_users: false,
      },
    ],
    inserted_at: iso(0),
    updated_at: iso(0),
    ...overrides,
  });
}

interface World {
  devices?: Device[];
  users?: User[];
  rules?: Rule[];
  configuration?: Configuration | null;
  issues?: {path: string; message: string}[];
  hidden?: HiddenList[];
}

const ann = user();
const bob = user({id: 'u-2', email: 'bob@example.com'});

function snap(world: World, previous: Snapshot | null, at: number): Snapshot {
  return buildSnapshot(
    {
      devices: world.devices ?? [],
      users: world.users ?? [ann, bob],
      rules: world.rules ?? [],
      configuration: world.configuration === undefined ? configuration() : world.configuration,
      issues: world.issues ?? [],
      hidden: world.hidden ?? [],
    },
    previous,
    at,
  );
}

/** Two polls 5 s apart; the events between them. */
function between(a: World, b: World, at = T0): ActivityEvent[] {
  const first = snap(a, null, at - 5000);
  return diffSnapshots(first, snap(b, first, at), at);
}

const kinds = (events: readonly ActivityEvent[]) => events.map((e) => e.kind);

describe('diffSnapshots: devices', () => {
  const online = (extra: Partial<Device> = {}) =>
    device({latest_handshake: iso(T0 - 10_000), remote_ip: '198.51.100.7', updated_at: iso(T0 - 10_000), ...extra});

  it('created and deleted, with the owner', () => {
    const created = between({devices: []}, {devices: [device()]});
    expect(kinds(created)).toEqual(['device.created']);
    expect(created[0]).toMatchObject({object: {type: 'device', id: 'd-1', label: 'laptop'}, owner: 'ann@example.com', at: T0, by: null});
    const deleted = between({devices: [device(), device({id: 'd-2', name: 'phone', user_id: 'u-2'})]}, {devices: [device()]});
    expect(kinds(deleted)).toEqual(['device.deleted']);
    expect(deleted[0]).toMatchObject({object: {id: 'd-2', label: 'phone'}, owner: 'bob@example.com'});
    expect(deleted[0]!.text).toContain('phone (bob@example.com) deleted');
  });

  it('came online (never → online) with its remote IP', () => {
    const events = between({devices: [device()]}, {devices: [online()]});
    expect(kinds(events)).toEqual(['device.online']);
    expect(events[0]!.text).toBe('laptop (ann@example.com) came online from 198.51.100.7');
  });

  it('went idle when the handshake crosses 180 s with no change in the data, once', () => {
    const hs = T0 - 170_000;
    const world = {devices: [online({latest_handshake: iso(hs)})]};
    const first = snap(world, null, T0);
    const second = snap(world, first, T0 + 5000);
    expect(second.devices[0]).toBe(first.devices[0]);
    expect(diffSnapshots(first, second, T0 + 5000)).toEqual([]);
    const third = snap(world, second, T0 + 15_000);
    const events = diffSnapshots(second, third, T0 + 15_000);
    expect(kinds(events)).toEqual(['device.idle']);
    expect(events[0]!.text).toMatch(/went idle \(last handshake 3m ago\)/);
    const fourth = snap(world, third, T0 + 20_000);
    expect(diffSnapshots(third, fourth, T0 + 20_000)).toEqual([]);
  });

  it('went idle through a changed row too (new counters, old handshake)', () => {
    const hs = T0 - 170_000;
    const events = between(
      {devices: [online({latest_handshake: iso(hs), rx_bytes: 1})]},
      {devices: [online({latest_handshake: iso(hs), rx_bytes: 2})]},
      T0 + 15_000,
    );
    expect(kinds(events)).toEqual(['device.idle']);
  });

  it('roamed: a different remote IP is a roam; idle → online from a new address is both', () => {
    const roamed = between({devices: [online()]}, {devices: [online({remote_ip: '203.0.113.9', latest_handshake: iso(T0 - 1000)})]});
    expect(kinds(roamed)).toEqual(['device.roamed']);
    expect(roamed[0]!.text).toBe('laptop (ann@example.com) roamed: 198.51.100.7 → 203.0.113.9');
    const back = between(
      {devices: [online({latest_handshake: iso(T0 - 3_600_000)})]},
      {devices: [online({remote_ip: '203.0.113.9', latest_handshake: iso(T0 - 1000)})]},
    );
    expect(kinds(back)).toEqual(['device.online', 'device.roamed']);
  });

  it('renamed and description changed', () => {
    const events = between({devices: [device()]}, {devices: [device({name: 'work-laptop', description: 'ThinkPad'})]});
    expect(kinds(events)).toEqual(['device.renamed', 'device.updated']);
    expect(events[0]).toMatchObject({text: 'Device laptop renamed to work-laptop (ann@example.com)', object: {label: 'work-laptop'}});
    expect(events[1]!.detail).toEqual(['description: (none) → ThinkPad']);
  });

  it('a description changed alone is an event, also while the traffic moves', () => {
    const events = between({devices: [online({rx_bytes: 10})]}, {devices: [online({rx_bytes: 20, description: 'ThinkPad', updated_at: iso(T0)})]});
    expect(kinds(events)).toEqual(['device.updated']);
    expect(events[0]!.detail).toEqual(['description: (none) → ThinkPad']);
    expect(kinds(between({devices: [device({description: 'old'})]}, {devices: [device({description: null})]}))).toEqual(['device.updated']);
  });

  it('only traffic moving is no event', () => {
    expect(between({devices: [online({rx_bytes: 10, tx_bytes: 10})]}, {devices: [online({rx_bytes: 20, tx_bytes: 30, updated_at: iso(T0)})]})).toEqual([]);
  });

  it('matches by id when the order changes', () => {
    const a = device({id: 'a', name: 'a'});
    const b = device({id: 'b', name: 'b'});
    const c = device({id: 'c', name: 'c'});
    expect(kinds(between({devices: [a, b, c]}, {devices: [c, a, b]}))).toEqual([]);
    const events = between({devices: [a, b, c]}, {devices: [c, device({id: 'd', name: 'd'}), a]});
    expect(events.map((e) => `${e.kind} ${e.object.id}`)).toEqual(['device.created d', 'device.deleted b']);
  });
});

describe('diffSnapshots: users, rules, configuration', () => {
  it('user created, deleted, role, email, disabled, enabled, signed in', () => {
    expect(kinds(between({users: [ann]}, {users: [ann, bob]}))).toEqual(['user.created']);
    expect(kinds(between({users: [ann, bob]}, {users: [ann]}))).toEqual(['user.deleted']);
    const role = between({users: [ann]}, {users: [{...ann, role: 'admin'}]});
    expect(role[0]).toMatchObject({kind: 'user.role', text: 'ann@example.com role changed: unprivileged → admin', object: {type: 'user', id: 'u-1'}});
    expect(kinds(between({users: [ann]}, {users: [{...ann, email: 'anna@example.com'}]}))).toEqual(['user.email']);
    expect(kinds(between({users: [ann]}, {users: [{...ann, disabled_at: iso(T0)}]}))).toEqual(['user.disabled']);
    expect(kinds(between({users: [{...ann, disabled_at: iso(T0)}]}, {users: [ann]}))).toEqual(['user.enabled']);
    const signedIn = between({users: [ann]}, {users: [{...ann, last_signed_in_at: iso(T0), last_signed_in_method: 'google'}]});
    expect(signedIn[0]).toMatchObject({kind: 'user.signed_in', text: 'ann@example.com signed in (google)'});
  });

  it('rules added, removed and changed', () => {
    const added = between({rules: []}, {rules: [rule({user_id: 'u-1'})]});
    expect(added[0]).toMatchObject({kind: 'rule.added', text: 'Rule added: DROP 10.0.0.0/8 all ports for ann@example.com', owner: 'ann@example.com'});
    expect(kinds(between({rules: [rule()]}, {rules: []}))).toEqual(['rule.removed']);
    const changed = between({rules: [rule()]}, {rules: [rule({action: 'accept', port_type: 'tcp', port_range: '443'})]});
    expect(changed[0]).toMatchObject({kind: 'rule.changed', detail: ['action: drop → accept', 'ports: (none) (none) → tcp 443']});
  });

  it('configuration changed: the diff, secrets masked', () => {
    const before = configuration();
    const after = configuration({
      default_client_mtu: 1420,
      openid_connect_providers: [{...before.openid_connect_providers[0]!, client_secret: 'TOP-SECRET-2'}],
      saml_identity_providers: [{...before.saml_identity_providers[0]!, metadata: '<EntityDescriptor>OTHER-SECRET</EntityDescriptor>'}],
    });
    const events = between({configuration: before}, {configuration: after});
    expect(kinds(events)).toEqual(['configuration.changed']);
    const all = JSON.stringify(events);
    expect(all).toContain('MTU: 1280 → 1420');
    expect(all).toContain('client_secret changed (secret, not shown)');
    expect(all).not.toMatch(/TOP-SECRET|SECRET-METADATA|OTHER-SECRET/);
  });

  it('a secret that turns up in another field is masked too', () => {
    const before = configuration();
    const after = configuration({openid_connect_providers: [{...before.openid_connect_providers[0]!, label: 'key TOP-SECRET-1'}]});
    const lines = configurationChanges(before, after);
    expect(lines.join('\n')).not.toContain('TOP-SECRET-1');
    expect(lines.join('\n')).toContain('•••');
  });

  it('sections the token cannot see are not reported as deleted', () => {
    const hidden = {
      users: [],
      rules: [],
      configuration: null,
      hidden: ['users', 'rules'] as HiddenList[],
    };
    expect(between({users: [ann, bob], rules: [rule()]}, hidden)).toEqual([]);
    expect(between(hidden, {users: [ann, bob], rules: [rule()]})).toEqual([]);
  });
});

describe('ActivityTracker', () => {
  it('the first poll creates no events', () => {
    const t = new ActivityTracker();
    expect(t.observe(snap({devices: [device()]}, null, T0))).toEqual([]);
    expect(t.events.size).toBe(0);
  });

  it('no duplicate after an error and recovery: only good snapshots are observed, each once', () => {
    const t = new ActivityTracker();
    const a = snap({devices: [device()]}, null, T0);
    t.observe(a);
    const b = snap({devices: [device(), device({id: 'd-2', name: 'phone'})]}, a, T0 + 5000);
    expect(kinds(t.observe(b))).toEqual(['device.created']);
    // The controller may hand the same snapshot again (a re-render, a retry that failed in between).
    expect(t.observe(b)).toEqual([]);
    // Polls fail for a while (nothing observed), then recover with the same data.
    const c = snap({devices: [device(), device({id: 'd-2', name: 'phone'})]}, b, T0 + 60_000);
    expect(t.observe(c)).toEqual([]);
    expect(t.events.size).toBe(1);
  });

  it('attributes this console’s own writes to "you", once', () => {
    const t = new ActivityTracker();
    const a = snap({devices: [device()], rules: [rule()]}, null, T0);
    t.observe(a);
    t.noteLocalWrite({type: 'device', id: 'd-2', action: 'created'}, T0 + 1000);
    t.noteLocalWrite({type: 'rule', id: 'r-1', action: 'deleted'}, T0 + 1000);
    t.noteLocalWrite({type: 'device', id: 'd-1', action: 'updated'}, T0 + 1000);
    const b = snap({devices: [device({name: 'renamed'}), device({id: 'd-2', name: 'phone'})], rules: []}, a, T0 + 5000);
    const events = t.observe(b);
    expect(events.map((e) => `${e.kind}:${e.by}`)).toEqual(['device.renamed:you', 'device.created:you', 'rule.removed:you']);
    expect(t.pendingLocalWrites).toBe(0);
    // Another client renames it again: not ours.
    const c = snap({devices: [device({name: 'again'}), device({id: 'd-2', name: 'phone'})], rules: []}, b, T0 + 10_000);
    expect(t.observe(c).map((e) => e.by)).toEqual([null]);
  });

  it('a user deleted here takes its devices and rules with it, all "by you"', () => {
    const t = new ActivityTracker();
    const a = snap({devices: [device({user_id: 'u-2'})], rules: [rule({user_id: 'u-2'})]}, null, T0);
    t.observe(a);
    t.noteLocalWrite({type: 'user', id: 'u-2', action: 'deleted'}, T0 + 1000);
    const events = t.observe(snap({users: [ann], devices: [], rules: []}, a, T0 + 5000));
    expect(events.map((e) => `${e.kind}:${e.by}`)).toEqual(['user.deleted:you', 'device.deleted:you', 'rule.removed:you']);
  });

  it('a write noted before sending and then failed is forgotten', () => {
    const t = new ActivityTracker();
    const a = snap({}, null, T0);
    t.observe(a);
    t.noteLocalWrite({type: 'user', id: 'u-2', action: 'deleted'}, T0);
    t.forgetLocalWrite({type: 'user', id: 'u-2', action: 'deleted'});
    expect(t.pendingLocalWrites).toBe(0);
    expect(t.observe(snap({users: [ann]}, a, T0 + 1000))[0]!.by).toBeNull();
  });

  it('reset: the next snapshot is a first poll again', () => {
    const t = new ActivityTracker();
    t.observe(snap({}, null, T0));
    t.reset();
    expect(t.observe(snap({users: [ann]}, null, T0 + 1000))).toEqual([]);
  });

  it('a noted write the polls never show is forgotten after the TTL', () => {
    const t = new ActivityTracker();
    const a = snap({}, null, T0);
    t.observe(a);
    t.noteLocalWrite({type: 'user', id: 'u-1', action: 'updated'}, T0);
    const b = snap({}, a, T0 + LOCAL_WRITE_TTL_MS + 1);
    t.observe(b);
    expect(t.pendingLocalWrites).toBe(0);
    // So a later change by someone else is not taken for ours.
    expect(t.observe(snap({users: [{...ann, role: 'admin'}, bob]}, b, T0 + LOCAL_WRITE_TTL_MS + 5000))[0]!.by).toBeNull();
  });

  it('hands every batch to onEvents (the activity log)', () => {
    const batches: number[] = [];
    const t = new ActivityTracker({onEvents: (e) => batches.push(e.length)});
    const a = snap({}, null, T0);
    t.observe(a);
    const b = snap({users: [ann]}, a, T0 + 1000);
    t.observe(b);
    t.observe(snap({users: [ann]}, b, T0 + 2000));
    expect(batches).toEqual([1]);
  });
});

describe('highlights', () => {
  it('marks added, changed and removed rows until they fade; traffic alone marks nothing', () => {
    const hl = new Highlights();
    const d1 = device({latest_handshake: iso(T0 - 60_000), rx_bytes: 1000, tx_bytes: 1000, updated_at: iso(T0 - 60_000)});
    const d3 = device({id: 'd-3', name: 'busy', latest_handshake: iso(T0 - 60_000), rx_bytes: 1, updated_at: iso(T0 - 60_000)});
    const a = snap({devices: [d1, device({id: 'gone', name: 'old'}), d3]}, null, T0 - 5000);
    const b = snap(
      {
        devices: [
          {...d1, name: 'renamed', description: 'x'},
          device({id: 'new', name: 'new'}),
          {...d3, latest_handshake: iso(T0), rx_bytes: 9999, updated_at: iso(T0)},
        ],
      },
      a,
      T0,
    );
    diffSnapshots(a, b, T0, {highlights: hl});
    const mark = hl.mark('device', 'd-1', T0)!;
    expect(mark).toMatchObject({kind: 'changed', notable: true});
    expect(cellChange(mark, 'device', 'name')).toBe('changed');
    expect(cellChange(mark, 'device', 'description')).toBe('changed');
    expect(cellChange(mark, 'device', 'remote')).toBeNull();
    expect(cellChange(mark, 'device', 'no-such-column')).toBeNull();
    expect(hl.mark('device', 'd-3', T0)).toBeNull();
    expect(hl.mark('device', 'new', T0)!.kind).toBe('added');
    expect(hl.mark('device', 'gone', T0)!.kind).toBe('removed');
    expect(hl.removed<{name: string}>('device', T0).map((r) => r.name)).toEqual(['old']);
    expect(hl.nextExpiry()).toBe(T0 + HIGHLIGHT_MS);
    expect(hl.mark('device', 'd-1', T0 + HIGHLIGHT_MS)).toBeNull();
    expect(hl.removed('device', T0 + HIGHLIGHT_MS)).toEqual([]);
  });

  it('a state change is notable and says from what to what; a later poll keeps earlier fields marked', () => {
    const hl = new Highlights();
    const t = T0;
    const a = snap({devices: [device()]}, null, t - 1000);
    const b = snap({devices: [device({latest_handshake: iso(t), remote_ip: '198.51.100.7', updated_at: iso(t)})]}, a, t);
    diffSnapshots(a, b, t, {highlights: hl});
    expect(hl.mark('device', 'd-1', t)).toMatchObject({notable: true, stateFrom: 'never', stateTo: 'online'});
    const c = snap({devices: [device({latest_handshake: iso(t), remote_ip: '198.51.100.7', updated_at: iso(t), name: 'x'})]}, b, t + 1000);
    diffSnapshots(b, c, t + 1000, {highlights: hl});
    const mark = hl.mark('device', 'd-1', t + 1000)!;
    expect(cellChange(mark, 'device', 'state')).toBe('changed');
    expect(cellChange(mark, 'device', 'name')).toBe('changed');
    // Faded later, counted from the last change.
    expect(hl.mark('device', 'd-1', t + 1000 + HIGHLIGHT_MS - 1)).not.toBeNull();
  });

  it('user rows: device count up/down, rule marks', () => {
    const hl = new Highlights();
    const a = snap({devices: [device()], rules: [rule()]}, null, T0 - 1000);
    const b = snap({devices: [device(), device({id: 'd-2', name: 'b'})], rules: [rule({destination: '10.1.0.0/16'})]}, a, T0);
    diffSnapshots(a, b, T0, {highlights: hl});
    expect(cellChange(hl.mark('user', 'u-1', T0), 'user', 'devices')).toBe('up');
    expect(cellChange(hl.mark('rule', 'r-1', T0), 'rule', 'destination')).toBe('changed');
  });
});

describe('EventRing', () => {
  const ev = (seq: number, over: Partial<ActivityEvent> = {}): ActivityEvent => ({
    seq,
    kind: 'device.created',
    at: seq,
    object: {type: 'device', id: String(seq), label: `dev-${seq}`},
    owner: null,
    text: `event ${seq}`,
    detail: [],
    by: null,
    ...over,
  });

  it('keeps the last N, newest first, and filters', () => {
    const ring = new EventRing(3);
    ring.push([ev(1), ev(2, {by: 'you'}), ev(3)]);
    ring.push([ev(4, {kind: 'user.created', object: {type: 'user', id: 'u', label: 'ann@example.com'}})]);
    expect(ring.size).toBe(3);
    expect(ring.list().map((e) => e.seq)).toEqual([4, 3, 2]);
    expect(ring.list({byYou: true}).map((e) => e.seq)).toEqual([2]);
    expect(ring.list({types: ['user']}).map((e) => e.seq)).toEqual([4]);
    expect(ring.list({text: 'ANN@'}).map((e) => e.seq)).toEqual([4]);
    expect(ring.list({kinds: ['device.created']}).map((e) => e.seq)).toEqual([3, 2]);
  });
});
