// Undo (src/state/undo/), through the rig against a real sandbox: a deleted device comes back the
// same (every field but ids and times; its client config still matches, `wg pubkey` agrees),
// a bulk delete of five comes back, a user with two devices and a rule comes back in order, an
// address taken meanwhile gives a new one and says the client needs a new config, and read-only
// mode refuses it.
import {execFileSync, spawnSync} from 'node:child_process';
import {generateKeyPairSync} from 'node:crypto';
import {describe, expect, it} from 'vitest';
import type {Device, Rule, User} from '../../src/api/index.js';
import {renderClientConfig} from '../../src/wireguard/index.js';
import {renderApp, useSandbox, type Rig} from '../helpers/rig.js';

const fx = useSandbox({seed: 'empty'});
const settings = {label: 'test', refreshSeconds: 0, readOnly: false, insecure: false, demo: false};
const hasWg = spawnSync('sh', ['-c', 'command -v wg']).status === 0;

function keyPair(): {privateKey: string; publicKey: string} {
  // DER from the generation job itself: a JWK export of a generated key can hang Node 20 (src/wireguard/keys.ts).
  const {publicKey, privateKey} = generateKeyPairSync('x25519', {
    publicKeyEncoding: {type: 'spki', format: 'der'},
    privateKeyEncoding: {type: 'pkcs8', format: 'der'},
  });
  return {publicKey: publicKey.subarray(12).toString('base64'), privateKey: privateKey.subarray(16).toString('base64')};
}

const get = async <T,>(path: string) => (await fx.api<{data: T}>('GET', path)).json.data;
const post = async <T,>(path: string, body: unknown) => {
  const r = await fx.api<{data: T}>('POST', path, body);
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return r.json.data;
};

/** A device as the server has it, without what a re-creation cannot keep: ids, times, stats. */
function sameness(d: Device): Partial<Device> {
  const {id: _id, inserted_at: _i, updated_at: _u, latest_handshake: _h, remote_ip: _r, rx_bytes: _rx, tx_bytes: _tx, user_id: _user, ...rest} = d;
  return rest;
}

async function freshUser(email: string): Promise<User> {
  return post<User>('/v0/users', {user: {email, role: 'unprivileged'}});
}

async function freshDevice(user: User, name: string, extra: Record<string, unknown> = {}): Promise<{device: Device; privateKey: string}> {
  const keys = keyPair();
  const device = await post<Device>('/v0/devices', {
    device: {user_id: user.id, name, public_key: keys.publicKey, description: `${name} of ${user.email}`, ...extra},
  });
  return {device, privateKey: keys.privateKey};
}

async function openOn(app: Rig, screen: 'screen1' | 'screen2' | 'screen3', filter: string): Promise<void> {
  await app.press(screen, 'global');
  await app.press('filter', 'list');
  await app.type(filter);
  await app.press('filterAccept', 'filter');
}

describe('undo', () => {
  it('a deleted device comes back the same: keys, addresses, name, description, settings; its client config still matches', async () => {
    const ann = await freshUser('ann-undo@example.com');
    const {device, privateKey} = await freshDevice(ann, 'ann-laptop', {use_default_mtu: false, mtu: 1380, use_default_dns: false, dns: ['9.9.9.9']});
    const configBefore = renderClientConfig(device, {privateKey});
    const app = await renderApp({fixture: fx, settings});
    await openOn(app, 'screen1', 'ann-laptop');
    await app.waitFor(/1\/1( of \d+)? devices/);
    await app.press('delete', 'list');
    await app.waitFor('Delete device ann-laptop');
    await app.press('confirm', 'dialog');
    await app.waitFor('Deleted device ann-laptop (u takes it back)');
    expect((await get<Device[]>('/v0/devices')).some((d) => d.public_key === device.public_key)).toBe(false);
    await app.press('undo', 'global');
    await app.waitFor('Took back device ann-laptop (ann-undo@example.com): 1 item restored.');
    const back = (await get<Device[]>('/v0/devices')).find((d) => d.public_key === device.public_key)!;
    expect(back).toBeDefined();
    expect(back.id).not.toBe(device.id);
    expect(sameness(back)).toEqual(sameness(device));
    expect(back.user_id).toBe(ann.id);
    // The config the admin handed out before the delete is the one the server would make now.
    expect(renderClientConfig(back, {privateKey})).toBe(configBefore);
    if (hasWg) expect(execFileSync('wg', ['pubkey'], {input: `${privateKey}\n`, encoding: 'utf8'}).trim()).toBe(back.public_key);
    // Nothing is left to take back.
    await app.press('cancel', 'report');
    await app.press('undo', 'global');
    await app.waitFor('Nothing to undo: no delete or new key of this session is left to take back');
  });

  it('after a change u cannot take back, u names it and asks before bringing back the older delete', async () => {
    const dee = await freshUser('dee-undo@example.com');
    const {device: gone} = await freshDevice(dee, 'dee-gone');
    await freshDevice(dee, 'dee-kept');
    const app = await renderApp({fixture: fx, settings});
    await openOn(app, 'screen1', 'dee-gone');
    await app.waitFor(/1\/1( of \d+)? devices/);
    await app.press('delete', 'list');
    await app.press('confirm', 'dialog');
    await app.waitFor('Deleted device dee-gone (u takes it back)');
    // Then a change u cannot take back: another device's description.
    await app.press('filter', 'list');
    await app.named('ctrl+u');
    await app.type('dee-kept');
    await app.press('filterAccept', 'filter');
    await app.waitFor(/1\/1( of \d+)? devices/);
    await app.press('edit', 'list');
    await app.waitFor('Edit device dee-kept');
    await app.press('nextField', 'form');
    await app.type(' edited');
    await app.press('save');
    await app.waitFor('Device updated: dee-kept');
    const present = async () => (await get<Device[]>('/v0/devices')).some((d) => d.public_key === gone.public_key);
    await app.press('undo', 'global');
    let frame = await app.waitFor('Take back device dee-gone (dee-undo@example.com), deleted');
    expect(frame).toContain('Your latest change cannot be taken back with u: Device updated: dee-kept');
    await app.press('cancel', 'dialog');
    await app.waitFor(/1\/1( of \d+)? devices/);
    expect(await present()).toBe(false);
    await app.press('undo', 'global');
    await app.waitFor('Take back device dee-gone');
    await app.press('confirm', 'dialog');
    frame = await app.waitFor('Took back device dee-gone (dee-undo@example.com): 1 item restored.');
    expect(await present()).toBe(true);
  });

  it('a device deleted before its user was deleted and brought back returns to that user as they exist now', async () => {
    const eve = await freshUser('eve-undo@example.com');
    const {device: first} = await freshDevice(eve, 'eve-first');
    await freshDevice(eve, 'eve-second');
    const app = await renderApp({fixture: fx, settings});
    await openOn(app, 'screen1', 'eve-first');
    await app.waitFor(/1\/1( of \d+)? devices/);
    await app.press('delete', 'list');
    await app.press('confirm', 'dialog');
    await app.waitFor('Deleted device eve-first (u takes it back)');
    await openOn(app, 'screen2', 'eve-undo');
    await app.waitFor(/1\/1( of \d+)? users/);
    await app.press('delete', 'list');
    await app.press('confirm', 'dialog');
    await app.waitFor('User deleted successfully: eve-undo@example.com (u takes it back)');
    await app.press('undo', 'global');
    await app.waitFor('Took back user eve-undo@example.com: 2 items restored.');
    await app.press('cancel', 'report');
    const eveNow = (await get<User[]>('/v0/users')).find((u) => u.email === 'eve-undo@example.com')!;
    expect(eveNow.id).not.toBe(eve.id);
    // The older delete: its device goes to Eve as restored, not to the id she had.
    await app.press('command', 'global');
    await app.type('undo');
    await app.named('enter');
    const list = await app.waitFor('Deletes and new keys of this session');
    const line = list.split('\n').find((l) => l.includes('device eve-first'))!;
    const n = /^\s*(\d+)/.exec(line.replace(/^[^\d]*/, ''))![1]!;
    await app.press('cancel', 'report');
    await app.press('command', 'global');
    await app.type(`undo ${n}`);
    await app.named('enter');
    await app.waitFor('Took back device eve-first (eve-undo@example.com): 1 item restored.');
    const back = (await get<Device[]>('/v0/devices')).find((d) => d.public_key === first.public_key)!;
    expect(back.user_id).toBe(eveNow.id);
  });

  it('a bulk delete of five comes back with one u', async () => {
    const bo = await freshUser('bo-undo@example.com');
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await freshDevice(bo, `bulk-${i}`)).device);
    const app = await renderApp({fixture: fx, settings});
    await openOn(app, 'screen1', 'bulk-');
    await app.waitFor(/1\/5( of \d+)? devices/);
    await app.press('markAll', 'list');
    await app.waitFor('5 marked');
    await app.press('delete', 'list');
    await app.waitFor('Delete 5 devices');
    await app.press('confirm', 'dialog');
    await app.waitFor('Deleted 5 of 5 devices; 0 failed. u takes them back.');
    await app.press('cancel', 'report');
    // :undo names the bulk delete by its count, once.
    await app.press('command', 'global');
    await app.type('undo');
    await app.named('enter');
    const list = await app.waitFor('Deletes and new keys of this session');
    expect(list).toMatch(/\d\d:\d\d:\d\d {2}5 devices\s*\n/);
    await app.press('cancel', 'report');
    await app.press('undo', 'global');
    await app.waitFor('Took back 5 devices: 5 items restored.');
    const now = await get<Device[]>('/v0/devices');
    for (const d of made) expect(sameness(now.find((x) => x.public_key === d.public_key)!)).toEqual(sameness(d));
  });

  it('a user with two devices and a rule comes back: the user, then the devices, then the rule, bound to the user as restored', async () => {
    const cy = await freshUser('cy-undo@example.com');
    const one = (await freshDevice(cy, 'cy-laptop')).device;
    const two = (await freshDevice(cy, 'cy-phone')).device;
    const r = await post<Rule>('/v0/rules', {rule: {action: 'drop', destination: '10.77.0.0/16', port_type: 'tcp', port_range: '22', user_id: cy.id}});
    const app = await renderApp({fixture: fx, settings});
    await openOn(app, 'screen2', 'cy-undo');
    await app.waitFor(/1\/1( of \d+)? users/);
    await app.press('delete', 'list');
    const question = await app.waitFor('Delete user cy-undo@example.com? This also deletes 2 devices and 1 rule.');
    // What u cannot bring back is said before the delete, not only after.
    expect(question.replace(/\s+/g, ' ')).toContain('u can bring them back, but not their password: its hash never leaves the server.');
    await app.press('confirm', 'dialog');
    await app.waitFor('User deleted successfully: cy-undo@example.com (u takes it back)');
    await app.press('undo', 'global');
    const frame = await app.waitFor('Took back user cy-undo@example.com: 4 items restored.');
    expect(frame).toContain('their password is not');
    const user = (await get<User[]>('/v0/users')).find((u) => u.email === 'cy-undo@example.com')!;
    expect(user).toMatchObject({role: 'unprivileged'});
    const devices = (await get<Device[]>('/v0/devices')).filter((d) => d.user_id === user.id);
    expect(devices.map((d) => d.name).sort()).toEqual(['cy-laptop', 'cy-phone']);
    for (const d of [one, two]) expect(sameness(devices.find((x) => x.public_key === d.public_key)!)).toEqual(sameness(d));
    const rules = (await get<Rule[]>('/v0/rules')).filter((x) => x.user_id === user.id);
    expect(rules.map(({action, destination, port_type, port_range}) => ({action, destination, port_type, port_range}))).toEqual([
      {action: r.action, destination: r.destination, port_type: r.port_type, port_range: r.port_range},
    ]);
  });

  it('an address taken meanwhile: the device comes back with a new one, and the report says its client needs a new config', async () => {
    const di = await freshUser('di-undo@example.com');
    const {device} = await freshDevice(di, 'di-laptop');
    const app = await renderApp({fixture: fx, settings});
    await openOn(app, 'screen1', 'di-laptop');
    await app.waitFor(/1\/1( of \d+)? devices/);
    await app.press('delete', 'list');
    await app.waitFor('Delete device di-laptop');
    await app.press('confirm', 'dialog');
    await app.waitFor('Deleted device di-laptop (u takes it back)');
    // Another device takes its IPv4 meanwhile.
    await freshDevice(di, 'squatter', {ipv4: device.ipv4});
    await app.press('undo', 'global');
    const frame = await app.waitFor('its client needs a new config');
    const back = (await get<Device[]>('/v0/devices')).find((d) => d.public_key === device.public_key)!;
    expect(back.ipv4).not.toBe(device.ipv4);
    // Only the IPv4 was taken: the IPv6 is the device's own again, and the report names the one that moved.
    expect(back.ipv6).toBe(device.ipv6);
    expect(frame.replace(/\s*\n\s*/g, ' ')).toContain(
      `Device di-laptop of di-undo@example.com is back with its keys, but an address had been taken meanwhile: ${device.ipv4} → ${back.ipv4}, so its client needs a new config`,
    );
    expect(back.preshared_key).toBe(device.preshared_key);
  });

  it('read-only mode refuses u and :undo N, and sends nothing', async () => {
    const app = await renderApp({fixture: fx, settings: {...settings, readOnly: true}});
    const before = (await get<Device[]>('/v0/devices')).length;
    await app.press('undo', 'global');
    await app.waitFor('Read-only mode: undoing a delete is disabled (started with --read-only)');
    await app.press('command', 'global');
    await app.type('undo 1');
    await app.named('enter');
    await app.waitFor('Read-only mode: undoing a delete is disabled (started with --read-only)');
    expect((await get<Device[]>('/v0/devices')).length).toBe(before);
  });
});
