// The API client against a real sandbox over HTTP: every route, every error kind.
import {createServer, request as httpRequest, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {createHmac, generateKeyPairSync, randomUUID} from 'node:crypto';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {ApiError, FirezoneClient, normaliseBaseUrl} from '../../src/api/index.js';
import {startSandbox, type SandboxHandle} from '../../src/sandbox/index.js';
import {endlessServer} from '../helpers/endless-server.js';
import {validateDnsList, validateEndpoint} from '../../src/state/data/validators.js';

let sandbox: SandboxHandle;
let admin: FirezoneClient;

function publicKey(): string {
  // Encoded by the key-generation job itself: a JWK export of a generated key can hang Node 20 (src/wireguard/keys.ts).
  const {publicKey: der} = generateKeyPairSync('x25519', {
    publicKeyEncoding: {type: 'spki', format: 'der'},
    privateKeyEncoding: {type: 'pkcs8', format: 'der'},
  });
  return der.subarray(12).toString('base64');
}

async function control(method: string, path: string, body?: unknown): Promise<{status: number; json: unknown}> {
  const res = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: {authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json'},
    ...(body === undefined ? {} : {body: JSON.stringify(body)}),
  });
  const text = await res.text();
  return {status: res.status, json: text ? JSON.parse(text) : null};
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected the call to fail');
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  sandbox = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0});
  admin = new FirezoneClient({baseUrl: sandbox.url, token: sandbox.adminToken, timeoutMs: 5000});
});

afterAll(async () => {
  await admin.close();
  await sandbox.close();
});

describe('base URL', () => {
  it('keeps a path prefix, drops trailing slashes and a pasted /v0', () => {
    expect(normaliseBaseUrl('https://h/vpn/').href).toBe('https://h/vpn');
    expect(normaliseBaseUrl('https://h/vpn/v0/').href).toBe('https://h/vpn');
    expect(normaliseBaseUrl('https://h').href).toBe('https://h/');
    expect(() => normaliseBaseUrl('ftp://h')).toThrow(/only http and https/);
    expect(() => normaliseBaseUrl('not a url')).toThrow(/Invalid server URL/);
  });

  it('reaches a server mounted under a path prefix (reverse proxy)', async () => {
    const target = new URL(sandbox.url);
    const proxy = createServer((req, res) => {
      if (!req.url?.startsWith('/firezone/')) {
        res.writeHead(404).end();
        return;
      }
      const upstream = httpRequest(
        {host: target.hostname, port: target.port, path: req.url.slice('/firezone'.length), method: req.method, headers: req.headers},
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    const origin = await listen(proxy);
    const client = new FirezoneClient({baseUrl: `${origin}/firezone/`, token: sandbox.adminToken});
    try {
      const users = await client.listUsers();
      expect(users.data.map((u) => u.email).sort()).toEqual(['admin@sandbox.test', 'user@sandbox.test']);
    } finally {
      await client.close();
      proxy.close();
    }
  });
});

describe('token', () => {
  it.each([
    ['abc\ndef', 'The API token contains a line break; a token is one line'],
    ['abc\rdef', 'The API token contains a line break; a token is one line'],
    ['tok€n', 'The API token contains a character that cannot be sent in an HTTP header'],
    ['tok\u0007en', 'The API token contains a character that cannot be sent in an HTTP header'],
  ])('%j is refused when the client is made, without quoting it', (token, message) => {
    expect(() => new FirezoneClient({baseUrl: sandbox.url, token})).toThrow(new Error(message));
  });
});

describe('routes', () => {
  it('users: list, create (Location), get by id and by email (any case), update, delete', async () => {
    const created = await admin.createUser({
      email: 'ann@example.com',
      role: 'admin',
      password: 'correct horse battery',
      password_confirmation: 'correct horse battery',
    });
    expect(created.data).toMatchObject({email: 'ann@example.com', role: 'admin', last_signed_in_at: null});
    expect(created.location).toBe(`/v0/users/${created.data.id}`);
    expect((await admin.getUser(created.data.id)).data.email).toBe('ann@example.com');
    expect((await admin.getUser('ANN@example.com')).data.id).toBe(created.data.id);
    const updated = await admin.updateUser('ann@example.com', {role: 'unprivileged', email: 'ann2@example.com'});
    expect(updated.data).toMatchObject({role: 'unprivileged', email: 'ann2@example.com'});
    expect((await admin.listUsers()).data.map((u) => u.id)).toContain(created.data.id);
    await admin.deleteUser(created.data.id);
    expect((await caught(admin.getUser(created.data.id))).kind).toBe('not_found');
  });

  it('devices: create with only user and key, get, rename, delete', async () => {
    const owner = (await admin.createUser({email: `dev-${randomUUID()}@example.com`})).data;
    const key = publicKey();
    const created = await admin.createDevice({user_id: owner.id, public_key: key});
    expect(created.location).toBe(`/v0/devices/${created.data.id}`);
    expect(created.data).toMatchObject({user_id: owner.id, public_key: key, use_default_dns: true, latest_handshake: null, rx_bytes: null});
    expect(created.data.ipv4).toMatch(/^10\.3\.2\.\d+$/);
    expect(created.data.preshared_key).toHaveLength(44);
    expect((await admin.getDevice(created.data.id)).data.name).toBe(created.data.name);
    const renamed = await admin.updateDevice(created.data.id, {name: 'build-box', description: 'CI runner'});
    expect(renamed.data).toMatchObject({name: 'build-box', description: 'CI runner'});
    expect((await admin.listDevices()).data.map((d) => d.id)).toContain(created.data.id);
    await admin.deleteDevice(created.data.id);
    expect((await caught(admin.getDevice(created.data.id))).kind).toBe('not_found');
  });

  it('rules: create, get, update, list, delete', async () => {
    const created = await admin.createRule({action: 'accept', destination: '10.20.0.0/16', port_type: 'tcp', port_range: '80-90'});
    expect(created.data).toMatchObject({action: 'accept', destination: '10.20.0.0/16', port_type: 'tcp', port_range: '80 - 90', user_id: null});
    expect(created.location).toBe(`/v0/rules/${created.data.id}`);
    expect((await admin.getRule(created.data.id)).data.destination).toBe('10.20.0.0/16');
    expect((await admin.updateRule(created.data.id, {action: 'drop'})).data.action).toBe('drop');
    expect((await admin.listRules()).data.map((r) => r.id)).toContain(created.data.id);
    await admin.deleteRule(created.data.id);
    expect((await caught(admin.getRule(created.data.id))).kind).toBe('not_found');
  });

  it('configuration: get and update (a changed default shows on devices using it)', async () => {
    const before = await admin.getConfiguration();
    expect(before.data.default_client_mtu).toBe(1280);
    const owner = (await admin.createUser({email: `cfg-${randomUUID()}@example.com`})).data;
    const device = (await admin.createDevice({user_id: owner.id, public_key: publicKey()})).data;
    const after = await admin.updateConfiguration({default_client_mtu: 1400, default_client_dns: ['9.9.9.9']});
    expect(after.data).toMatchObject({default_client_mtu: 1400, default_client_dns: ['9.9.9.9']});
    expect((await admin.getDevice(device.id)).data).toMatchObject({mtu: 1400, dns: ['9.9.9.9']});
    await admin.updateConfiguration({default_client_mtu: 1280, default_client_dns: ['1.1.1.1', '1.0.0.1']});
  });
});

describe('error kinds', () => {
  it('unauthenticated: no token reached the server', async () => {
    const client = new FirezoneClient({baseUrl: sandbox.url, token: ''});
    const err = await caught(client.listDevices());
    expect(err.kind).toBe('unauthenticated');
    await client.close();
  });

  it('invalid_token: a JWT signed with another key; the message never contains the token', async () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${b64({alg: 'HS512', typ: 'JWT'})}.${b64({api: randomUUID(), exp: now + 3600, iat: now, nbf: now - 1, iss: 'fz_http', aud: 'fz_http', typ: 'access'})}`;
    const token = `${unsigned}.${createHmac('sha512', 'some other secret').update(unsigned).digest('base64url')}`;
    const client = new FirezoneClient({baseUrl: sandbox.url, token});
    const err = await caught(client.listDevices());
    expect(err.kind).toBe('invalid_token');
    expect(err.message).not.toContain(token);
    await client.close();
  });

  it('no_resource_found: token revoked mid-session', async () => {
    const admin2 = (await admin.createUser({email: `rev-${randomUUID()}@example.com`, role: 'admin'})).data;
    const minted = await control('POST', '/_sandbox/tokens', {user_id: admin2.id, expires_in_days: 1});
    expect(minted.status).toBe(201);
    const {token, id} = minted.json as {token: string; id: string};
    const client = new FirezoneClient({baseUrl: sandbox.url, token});
    expect((await client.listUsers()).data.length).toBeGreaterThan(0);
    expect((await control('DELETE', `/_sandbox/tokens/${id}`)).status).toBe(204);
    const err = await caught(client.listUsers());
    expect(err.kind).toBe('no_resource_found');
    expect(err.isAuthFailure).toBe(true);
    await client.close();
  });

  it('forbidden: an unprivileged token on an admin route (401 {"error":"Unauthorized"})', async () => {
    const client = new FirezoneClient({baseUrl: sandbox.url, token: sandbox.unprivilegedToken});
    expect((await caught(client.listUsers())).kind).toBe('forbidden');
    expect((await caught(client.getConfiguration())).kind).toBe('forbidden');
    // devices stay visible (own only)
    expect(Array.isArray((await client.listDevices()).data)).toBe(true);
    await client.close();
  });

  it('invalid_token: 0.7.36 answers a token without dots with a 401 (Guardian rescues the JOSE badarg)', async () => {
    const client = new FirezoneClient({baseUrl: sandbox.url, token: 'not-a-jwt-but-a-long-secret-string'});
    const err = await caught(client.listDevices());
    expect(err.kind).toBe('invalid_token');
    expect(err.status).toBe(401);
    expect(err.message).not.toContain('not-a-jwt');
    await client.close();
  });

  it('server: 0.7.36 answers three parts it cannot decode with an empty 500 (#1715)', async () => {
    const client = new FirezoneClient({baseUrl: sandbox.url, token: '!!!.e30.not-a-signature'});
    const err = await caught(client.listDevices());
    expect(err.kind).toBe('server');
    expect(err.message).not.toContain('not-a-signature');
    await client.close();
  });

  it('not_found', async () => {
    const err = await caught(admin.getDevice('003da73d-2dd9-4492-8136-3282843545e8'));
    expect(err.kind).toBe('not_found');
    expect(err.status).toBe(404);
  });

  it('validation: field errors with the server messages', async () => {
    const err = await caught(admin.createUser({email: 'test@test.com', password: 'test1234'}));
    expect(err.kind).toBe('validation');
    expect(err.fieldErrors).toEqual({password: ['should be at least 12 character(s)'], password_confirmation: ["can't be blank"]});
  });

  it('validation: nested provider errors flattened to paths', async () => {
    const ok = {
      id: 'okta',
      label: 'Okta',
      scope: 'openid email profile',
      response_type: 'code',
      client_id: 'a',
      client_secret: 'b',
      discovery_document_uri: 'https://example.com/.well-known/openid-configuration',
      auto_create_users: false,
    };
    const err = await caught(admin.updateConfiguration({openid_connect_providers: [ok, {...ok, id: 'google', scope: 'profile'}]}));
    expect(err.kind).toBe('validation');
    expect(err.fieldErrors).toEqual({'openid_connect_providers[1].scope': ['must include email scope', 'must include openid scope']});
  });

  it("validation: 0.7.36's Elixir module names come back in the words the console's own checks use, every other message as sent", async () => {
    // The sandbox answers as 0.7.36 does: "must be one of: Elixir.FzHttp.Types.IP, string" (test/sandbox/api/configuration.test.ts).
    const err = await caught(admin.updateConfiguration({default_client_dns: ['!!!'], default_client_endpoint: 'host:99999'}));
    expect(err.fieldErrors).toEqual({
      default_client_dns: ['!!! is not a valid FQDN', 'must be IP addresses or host names, without a port'],
      default_client_endpoint: ['port is not a number between 0 and 65535', 'must be an IP address or a host name, with an optional :port'],
    });
    expect(validateDnsList(['!!!'])).toEqual(err.fieldErrors.default_client_dns);
    expect(validateEndpoint('host:99999')).toEqual(err.fieldErrors.default_client_endpoint);
  });

  it('validation: a duplicate device name comes back under user_id', async () => {
    const owner = (await admin.createUser({email: `dup-${randomUUID()}@example.com`})).data;
    await admin.createDevice({user_id: owner.id, public_key: publicKey(), name: 'phone'});
    const err = await caught(admin.createDevice({user_id: owner.id, public_key: publicKey(), name: 'phone'}));
    expect(err.fieldErrors).toEqual({user_id: ['has already been taken']});
  });

  describe('faults', () => {
    afterAll(async () => {
      await control('PUT', '/_sandbox/faults', {mode: 'none', rate: 0, latency_ms: 0});
    });

    it('server: empty-body 500 and a proxy HTML 502', async () => {
      await control('PUT', '/_sandbox/faults', {mode: 'empty-500', rate: 1, latency_ms: 0});
      let err = await caught(admin.listDevices());
      expect(err.kind).toBe('server');
      expect(err.message).toMatch(/empty body/);
      await control('PUT', '/_sandbox/faults', {mode: 'html-502', rate: 1, latency_ms: 0});
      err = await caught(admin.listDevices());
      expect(err.kind).toBe('server');
      expect(err.status).toBe(502);
      expect(err.message).toMatch(/HTML page "502 Bad Gateway" \(from a proxy\?\)/);
    });

    it('schema: malformed JSON', async () => {
      await control('PUT', '/_sandbox/faults', {mode: 'malformed-json', rate: 1, latency_ms: 0});
      const err = await caught(admin.listDevices());
      expect(err.kind).toBe('schema');
      expect(err.message).toMatch(/Malformed JSON from GET \/v0\/devices/);
    });

    it('network: connection reset mid-response', async () => {
      await control('PUT', '/_sandbox/faults', {mode: 'reset', rate: 1, latency_ms: 0});
      const err = await caught(admin.listDevices());
      expect(err.kind).toBe('network');
    });

    it('timeout: a hung server', async () => {
      await control('PUT', '/_sandbox/faults', {mode: 'hang', rate: 1, latency_ms: 0});
      const client = new FirezoneClient({baseUrl: sandbox.url, token: sandbox.adminToken, timeoutMs: 300});
      const err = await caught(client.listDevices());
      expect(err.kind).toBe('timeout');
      expect(err.message).toBe('Request timed out after 0.3 s: GET /v0/devices (server slow or unreachable)');
      await client.close();
    });
  });

  it('network: connection refused', async () => {
    const server = createServer();
    const origin = await listen(server);
    await new Promise((resolve) => server.close(resolve));
    const client = new FirezoneClient({baseUrl: origin, token: 'x'});
    const err = await caught(client.listDevices());
    expect(err.kind).toBe('network');
    expect(err.message).toMatch(/connection refused \(ECONNREFUSED\)/);
    await client.close();
  });

  it('schema: a wrong-typed field is named, the item still shows; a broken id drops only that item', async () => {
    const good = (await admin.listDevices()).data[0];
    expect(good).toBeDefined();
    const body = JSON.stringify({data: [{...good, rx_bytes: 'lots', extra_field: 1}, {...good, id: 42}, good]});
    const server = createServer((_req, res) => {
      res.writeHead(200, {'content-type': 'application/json; charset=utf-8'}).end(body);
    });
    const origin = await listen(server);
    const client = new FirezoneClient({baseUrl: origin, token: 'x'});
    try {
      const result = await client.listDevices();
      expect(result.data).toHaveLength(2);
      expect(result.data[0]!.rx_bytes).toBeNull();
      expect(result.data[0]).not.toHaveProperty('extra_field');
      expect(result.issues).toEqual([
        {path: 'data[0].rx_bytes', message: 'expected number'},
        {path: 'data[1].id', message: 'expected string'},
      ]);
      const err = await caught(client.getConfiguration());
      expect(err.kind).toBe('schema');
    } finally {
      await client.close();
      server.close();
    }
  });
});

describe('bounded responses', () => {
  it('an endless body is aborted at the limit with a one-line error, and the connection is dropped', async () => {
    const endless = await endlessServer(200, '{"data":"');
    const client = new FirezoneClient({baseUrl: endless.origin, token: 'secret-token-value', maxBodyBytes: 1024 * 1024});
    const started = Date.now();
    try {
      const err = await caught(client.listDevices());
      expect(err.kind).toBe('too_large');
      expect(err.message).toBe('Response too large from GET /v0/devices: more than 1 MiB; aborted');
      expect(err.message).not.toContain('secret-token-value');
      expect(Date.now() - started).toBeLessThan(5000);
      await endless.closed;
      // The client stopped reading: what the server managed to push is the limit plus socket buffers.
      expect(endless.sent()).toBeLessThan(64 * 1024 * 1024);
    } finally {
      await client.close();
      endless.stop();
    }
  });

  it('an endless error body: its first 16 KiB are read, the connection dropped, and the error says it was cut', async () => {
    const endless = await endlessServer(500, '{"error":"upstream failed"}');
    const client = new FirezoneClient({baseUrl: endless.origin, token: 'secret-token-value'});
    try {
      const err = await caught(client.listDevices());
      expect(err.kind).toBe('server');
      expect(err.message).toBe('Server error 500 for GET /v0/devices; its body was cut to its first 16 KiB, the rest not read');
      await endless.closed;
      expect(endless.sent()).toBeLessThan(64 * 1024 * 1024);
    } finally {
      await client.close();
      endless.stop();
    }
  });

  it.each([
    [999, 'read'],
    [1000, 'read'],
    [1001, 'refused'],
  ] as const)('a body of %i bytes with a 1000-byte limit is %s', async (size, outcome) => {
    const body = JSON.stringify({data: []}).padEnd(size, ' ');
    const server = createServer((_req, res) => {
      res.writeHead(200, {'content-type': 'application/json'}).end(body);
    });
    const origin = await listen(server);
    const client = new FirezoneClient({baseUrl: origin, token: 'x', maxBodyBytes: 1000});
    try {
      if (outcome === 'read') expect((await client.listDevices()).data).toEqual([]);
      else expect((await caught(client.listDevices())).kind).toBe('too_large');
    } finally {
      await client.close();
      server.close();
    }
  });

  it('close() may be called any number of times, also concurrently, without an error', async () => {
    const client = new FirezoneClient({baseUrl: sandbox.url, token: sandbox.adminToken});
    await client.listDevices();
    await expect(Promise.all([client.close(), client.close()])).resolves.toBeDefined();
    await expect(client.close()).resolves.toBeUndefined();
  });
});
