// Undo as the console keeps it (src/state/undo/): the deletes of the session newest first, an
// older one taken back by number, `u` for the newest left, the bodies that bring a device back as
// it was, and a failed restore that keeps the rest undoable. Against the real server: test/ui/undo.test.tsx.
import {describe, expect, it} from 'vitest';
import {topModal} from '../../src/state/core/state.js';
import {deviceBody} from '../../src/state/undo/restore.js';
import {UNDO_DEPTH, UndoLog} from '../../src/state/undo/undo-log.js';
import {device} from '../fixtures/data.js';
import {open, seeded, until} from '../helpers/fake-console.js';

const reportLines = (c: Awaited<ReturnType<typeof open>>['c']) => {
  const m = topModal(c.state);
  return m?.kind === 'report' ? m.lines.map((l) => l.text) : [];
};

describe('the undo log', () => {
  it('newest first; the last not yet taken back; an empty delete is not kept; the oldest drop past the depth', () => {
    const log = new UndoLog();
    expect(log.add('nothing', {users: [], devices: [], rules: []}, 0)).toBeNull();
    const a = log.add('device a', {users: [], devices: [device({id: 'a'})], rules: []}, 1)!;
    const b = log.add('device b', {users: [], devices: [device({id: 'b'})], rules: []}, 2)!;
    expect(log.list().map((e) => e.number)).toEqual([2, 1]);
    expect(log.last()).toBe(b);
    b.restored = true;
    expect(log.last()).toBe(a);
    for (let i = 0; i < UNDO_DEPTH + 5; i++) log.add(`d${i}`, {users: [], devices: [device({id: `x${i}`})], rules: []}, 3 + i);
    expect(log.list()).toHaveLength(UNDO_DEPTH);
    expect(log.get(1)).toBeNull();
  });

  it('a device body sends own values and keeps defaults as defaults; without addresses when asked', () => {
    const d = device({description: 'work', use_default_mtu: false, mtu: 1380, use_default_dns: true, dns: ['1.1.1.1']});
    expect(deviceBody(d, 'u-9')).toEqual({
      user_id: 'u-9',
      public_key: 'pub',
      name: 'laptop',
      description: 'work',
      preshared_key: 'psk',
      ipv4: '10.3.2.2',
      ipv6: 'fd00::3:2:2',
      use_default_allowed_ips: true,
      use_default_dns: true,
      use_default_endpoint: true,
      use_default_mtu: false,
      mtu: 1380,
      use_default_persistent_keepalive: true,
    });
    expect(deviceBody(d, 'u-9', {ipv4: false, ipv6: false})).not.toHaveProperty('ipv4');
    expect(deviceBody(d, 'u-9', {ipv4: false, ipv6: false})).not.toHaveProperty('ipv6');
    // The free one of the two is kept.
    expect(deviceBody(d, 'u-9', {ipv4: false, ipv6: true})).toMatchObject({ipv6: d.ipv6});
    expect(deviceBody(d, 'u-9', {ipv4: false, ipv6: true})).not.toHaveProperty('ipv4');
  });
});

describe('u and :undo in the console', () => {
  it(':undo lists the deletes newest first; :undo N takes an older one back; u the newest left; then nothing', async () => {
    const server = seeded();
    const con = await open(server);
    const {c, press, type} = con;
    // Delete ann-phone, then bob-desktop.
    press('j', 'd', 'y');
    await until(() => con.message().startsWith('Deleted device ann-phone'), 'the first delete');
    await con.polled();
    press('/');
    type('bob-desktop');
    press('enter', 'd', 'y');
    await until(() => con.message().startsWith('Deleted device bob-desktop'), 'the second delete');
    press(':');
    type('undo');
    press('enter');
    expect(
      reportLines(c)
        .slice(0, 2)
        .map((l) => l.replace(/\d\d:\d\d:\d\d/, 'T')),
    ).toEqual(['  2  T  device bob-desktop (bob@example.com)  — 1 device', '  1  T  device ann-phone (ann@example.com)  — 1 device']);
    press('esc', ':');
    type('undo 1');
    press('enter');
    await until(() => reportLines(c)[0]?.startsWith('Took back device ann-phone') ?? false, 'the older one back');
    expect(server.calls.filter((x) => x.startsWith('createDevice'))).toEqual(['createDevice ann-phone']);
    // Activity shows the delete and the restore as this console's.
    await con.polled();
    const mine = c.tracker.events.list().map((e) => `${e.kind} ${e.object.label} ${e.by}`);
    expect(mine).toEqual(expect.arrayContaining(['device.deleted ann-phone you', 'device.created ann-phone you']));
    press('esc', 'u');
    await until(() => reportLines(c)[0]?.startsWith('Took back device bob-desktop') ?? false, 'the newest one back');
    press('esc', 'u');
    expect(con.message()).toBe('Nothing to undo: no delete or new key of this session is left to take back');
    press(':');
    type('undo 7');
    press('enter');
    expect(con.message()).toBe('Nothing numbered 7 to take back (:undo lists them)');
  });

  it('a failed restore says why, keeps what depends on it waiting, and stays undoable', async () => {
    const server = seeded();
    const con = await open(server);
    const {c, press} = con;
    press('2', 'd', 'y');
    await until(() => con.message().startsWith('User deleted successfully: ann@example.com'), 'the delete');
    server.rejectNextUser = {email: ['has already been taken']};
    press('u');
    await until(() => reportLines(c)[0]?.startsWith('Restored 0 of 3') ?? false, 'the failed restore');
    expect(reportLines(c)).toEqual(
      expect.arrayContaining([
        'User ann@example.com did not come back: email: has already been taken',
        'Device ann-laptop of ann@example.com waits for its user to come back',
        'Device ann-phone of ann@example.com waits for its user to come back',
      ]),
    );
    expect(server.calls.filter((x) => x.startsWith('createDevice'))).toEqual([]);
    // Nothing came back: nothing is said to be new.
    expect(reportLines(c).some((l) => l.startsWith('Restored items are new'))).toBe(false);
    press('esc', 'u');
    await until(() => reportLines(c)[0]?.startsWith('Took back user ann@example.com: 3 items restored.') ?? false, 'the second try');
    expect(server.calls.filter((x) => /^create(User|Device)/.test(x))).toEqual([
      'createUser ann@example.com',
      'createUser ann@example.com',
      'createDevice ann-laptop',
      'createDevice ann-phone',
    ]);
  });

  it('the report says what a restored item does not get back: its id, creation date and counters', async () => {
    const server = seeded();
    const con = await open(server);
    const {c, press} = con;
    press('j', 'd', 'y');
    await until(() => con.message().startsWith('Deleted device ann-phone'), 'the device delete');
    press('u');
    await until(() => reportLines(c)[0]?.startsWith('Took back device ann-phone') ?? false, 'the device back');
    expect(reportLines(c).at(-1)).toBe(
      'Restored items are new to the server: new ids and creation dates; devices start with no handshake, no remote IP and traffic counters at zero until their clients connect.',
    );
    press('esc', '2', 'd', 'y');
    await until(() => con.message().startsWith('User deleted successfully: ann@example.com'), 'the user delete');
    press('u');
    await until(() => reportLines(c)[0]?.startsWith('Took back user ann@example.com') ?? false, 'the user back');
    expect(reportLines(c)).toContain(
      'Restored items are new to the server: new ids and creation dates; devices start with no handshake, no remote IP and traffic counters at zero until their clients connect; users have no sign-in on record.',
    );
  });
});
