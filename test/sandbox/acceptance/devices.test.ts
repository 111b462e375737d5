// Acceptance cases, "Devices" (docs/firezone-0.7.36.md, "Acceptance cases"); the suite's
// conventions and helpers are described in ./harness.ts.
import {randomUUID} from 'node:crypto';
import {describe, expect, it} from 'vitest';
import {
  type SandboxOptions,
  UUID_RE,
  TS_RE,
  KEY_RE,
  UNKNOWN_UUID,
  DEVICE_KEYS,
  fresh,
  main,
  expectData,
  expectList,
  expectNoContent,
  expectNotFound,
  expect422,
  expectTimestamps,
  publicKey,
  createUser,
  createDevice,
  devicesOf,
  dctParams,
  ipv4ToInt,
  ipv6Hextets,
  useSharedSandbox,
} from './harness.js';

useSharedSandbox();

describe('Acceptance: Devices', () => {
  it('15.44 POST /v0/devices (A) with the full DCT params for an unprivileged user → 201, every value echoed, Location', async () => {
    const user = await createUser(main);
    const params = await dctParams(main);
    const res = await main.admin.post('/v0/devices', {device: {...params, user_id: user.id}});
    const device = expectData(res, 201);
    expect(Object.keys(device)).toEqual(DEVICE_KEYS);
    expect(device).toEqual({
      ...params,
      id: expect.stringMatching(UUID_RE),
      inserted_at: expect.stringMatching(TS_RE),
      updated_at: device.inserted_at,
      latest_handshake: null,
      remote_ip: null,
      rx_bytes: null,
      tx_bytes: null,
      server_public_key: expect.stringMatching(KEY_RE),
      user_id: user.id,
    });
    expect(device.allowed_ips).toEqual(['0.0.0.0/0', '::/0', '1.1.1.1']);
    expect(res.headers.get('location')).toBe(`/v0/devices/${device.id}`);
    expect(expectData(await main.admin.get(`/v0/devices/${device.id}`))).toEqual(device);
  });

  // The upstream case list says "Same as 56"; the evident meaning is case 44 (the full DCT params).
  it("15.45 case 44 for the caller's own user and for another admin → 201", async () => {
    const otherAdmin = await createUser(main, {role: 'admin'});
    for (const userId of [main.adminId, String(otherAdmin.id)]) {
      const params = await dctParams(main);
      const res = await main.admin.post('/v0/devices', {device: {...params, user_id: userId}});
      const device = expectData(res, 201);
      expect(device).toMatchObject({...params, user_id: userId});
      expect(res.headers.get('location')).toBe(`/v0/devices/${device.id}`);
    }
  });

  it('15.46 POST /v0/devices with just user_id and public_key → 201 with generated and default values', async () => {
    const user = await createUser(main);
    const key = publicKey();
    const device = expectData(await main.admin.post('/v0/devices', {device: {user_id: user.id, public_key: key}}), 201);
    const config = expectData(await main.admin.get('/v0/configuration'));
    expect(Object.keys(device)).toEqual(DEVICE_KEYS);
    expect(device.public_key).toBe(key);
    expect(device.user_id).toBe(user.id);
    // docs/firezone-0.7.36.md, "Device names": "<adjective>-<noun>" (words may themselves be hyphenated), shortened to 11 chars + 4
    // upper-case hex digits when longer than 15.
    expect(device.name).toMatch(/^(?:[a-z]+(?:-[a-z]+)+|.{11}[0-9A-F]{4})$/);
    expect(String(device.name).length).toBeLessThanOrEqual(15);
    expect(device.preshared_key).toMatch(KEY_RE);
    expect(Buffer.from(String(device.preshared_key), 'base64')).toHaveLength(32);
    expect(device.description).toBeNull();
    for (const flag of ['use_default_allowed_ips', 'use_default_dns', 'use_default_endpoint', 'use_default_mtu', 'use_default_persistent_keepalive']) {
      expect(device[flag], flag).toBe(true);
    }
    // ipv4 inside NET4 (10.3.2.0/24), never network, gateway (.1) or broadcast (docs/firezone-0.7.36.md, "IP allocation").
    const v4 = ipv4ToInt(String(device.ipv4));
    expect(v4).toBeGreaterThanOrEqual(ipv4ToInt('10.3.2.2'));
    expect(v4).toBeLessThanOrEqual(ipv4ToInt('10.3.2.254'));
    // ipv6 inside fd00::3:2:0/120, offsets 2..254.
    const v6 = ipv6Hextets(String(device.ipv6));
    expect(v6.slice(0, 7)).toEqual([0xfd00, 0, 0, 0, 0, 3, 2]);
    expect(v6[7]).toBeGreaterThanOrEqual(2);
    expect(v6[7]).toBeLessThanOrEqual(0xfe);
    // Effective values = the configured defaults (fresh install: docs/firezone-0.7.36.md, "Configuration: raw values" / case 84).
    expect(device.endpoint).toBe(config.default_client_endpoint);
    expect(device.dns).toEqual(config.default_client_dns);
    expect(device.allowed_ips).toEqual(config.default_client_allowed_ips);
    expect(device.mtu).toBe(config.default_client_mtu);
    expect(device.persistent_keepalive).toBe(config.default_client_persistent_keepalive);
    expect([device.dns, device.allowed_ips, device.mtu, device.persistent_keepalive]).toEqual([['1.1.1.1', '1.0.0.1'], ['0.0.0.0/0', '::/0'], 1280, 25]);
    expect(device.endpoint).toMatch(/:51820$/);
    for (const stat of ['latest_handshake', 'rx_bytes', 'tx_bytes', 'remote_ip']) expect(device[stat], stat).toBeNull();
    expect(device.server_public_key).toMatch(KEY_RE);
    expectTimestamps(device);
  });

  it('15.47 POST /v0/devices {"device":{"public_key":…}} (no user_id) → 404 {"error":"not_found"}', async () => {
    expectNotFound(await main.admin.post('/v0/devices', {device: {public_key: publicKey()}}));
  });

  it('15.48 POST /v0/devices with user_id "foo" → 404; with an unknown UUID → 404', async () => {
    expectNotFound(await main.admin.post('/v0/devices', {device: {user_id: 'foo', public_key: publicKey()}}));
    expectNotFound(await main.admin.post('/v0/devices', {device: {user_id: randomUUID(), public_key: publicKey()}}));
  });

  it('15.49 POST /v0/devices {"device":{"user_id":…}} → 422 {"errors":{"public_key":["can\'t be blank"]}}', async () => {
    const user = await createUser(main);
    expect422(await main.admin.post('/v0/devices', {device: {user_id: user.id}}), {public_key: ["can't be blank"]});
  });

  it('15.50 two creates with the same public_key → second 422 {"errors":{"public_key":["has already been taken"]}}', async () => {
    const user = await createUser(main);
    const key = publicKey();
    await createDevice(main, String(user.id), {public_key: key});
    expect422(await main.admin.post('/v0/devices', {device: {user_id: user.id, public_key: key}}), {public_key: ['has already been taken']});
    expect(await devicesOf(main, String(user.id))).toHaveLength(1);
  });

  it('15.51 create with name "   " → 422 {"errors":{"name":["should be at least 1 character(s)"]}}', async () => {
    const user = await createUser(main);
    expect422(await main.admin.post('/v0/devices', {device: {user_id: user.id, public_key: publicKey(), name: '   '}}), {
      name: ['should be at least 1 character(s)'],
    });
  });

  it('15.52 create with a 256-char name / 2049-char description → 422 length errors', async () => {
    const user = await createUser(main);
    expect422(await main.admin.post('/v0/devices', {device: {user_id: user.id, public_key: publicKey(), name: 'n'.repeat(256)}}), {
      name: ['should be at most 255 character(s)'],
    });
    expect422(await main.admin.post('/v0/devices', {device: {user_id: user.id, public_key: publicKey(), description: 'd'.repeat(2049)}}), {
      description: ['should be at most 2048 character(s)'],
    });
  });

  it('15.53 create with use_default_endpoint false and no endpoint → 422 {"errors":{"endpoint":["can\'t be blank"]}}', async () => {
    const user = await createUser(main);
    expect422(await main.admin.post('/v0/devices', {device: {user_id: user.id, public_key: publicKey(), use_default_endpoint: false}}), {
      endpoint: ["can't be blank"],
    });
  });

  it('15.54 create with use_default_mtu false and mtu 100 / 1501 → 422 range errors', async () => {
    const user = await createUser(main);
    const base = {user_id: user.id, use_default_mtu: false};
    expect422(await main.admin.post('/v0/devices', {device: {...base, public_key: publicKey(), mtu: 100}}), {mtu: ['must be greater than or equal to 576']});
    expect422(await main.admin.post('/v0/devices', {device: {...base, public_key: publicKey(), mtu: 1501}}), {mtu: ['must be less than or equal to 1500']});
  });

  it('15.55 create with persistent_keepalive 121 → 422 ["must be less than or equal to 120"]', async () => {
    const user = await createUser(main);
    const res = await main.admin.post('/v0/devices', {
      device: {user_id: user.id, public_key: publicKey(), use_default_persistent_keepalive: false, persistent_keepalive: 121},
    });
    expect422(res, {persistent_keepalive: ['must be less than or equal to 120']});
  });

  it('15.56 create with DNS host name and endpoint host name → 201', async () => {
    const user = await createUser(main);
    const device = await createDevice(main, String(user.id), {
      use_default_dns: false,
      dns: ['valid-dns-host.example.com'],
      use_default_endpoint: false,
      endpoint: 'valid-endpoint.example.com',
    });
    expect(device).toMatchObject({
      use_default_dns: false,
      dns: ['valid-dns-host.example.com'],
      use_default_endpoint: false,
      endpoint: 'valid-endpoint.example.com',
    });
  });

  it('15.57 create with DNS fd00::1 and endpoint [fd00::1]:8080 → 201', async () => {
    const user = await createUser(main);
    const device = await createDevice(main, String(user.id), {
      use_default_dns: false,
      dns: ['fd00::1'],
      use_default_endpoint: false,
      endpoint: '[fd00::1]:8080',
    });
    expect(device).toMatchObject({use_default_dns: false, dns: ['fd00::1'], use_default_endpoint: false, endpoint: '[fd00::1]:8080'});
  });

  it('15.58 create with allowed_ips ["1.1.1.1","foobar"] → 422 {"errors":{"allowed_ips":["is invalid"]}}', async () => {
    const user = await createUser(main);
    const res = await main.admin.post('/v0/devices', {
      device: {user_id: user.id, public_key: publicKey(), use_default_allowed_ips: false, allowed_ips: ['1.1.1.1', 'foobar']},
    });
    expect422(res, {allowed_ips: ['is invalid']});
  });

  it('15.59 create with the ipv4 (or ipv6) of an existing device → 422 exactly "has already been taken"', async () => {
    const user = await createUser(main);
    const existing = await createDevice(main, String(user.id));
    expect422(await main.admin.post('/v0/devices', {device: {user_id: user.id, public_key: publicKey(), ipv4: existing.ipv4}}), {
      ipv4: ['has already been taken'],
    });
    expect422(await main.admin.post('/v0/devices', {device: {user_id: user.id, public_key: publicKey(), ipv6: existing.ipv6}}), {
      ipv6: ['has already been taken'],
    });
  });

  it('15.60 create with ipv4 "not-an-ip" → 422 {"errors":{"ipv4":["is invalid"]}}', async () => {
    const user = await createUser(main);
    expect422(await main.admin.post('/v0/devices', {device: {user_id: user.id, public_key: publicKey(), ipv4: 'not-an-ip'}}), {ipv4: ['is invalid']});
  });

  it('15.61 with MAX_DEVICES_PER_USER=1 and one existing device → create → 422 exactly the device-limit error', async () => {
    const limit = {base: ['Maximum device limit reached. Remove an existing device before creating a new one.']};
    // Both ways the contract offers to set the limit; the limit applies to admins too (docs/firezone-0.7.36.md, "Devices: create").
    for (const options of [{maxDevicesPerUser: 1}, {env: {MAX_DEVICES_PER_USER: '1'}}] satisfies SandboxOptions[]) {
      const ctx = await fresh(options);
      const user = await createUser(ctx);
      for (const userId of [String(user.id), ctx.adminId]) {
        await createDevice(ctx, userId);
        expect422(await ctx.admin.post('/v0/devices', {device: {user_id: userId, public_key: publicKey()}}), limit);
        expect(await devicesOf(ctx, userId)).toHaveLength(1);
      }
    }
  });

  it('15.62 with WIREGUARD_IPV6_NETWORK=fd00::/20 → the allocated ipv6 lies in fd00::/70', async () => {
    const ctx = await fresh({ipv6Network: 'fd00::/20'});
    const user = await createUser(ctx);
    for (let i = 0; i < 3; i++) {
      const device = await createDevice(ctx, String(user.id));
      const hextets = ipv6Hextets(String(device.ipv6));
      expect(hextets.slice(0, 4), String(device.ipv6)).toEqual([0xfd00, 0, 0, 0]);
      expect(hextets[4]!, String(device.ipv6)).toBeLessThan(0x0400); // bits 64..69 zero: inside the /70
    }
  });

  it('15.63 create with ipv4 "10.3.2.1" (= gateway) → 201 (0.7.36 bug, quirk 7)', async () => {
    const user = await createUser(main);
    const device = await createDevice(main, String(user.id), {ipv4: '10.3.2.1'});
    expect(device.ipv4).toBe('10.3.2.1');
  });

  it('15.64 GET /v0/devices (A) with 5 devices → 200, ids == the 5 ids, exactly the 25 keys in order', async () => {
    const ctx = await fresh();
    const user = await createUser(ctx);
    const ids: string[] = [];
    for (const userId of [String(user.id), String(user.id), ctx.seedUserId, ctx.adminId, ctx.adminId]) {
      ids.push(String((await createDevice(ctx, userId)).id));
    }
    const res = await ctx.admin.get('/v0/devices');
    const list = expectList(res);
    expect(list.map((d) => String(d.id)).sort()).toEqual(ids.sort());
    for (const device of list) expect(Object.keys(device)).toEqual(DEVICE_KEYS);
  });

  it('15.65 GET /v0/devices/<id> → 200; unknown UUID → 404; "foo" → 404', async () => {
    const user = await createUser(main);
    const device = await createDevice(main, String(user.id));
    expect(expectData(await main.admin.get(`/v0/devices/${device.id}`))).toEqual(device);
    expectNotFound(await main.admin.get(`/v0/devices/${UNKNOWN_UUID}`));
    expectNotFound(await main.admin.get('/v0/devices/foo'));
  });

  it('15.66 PUT /v0/devices/<id> name + description → 200 with both changed', async () => {
    const user = await createUser(main);
    const device = await createDevice(main, String(user.id));
    const res = await main.admin.put(`/v0/devices/${device.id}`, {device: {name: 'update-name', description: 'update-description'}});
    expect(expectData(res)).toEqual({...device, name: 'update-name', description: 'update-description', updated_at: expect.stringMatching(TS_RE)});
    expect(expectData(await main.admin.get(`/v0/devices/${device.id}`))).toMatchObject({name: 'update-name', description: 'update-description'});
  });

  it('15.67 PUT /v0/devices/<id> {"device":{"name":null}} → 422 exactly {"errors":{"name":["can\'t be blank"]}}', async () => {
    const user = await createUser(main);
    const device = await createDevice(main, String(user.id));
    expect422(await main.admin.put(`/v0/devices/${device.id}`, {device: {name: null}}), {name: ["can't be blank"]});
  });

  it('15.68 PUT /v0/devices/003da73d-… {"device":{}} → 404', async () => {
    expectNotFound(await main.admin.put(`/v0/devices/${UNKNOWN_UUID}`, {device: {}}));
  });

  it('15.69 DELETE /v0/devices/<id> → 204 empty body, no content-type; then GET → 404', async () => {
    const user = await createUser(main);
    const device = await createDevice(main, String(user.id));
    expectNoContent(await main.admin.delete(`/v0/devices/${device.id}`), null);
    expectNotFound(await main.admin.get(`/v0/devices/${device.id}`));
  });
});
