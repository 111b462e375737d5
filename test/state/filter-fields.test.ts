// Every field of every screen's filter table (src/state/screens/<screen>/filters.ts) on the rows
// of test/fixtures/filter-rows.ts: each expectation is a list of ids written out, never computed
// by the code under test.
import {describe, expect, it} from 'vitest';
import {deviceFilters} from '../../src/state/screens/devices/filters.js';
import {userFilters} from '../../src/state/screens/users/filters.js';
import {activityFilters} from '../../src/state/screens/activity/filters.js';
import {DEVICES, EVENTS, ids, MIN, NOW, RULE_FIELDS, RULES, USER_FIELDS, USERS} from '../fixtures/filter-rows.js';

const devs = (text: string) => ids(DEVICES, deviceFilters(), text, (r) => r.id);

describe('Devices fields', () => {
  it('state: online, idle or never, at the time given', () => {
    expect(devs('state:online')).toEqual(['a', 'e', 'f']);
    expect(devs('state:idle')).toEqual(['b']);
    expect(devs('state:never')).toEqual(['c', 'd']);
    expect(devs('STATE:Online')).toEqual(['a', 'e', 'f']);
    // Ten minutes later the laptop's and the server's handshakes are over three minutes old.
    expect(ids(DEVICES, deviceFilters(), 'state:online', (r) => r.id, NOW + 10 * MIN)).toEqual([]);
  });

  it('owner, name and key: substrings in any case', () => {
    expect(devs('owner:ann@example.com')).toEqual(['a', 'c']);
    expect(devs('owner:EXAMPLE.ORG')).toEqual(['d']);
    expect(devs('owner:bob')).toEqual(['b', 'e']);
    expect(devs('name:lap')).toEqual(['a']);
    expect(devs('name:LAPTOP')).toEqual(['a']);
    expect(devs('name:t')).toEqual(['a', 'c']);
    expect(devs('key:kqvb')).toEqual(['a']);
    expect(devs('key:+')).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('ip: an address or block holds one of IPv4, IPv6 or the remote IP; anything else is a substring', () => {
    expect(devs('ip:10.3.0.0/16')).toEqual(['a', 'b', 'd']);
    expect(devs('ip:10.3.2.2')).toEqual(['a']);
    expect(devs('ip:10.3.2.2/32')).toEqual(['a']);
    expect(devs('ip:fd00::/16')).toEqual(['a', 'b', 'c']);
    expect(devs('ip:fd00::3:2:2')).toEqual(['a']);
    expect(devs('ip:198.51.100.7')).toEqual(['a']);
    expect(devs('ip:2001:db8::/32')).toEqual(['e']);
    expect(devs('ip:0.0.0.0/0')).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(devs('ip:10.3.')).toEqual(['a', 'b', 'd']);
    expect(devs('ip:FD00')).toEqual(['a', 'b', 'c']);
    // A prefix too long for IPv4 is not a block: searched as text, it finds nothing.
    expect(devs('ip:10.3.0.0/33')).toEqual([]);
  });

  it('rx and tx: totals against sizes in 1024- and 1000-based units; no total is 0 bytes, as shown', () => {
    expect(devs('rx>1GiB')).toEqual(['a', 'f']);
    expect(devs('rx>1gib')).toEqual(['a', 'f']);
    // c and d never connected: no counters, shown and compared as 0 bytes.
    expect(devs('rx<1GiB')).toEqual(['b', 'c', 'd']);
    expect(devs('rx>1GB')).toEqual(['a', 'e', 'f']);
    expect(devs('rx>1.5GiB')).toEqual(['a', 'f']);
    expect(devs('rx>2.5GiB')).toEqual(['f']);
    expect(devs('rx>499999999')).toEqual(['a', 'b', 'e', 'f']);
    expect(devs('rx>500MB')).toEqual(['a', 'e', 'f']);
    expect(devs('tx>5MB')).toEqual(['a']);
    // f has no tx counter (an odd server): 0 bytes, as its cell shows.
    expect(devs('tx<1KB')).toEqual(['c', 'd', 'e', 'f']);
    expect(devs('tx<1025B')).toEqual(['b', 'c', 'd', 'e', 'f']);
  });

  it('rate: rx/s + tx/s now; an idle device, a stale sample or no rate never matches', () => {
    expect(devs('rate>1MB')).toEqual(['a']);
    expect(devs('rate>1MB/s')).toEqual(['a']);
    expect(devs('rate<2MB/S')).toEqual(['a']);
    expect(devs('rate>1.5MB')).toEqual([]);
    expect(devs('rate<1')).toEqual([]);
  });

  it('handshake and created: ages; no handshake is longer ago than any age', () => {
    expect(devs('handshake>30d')).toEqual(['b', 'c', 'd']);
    expect(devs('handshake>90s')).toEqual(['b', 'c', 'd', 'e', 'f']);
    expect(devs('handshake<5m')).toEqual(['a', 'e', 'f']);
    expect(devs('handshake<2m')).toEqual(['a', 'e']);
    expect(devs('handshake<6w')).toEqual(['a', 'b', 'e', 'f']);
    expect(devs('handshake>1000w')).toEqual(['c', 'd']);
    expect(devs('handshake<1.5H')).toEqual(['a', 'e', 'f']);
    expect(devs('created<7d')).toEqual(['d']);
    expect(devs('created>150d')).toEqual(['b', 'f']);
    expect(devs('created<24h')).toEqual([]);
  });

  it('stale: as the S view has it (no handshake for 30 days, or never connected and older), or the days given', () => {
    expect(devs('stale')).toEqual(['b', 'c']);
    expect(devs('STALE')).toEqual(['b', 'c']);
    expect(devs('!stale')).toEqual(['a', 'd', 'e', 'f']);
    // 42 days: the phone's handshake (40 days) is recent enough; the tablet, made 45 days ago, never connected.
    expect(ids(DEVICES, deviceFilters({staleDays: 42}), 'stale', (r) => r.id)).toEqual(['c']);
    expect(ids(DEVICES, deviceFilters({staleDays: 50}), 'stale', (r) => r.id)).toEqual([]);
  });

  it('terms combine with AND, and ! negates any of them', () => {
    expect(devs('state:idle handshake>30d')).toEqual(['b']);
    expect(devs('state:never handshake>30d')).toEqual(['c', 'd']);
    expect(devs('!state:online')).toEqual(['b', 'c', 'd']);
    expect(devs('owner:ann !state:never')).toEqual(['a']);
    expect(devs('state:online rx>1GiB')).toEqual(['a', 'f']);
    expect(devs('stale !state:never')).toEqual(['b']);
    // `!` takes the complement: a device with no total is "not over 1 GiB".
    expect(devs('!rx>1GiB')).toEqual(['b', 'c', 'd', 'e']);
  });
});

const usrs = (text: string) => ids(USERS, USER_FIELDS, text, (r) => r.user.id);

describe('Users fields', () => {
  it('role and status (the VPN column), in any case', () => {
    expect(usrs('role:admin')).toEqual(['ann']);
    expect(usrs('role:unprivileged')).toEqual(['bob', 'carol']);
    expect(usrs('status:enabled')).toEqual(['ann']);
    expect(usrs('status:DISABLED')).toEqual(['bob']);
    expect(usrs('status:Expired')).toEqual(['carol']);
    // Without a session duration nothing expires.
    expect(ids(USERS, userFilters({configuration: null}), 'status:enabled', (r) => r.user.id)).toEqual(['ann', 'carol']);
  });

  it('email and signin: substrings; counts of devices and rules', () => {
    expect(usrs('email:EXAMPLE.ORG')).toEqual(['carol']);
    expect(usrs('email:bob')).toEqual(['bob']);
    expect(usrs('signin:goo')).toEqual(['ann']);
    expect(usrs('signin:e')).toEqual(['ann', 'carol']);
    expect(usrs('devices>2')).toEqual(['ann']);
    expect(usrs('devices:0')).toEqual(['bob']);
    expect(usrs('devices<2')).toEqual(['bob', 'carol']);
    expect(usrs('rules:1')).toEqual(['carol']);
    expect(usrs('rules>0')).toEqual(['bob', 'carol']);
    expect(usrs('!rules:0 devices>0')).toEqual(['carol']);
  });

  it('seen: the last sign-in; never signed in is longer ago than any age', () => {
    expect(usrs('seen>30d')).toEqual(['bob', 'carol']);
    expect(usrs('seen<7d')).toEqual(['ann']);
    expect(usrs('seen<1000w')).toEqual(['ann', 'carol']);
  });
});

const rls = (text: string) => ids(RULES, RULE_FIELDS, text, (r) => r.id);

describe('Rules fields', () => {
  it('action, and user by email, by the id of a user gone, or global', () => {
    expect(rls('action:accept')).toEqual(['r1', 'r3', 'r5']);
    expect(rls('action:DROP')).toEqual(['r2', 'r4', 'r6']);
    expect(rls('user:ann@example.com')).toEqual(['r1']);
    expect(rls('user:example.com')).toEqual(['r1', 'r3']);
    expect(rls('user:u-gone')).toEqual(['r5']);
    expect(rls('user:global')).toEqual(['r2', 'r4', 'r6']);
    expect(rls('user:everyone')).toEqual(['r2', 'r4', 'r6']);
    expect(rls('!user:global')).toEqual(['r1', 'r3', 'r5']);
  });

  it('port: in the range, none, or the protocol', () => {
    expect(rls('port:443')).toEqual(['r1']);
    expect(rls('port:8000')).toEqual(['r3']);
    expect(rls('port:8500')).toEqual(['r3']);
    expect(rls('port:9000')).toEqual(['r3']);
    expect(rls('port:9001')).toEqual([]);
    expect(rls('port:22')).toEqual(['r4']);
    expect(rls('port:none')).toEqual(['r2', 'r5', 'r6']);
    expect(rls('port:tcp')).toEqual(['r1', 'r4']);
    expect(rls('port:UDP')).toEqual(['r3']);
  });

  it('dest: the rules whose destination holds the address or block given', () => {
    expect(rls('dest:10.2.3.4')).toEqual(['r1', 'r2', 'r3', 'r5', 'r6']);
    expect(rls('dest:10.2.0.0/16')).toEqual(['r1', 'r3', 'r5']);
    expect(rls('dest:10.2.3.5')).toEqual(['r1', 'r3', 'r5']);
    expect(rls('dest:192.168.1.1')).toEqual(['r5']);
    expect(rls('dest:fd00::1')).toEqual(['r4']);
    expect(rls('dest:fe80::1')).toEqual([]);
    expect(rls('dest:10.2.3.4 action:drop')).toEqual(['r2', 'r6']);
  });

  it('the rules that never decide: orphaned (a deleted user), shadowed (none here; test/state/access.test.ts has them)', () => {
    expect(rls('orphaned')).toEqual(['r5']);
    expect(rls('!orphaned')).toEqual(['r1', 'r2', 'r3', 'r4', 'r6']);
    expect(rls('shadowed')).toEqual([]);
  });
});

const evts = (text: string) => ids(EVENTS, activityFilters(), text, (e) => String(e.seq));

describe('Activity fields', () => {
  it('type, kind and by', () => {
    expect(evts('type:device')).toEqual(['1']);
    expect(evts('type:Configuration')).toEqual(['4']);
    expect(evts('kind:roamed')).toEqual(['1']);
    expect(evts('kind:USER.')).toEqual(['2']);
    expect(evts('by:you')).toEqual(['2', '3']);
    expect(evts('by:other')).toEqual(['1', '4']);
    expect(evts('by:you !type:rule')).toEqual(['2']);
  });
});
