// Client defaults no config can be built from (0.7.36 takes "999.1.1.1" as a DNS name), against a
// real sandbox, every result read back over HTTP: the review says so before they are saved; a new
// device is not created (its private key would be shown with no config); `K` deletes nothing.
import {existsSync, readdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, afterEach, describe, expect, it} from 'vitest';
import type {Configuration, Device, User} from '../../src/api/index.js';
import {renderApp, useSandbox} from '../helpers/rig.js';
import {publicKey} from '../sandbox/helpers.js';
import {TempDirs} from '../helpers/tmp.js';

const tmp = new TempDirs();
afterAll(() => tmp.remove());

const fx = useSandbox({seed: 'empty'});
const settings = {label: 'test', refreshSeconds: 0, readOnly: false, insecure: false, demo: false};

const get = async <T,>(path: string) => (await fx.api<{data: T}>('GET', path)).json.data;
const setDns = async (dns: string[]) => {
  const r = await fx.api('PATCH', '/v0/configuration', {configuration: {default_client_dns: dns}});
  expect(r.status).toBe(200);
};

afterEach(() => setDns(['1.1.1.1', '1.0.0.1']));

describe('a client config that could not be built', () => {
  it('the review of the client defaults says that no device on them can get a config, before they are saved', async () => {
    const editText = () => async (request: {stem: string; text: string}) => ({
      ok: true as const,
      text: request.text.replace(/"default_client_dns": \[[^\]]*\]/, '"default_client_dns": ["1.1.1.1", "999.1.1.1"]'),
    });
    const app = await renderApp({fixture: fx, settings, editText});
    await app.press('screen4', 'global');
    await app.waitFor('Client defaults');
    await app.keys('E');
    const frame = await app.waitFor('No device that uses these client defaults can get a client config');
    // In the dialog's box, the line wrapped: its two parts.
    expect(frame).toContain('client config: DNS server dns[1] is not an');
    expect(frame).toContain('IP address or domain name: "999.1.1.1"');
    // Still the admin's to send: 0.7.36 takes it.
    await app.press('confirm', 'dialog');
    await app.waitFor(/Configuration saved/);
    expect((await get<Configuration>('/v0/configuration')).default_client_dns).toEqual(['1.1.1.1', '999.1.1.1']);
  });

  it('n: the device is not created, and the form stays open with what was typed', async () => {
    const user = (await fx.api<{data: User}>('POST', '/v0/users', {user: {email: 'cc-new@example.com'}})).json.data;
    await setDns(['999.1.1.1']);
    const app = await renderApp({fixture: fx, settings});
    await app.press('command');
    await app.type(`user ${user.email}`);
    await app.named('enter');
    await app.waitFor(/Devices \(0\)/);
    await app.named('n');
    await app.waitFor(`Add device for ${user.email}`);
    await app.press('save', 'form');
    const frame = await app.waitFor('Not created: no client config could be built for it');
    expect(frame.replace(/\s+/g, ' ')).toContain('DNS server dns[0] is not an IP address or domain name: "999.1.1.1"');
    expect(frame).toContain(`Add device for ${user.email}`);
    expect((await get<Device[]>('/v0/devices')).filter((d) => d.user_id === user.id)).toEqual([]);
    await setDns(['1.1.1.1']);
    await app.press('cancel', 'form');
    await app.waitFor(/Devices \(0\)/);
  });

  it('K: nothing is deleted, and it says why', async () => {
    const user = (await fx.api<{data: User}>('POST', '/v0/users', {user: {email: 'cc-key@example.com'}})).json.data;
    const device = (await fx.api<{data: Device}>('POST', '/v0/devices', {device: {user_id: user.id, name: 'cc-laptop', public_key: publicKey()}})).json.data;
    await setDns(['999.1.1.1']);
    const app = await renderApp({fixture: fx, settings});
    await app.press('filter', 'list');
    await app.type('cc-laptop');
    await app.press('filterAccept', 'filter');
    await app.waitFor(/1\/1( of \d+)? devices/);
    await app.press('newKey', 'list');
    await app.waitFor('New key for device cc-laptop of cc-key@example.com?');
    await app.press('confirm', 'dialog');
    const frame = await app.waitFor('No new key for cc-laptop of cc-key@example.com: no client config could be built for it');
    expect(frame.replace(/\s+/g, ' ')).toContain('is not an IP address or domain name: "999.1.1.1"): fix that first; nothing changed');
    const now = (await get<Device[]>('/v0/devices')).filter((d) => d.user_id === user.id);
    expect(now.map((d) => [d.id, d.public_key])).toEqual([[device.id, device.public_key]]);
  });

  it('an import creates the users, but no device whose config could not be built, and says why per device', async () => {
    await setDns(['999.1.1.1']);
    const dir = tmp.make('cc-import-');
    const file = join(dir, 'team.csv');
    writeFileSync(file, 'email,role,devices\ncc-import@example.com,,laptop\n');
    const app = await renderApp({fixture: fx, settings});
    await app.press('screen2');
    await app.waitFor('EMAIL');
    await app.press('import', 'list');
    await app.waitFor('Import from file:');
    await app.paste(file);
    await app.press('accept', 'prompt');
    await app.waitFor('Import preview: nothing has been sent yet');
    await app.press('confirm', 'report');
    await app.waitFor('Folder for the client configs:');
    await app.named('ctrl+u');
    await app.paste(join(dir, 'configs'));
    await app.press('accept', 'prompt');
    const frame = await app.waitFor('Import finished', 15_000);
    expect(frame.replace(/\s+/g, ' ')).toContain('not created: no client config could be built for it: DNS server dns[0] is not an IP address or domain name');
    const users = await get<User[]>('/v0/users');
    const made = users.find((u) => u.email === 'cc-import@example.com');
    expect(made).toBeDefined();
    expect((await get<Device[]>('/v0/devices')).filter((d) => d.user_id === made!.id)).toEqual([]);
    expect(existsSync(join(dir, 'configs')) ? readdirSync(join(dir, 'configs')) : []).toEqual([]);
  });
});
