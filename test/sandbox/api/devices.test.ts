// The /v0 API over real HTTP: devices' quirks (docs/firezone-0.7.36.md, "Devices: …" through "IP
// allocation"). The sandbox these tests share, and their helpers, are in ./harness.ts.
import {describe, expect, it} from 'vitest';
import {startSandbox} from '../../../src/sandbox/index.js';
import {data, publicKey, send} from '../helpers.js';
import {sb, unprivilegedId, api, newUser, newDevice, useApiSandbox} from './harness.js';

useApiSandbox();

// See docs/firezone-0.7.36.md, "Devices: fields and effective values" through "IP allocation".
describe('devices', () => {
  it('creates with just user and key: generated name, PSK, addresses, defaults, null stats', async () => {
    const res = await api('POST', '/v0/devices', {body: {device: {user_id: unprivilegedId, public_key: publicKey()}}});
    expect(res.status).toBe(201);
    const d = data(res);
    expect(res.headers.location).toBe(`/v0/devices/${d.id}`);
    expect(Object.keys(d)).toHaveLength(25);
    expect(String(d.name).length).toBeGreaterThan(0);
    expect(String(d.name).length).toBeLessThanOrEqual(15);
    expect(d.preshared_key).toHaveLength(44);
    expect(d.ipv4).toMatch(/^10\.3\.2\.(\d+)$/);
    expect(Number(String(d.ipv4).split('.')[3])).toBeGreaterThanOrEqual(2);
    expect(d.ipv6).toMatch(/^fd00::3:2:/);
    expect(d).toMatchObject({
      allowed_ips: ['0.0.0.0/0', '::/0'],
      dns: ['1.1.1.1', '1.0.0.1'],
      mtu: 1280,
      persistent_keepalive: 25,
      latest_handshake: null,
      rx_bytes: null,
      tx_bytes: null,
      remote_ip: null,
      use_default_dns: true,
    });
    expect(d.endpoint).toBe(`${new URL(sb.url).hostname}:51820`);
    expect(d.server_public_key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  });

  it('echoes every configured value, /32 included, and drops the /32 on later reads', async () => {
    const body = {
      user_id: unprivilegedId,
      public_key: publicKey(),
      name: 'full',
      description: 'd',
      use_default_allowed_ips: false,
      allowed_ips: ['0.0.0.0/0', '::/0', '1.1.1.1/32'],
      use_default_dns: false,
      dns: ['9.9.9.8'],
      use_default_endpoint: false,
      endpoint: '9.9.9.9',
      use_default_mtu: false,
      mtu: 999,
      use_default_persistent_keepalive: false,
      persistent_keepalive: 9,
      ipv4: '10.3.2.200',
      ipv6: 'fd00::3:2:c8',
    };
    const created = data(await api('POST', '/v0/devices', {body: {device: body}}));
    expect(created).toMatchObject({...body, user_id: unprivilegedId});
    expect(data(await api('GET', `/v0/devices/${created.id}`)).allowed_ips).toEqual(['0.0.0.0/0', '::/0', '1.1.1.1']);
  });

  it('returns 404 for a missing, malformed or unknown user_id and 500 for a UUID-shaped non-hex one', async () => {
    const key = publicKey();
    expect((await api('POST', '/v0/devices', {body: {device: {public_key: key}}})).text).toBe('{"error":"not_found"}');
    expect((await api('POST', '/v0/devices', {body: {device: {user_id: 'foo', public_key: key}}})).status).toBe(404);
    expect((await api('POST', '/v0/devices', {body: {device: {user_id: crypto.randomUUID(), public_key: key}}})).status).toBe(404);
    expect((await api('POST', '/v0/devices', {body: {device: null}})).status).toBe(404);
    expect((await api('POST', '/v0/devices', {body: {device: {user_id: 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', public_key: key}}})).status).toBe(500);
    expect((await api('POST', '/v0/devices', {body: {device: 'x'}})).status).toBe(500);
  });

  it('validates with 0.7.36 messages and order', async () => {
    const user = String((await newUser()).id);
    const cases: Array<[Record<string, unknown>, unknown]> = [
      [{public_key: undefined}, {public_key: ["can't be blank"]}],
      [{public_key: 'abc'}, {public_key: ['should be 44 character(s)', 'must be a base64-encoded string']}],
      [{name: '   '}, {name: ['should be at least 1 character(s)']}],
      [{name: 'n'.repeat(256)}, {name: ['should be at most 255 character(s)']}],
      [{description: 'd'.repeat(2049)}, {description: ['should be at most 2048 character(s)']}],
      [{use_default_endpoint: false}, {endpoint: ["can't be blank"]}],
      [{use_default_mtu: false, mtu: 100}, {mtu: ['must be greater than or equal to 576']}],
      [{use_default_mtu: false, mtu: 1501}, {mtu: ['must be less than or equal to 1500']}],
      [{mtu: 100}, {mtu: ['must not be present', 'must be greater than or equal to 576']}],
      [{dns: ['1.1.1.1', '1.1.1.1']}, {dns: ['must not be present', 'should not contain duplicates']}],
      [{use_default_persistent_keepalive: false, persistent_keepalive: 121}, {persistent_keepalive: ['must be less than or equal to 120']}],
      [{use_default_allowed_ips: false, allowed_ips: ['1.1.1.1', 'foobar']}, {allowed_ips: ['is invalid']}],
      [{use_default_allowed_ips: false, allowed_ips: '1.1.1.1'}, {allowed_ips: ['is invalid']}],
      [{use_default_dns: false, dns: ['1.1.1.1:53']}, {dns: ['setting port is not allowed', 'must be one of: Elixir.FzHttp.Types.IP, string']}],
      [{use_default_endpoint: false, endpoint: '!!!'}, {endpoint: ['!!! is not a valid FQDN', 'must be one of: Elixir.FzHttp.Types.IPPort, string']}],
      [{ipv4: 'not-an-ip'}, {ipv4: ['is invalid']}],
      [{ipv4: '10.4.0.1'}, {ipv4: ['is not in the CIDR 10.3.2.0/24']}],
      [{ipv6: 'fd00::1:1'}, {ipv6: ['is not in the CIDR fd00::3:2:0/120']}],
      [{use_default_dns: 'maybe'}, {use_default_dns: ['is invalid']}],
    ];
    for (const [extra, errors] of cases) {
      const device = {user_id: user, public_key: publicKey(), ...extra};
      const res = await api('POST', '/v0/devices', {body: {device}});
      expect([res.status, res.json], JSON.stringify(extra)).toEqual([422, {errors}]);
    }
  });

  it('rejects a float for an integer field (the JSON text 1400.0)', async () => {
    const raw = `{"device":{"user_id":"${unprivilegedId}","public_key":"${publicKey()}","use_default_mtu":false,"mtu":1400.0}}`;
    const res = await api('POST', '/v0/devices', {raw, headers: {'content-type': 'application/json'}});
    expect(res.json).toEqual({errors: {mtu: ['is invalid']}});
  });

  it('accepts FQDN and IPv6 endpoints/DNS, lenient IPs, string booleans and "" as the default', async () => {
    const user = String((await newUser()).id);
    await newDevice(user, {use_default_dns: false, dns: ['valid-dns-host.example.com'], use_default_endpoint: false, endpoint: 'valid-endpoint.example.com'});
    await newDevice(user, {use_default_dns: false, dns: [' fd00::1 ', ''], use_default_endpoint: false, endpoint: '[fd00::1]:8080'});
    const lenient = await newDevice(user, {ipv4: '10.3.2.010', use_default_mtu: 'false', mtu: '1400', use_default_dns: ''});
    expect(lenient).toMatchObject({ipv4: '10.3.2.8', use_default_mtu: false, mtu: 1400, use_default_dns: true});
  });

  it('crashes on a family-mismatched address and a null use_default flag', async () => {
    expect((await api('POST', '/v0/devices', {body: {device: {user_id: unprivilegedId, public_key: publicKey(), ipv4: 'fd00::3:2:9'}}})).status).toBe(500);
    expect((await api('POST', '/v0/devices', {body: {device: {user_id: unprivilegedId, public_key: publicKey(), use_default_mtu: null}}})).status).toBe(500);
  });

  // See docs/firezone-0.7.36.md, "Quirk index" item 7.
  it('lets a device take the gateway address, not a used one', async () => {
    const user = String((await newUser()).id);
    const gw = await newDevice(user, {ipv4: '10.3.2.1'});
    expect(gw.ipv4).toBe('10.3.2.1');
    const dup = await api('POST', '/v0/devices', {body: {device: {user_id: user, public_key: publicKey(), ipv4: '10.3.2.1'}}});
    expect(dup.json).toEqual({errors: {ipv4: ['has already been taken']}});
    const key = publicKey();
    await newDevice(user, {public_key: key});
    expect((await api('POST', '/v0/devices', {body: {device: {user_id: user, public_key: key}}})).json).toEqual({
      errors: {public_key: ['has already been taken']},
    });
  });

  it('reports a duplicate name under user_id', async () => {
    const user = String((await newUser()).id);
    await newDevice(user, {name: 'phone'});
    const res = await api('POST', '/v0/devices', {body: {device: {user_id: user, public_key: publicKey(), name: ' phone '}}});
    expect(res.json).toEqual({errors: {user_id: ['has already been taken']}});
  });

  it('applies only name and description on update', async () => {
    const user = String((await newUser()).id);
    const device = await newDevice(user, {name: 'before'});
    const res = await api('PUT', `/v0/devices/${device.id}`, {
      body: {device: {name: 'update-name', description: 'update-description', mtu: 1000, use_default_mtu: false, ipv4: '10.3.2.250', public_key: publicKey()}},
    });
    expect(data(res)).toMatchObject({
      name: 'update-name',
      description: 'update-description',
      mtu: 1280,
      use_default_mtu: true,
      ipv4: device.ipv4,
      public_key: device.public_key,
    });
    expect((await api('PUT', `/v0/devices/${device.id}`, {body: {device: {name: null}}})).json).toEqual({errors: {name: ["can't be blank"]}});
    expect((await api('PUT', '/v0/devices/003da73d-2dd9-4492-8136-3282843545e8', {body: {device: {}}})).status).toBe(404);
    expect((await api('GET', '/v0/devices/foo')).status).toBe(404);
    const del = await api('DELETE', `/v0/devices/${device.id}`);
    expect([del.status, del.text, del.headers['content-type']]).toEqual([204, '', undefined]);
  });

  it('limits devices per user (admins too)', async () => {
    const limited = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0, env: {MAX_DEVICES_PER_USER: '1'}});
    try {
      const users = data<Array<{id: string; email: string}>>(await send(limited.url, 'GET', '/v0/users', {token: limited.adminToken}));
      const adminUser = users.find((u) => u.email === 'admin@sandbox.test')!;
      const body = () => ({device: {user_id: adminUser.id, public_key: publicKey()}});
      expect((await send(limited.url, 'POST', '/v0/devices', {token: limited.adminToken, body: body()})).status).toBe(201);
      const res = await send(limited.url, 'POST', '/v0/devices', {token: limited.adminToken, body: body()});
      expect(res.json).toEqual({errors: {base: ['Maximum device limit reached. Remove an existing device before creating a new one.']}});
    } finally {
      await limited.close();
    }
  });

  it('reports an exhausted network under base and ipv4', async () => {
    const tiny = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0, ipv4Network: '10.7.0.0/30'});
    try {
      const users = data<Array<{id: string}>>(await send(tiny.url, 'GET', '/v0/users', {token: tiny.adminToken}));
      const make = () => send(tiny.url, 'POST', '/v0/devices', {token: tiny.adminToken, body: {device: {user_id: users[0]!.id, public_key: publicKey()}}});
      expect(data(await make()).ipv4).toBe('10.7.0.2');
      expect((await make()).json).toEqual({errors: {base: ['CIDR 10.7.0.0/30 is exhausted'], ipv4: ["can't be blank"]}});
    } finally {
      await tiny.close();
    }
  });

  it('allocates IPv6 inside /70 when the network is wider', async () => {
    const wide = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0, env: {WIREGUARD_IPV6_NETWORK: 'fd00::/20'}});
    try {
      const users = data<Array<{id: string}>>(await send(wide.url, 'GET', '/v0/users', {token: wide.adminToken}));
      const d = data(await send(wide.url, 'POST', '/v0/devices', {token: wide.adminToken, body: {device: {user_id: users[0]!.id, public_key: publicKey()}}}));
      expect(String(d.ipv6)).toMatch(/^fd00::/);
      const bad = await send(wide.url, 'POST', '/v0/devices', {
        token: wide.adminToken,
        body: {device: {user_id: users[0]!.id, public_key: publicKey(), ipv6: 'fd00:0:0:1::5'}},
      });
      expect(bad.json).toEqual({errors: {ipv6: ['is not in the CIDR fd00::/70']}});
    } finally {
      await wide.close();
    }
  });

  it('renders effective defaults: env > DB > built-in, changing with the configuration', async () => {
    const envd = await startSandbox({
      port: 0,
      seed: 'empty',
      statsIntervalSeconds: 0,
      env: {DEFAULT_CLIENT_MTU: '1400', DEFAULT_CLIENT_DNS: '10.0.0.53, 010.0.0.54'},
    });
    try {
      const users = data<Array<{id: string}>>(await send(envd.url, 'GET', '/v0/users', {token: envd.adminToken}));
      const d = data(await send(envd.url, 'POST', '/v0/devices', {token: envd.adminToken, body: {device: {user_id: users[0]!.id, public_key: publicKey()}}}));
      expect(d).toMatchObject({mtu: 1400, dns: ['10.0.0.53', '8.0.0.54']});
      // the configuration shows the raw DB value; null there falls back to the built-in default
      const cfg = data(await send(envd.url, 'GET', '/v0/configuration', {token: envd.adminToken}));
      expect(cfg.default_client_mtu).toBe(1280);
      await send(envd.url, 'PUT', '/v0/configuration', {token: envd.adminToken, body: {configuration: {default_client_persistent_keepalive: null}}});
      expect(data(await send(envd.url, 'GET', `/v0/devices/${d.id}`, {token: envd.adminToken})).persistent_keepalive).toBe(25);
    } finally {
      await envd.close();
    }
  });
});
