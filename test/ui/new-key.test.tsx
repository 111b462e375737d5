// `K` through the rig against a real sandbox, every result read back over HTTP: the device comes
// back with the same user, name, description, addresses and settings and a new key (the config
// shown holds its private key); `u` brings the old key back, the device as it was; and a create
// the server refuses half-way (a real 422) leaves the device as it was, with its old keys.
import {execFileSync, spawnSync} from 'node:child_process';
import {generateKeyPairSync} from 'node:crypto';
import {describe, expect, it} from 'vitest';
import type {Device, DeviceCreate, User} from '../../src/api/index.js';
import {publicKeyFromPrivate, renderClientConfig} from '../../src/wireguard/index.js';
import {clientWith} from '../helpers/client-with.js';
import {renderApp, useSandbox, type Rig} from '../helpers/rig.js';

const fx = useSandbox({seed: 'empty'});
const settings = {label: 'test', refreshSeconds: 0, readOnly: false, insecure: false, demo: false};
const hasWg = spawnSync('sh', ['-c', 'command -v wg']).status === 0;

const get = async <T,>(path: string) => (await fx.api<{data: T}>('GET', path)).json.data;
const post = async <T,>(path: string, body: unknown) => {
  const r = await fx.api<{data: T}>('POST', path, body);
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return r.json.data;
};

/** A device as the server has it, without what a replacement cannot keep: ids, keys, times, stats. */
function sameness(d: Device): Partial<Device> {
  const {
    id: _id,
    inserted_at: _i,
    updated_at: _u,
    latest_handshake: _h,
    remote_ip: _r,
    rx_bytes: _rx,
    tx_bytes: _tx,
    public_key: _pub,
    preshared_key: _psk,
    ...rest
  } = d;
  return rest;
}

async function fixture(email: string, name: string): Promise<{user: User; device: Device; privateKey: string}> {
  const user = await post<User>('/v0/users', {user: {email, role: 'unprivileged'}});
  // DER from the generation job itself: a JWK export of a generated key can hang Node 20 (src/wireguard/keys.ts).
  const pair = generateKeyPairSync('x25519', {publicKeyEncoding: {type: 'spki', format: 'der'}, privateKeyEncoding: {type: 'pkcs8', format: 'der'}});
  const privateKey = pair.privateKey.subarray(16).toString('base64');
  const device = await post<Device>('/v0/devices', {
    device: {
      user_id: user.id,
      name,
      description: `${name} of ${email}`,
      public_key: pair.publicKey.subarray(12).toString('base64'),
      use_default_mtu: false,
      mtu: 1380,
      use_default_dns: false,
      dns: ['9.9.9.9'],
      use_default_persistent_keepalive: false,
      persistent_keepalive: 0,
    },
  });
  return {user, device, privateKey};
}

async function openDevice(app: Rig, name: string): Promise<void> {
  await app.press('filter', 'list');
  await app.type(name);
  await app.press('filterAccept', 'filter');
  await app.waitFor(/1\/1( of \d+)? devices/);
}

describe('K against the sandbox', () => {
  it('the device keeps its user, name, description, addresses and settings and gets a new key; u brings the old key back', async () => {
    const {user, device, privateKey} = await fixture('kim-newkey@example.com', 'kim-laptop');
    const app = await renderApp({fixture: fx, settings});
    app.resize(120, 40);
    await openDevice(app, 'kim-laptop');
    await app.press('newKey', 'list');
    await app.waitFor('New key for device kim-laptop of kim-newkey@example.com?');
    await app.press('confirm', 'dialog');
    const frame = await app.waitFor(/New key: kim-laptop \(kim-newkey@example.com\)[\s\S]*PrivateKey = /);
    const now = (await get<Device[]>('/v0/devices')).filter((d) => d.name === 'kim-laptop');
    expect(now).toHaveLength(1);
    const replaced = now[0]!;
    expect(sameness(replaced)).toEqual(sameness(device));
    expect(replaced.user_id).toBe(user.id);
    expect(replaced.public_key).not.toBe(device.public_key);
    expect(replaced.preshared_key).not.toBe(device.preshared_key);
    const shownKey = /PrivateKey = (\S+)/.exec(frame)![1]!;
    expect(publicKeyFromPrivate(shownKey)).toBe(replaced.public_key);
    if (hasWg) expect(execFileSync('wg', ['pubkey'], {input: `${shownKey}\n`, encoding: 'utf8'}).trim()).toBe(replaced.public_key);
    // u: the device with the new key goes, the device as it was comes back, and the config its user had works again.
    await app.press('done', 'result');
    await app.press('confirm', 'dialog');
    await app.waitFor('New key for device kim-laptop: u brings the old key back');
    await app.press('undo', 'global');
    await app.waitFor('Took back new key of device kim-laptop (kim-newkey@example.com): 1 item restored.');
    const back = (await get<Device[]>('/v0/devices')).filter((d) => d.name === 'kim-laptop');
    expect(back).toHaveLength(1);
    expect(back[0]!.public_key).toBe(device.public_key);
    expect(back[0]!.preshared_key).toBe(device.preshared_key);
    expect(sameness(back[0]!)).toEqual(sameness(device));
    expect(renderClientConfig(back[0]!, {privateKey})).toBe(renderClientConfig(device, {privateKey}));
    // Activity: K and u are each one new key, by this console, not a deletion and a creation.
    await app.press('done', 'result');
    await app.press('screen5');
    const activity = await app.waitFor(/device new key[\s\S]*device new key/);
    expect(activity).not.toMatch(/device (deleted|created)/);
    expect(activity.match(/device new key +kim-laptop +kim-newkey@example\.… +Device kim-laptop .* you\n/g)).toHaveLength(2);
  });

  it('a create the server refuses half-way (a real 422) leaves the device as it was, with its old keys, and says so', async () => {
    const {device} = await fixture('lee-newkey@example.com', 'lee-laptop');
    // The first device create is sent with an MTU 0.7.36 refuses: the server's own 422, after the delete.
    let spoiled = false;
    const client = clientWith(fx.client, {
      createDevice: (body: DeviceCreate) => {
        if (spoiled) return fx.client.createDevice(body);
        spoiled = true;
        return fx.client.createDevice({...body, use_default_mtu: false, mtu: 9000});
      },
    });
    const app = await renderApp({fixture: fx, client, settings});
    app.resize(120, 40);
    await openDevice(app, 'lee-laptop');
    await app.press('newKey', 'list');
    await app.press('confirm', 'dialog');
    const frame = await app.waitFor('It is back as it was, with its old key');
    expect(frame.replace(/\s+/g, ' ')).toContain('mtu: must be less than or equal to 1500');
    const now = (await get<Device[]>('/v0/devices')).filter((d) => d.name === 'lee-laptop');
    expect(now).toHaveLength(1);
    expect(now[0]!.public_key).toBe(device.public_key);
    expect(now[0]!.preshared_key).toBe(device.preshared_key);
    expect(sameness(now[0]!)).toEqual(sameness(device));
  });
});
