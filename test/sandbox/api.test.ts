// The /v0 API over real HTTP: protocol layer, auth, permissions and each resource's 0.7.36 quirks.
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSandbox, signJwt, type SandboxHandle} from '../../src/sandbox/index.js';
import {data, publicKey, send, type RawRequest} from './helpers.js';

const SECRET = 'sandbox-api-test-secret';
let sb: SandboxHandle;
let adminId: string;
let unprivilegedId: string;

const api = (method: string, path: string, options: RawRequest = {}) => send(sb.url, method, path, {token: sb.adminToken, ...options});

async function newUser(role: 'admin' | 'unprivileged' = 'unprivileged'): Promise<Record<string, unknown>> {
  const res = await api('POST', '/v0/users', {body: {user: {email: `u-${Math.random().toString(36).slice(2)}@example.com`, role}}});
  expect(res.status).toBe(201);
  return data(res);
}

async function newDevice(userId: string, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const res = await api('POST', '/v0/devices', {body: {device: {user_id: userId, public_key: publicKey(), ...extra}}});
  expect(res.status, res.text).toBe(201);
  return data(res);
}

beforeAll(async () => {
  sb = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0, jwtSecret: SECRET});
  const users = data<Array<{id: string; email: string}>>(await api('GET', '/v0/users'));
  adminId = users.find((u) => u.email === 'admin@sandbox.test')!.id;
  unprivilegedId = users.find((u) => u.email === 'user@sandbox.test')!.id;
});

afterAll(async () => {
  await sb.close();
});

// See docs/firezone-0.7.36.md, "Routes" through "Empty-body 500s".
describe('protocol', () => {
  it('frames data, sorts keys, sends the Plug headers', async () => {
    const res = await api('GET', '/v0/users');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('max-age=0, private, must-revalidate');
    expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(res.text.startsWith('{"data":[{"disabled_at":')).toBe(true);
    expect(Object.keys(data<object[]>(res)[0]!)).toEqual([
      'disabled_at',
      'email',
      'id',
      'inserted_at',
      'last_signed_in_at',
      'last_signed_in_method',
      'role',
      'updated_at',
    ]);
  });

  it('renders timestamps with six fractional digits and Z, ids as lowercase UUIDs', async () => {
    const user = data(await api('GET', '/v0/users/admin@sandbox.test'));
    expect(user.inserted_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(user.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('reuses a valid incoming x-request-id', async () => {
    const res = await api('GET', '/v0/users', {headers: {'x-request-id': 'my-request-id-0123456789'}});
    expect(res.headers['x-request-id']).toBe('my-request-id-0123456789');
  });

  it('answers the double fault with a bare empty 500', async () => {
    for (const res of [
      await api('POST', '/v0/users', {raw: '{"user":', headers: {'content-type': 'application/json'}}),
      await api('POST', '/v0/users', {body: {email: 'a@b'}}),
      await api('POST', '/v0/users', {raw: '[1,2]', headers: {'content-type': 'application/json'}}),
      await api('GET', '/v0/users', {headers: {accept: 'text/html'}}),
      await send(sb.url, 'GET', '/v0/users', {headers: {accept: 'text/html'}}),
      await api('GET', '/v0/users/zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz'),
      await api('GET', '/v0/nothing', {headers: {accept: '*/*'}}),
      await api('GET', '/v0/nothing', {headers: {accept: ''}}),
      await api('GET', '/v0/users/%zz'),
    ]) {
      expect(res.status).toBe(500);
      expect(res.text).toBe('');
      expect(res.headers['content-length']).toBe('0');
      expect(res.headers['x-request-id']).toBeUndefined();
      expect(res.headers['content-type']).toBeUndefined();
    }
  });

  it('renders unknown routes as 404 json only when Accept selects json', async () => {
    for (const [method, path] of [
      ['DELETE', '/v0/configuration'],
      ['POST', '/v0/configuration'],
      ['PUT', '/v0/users'],
      ['OPTIONS', '/v0/users'],
      ['GET', '/v1/users'],
    ]) {
      const res = await send(sb.url, method!, path!, {headers: {accept: 'application/json'}});
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.text).toBe('{"error":"not_found"}');
    }
  });

  it('ignores trailing and repeated slashes and percent-decodes path ids', async () => {
    expect((await api('GET', '/v0//users/')).status).toBe(200);
    expect(data(await api('GET', '/v0/users/admin%40sandbox.test')).id).toBe(adminId);
  });

  it('accepts Accept lists and wildcards that include json, and ?_format=json', async () => {
    for (const accept of [
      '*/*',
      'application/*',
      'text/html, application/json',
      'text/html;q=0.5, application/json;q=0.9',
      'application/vnd.api+json, application/json',
    ]) {
      expect((await api('GET', '/v0/users', {headers: {accept}})).status, accept).toBe(200);
    }
    expect((await api('GET', '/v0/users?_format=json', {headers: {accept: 'text/html'}})).status).toBe(200);
    expect((await api('GET', '/v0/users?_format=html')).status).toBe(500);
  });

  it('serves HEAD as GET without a body', async () => {
    const head = await api('HEAD', '/v0/users');
    const get = await api('GET', '/v0/users');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));
  });

  it('takes form bodies and query-string wrappers, merged with the body', async () => {
    const form = await api('POST', '/v0/rules', {
      raw: 'rule[destination]=10.20.0.0/16&rule[action]=accept',
      headers: {'content-type': 'application/x-www-form-urlencoded'},
    });
    expect(form.status).toBe(201);
    expect(data(form)).toMatchObject({destination: '10.20.0.0/16', action: 'accept'});
    const query = await api('POST', '/v0/rules?rule[destination]=10.21.0.0/16', {});
    expect(query.status).toBe(201);
    // a JSON body that is not an object is "_json"; the wrapper can still come from the query
    const mixed = await api('POST', '/v0/rules?rule[destination]=10.22.0.0/16', {raw: '[1]', headers: {'content-type': 'application/json'}});
    expect(mixed.status).toBe(201);
  });

  it('takes multipart form bodies', async () => {
    const boundary = 'XyZ';
    const raw = `--${boundary}\r\nContent-Disposition: form-data; name="rule[destination]"\r\n\r\n10.23.0.0/16\r\n--${boundary}--\r\n`;
    const res = await api('POST', '/v0/rules', {raw, headers: {'content-type': `multipart/form-data; boundary=${boundary}`}});
    expect(res.status).toBe(201);
  });

  it('ignores a JSON body sent without a JSON content type (so the wrapper is missing)', async () => {
    const res = await api('POST', '/v0/rules', {raw: '{"rule":{"destination":"10.24.0.0/16"}}', headers: {'content-type': 'text/plain'}});
    expect(res.status).toBe(500);
  });

  it('rewrites POST with a body _method', async () => {
    const rule = data(await api('POST', '/v0/rules', {body: {rule: {destination: '10.25.0.0/16'}}}));
    const res = await api('POST', `/v0/rules/${rule.id}`, {body: {_method: 'delete'}});
    expect(res.status).toBe(204);
    expect((await api('GET', `/v0/rules/${rule.id}`)).status).toBe(404);
  });

  it('refuses bodies over 8,000,000 bytes with the empty 500', async () => {
    const raw = `{"user":{"email":"${'a'.repeat(8_000_001)}"}}`;
    const res = await api('POST', '/v0/users', {raw, headers: {'content-type': 'application/json'}}).catch(() => null);
    // the connection may be closed while the body is still being sent; if a response arrives it is the empty 500
    if (res) {
      expect(res.status).toBe(500);
      expect(res.text).toBe('');
    }
  });

  it('lives under the EXTERNAL_URL path prefix, redirecting requests without it', async () => {
    const prefixed = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0, env: {EXTERNAL_URL: 'https://vpn.example.com/vpn/'}});
    try {
      const redirect = await send(prefixed.url, 'GET', '/v0/users?x=1', {token: prefixed.adminToken});
      expect([redirect.status, redirect.headers.location]).toEqual([302, '/vpn/v0/users?x=1']);
      const created = await send(prefixed.url, 'POST', '/vpn/v0/rules', {token: prefixed.adminToken, body: {rule: {destination: '10.0.0.0/8'}}});
      expect(created.headers.location).toBe(`/vpn/v0/rules/${data(created).id}`);
      const device = data(
        await send(prefixed.url, 'POST', '/vpn/v0/devices', {
          token: prefixed.adminToken,
          body: {
            device: {
              user_id: data<Array<{id: string}>>(await send(prefixed.url, 'GET', '/vpn/v0/users', {token: prefixed.adminToken}))[0]!.id,
              public_key: publicKey(),
            },
          },
        }),
      );
      expect(device.endpoint).toBe('vpn.example.com:51820');
    } finally {
      await prefixed.close();
    }
  });

  it('treats PATCH exactly like PUT', async () => {
    const res = await api('PATCH', '/v0/configuration', {body: {configuration: {default_client_mtu: 1300}}});
    expect(data(res).default_client_mtu).toBe(1300);
    await api('PUT', '/v0/configuration', {body: {configuration: {default_client_mtu: 1280}}});
  });
});

// See docs/firezone-0.7.36.md, "Authentication and the three 401 shapes".
describe('authentication', () => {
  it('has the three Guardian 401 types', async () => {
    const none = await send(sb.url, 'GET', '/v0/users');
    expect([none.status, none.text]).toEqual([401, '{"errors":{"auth":"unauthenticated"}}']);
    expect(none.headers['content-type']).toBe('application/json; charset=utf-8');
    const forged = signJwt('another-secret', {api: crypto.randomUUID(), exp: Math.floor(Date.now() / 1000) + 3600});
    expect((await send(sb.url, 'GET', '/v0/users', {token: forged})).text).toBe('{"errors":{"auth":"invalid_token"}}');
    const expired = signJwt(SECRET, {api: crypto.randomUUID(), exp: Math.floor(Date.now() / 1000) - 10});
    expect((await send(sb.url, 'GET', '/v0/users', {token: expired})).text).toBe('{"errors":{"auth":"invalid_token"}}');
    const unknownRow = signJwt(SECRET, {api: crypto.randomUUID(), exp: Math.floor(Date.now() / 1000) + 3600});
    expect((await send(sb.url, 'GET', '/v0/users', {token: unknownRow})).text).toBe('{"errors":{"auth":"no_resource_found"}}');
  });

  it('crashes (empty 500) on a signed token without an api claim and on three undecodable parts; a token without dots is 401 invalid_token', async () => {
    const session = signJwt(SECRET, {sub: adminId, exp: Math.floor(Date.now() / 1000) + 3600});
    expect((await send(sb.url, 'GET', '/v0/users', {token: session})).status).toBe(500);
    expect((await send(sb.url, 'GET', '/v0/users', {token: '!!!.e30.sig'})).status).toBe(500);
    const garbage = await send(sb.url, 'GET', '/v0/users', {token: 'garbage'});
    expect(garbage.status).toBe(401);
    expect(garbage.json).toEqual({errors: {auth: 'invalid_token'}});
  });

  it('answers a bad token on a request with a body at once, without reading the body (up to 8 MB each)', async () => {
    const {request} = await import('node:http');
    const answer = await new Promise<{status: number; body: string}>((resolve, reject) => {
      const req = request(
        `${sb.url}/v0/users`,
        {method: 'POST', headers: {authorization: 'Bearer garbage', 'content-type': 'application/json', 'content-length': String(7_900_000)}},
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (body += d));
          res.on('end', () => resolve({status: res.statusCode ?? 0, body}));
        },
      );
      req.on('error', (e) => (String(e).includes('ECONNRESET') ? undefined : reject(e)));
      // 1 KB of the announced 7.9 MB, and no more: the answer must not wait for the rest.
      req.write('{"user":{"email":"' + 'x'.repeat(1000));
    });
    expect(answer).toEqual({status: 401, body: '{"errors":{"auth":"invalid_token"}}'});
  });

  it('accepts the bearer scheme case-insensitively, with a colon, unanchored', async () => {
    for (const authorization of [`BEARER ${sb.adminToken}`, `bearer: ${sb.adminToken}`, `xxBearer ${sb.adminToken}`]) {
      expect((await send(sb.url, 'GET', '/v0/users', {headers: {authorization}})).status).toBe(200);
    }
  });

  it('checks Accept before authentication', async () => {
    expect((await send(sb.url, 'GET', '/v0/users', {headers: {accept: 'application/xml'}})).status).toBe(500);
  });
});

// See docs/firezone-0.7.36.md, "Roles and permissions".
describe('permissions', () => {
  const asUser = (method: string, path: string, options: RawRequest = {}) => send(sb.url, method, path, {token: sb.unprivilegedToken, ...options});

  it('refuses admin routes with 401 {"error":"Unauthorized"} before looking at the id', async () => {
    for (const [method, path] of [
      ['GET', '/v0/users'],
      ['GET', `/v0/users/${unprivilegedId}`],
      ['GET', '/v0/users/zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz'],
      ['GET', '/v0/rules'],
      ['GET', '/v0/configuration'],
    ]) {
      const res = await asUser(method!, path!);
      expect([res.status, res.text], path).toEqual([401, '{"error":"Unauthorized"}']);
    }
    expect((await asUser('POST', '/v0/devices', {body: {device: {user_id: unprivilegedId, public_key: publicKey()}}})).text).toBe('{"error":"Unauthorized"}');
  });

  it('lets an unprivileged user see and manage only their own devices', async () => {
    const own = await newDevice(unprivilegedId);
    const other = await newDevice(adminId);
    const list = data<Array<{id: string}>>(await asUser('GET', '/v0/devices'));
    expect(list.map((d) => d.id)).toContain(own.id);
    expect(list.map((d) => d.id)).not.toContain(other.id);
    expect((await asUser('GET', `/v0/devices/${other.id}`)).text).toBe('{"error":"not_found"}');
    expect((await asUser('DELETE', `/v0/devices/${other.id}`)).status).toBe(404);
    const renamed = await asUser('PUT', `/v0/devices/${own.id}`, {body: {device: {name: 'x'}}});
    expect(data(renamed).name).toBe('x');
  });

  it('honours ALLOW_UNPRIVILEGED_DEVICE_MANAGEMENT from the simulated environment', async () => {
    const other = await startSandbox({port: 0, seed: 'demo', statsIntervalSeconds: 0, env: {ALLOW_UNPRIVILEGED_DEVICE_MANAGEMENT: 'false'}});
    try {
      const own = data<Array<{id: string}>>(await send(other.url, 'GET', '/v0/devices', {token: other.unprivilegedToken}));
      expect(own.length).toBeGreaterThan(0);
      const res = await send(other.url, 'PUT', `/v0/devices/${own[0]!.id}`, {token: other.unprivilegedToken, body: {device: {name: 'y'}}});
      expect([res.status, res.text]).toEqual([401, '{"error":"Unauthorized"}']);
    } finally {
      await other.close();
    }
  });

  it('recomputes permissions from the current role; disabled users keep working tokens', async () => {
    const admin2 = await newUser('admin');
    const minted = await send(sb.url, 'POST', '/_sandbox/tokens', {token: sb.adminToken, body: {user_id: admin2.id}});
    const token = (minted.json as {token: string}).token;
    await send(sb.url, 'PUT', `/_sandbox/users/${admin2.id}`, {token: sb.adminToken, body: {disabled_at: new Date().toISOString()}});
    expect((await send(sb.url, 'GET', '/v0/users', {token})).status).toBe(200);
    await api('PUT', `/v0/users/${admin2.id}`, {body: {user: {role: 'unprivileged'}}});
    expect((await send(sb.url, 'GET', '/v0/users', {token})).text).toBe('{"error":"Unauthorized"}');
    expect((await send(sb.url, 'GET', '/v0/devices', {token})).status).toBe(200);
  });
});

// See docs/firezone-0.7.36.md, "Users: lookup by id or email" and "Users: create, update, delete".
describe('users', () => {
  it('creates an admin only for exactly "admin"', async () => {
    for (const [role, expected] of [
      ['admin', 'admin'],
      ['Admin', 'unprivileged'],
      ['foo', 'unprivileged'],
      [null, 'unprivileged'],
    ] as const) {
      const res = await api('POST', '/v0/users', {body: {user: {email: `r-${Math.random()}@x`, role}}});
      expect(data(res).role).toBe(expected);
      expect(res.headers.location).toBe(`/v0/users/${data(res).id}`);
    }
  });

  it('validates like the 0.7.36 changeset', async () => {
    const cases: Array<[unknown, unknown]> = [
      [
        {email: 'test@test.com', password: 'test1234'},
        {password: ['should be at least 12 character(s)'], password_confirmation: ["can't be blank"]},
      ],
      [{email: 'x1@y', password: 'a'.repeat(65), password_confirmation: 'a'.repeat(65)}, {password: ['should be at most 64 character(s)']}],
      [{email: 'x2@y', password: 'correct horse battery', password_confirmation: 'other'}, {password_confirmation: ['does not match confirmation']}],
      [{email: 'not-an-email'}, {email: ['is invalid email address']}],
      [{}, {email: ["can't be blank"]}],
      [{email: '   '}, {email: ["can't be blank"]}],
      [{email: 123}, {email: ['is invalid']}],
      [{email: 'admin@SANDBOX.test'}, {email: ['has already been taken']}],
    ];
    for (const [user, errors] of cases) {
      const res = await api('POST', '/v0/users', {body: {user}});
      expect([res.status, res.json], JSON.stringify(user)).toEqual([422, {errors}]);
    }
  });

  it('trims emails and finds users by email case-insensitively', async () => {
    const created = data(await api('POST', '/v0/users', {body: {user: {email: '  spaced@x  '}}}));
    expect(created.email).toBe('spaced@x');
    expect(data(await api('GET', '/v0/users/SPACED@X')).id).toBe(created.id);
    expect((await api('GET', '/v0/users/nobody@example.com')).text).toBe('{"error":"not_found"}');
    expect((await api('GET', '/v0/users/003da73d-2dd9-4492-8136-3282843545e8')).status).toBe(404);
    expect(data(await api('GET', `/v0/users/${String(created.id).toUpperCase()}`)).id).toBe(created.id);
  });

  it('updates role, email and password; {"user":{}} is a no-op', async () => {
    const user = await newUser();
    const noop = await api('PUT', `/v0/users/${user.email}`, {body: {user: {}}});
    expect(data(noop).updated_at).toBe(user.updated_at);
    expect(data(await api('PUT', `/v0/users/${user.id}`, {body: {user: {role: 'admin'}}})).role).toBe('admin');
    expect((await api('PUT', `/v0/users/${user.id}`, {body: {user: {role: 'Admin'}}})).json).toEqual({errors: {role: ['is invalid']}});
    expect((await api('PUT', `/v0/users/${user.id}`, {body: {user: {role: ''}}})).json).toEqual({errors: {role: ["can't be blank"]}});
    expect((await api('PUT', `/v0/users/${user.id}`, {body: {user: {email: null}}})).json).toEqual({errors: {email: ["can't be blank"]}});
    const pw = await api('PUT', `/v0/users/${user.id}`, {body: {user: {password: 'update-password', password_confirmation: 'update-password'}}});
    expect(pw.status).toBe(200);
    expect(data(pw).updated_at).not.toBe(user.updated_at);
  });

  it('refuses to change your own role, but setting it to its current value is fine', async () => {
    expect((await api('PUT', `/v0/users/${adminId}`, {body: {user: {role: 'unprivileged'}}})).json).toEqual({
      errors: {role: ['You cannot change your own role']},
    });
    expect((await api('PUT', `/v0/users/${adminId}`, {body: {user: {role: 'admin'}}})).status).toBe(200);
  });

  it('deletes with cascades and a JSON content type on the 204', async () => {
    const user = await newUser();
    const device = await newDevice(String(user.id));
    const rule = data(await api('POST', '/v0/rules', {body: {rule: {destination: '10.99.0.0/16', user_id: user.id}}}));
    const res = await api('DELETE', `/v0/users/${user.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((await api('GET', `/v0/devices/${device.id}`)).status).toBe(404);
    expect((await api('GET', `/v0/rules/${rule.id}`)).status).toBe(404);
  });

  it('cannot delete the last admin (empty 500), can once another admin exists', async () => {
    const solo = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0});
    try {
      const res = await send(solo.url, 'DELETE', '/v0/users/admin@sandbox.test', {token: solo.adminToken});
      expect([res.status, res.text]).toEqual([500, '']);
      expect((await send(solo.url, 'GET', '/v0/users/admin@sandbox.test', {token: solo.adminToken})).status).toBe(200);
      await send(solo.url, 'POST', '/v0/users', {token: solo.adminToken, body: {user: {email: 'second@x', role: 'admin'}}});
      expect((await send(solo.url, 'DELETE', '/v0/users/admin@sandbox.test', {token: solo.adminToken})).status).toBe(204);
      // the caller's own tokens went with the user
      expect((await send(solo.url, 'GET', '/v0/users', {token: solo.adminToken})).text).toBe('{"errors":{"auth":"no_resource_found"}}');
    } finally {
      await solo.close();
    }
  });
});

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

// See docs/firezone-0.7.36.md, "Rules: fields and port ranges" through "Rules and nftables precedence".
describe('rules', () => {
  it('creates with defaults and echoes values', async () => {
    const res = await api('POST', '/v0/rules', {body: {rule: {destination: '10.10.10.0/24'}}});
    expect(res.status).toBe(201);
    expect(data(res)).toMatchObject({action: 'drop', port_range: null, port_type: null, user_id: null, destination: '10.10.10.0/24'});
    expect(Object.keys(data(res))).toEqual(['action', 'destination', 'id', 'inserted_at', 'port_range', 'port_type', 'updated_at', 'user_id']);
    const full = data(
      await api('POST', '/v0/rules', {body: {rule: {destination: '1.1.1.1/24', action: 'accept', port_type: 'udp', port_range: '1 - 2', user_id: adminId}}}),
    );
    expect(full).toMatchObject({destination: '1.1.1.1/24', action: 'accept', port_type: 'udp', port_range: '1 - 2', user_id: adminId});
  });

  it('validates with 0.7.36 messages', async () => {
    const cases: Array<[unknown, unknown]> = [
      [{action: 'invalid'}, {action: ['is invalid'], destination: ["can't be blank"]}],
      [{destination: '10.30.0.0/24', port_range: '10-20'}, {port_type: ["can't be blank"]}],
      [{destination: '10.30.0.0/24', port_type: 'tcp'}, {port_range: ["can't be blank"]}],
      [{destination: '10.30.0.0/24', port_type: 'tcp', port_range: '20-10'}, {port_range: ['lower value cannot be higher than upper value']}],
      [{destination: '10.30.0.0/24', port_type: 'tcp', port_range: 'abc'}, {port_range: ['bad format']}],
      [{destination: '10.30.0.0/24', port_type: 'sctp', port_range: '80'}, {port_type: ['is invalid']}],
      [{destination: '10.30.0.0/24', port_type: 'tcp', port_range: '1-65535'}, {port_range: ['port is not within valid range']}],
      [{destination: '256.0.0.1'}, {destination: ['is invalid']}],
      [{destination: '10.0 0.0/24'}, {destination: ['is invalid']}],
      [{destination: '10.30.0.0/24', user_id: crypto.randomUUID()}, {user: ['does not exist']}],
    ];
    for (const [rule, errors] of cases) {
      const res = await api('POST', '/v0/rules', {body: {rule}});
      expect([res.status, res.json], JSON.stringify(rule)).toEqual([422, {errors}]);
    }
  });

  it('crashes on a numeric port_range, an out-of-range prefix and a non-UUID user_id', async () => {
    for (const rule of [
      {destination: '10.31.0.0/24', port_type: 'tcp', port_range: 80},
      {destination: '10.0.0.0/33'},
      {destination: '10.31.0.0/24', user_id: 'not-a-uuid'},
    ]) {
      const res = await api('POST', '/v0/rules', {body: {rule}});
      expect([res.status, res.text], JSON.stringify(rule)).toEqual([500, '']);
    }
  });

  it('normalises port ranges leniently', async () => {
    const range = async (port_range: unknown, destination: string) =>
      data(await api('POST', '/v0/rules', {body: {rule: {destination, port_type: 'tcp', port_range}}})).port_range;
    expect(await range('80', '10.40.0.1')).toBe('80');
    expect(await range('100-200', '10.40.0.2')).toBe('100 - 200');
    expect(await range('-80', '10.40.0.3')).toBe('80');
    expect(await range('80abc', '10.40.0.4')).toBe('80');
    expect(await range([1000, 1001], '10.40.0.5')).toBe('1000 - 1001');
  });

  it('excludes overlaps only within a partition (same action, same scope, ports)', async () => {
    const user = String((await newUser()).id);
    const post = (rule: Record<string, unknown>) => api('POST', '/v0/rules', {body: {rule}});
    expect((await post({destination: '10.50.10.1/24', action: 'drop'})).status).toBe(201);
    expect((await post({destination: '10.50.10.200/24', action: 'drop'})).json).toEqual({
      errors: {destination: ['destination overlaps with an existing rule']},
    });
    expect((await post({destination: '10.50.10.1/24', action: 'accept'})).status).toBe(201);
    expect((await post({destination: '10.50.10.1/24', action: 'drop', user_id: user})).status).toBe(201);
    expect((await post({destination: '10.50.10.1/24', action: 'drop', port_type: 'tcp', port_range: '80'})).status).toBe(201);
    expect((await post({destination: '10.50.10.0/24', action: 'drop', port_type: 'tcp', port_range: '70-90'})).status).toBe(422);
    expect((await post({destination: '10.50.10.0/24', action: 'drop', port_type: 'udp', port_range: '70-90'})).status).toBe(201);
    expect((await post({destination: '10.50.10.0/24', action: 'drop', port_type: 'tcp', port_range: '81-90'})).status).toBe(201);
    // Ranges that only share an end port still overlap (the constraint's int4range is inclusive).
    for (const port_range of ['80-85', '75-80', '80', '90-95', '60-81']) {
      expect((await post({destination: '10.50.10.0/24', action: 'drop', port_type: 'tcp', port_range})).status, port_range).toBe(422);
    }
    expect((await post({destination: '10.50.10.0/24', action: 'drop', port_type: 'tcp', port_range: '91-95'})).status).toBe(201);
  });

  it('echoes /32 and the given user_id on write, normalises on read', async () => {
    const created = await api('POST', '/v0/rules', {body: {rule: {destination: '10.60.0.1/32', user_id: adminId.toUpperCase()}}});
    expect(data(created)).toMatchObject({destination: '10.60.0.1/32', user_id: adminId.toUpperCase()});
    expect(data(await api('GET', `/v0/rules/${data(created).id}`))).toMatchObject({destination: '10.60.0.1', user_id: adminId});
  });

  it('updates any cast field; invalid and blank updates are refused', async () => {
    const rule = data(await api('POST', '/v0/rules', {body: {rule: {destination: '10.61.0.0/24'}}}));
    expect((await api('PUT', `/v0/rules/${rule.id}`, {body: {rule: {action: 'invalid'}}})).json).toEqual({errors: {action: ['is invalid']}});
    expect((await api('PUT', `/v0/rules/${rule.id}`, {body: {rule: {action: null, destination: null}}})).json).toEqual({
      errors: {action: ["can't be blank"], destination: ["can't be blank"]},
    });
    const updated = data(await api('PUT', `/v0/rules/${rule.id}`, {body: {rule: {action: 'accept', port_type: 'udp', port_range: '1-2', user_id: adminId}}}));
    expect(updated).toMatchObject({action: 'accept', port_type: 'udp', port_range: '1 - 2', user_id: adminId});
    expect(data(await api('PUT', `/v0/rules/${rule.id}`, {body: {rule: {action: ''}}})).action).toBe('drop');
    expect((await api('GET', '/v0/rules/003da73d-2dd9-4492-8136-3282843545e8')).status).toBe(404);
    expect((await api('DELETE', `/v0/rules/${rule.id}`)).headers['content-type']).toBeUndefined();
  });
});

// See docs/firezone-0.7.36.md, "Configuration: raw values" through "Environment overrides".
describe('configuration', () => {
  it('shows the fresh-install row with 16 sorted keys', async () => {
    const cfg = data(await api('GET', '/v0/configuration'));
    expect(Object.keys(cfg)).toEqual([
      'allow_unprivileged_device_configuration',
      'allow_unprivileged_device_management',
      'default_client_allowed_ips',
      'default_client_dns',
      'default_client_endpoint',
      'default_client_mtu',
      'default_client_persistent_keepalive',
      'disable_vpn_on_oidc_error',
      'id',
      'inserted_at',
      'local_auth_enabled',
      'logo',
      'openid_connect_providers',
      'saml_identity_providers',
      'updated_at',
      'vpn_session_duration',
    ]);
    expect(cfg).toMatchObject({
      logo: {},
      openid_connect_providers: [],
      saml_identity_providers: [],
      vpn_session_duration: 0,
      default_client_persistent_keepalive: 25,
    });
  });

  it('trims, validates and echoes', async () => {
    const ok = await api('PUT', '/v0/configuration', {
      body: {configuration: {default_client_dns: ['   foobar.com', 'google.com   '], default_client_endpoint: '   127.0.0.1    '}},
    });
    expect(data(ok)).toMatchObject({default_client_dns: ['foobar.com', 'google.com'], default_client_endpoint: '127.0.0.1'});
    expect((await api('PUT', '/v0/configuration', {body: {configuration: {default_client_endpoint: '123'}}})).status).toBe(200);
    const cases: Array<[unknown, unknown]> = [
      [{local_auth_enabled: 123}, {local_auth_enabled: ['is invalid']}],
      [{default_client_dns: ['!!!']}, {default_client_dns: ['!!! is not a valid FQDN', 'must be one of: Elixir.FzHttp.Types.IP, string']}],
      [{default_client_allowed_ips: '1.1.1.1, 2.2.2.2'}, {default_client_allowed_ips: ['is invalid']}],
      [{default_client_allowed_ips: ['1.1.1.1', '1.1.1.1']}, {default_client_allowed_ips: ['should not contain duplicates']}],
      [{vpn_session_duration: -1}, {vpn_session_duration: ['must be greater than or equal to 0']}],
      [{logo: {file: '/etc/passwd'}}, {logo: {file: ['file does not exist']}}],
    ];
    for (const [configuration, errors] of cases) {
      const res = await api('PUT', '/v0/configuration', {body: {configuration}});
      expect([res.status, res.json], JSON.stringify(configuration)).toEqual([422, {errors}]);
    }
    await api('PUT', '/v0/configuration', {body: {configuration: {default_client_dns: ['1.1.1.1', '1.0.0.1'], default_client_endpoint: null}}});
  });

  it('crashes on a null vpn_session_duration', async () => {
    expect((await api('PUT', '/v0/configuration', {body: {configuration: {vpn_session_duration: null}}})).status).toBe(500);
  });

  it('stores a logo url and renders exactly data/type/url', async () => {
    const res = await api('PUT', '/v0/configuration', {body: {configuration: {logo: {url: 'https://example.com/logo.png'}}}});
    expect(data(res).logo).toEqual({data: null, type: null, url: 'https://example.com/logo.png'});
    await api('PUT', '/v0/configuration', {body: {configuration: {logo: null}}});
    expect(data(await api('GET', '/v0/configuration')).logo).toEqual({});
  });

  it('validates providers with list-aligned errors and replaces the list wholesale', async () => {
    const oidc = {
      id: 'google',
      label: 'Google',
      client_id: 'a',
      client_secret: 'b',
      discovery_document_uri: 'https://accounts.google.com/.well-known/openid-configuration',
      auto_create_users: false,
    };
    const bad = await api('PUT', '/v0/configuration', {
      body: {
        configuration: {
          openid_connect_providers: [
            oidc,
            {...oidc, client_id: null},
            {...oidc, id: 'saml'},
            {...oidc, response_type: 'token'},
            {...oidc, redirect_uri: 'ftp://x'},
            {...oidc, scope: 'profile'},
          ],
        },
      },
    });
    expect(bad.json).toEqual({
      errors: {
        openid_connect_providers: [
          {},
          {client_id: ["can't be blank"]},
          {id: ['is reserved']},
          {response_type: ['is invalid']},
          {redirect_uri: ['only http, https schemes are supported']},
          {scope: ['must include email scope', 'must include openid scope']},
        ],
      },
    });
    const good = data(await api('PUT', '/v0/configuration', {body: {configuration: {openid_connect_providers: [oidc]}}}));
    expect(good.openid_connect_providers).toEqual([{...oidc, redirect_uri: null, response_type: 'code', scope: 'openid email profile'}]);
    const saml = {
      id: 'okta',
      label: 'Okta',
      auto_create_users: true,
      metadata: '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"><md:IDPSSODescriptor/></md:EntityDescriptor>',
    };
    const withSaml = data(await api('PUT', '/v0/configuration', {body: {configuration: {saml_identity_providers: [saml]}}}));
    expect(withSaml.saml_identity_providers).toEqual([
      {...saml, base_url: `${sb.url}/auth/saml`, sign_metadata: true, sign_requests: true, signed_assertion_in_resp: true, signed_envelopes_in_resp: true},
    ]);
    const badSaml = await api('PUT', '/v0/configuration', {
      body: {
        configuration: {
          saml_identity_providers: [
            {...saml, metadata: '<not-saml/>'},
            {...saml, metadata: '<a><b></a>'},
            {...saml, metadata: null},
          ],
        },
      },
    });
    const errs = (badSaml.json as {errors: {saml_identity_providers: Array<{metadata: string[]}>}}).errors.saml_identity_providers;
    expect(errs[0]!.metadata[0]).toMatch(/^is invalid\. Details: .+\.$/);
    expect(errs[1]!.metadata[0]).toMatch(/^is invalid\. Details: \{:fatal, .+\.$/);
    expect(errs[2]).toEqual({metadata: ["can't be blank"]});
    expect(
      data(await api('PUT', '/v0/configuration', {body: {configuration: {openid_connect_providers: [], saml_identity_providers: []}}}))
        .openid_connect_providers,
    ).toEqual([]);
  });

  it('refuses changing env-overridden keys with the exact message, naming the legacy alias when that is the source', async () => {
    const envd = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0, env: {LOCAL_AUTH_ENABLED: 'true', WIREGUARD_MTU: '1400'}});
    try {
      const put = (configuration: unknown) => send(envd.url, 'PUT', '/v0/configuration', {token: envd.adminToken, body: {configuration}});
      expect((await put({local_auth_enabled: false})).json).toEqual({
        errors: {local_auth_enabled: ['cannot be changed; it is overridden by LOCAL_AUTH_ENABLED environment variable']},
      });
      expect((await put({local_auth_enabled: true})).status).toBe(200);
      expect((await put({default_client_mtu: 1300})).json).toEqual({
        errors: {default_client_mtu: ['cannot be changed; it is overridden by WIREGUARD_MTU environment variable']},
      });
    } finally {
      await envd.close();
    }
  });
});
