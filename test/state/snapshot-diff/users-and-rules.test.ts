// Change detection event by event (users and rules): the exact text and detail of every kind, the
// row marks it leaves. Helpers in ./harness.ts; the mutation group "change detection" runs these
// (test/mutation/).
import {describe, expect, it} from 'vitest';
import {device, iso, rule, user} from '../../fixtures/data.js';
import {T0, ann, bob, diff, lines, mark, cells, USER_KEYS, RULE_KEYS} from './harness.js';

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
