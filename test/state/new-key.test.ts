// `K`, a new key for a device (src/state/screens/devices/new-key.ts, replace-device.ts,
// new-key-bulk.ts), on the Controller with an in-memory server that refuses a second device on an
// address, a key or a name (as 0.7.36 does): the order that keeps the addresses, a create that fails
// half-way and the old device brought back, a re-create that fails too and `u` trying again, `u`
// bringing the old key back, and marked devices written one 0600 file each into a 0700 folder.
// Against the real server over HTTP: test/ui/new-key.test.tsx; in tmux: test/e2e/new-key.e2e.test.ts.
import {chmodSync, mkdirSync, readdirSync, readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {ApiError, type Device} from '../../src/api/index.js';
import {topModal} from '../../src/state/core/state.js';
import {publicKeyFromPrivate} from '../../src/wireguard/index.js';
import {device, user} from '../fixtures/data.js';
import {finishedReport, FakeServer, open, until} from '../helpers/fake-console.js';
import {configFileNames} from '../../src/state/screens/devices/new-key-bulk.js';
import type {DeviceRow} from '../../src/state/data/snapshot.js';
import {TempDirs} from '../helpers/tmp.js';

const tmp = new TempDirs();
afterEach(() => tmp.remove());

const OLD_KEY = 'mLN9py6whsGt+Lg9jP4lX+Cqqlf02plODqWg2UqOmPI=';
const OLD_PSK = 'qrcrAnUh7ryP69SwfseKdBNElOSjOC9/Wv7Z+EBxs50=';

/** Two users, three devices with addresses, keys and names of their own; 0.7.36's uniqueness on. */
function server(): FakeServer {
  const s = new FakeServer();
  s.unique = true;
  s.users = [user({id: 'u-1', email: 'ann@example.com'}), user({id: 'u-2', email: 'bob@example.com', role: 'admin'})];
  s.devices = [
    device({
      id: 'd-1',
      user_id: 'u-1',
      name: 'ann-laptop',
      description: 'work laptop',
      public_key: OLD_KEY,
      preshared_key: OLD_PSK,
      ipv4: '10.3.2.5',
      ipv6: 'fd00::3:2:5',
      use_default_mtu: false,
      mtu: 1380,
      use_default_dns: false,
      dns: ['9.9.9.9'],
    }),
    device({id: 'd-2', user_id: 'u-1', name: 'ann-phone', public_key: 'phone-key', ipv4: '10.3.2.6', ipv6: 'fd00::3:2:6'}),
    device({id: 'd-3', user_id: 'u-2', name: 'bob-desktop', public_key: 'bob-key', ipv4: '10.3.2.7', ipv6: 'fd00::3:2:7'}),
  ];
  return s;
}

const invalid = (fieldErrors: Record<string, string[]>) =>
  new ApiError({kind: 'validation', message: '422 Unprocessable Entity', method: 'POST', path: '/v0/devices', status: 422, fieldErrors});

type Con = Awaited<ReturnType<typeof open>>;
const dialog = (c: Con['c']) => {
  const m = topModal(c.state);
  return m?.kind === 'dialog' ? {title: m.title, lines: m.lines.map((l) => l.text), busy: m.busy ?? null} : null;
};
const reportLines = (c: Con['c']) => {
  const m = topModal(c.state);
  return m?.kind === 'report' ? m.lines.map((l) => l.text) : [];
};
const named = (s: FakeServer, name: string) => s.devices.filter((d) => d.name === name);
/** What a replacement keeps of the device: everything but its id, keys and times. */
const kept = (d: Device) => ({
  user_id: d.user_id,
  name: d.name,
  description: d.description,
  ipv4: d.ipv4,
  ipv6: d.ipv6,
  use_default_mtu: d.use_default_mtu,
  mtu: d.mtu,
  use_default_dns: d.use_default_dns,
  dns: d.dns,
  use_default_allowed_ips: d.use_default_allowed_ips,
  use_default_endpoint: d.use_default_endpoint,
  use_default_persistent_keepalive: d.use_default_persistent_keepalive,
});

describe('K: a new key for one device', () => {
  it('asks first, naming the device, that its client config stops working and what is kept; n sends nothing', async () => {
    const s = server();
    const {c, press, message} = await open(s);
    press('K');
    expect(dialog(c)).toEqual({
      title: 'New key for device ann-laptop of ann@example.com?',
      lines: [
        'Its current client config stops working: the device gets a new key pair and preshared key, made here, and needs the new config.',
        'Kept: its name, description, owner, addresses (10.3.2.5 and fd00::3:2:5) and settings.',
        'Firezone 0.7.36 cannot change a key in place: the device is deleted and created again with the new key, so it gets a new id and creation date, and its handshake and traffic counters start from nothing.',
        'u brings the old key back.',
      ],
      busy: null,
    });
    press('n');
    expect(message()).toBe('Cancelled');
    expect(s.calls).toEqual([]);
  });

  it('y deletes the device before creating it again with the same user, name, description, addresses and settings and a new key pair and preshared key; the config shown holds the new private key', async () => {
    const s = server();
    const before = s.devices[0]!;
    const {c, press, message} = await open(s);
    press('K', 'y');
    await until(() => topModal(c.state)?.kind === 'result', 'the new config');
    // The order that keeps the addresses: 0.7.36 refuses a second device on them (and on the name).
    expect(s.calls).toEqual(['getDevice d-1', 'deleteDevice d-1', 'createDevice ann-laptop']);
    const now = named(s, 'ann-laptop');
    expect(now).toHaveLength(1);
    expect(kept(now[0]!)).toEqual(kept(before));
    expect(now[0]!.id).not.toBe('d-1');
    expect(now[0]!.public_key).not.toBe(OLD_KEY);
    expect(now[0]!.preshared_key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(now[0]!.preshared_key).not.toBe(OLD_PSK);
    // Defaults stay defaults: nothing the old device took from the configuration is sent as its own.
    expect(s.deviceBodies[0]).not.toHaveProperty('allowed_ips');
    expect(s.deviceBodies[0]).not.toHaveProperty('endpoint');
    const result = topModal(c.state);
    if (result?.kind !== 'result' || result.config === null) throw new Error('no config');
    expect(result).toMatchObject({newKey: true, deviceId: now[0]!.id, deviceName: 'ann-laptop', ownerEmail: 'ann@example.com'});
    const privateKey = /^PrivateKey = (\S+)$/m.exec(result.config)![1]!;
    expect(publicKeyFromPrivate(privateKey)).toBe(now[0]!.public_key);
    expect(result.config).toContain(`PresharedKey = ${now[0]!.preshared_key}`);
    expect(result.config).toContain('Address = 10.3.2.5/32,fd00::3:2:5/128');
    expect(message()).toBe('New key for device ann-laptop of ann@example.com: its old client config no longer works (u brings the old key back)');
    // The cursor is on the device as it is now.
    expect(c.state.lists.devices.selectedId).toBe(now[0]!.id);
    // Leaving asks, as a new device's config does: the private key is not shown again.
    press('esc');
    expect(dialog(c)?.title).toBe('Leave the new key?');
    press('y');
    await until(() => c.state.modals.length === 0, 'the result to close');
    expect(message()).toBe('New key for device ann-laptop: u brings the old key back');
  });

  it('in a detail, the detail follows the device to its new id, and after u to the device with its old key back', async () => {
    const s = server();
    const {c, press} = await open(s);
    press('enter');
    expect(c.state.lists.devices.detailId).toBe('d-1');
    press('K', 'y');
    await until(() => topModal(c.state)?.kind === 'result', 'the new config');
    const replacement = named(s, 'ann-laptop')[0]!.id;
    expect(c.state.lists.devices.detailId).toBe(replacement);
    press('esc', 'y');
    await until(() => c.state.modals.length === 0, 'the result to close');
    press('u');
    await until(() => reportLines(c)[0]?.startsWith('Took back new key of device ann-laptop') ?? false, 'the old key back');
    const back = named(s, 'ann-laptop')[0]!;
    expect(back.public_key).toBe(OLD_KEY);
    expect([replacement, 'd-1']).not.toContain(back.id);
    expect(c.state.lists.devices.detailId).toBe(back.id);
    expect(c.state.lists.devices.selectedId).toBe(back.id);
  });

  it('u takes the new key back: the device holding it is deleted first, then the device as it was is created with its old keys and addresses', async () => {
    const s = server();
    const before = s.devices[0]!;
    const {c, press} = await open(s);
    press('K', 'y');
    await until(() => topModal(c.state)?.kind === 'result', 'the new config');
    const replacement = named(s, 'ann-laptop')[0]!;
    press('esc', 'y');
    await until(() => c.state.modals.length === 0, 'the result to close');
    s.calls.length = 0;
    press('u');
    await until(() => reportLines(c)[0]?.startsWith('Took back new key of device ann-laptop') ?? false, 'the old key back');
    expect(s.calls).toEqual([`deleteDevice ${replacement.id}`, 'createDevice ann-laptop']);
    const back = named(s, 'ann-laptop');
    expect(back).toHaveLength(1);
    expect(back[0]!.public_key).toBe(OLD_KEY);
    expect(back[0]!.preshared_key).toBe(OLD_PSK);
    expect(kept(back[0]!)).toEqual(kept(before));
    expect(s.devices.some((d) => d.public_key === replacement.public_key)).toBe(false);
    expect(reportLines(c)).toContain(
      'Device ann-laptop of ann@example.com has its old key back, with its addresses (10.3.2.5, fd00::3:2:5): its old client config works again, the new one no longer does',
    );
  });

  it('after a later change u cannot take back, u asks about the new key as made (not deleted) that long ago', async () => {
    const s = server();
    const {c, press} = await open(s);
    press('K', 'y');
    await until(() => topModal(c.state)?.kind === 'result', 'the new config');
    press('esc', 'y');
    await until(() => c.state.modals.length === 0, 'the result to close');
    c.undo.noteWrite('Device updated: bob-desktop');
    press('u');
    expect(dialog(c)?.title).toMatch(/^Take back new key of device ann-laptop \(ann@example\.com\), made (\d+s|just now) ago\?$/);
    expect(dialog(c)?.lines).toContain('u takes back the newest delete (of devices, users or rules) or new key; :undo lists them all.');
    press('n');
    expect(s.calls.filter((x) => x.startsWith('deleteDevice')).length).toBe(1);
  });

  it('a create that fails half-way brings the old device back with its old keys, addresses and settings, and says so', async () => {
    const s = server();
    const before = s.devices[0]!;
    s.failDeviceCreates.push(invalid({base: ['Maximum device limit reached. Remove an existing device before creating a new one.']}));
    const {c, press, message} = await open(s);
    press('K', 'y');
    await until(() => topModal(c.state)?.kind === 'report', 'the report');
    expect(s.calls).toEqual(['getDevice d-1', 'deleteDevice d-1', 'createDevice ann-laptop', 'createDevice ann-laptop']);
    // The second create is the old device: its own keys.
    expect(s.deviceBodies[1]).toMatchObject({public_key: OLD_KEY, preshared_key: OLD_PSK, ipv4: '10.3.2.5', ipv6: 'fd00::3:2:5', user_id: 'u-1'});
    const back = named(s, 'ann-laptop');
    expect(back).toHaveLength(1);
    expect(back[0]!.public_key).toBe(OLD_KEY);
    expect(kept(back[0]!)).toEqual(kept(before));
    const lines = reportLines(c);
    expect(lines[0]).toBe(
      'No new key for ann-laptop of ann@example.com: the server refused the device with the new key (base: Maximum device limit reached. Remove an existing device before creating a new one.). It is back as it was, with its old key: its client config works again.',
    );
    expect(lines).toContain('Device ann-laptop of ann@example.com is back with its keys and addresses (10.3.2.5, fd00::3:2:5): its client config works again');
    expect(message()).toBe(lines[0]);
    // Nothing to take back with u: the device is as it was (u says so before an older delete).
    press('esc', 'u');
    expect(message()).toMatch(/^Nothing to undo/);
  });

  it('a re-create that fails too keeps the old device for u, says so, and u brings it back', async () => {
    const s = server();
    s.failDeviceCreates.push(
      invalid({base: ['refused']}),
      new ApiError({kind: 'server', message: 'Server error 500 with an empty body', method: 'POST', path: '/v0/devices', status: 500}),
    );
    const {c, press, message} = await open(s);
    press('K', 'y');
    await until(() => topModal(c.state)?.kind === 'report', 'the report');
    expect(named(s, 'ann-laptop')).toEqual([]);
    const lines = reportLines(c);
    expect(lines[0]).toBe(
      'No new key for ann-laptop of ann@example.com: the server refused the device with the new key (base: refused). The device is not back yet: u tries again to bring it back as it was.',
    );
    expect(lines).toContain('Device ann-laptop of ann@example.com did not come back: Server error 500 with an empty body');
    expect(message()).toBe(lines[0]);
    press('esc', 'u');
    await until(() => reportLines(c)[0]?.startsWith('Took back device ann-laptop of ann@example.com (its new key failed)') ?? false, 'the device back');
    const back = named(s, 'ann-laptop');
    expect(back).toHaveLength(1);
    expect(back[0]).toMatchObject({public_key: OLD_KEY, preshared_key: OLD_PSK, ipv4: '10.3.2.5', ipv6: 'fd00::3:2:5'});
  });

  it('a create whose answer never came is looked for by its key: not there, the old device comes back', async () => {
    const s = server();
    s.failDeviceCreates.push(new ApiError({kind: 'network', message: 'connection closed unexpectedly', method: 'POST', path: '/v0/devices'}));
    const {c, press} = await open(s);
    press('K', 'y');
    await until(() => topModal(c.state)?.kind === 'report', 'the report');
    expect(reportLines(c)[0]).toMatch(/^No new key for ann-laptop of ann@example.com: .*connection closed unexpectedly.*It is back as it was/);
    expect(named(s, 'ann-laptop')[0]!.public_key).toBe(OLD_KEY);
  });

  it('a delete whose answer never came is settled by reading the device: gone, the new one is made; still there, nothing changed', async () => {
    const s = server();
    // Applied, then the connection broke: the read finds it gone, and the replace goes on.
    s.breakDelete.set('d-1', 'after');
    const {c, press, message} = await open(s);
    press('K', 'y');
    await until(() => topModal(c.state)?.kind === 'result', 'the new config');
    expect(s.calls).toEqual(['getDevice d-1', 'deleteDevice d-1', 'getDevice d-1', 'createDevice ann-laptop']);
    expect(named(s, 'ann-laptop')[0]!.public_key).not.toBe(OLD_KEY);
    press('esc', 'y');
    await until(() => c.state.modals.length === 0, 'the result to close');
    // Not applied: the read finds it, and nothing more is sent.
    s.breakDelete.set('d-2', 'before');
    s.calls.length = 0;
    await until(() => c.activeList()!.view.rows.some((r) => (r as {id: string}).id === 'd-2'), 'ann-phone listed');
    c.updateList('devices', (st) => ({...st, selectedId: 'd-2'}));
    press('K', 'y');
    await until(() => c.state.modals.length === 0, 'the dialog to close');
    expect(s.calls).toEqual(['getDevice d-2', 'deleteDevice d-2', 'getDevice d-2']);
    expect(message()).toBe(
      'No new key for ann-phone of ann@example.com: no answer came to its delete (connection closed unexpectedly), and it is still there; nothing changed',
    );
  });

  it('a device whose settings no client config can be built from is not deleted: the read, then why', async () => {
    const s = server();
    // 0.7.36 stores "999.1.1.1" as a DNS name; the config renderer refuses it.
    s.devices[0] = {...s.devices[0]!, dns: ['9.9.9.9', '999.1.1.1']};
    const {c, press, message} = await open(s);
    press('K', 'y');
    await until(() => c.state.modals.length === 0, 'the dialog to close');
    expect(s.calls).toEqual(['getDevice d-1']);
    expect(message()).toBe(
      'No new key for ann-laptop of ann@example.com: no client config could be built for it (DNS server dns[1] is not an IP address or domain name: "999.1.1.1"): fix that first; nothing changed',
    );
    expect(c.undo.list()).toEqual([]);
  });

  it('a device gone meanwhile: nothing is sent but the read, and it is said', async () => {
    const s = server();
    const {c, press, message} = await open(s);
    press('K');
    s.devices = s.devices.filter((d) => d.id !== 'd-1');
    press('y');
    await until(() => c.state.modals.length === 0, 'the dialog to close');
    expect(message()).toBe('No new key for ann-laptop of ann@example.com: it is no longer on the server; nothing changed');
    expect(s.calls).toEqual(['getDevice d-1']);
  });

  it('with a token whose user is not an admin, K says why not and sends nothing (0.7.36 would refuse the create after the delete)', async () => {
    const s = server();
    s.listUsers = () => Promise.reject(new ApiError({kind: 'forbidden', message: 'Permission denied', method: 'GET', path: '/v0/users', status: 401}));
    const {c, press, message} = await open(s);
    press('K');
    expect(message()).toMatch(/^Cannot make a new key: this token's user is not an admin/);
    expect(c.state.modals).toEqual([]);
    press(' ', 'K');
    expect(message()).toMatch(/^Cannot make a new key/);
    expect(c.state.modals).toEqual([]);
    expect(s.calls).toEqual([]);
  });
});

describe('K on marked devices', () => {
  it('one marked device is asked about as one, in the singular', async () => {
    const {c, press} = await open(server());
    press(' ', 'K');
    const asked = dialog(c)!;
    expect(asked.title).toBe('A new key for ann-laptop of ann@example.com (marked)?');
    expect(asked.lines).toEqual(
      expect.arrayContaining([
        'Its current client config stops working: the device gets a new key pair and preshared key, made here, and needs the new config.',
        'Kept: its name, description, owner, addresses and settings. The new config goes to a file in a folder asked next.',
      ]),
    );
  });

  it('asks once, then for a folder; writes one 0600 config per device into a 0700 folder; u brings the old keys back', async () => {
    const s = server();
    const {c, press, type, message} = await open(s);
    // The list sorts by name: ann-laptop, ann-phone, bob-desktop.
    press(' ', ' ', ' ', 'K');
    const asked = dialog(c)!;
    expect(asked.title).toBe('New keys for 3 devices of 2 users?');
    expect(asked.lines).toEqual(
      expect.arrayContaining([
        'Their current client configs stop working: each device gets a new key pair and preshared key, made here, and needs its new config.',
        '  ann-laptop (ann@example.com)  10.3.2.5 and fd00::3:2:5',
        '  bob-desktop (bob@example.com)  10.3.2.7 and fd00::3:2:7',
      ]),
    );
    press('y');
    await until(() => topModal(c.state)?.kind === 'prompt', 'the folder prompt');
    expect(s.calls).toEqual([]);
    const parent = tmp.make('fzc-newkeys-');
    const folder = join(parent, 'keys');
    press('ctrl+u');
    type(folder);
    press('enter');
    const lines = await finishedReport(c);
    expect(lines[0]).toBe(`New keys for 3 of 3 devices; 3 config files in ${folder} (mode 0600). u brings the old keys back.`);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const files = readdirSync(folder).sort();
    expect(files).toEqual(['ann@example.com-ann-laptop.conf', 'ann@example.com-ann-phone.conf', 'bob@example.com-bob-desktop.conf']);
    for (const file of files) {
      expect(statSync(join(folder, file)).mode & 0o777, file).toBe(0o600);
      const privateKey = /^PrivateKey = (\S+)$/m.exec(readFileSync(join(folder, file), 'utf8'))![1]!;
      const holder = s.devices.find((d) => d.public_key === publicKeyFromPrivate(privateKey));
      expect(holder && `${s.users.find((u) => u.id === holder.user_id)!.email}-${holder.name}.conf`).toBe(file);
    }
    expect(s.devices.map((d) => d.public_key)).not.toContain(OLD_KEY);
    expect(s.devices.map((d) => d.ipv4).sort()).toEqual(['10.3.2.5', '10.3.2.6', '10.3.2.7']);
    // The old devices are gone, and so are their marks (no "no longer exists" message after the poll).
    expect(c.state.marks.devices.size).toBe(0);
    expect(message()).toBe(lines[0]);
    press('esc', 'u');
    await until(() => reportLines(c)[0]?.startsWith('Took back new keys of 3 devices') ?? false, 'the old keys back');
    expect(s.devices.map((d) => d.public_key).sort()).toEqual([OLD_KEY, 'bob-key', 'phone-key'].sort());
  });

  it('refuses a folder others can open, and a file that exists keeps its device as it is', async () => {
    const s = server();
    const {c, press, type, message} = await open(s);
    press(' ', ' ', 'K', 'y');
    await until(() => topModal(c.state)?.kind === 'prompt', 'the folder prompt');
    const open_ = join(tmp.make('fzc-newkeys-'), 'open');
    mkdirSync(open_);
    chmodSync(open_, 0o755);
    press('ctrl+u');
    type(open_);
    press('enter');
    expect(message()).toBe(`Cannot use ${open_}: others can open it (mode 0755), and the configs hold private keys; give a new folder, or make it 0700`);
    expect(topModal(c.state)?.kind).toBe('prompt');
    expect(s.calls).toEqual([]);
    // A folder of one's own, closed to others, with ann-phone's file in it already.
    chmodSync(open_, 0o700);
    const taken = join(open_, 'ann@example.com-ann-phone.conf');
    mkdirSync(taken);
    press('enter');
    const lines = await finishedReport(c);
    expect(lines[0]).toBe(`New keys for 1 of 2 devices; 1 config file in ${open_} (mode 0600). u brings the old keys back.`);
    expect(lines).toContain(`  ann-phone (ann@example.com): ${taken} exists (never overwritten); nothing sent (still marked)`);
    expect(s.calls.filter((x) => x.includes('d-2'))).toEqual([]);
    expect([...c.state.marks.devices]).toEqual(['d-2']);
  });

  it('a device whose new key failed and that did not come back is kept for u apart, newest, so u tries it first', async () => {
    const s = server();
    // ann-laptop's new key is refused, and bringing it back fails too; ann-phone goes through. By
    // name: the two run at once, in an order the file checks before them decide.
    const create = s.createDevice.bind(s);
    const refusals = [invalid({base: ['refused']}), invalid({base: ['refused again']})];
    s.createDevice = (body) => (body.name === 'ann-laptop' && refusals.length > 0 ? Promise.reject(refusals.shift()!) : create(body));
    const {c, press} = await open(s);
    press(' ', ' ', 'K', 'y');
    await until(() => topModal(c.state)?.kind === 'prompt', 'the folder prompt');
    press('enter');
    const lines = await finishedReport(c);
    expect(lines[0]).toMatch(/^New keys for 1 of 2 devices; 1 config file in .*firezone-new-keys \(mode 0600\)\. u brings the old keys back\.$/);
    expect(lines).toContain('  ann-laptop (ann@example.com): the server refused the device with the new key (base: refused); not back yet (u tries again)');
    expect(c.undo.list().map((e) => e.label)).toEqual(['1 device whose new key failed', 'new keys of 1 device']);
    press('esc', 'u');
    await until(() => reportLines(c)[0]?.startsWith('Took back 1 device whose new key failed') ?? false, 'the lost one back');
    expect(named(s, 'ann-laptop')[0]!.public_key).toBe(OLD_KEY);
  });

  it('two devices whose file names come out the same get one file each (-2, -3), never one over the other', () => {
    const row = (id: string, name: string, ownerEmail = 'ann@example.com') => ({id, name, ownerEmail}) as DeviceRow;
    const names = configFileNames([row('a', 'my laptop'), row('b', 'my_laptop'), row('c', 'my/laptop'), row('d', 'my_laptop-2'), row('e', 'phone')]);
    expect([...names.values()]).toEqual([
      'ann@example.com-my_laptop.conf',
      'ann@example.com-my_laptop-2.conf',
      'ann@example.com-my_laptop-3.conf',
      // The name its own device has, taken already by a number: the next free one.
      'ann@example.com-my_laptop-2-2.conf',
      'ann@example.com-phone.conf',
    ]);
  });
});
