// Acceptance suite for the sandbox: every acceptance case from "Authentication" through
// "Protocol-level" (cases 1–101), run over real HTTP against an in-process sandbox. This file is
// the executable form of docs/firezone-0.7.36.md (its "Acceptance cases" section describes the suite). The
// sandbox copies Firezone 0.7.36, quirks included, so where a case says "0.7.36: X (successor: Y)"
// these tests assert X. Two departures, listed in src/sandbox/README.md, "Deviations from 0.7.36":
// OIDC discovery_document_uri is shape-checked, not fetched, and SAML metadata must parse as XML
// with an EntityDescriptor root containing an IDPSSODescriptor.
//
// Each `it` title starts with its case number ("15.23 …"), the numbering of the upstream behaviour
// notes the sandbox was built from, kept so that cases can be looked up by number; "quirk N" is item
// N of the doc's "Quirk index". Unless a case says
// otherwise, requests carry `Accept: application/json` and `Content-Type: application/json` (the
// conventions in "Acceptance cases"). Every JSON response is checked for `content-type:
// application/json; charset=utf-8`, an `x-request-id` header and keys in ascending order at every
// depth ("Response framing and headers", "Key order and JSON shapes", case 101); "exactly" bodies
// are compared whole and byte for byte against the compact, key-sorted encoding Jason produces.
//
// One sandbox (seed 'empty') serves most cases with fresh objects per test. Cases that need a
// pristine store (exact list contents, the configuration singleton) or a simulated server
// environment start a sandbox of their own for the test.
import {createHmac, generateKeyPairSync, randomBytes, randomUUID} from 'node:crypto';
import {afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished} from 'vitest';
import {startSandbox} from '../../src/sandbox/index.js';
import {httpClient, type HttpClient, type HttpResponse} from '../helpers/http.js';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
type SandboxOptions = NonNullable<Parameters<typeof startSandbox>[0]>;
type Row = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Constants from the behaviour doc

const JWT_SECRET = 'acceptance-suite-guardian-secret-key-0123456789abcdefghijklmnopqrstuvwxyz';
const JSON_CT = 'application/json; charset=utf-8';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TS_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const KEY_RE = /^[A-Za-z0-9+/]{43}=$/;
const UNKNOWN_UUID = '003da73d-2dd9-4492-8136-3282843545e8';
const NON_HEX_UUID = 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz';

// Wire order, ascending (docs/firezone-0.7.36.md, "Key order and JSON shapes").
const USER_KEYS = ['disabled_at', 'email', 'id', 'inserted_at', 'last_signed_in_at', 'last_signed_in_method', 'role', 'updated_at'];
const DEVICE_KEYS = [
  'allowed_ips',
  'description',
  'dns',
  'endpoint',
  'id',
  'inserted_at',
  'ipv4',
  'ipv6',
  'latest_handshake',
  'mtu',
  'name',
  'persistent_keepalive',
  'preshared_key',
  'public_key',
  'remote_ip',
  'rx_bytes',
  'server_public_key',
  'tx_bytes',
  'updated_at',
  'use_default_allowed_ips',
  'use_default_dns',
  'use_default_endpoint',
  'use_default_mtu',
  'use_default_persistent_keepalive',
  'user_id',
];
const RULE_KEYS = ['action', 'destination', 'id', 'inserted_at', 'port_range', 'port_type', 'updated_at', 'user_id'];
const CONFIG_KEYS = [
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
];

const UNAUTHORIZED = {error: 'Unauthorized'};
const NOT_FOUND = {error: 'not_found'};
// Case 23 (and 38): the upstream example error.
const SHORT_PASSWORD_ERRORS = {errors: {password: ['should be at least 12 character(s)'], password_confirmation: ["can't be blank"]}};

const SAML_METADATA =
  '<?xml version="1.0" encoding="UTF-8"?>' +
  '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.com/metadata">' +
  '<IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">' +
  '<SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example.com/sso"/>' +
  '</IDPSSODescriptor></EntityDescriptor>';

// ---------------------------------------------------------------------------------------------
// Sandboxes

interface Ctx {
  sb: Sandbox;
  /** Admin client (token `A`). */
  admin: HttpClient;
  /** No Authorization header. */
  anon: HttpClient;
  adminId: string;
  /** user@sandbox.test, the seed's unprivileged user (unprivilegedToken). */
  seedUserId: string;
  as(token: string): HttpClient;
}

async function open(options: SandboxOptions = {}): Promise<Ctx> {
  const sb = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0, jwtSecret: JWT_SECRET, ...options});
  const admin = httpClient(sb.url, sb.adminToken);
  const users = expectList(await admin.get('/v0/users'));
  const byEmail = (email: string): string => {
    const user = users.find((u) => u.email === email);
    if (!user) throw new Error(`seed user ${email} missing: ${JSON.stringify(users)}`);
    return String(user.id);
  };
  return {
    sb,
    admin,
    anon: httpClient(sb.url),
    adminId: byEmail('admin@sandbox.test'),
    seedUserId: byEmail('user@sandbox.test'),
    as: (token) => httpClient(sb.url, token),
  };
}

/** A sandbox of the test's own, closed when the test finishes. */
async function fresh(options: SandboxOptions = {}): Promise<Ctx> {
  const ctx = await open(options);
  onTestFinished(() => ctx.sb.close());
  return ctx;
}

let main: Ctx;

beforeAll(async () => {
  main = await open();
});

afterAll(async () => {
  await main?.sb.close();
});

// ---------------------------------------------------------------------------------------------
// Assertions

function describeResponse(res: HttpResponse): string {
  return `${res.method} ${res.path} → ${res.status} ${JSON.stringify(res.text.slice(0, 800))}`;
}

function expectStatus(res: HttpResponse, status: number): void {
  expect(res.status, describeResponse(res)).toBe(status);
}

/** Keys in ascending byte order in every object at every depth (docs/firezone-0.7.36.md, "Key order and JSON shapes"). */
function expectSortedKeys(value: unknown, where = '$'): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => expectSortedKeys(item, `${where}[${i}]`));
  } else if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    expect(keys, `key order at ${where}`).toEqual([...keys].sort());
    for (const key of keys) expectSortedKeys((value as Row)[key], `${where}.${key}`);
  }
}

/**
 * The compact, key-sorted encoding Jason emits (docs/firezone-0.7.36.md, "Response framing and
 * headers", "Key order and JSON shapes").
 */
function canonical(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sort((v as Row)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(sort(value));
}

/** A JSON response from the Plug pipeline: status, content-type, x-request-id, key order. */
function expectJson(res: HttpResponse, status: number): Row {
  expectStatus(res, status);
  expect(res.headers.get('content-type'), describeResponse(res)).toBe(JSON_CT);
  expect(res.headers.get('x-request-id'), describeResponse(res)).toBeTruthy();
  expect(res.json, describeResponse(res)).toBeTypeOf('object');
  expectSortedKeys(res.json);
  return res.json as Row;
}

/** The whole body, compared as a value and byte for byte. */
function expectBody(res: HttpResponse, status: number, body: unknown): void {
  expect(expectJson(res, status), describeResponse(res)).toEqual(body);
  expect(res.text).toBe(canonical(body));
}

function expectData(res: HttpResponse, status = 200): Row {
  const json = expectJson(res, status);
  expect(Object.keys(json), describeResponse(res)).toEqual(['data']);
  expect(json.data, describeResponse(res)).toBeTypeOf('object');
  expect(Array.isArray(json.data)).toBe(false);
  return json.data as Row;
}

function expectList(res: HttpResponse): Row[] {
  const json = expectJson(res, 200);
  expect(Object.keys(json), describeResponse(res)).toEqual(['data']);
  expect(Array.isArray(json.data), describeResponse(res)).toBe(true);
  return json.data as Row[];
}

/** The 0.7.36 double fault (docs/firezone-0.7.36.md, "Empty-body 500s"): HTTP 500, empty body, content-length 0. */
function expectEmpty500(res: HttpResponse): void {
  expectStatus(res, 500);
  expect(res.text, describeResponse(res)).toBe('');
  expect(res.headers.get('content-length'), describeResponse(res)).toBe('0');
}

/** DELETE success (docs/firezone-0.7.36.md, "Response framing and headers"): 204, empty body; content-type only on users DELETE. */
function expectNoContent(res: HttpResponse, contentType: string | null): void {
  expectStatus(res, 204);
  expect(res.text).toBe('');
  expect(res.headers.get('content-type'), describeResponse(res)).toBe(contentType);
  expect(res.headers.get('x-request-id'), describeResponse(res)).toBeTruthy();
}

const expectNotFound = (res: HttpResponse) => expectBody(res, 404, NOT_FOUND);
const expectUnauthorized = (res: HttpResponse) => expectBody(res, 401, UNAUTHORIZED);
const expectAuthError = (res: HttpResponse, type: string) => expectBody(res, 401, {errors: {auth: type}});
const expect422 = (res: HttpResponse, errors: Row) => expectBody(res, 422, {errors});

function expectTimestamps(row: Row): void {
  expect(row.inserted_at).toMatch(TS_RE);
  expect(row.updated_at).toMatch(TS_RE);
}

// ---------------------------------------------------------------------------------------------
// Fixtures

let emailSeq = 0;
function uniqueEmail(tag = 'user'): string {
  emailSeq += 1;
  return `${tag}-${emailSeq}-${randomBytes(3).toString('hex')}@acceptance.test`;
}

/** A valid WireGuard public key: base64 of an X25519 public key (44 chars). */
function publicKey(): string {
  // Encoded by the key-generation job itself: a JWK export of a generated key can hang Node 20 (src/wireguard/keys.ts).
  const {publicKey: der} = generateKeyPairSync('x25519', {
    publicKeyEncoding: {type: 'spki', format: 'der'},
    privateKeyEncoding: {type: 'pkcs8', format: 'der'},
  });
  return der.subarray(12).toString('base64');
}

function presharedKey(): string {
  return randomBytes(32).toString('base64');
}

async function createUser(ctx: Ctx, attrs: Row = {}): Promise<Row> {
  const res = await ctx.admin.post('/v0/users', {user: {email: uniqueEmail(), ...attrs}});
  return expectData(res, 201);
}

interface TokenRow {
  token: string;
  id: string;
}

/** POST /_sandbox/tokens: a token row for the user and its JWT. */
async function mintToken(ctx: Ctx, userId: string, expiresInDays = 30): Promise<TokenRow> {
  const res = await ctx.admin.post('/_sandbox/tokens', {user_id: userId, expires_in_days: expiresInDays});
  expectStatus(res, 201);
  const body = res.json as TokenRow;
  expect(body.token).toBeTypeOf('string');
  expect(body.id).toMatch(UUID_RE);
  return body;
}

interface Principal {
  label: string;
  id: string;
  token: string;
  client: HttpClient;
}

async function adminWithToken(ctx: Ctx): Promise<Principal & {tokenId: string}> {
  const user = await createUser(ctx, {role: 'admin'});
  expect(user.role).toBe('admin');
  const row = await mintToken(ctx, String(user.id));
  return {label: 'admin', id: String(user.id), token: row.token, tokenId: row.id, client: ctx.as(row.token)};
}

/** `U` (the conventions in docs/firezone-0.7.36.md, "Acceptance cases"): an admin's token, the admin then demoted to unprivileged. */
async function demoted(ctx: Ctx): Promise<Principal> {
  const p = await adminWithToken(ctx);
  expectJson(await p.client.get('/v0/users'), 200); // it worked while the user was an admin
  const res = await ctx.admin.put(`/v0/users/${p.id}`, {user: {role: 'unprivileged'}});
  expect(expectData(res).role).toBe('unprivileged');
  return {...p, label: 'U (demoted admin)'};
}

/** The two unprivileged principals every permission case runs for: `U` and the seed's unprivileged token. */
async function principals(ctx: Ctx): Promise<Principal[]> {
  return [
    await demoted(ctx),
    {label: 'seed unprivileged (unprivilegedToken)', id: ctx.seedUserId, token: ctx.sb.unprivilegedToken, client: ctx.as(ctx.sb.unprivilegedToken)},
  ];
}

async function createDevice(ctx: Ctx, userId: string, attrs: Row = {}): Promise<Row> {
  const res = await ctx.admin.post('/v0/devices', {device: {user_id: userId, public_key: publicKey(), ...attrs}});
  return expectData(res, 201);
}

async function createRule(ctx: Ctx, attrs: Row): Promise<Row> {
  return expectData(await ctx.admin.post('/v0/rules', {rule: attrs}), 201);
}

async function listIds(client: HttpClient, path: string): Promise<string[]> {
  return expectList(await client.get(path))
    .map((row) => String(row.id))
    .sort();
}

async function devicesOf(ctx: Ctx, userId: string): Promise<string[]> {
  return expectList(await ctx.admin.get('/v0/devices'))
    .filter((d) => d.user_id === userId)
    .map((d) => String(d.id))
    .sort();
}

/** An IPv4 address of the default network 10.3.2.0/24 that no device holds (explicit addresses may be any host). */
async function freeIpv4(ctx: Ctx): Promise<string> {
  const used = new Set(expectList(await ctx.admin.get('/v0/devices')).map((d) => d.ipv4));
  for (let host = 250; host >= 2; host--) if (!used.has(`10.3.2.${host}`)) return `10.3.2.${host}`;
  throw new Error('no free IPv4 address');
}

/** An IPv6 address of the default network fd00::3:2:0/120 that no device holds. */
async function freeIpv6(ctx: Ctx): Promise<string> {
  const used = new Set(expectList(await ctx.admin.get('/v0/devices')).map((d) => d.ipv6));
  for (let host = 0xfa; host >= 2; host--) if (!used.has(`fd00::3:2:${host.toString(16)}`)) return `fd00::3:2:${host.toString(16)}`;
  throw new Error('no free IPv6 address');
}

/** The DCT `@params` (device_controller_test.exs) with fresh keys and addresses inside the networks. */
async function dctParams(ctx: Ctx): Promise<Row> {
  return {
    name: 'create-name',
    description: 'create-description',
    public_key: publicKey(),
    preshared_key: presharedKey(),
    use_default_allowed_ips: false,
    use_default_dns: false,
    use_default_endpoint: false,
    use_default_mtu: false,
    use_default_persistent_keepalive: false,
    endpoint: '9.9.9.9',
    mtu: 999,
    persistent_keepalive: 9,
    allowed_ips: ['0.0.0.0/0', '::/0', '1.1.1.1'],
    dns: ['9.9.9.8'],
    ipv4: await freeIpv4(ctx),
    ipv6: await freeIpv6(ctx),
  };
}

function ipv4ToInt(ip: string): number {
  const parts = ip.split('.').map(Number);
  expect(parts.length, ip).toBe(4);
  for (const part of parts) expect(Number.isInteger(part) && part >= 0 && part <= 255, ip).toBe(true);
  return parts.reduce((acc, part) => acc * 256 + part, 0);
}

/** The eight hextets of an IPv6 address (no embedded IPv4 form expected here). */
function ipv6Hextets(ip: string): number[] {
  const [head = '', tail] = ip.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  const groups = [...left, ...fill, ...right];
  expect(groups.length, ip).toBe(8);
  return groups.map((g) => {
    expect(g, ip).toMatch(/^[0-9a-f]{1,4}$/);
    return parseInt(g, 16);
  });
}

// ---------------------------------------------------------------------------------------------
// JWTs (docs/firezone-0.7.36.md, "The bearer JWT"): HS512, key = the raw bytes of the secret string.

function signJwt(claims: Row, secret = JWT_SECRET, alg: 'HS512' | 'HS256' = 'HS512'): string {
  const header = Buffer.from(JSON.stringify({alg, typ: 'JWT'})).toString('base64url');
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = createHmac(alg === 'HS512' ? 'sha512' : 'sha256', Buffer.from(secret, 'utf8'))
    .update(`${header}.${payload}`)
    .digest('base64url');
  return `${header}.${payload}.${signature}`;
}

function claims(api: string, sub: string, overrides: Row = {}): Row {
  const now = Math.floor(Date.now() / 1000);
  return {api, exp: now + 3600, sub, iss: 'fz_http', aud: 'fz_http', typ: 'access', iat: now, nbf: now - 1, jti: randomUUID(), ...overrides};
}

// =============================================================================================

describe('Acceptance: Authentication', () => {
  it('15.1 GET /v0/users without Authorization → 401 exactly {"errors":{"auth":"unauthenticated"}}, JSON content-type', async () => {
    expectAuthError(await main.anon.get('/v0/users'), 'unauthenticated');
  });

  it('15.2 correctly signed JWT whose api claim names no token row → 401 exactly no_resource_found', async () => {
    // Control: a JWT signed here for an existing row is accepted, so the sandbox verifies with jwtSecret.
    const row = await mintToken(main, main.adminId);
    expectList(await main.as(signJwt(claims(row.id, main.adminId))).get('/v0/users'));

    const full = signJwt(claims(randomUUID(), main.adminId));
    expectAuthError(await main.as(full).get('/v0/users'), 'no_resource_found');
    // The case's literal claim set: {"api": <random uuid>, "exp": now+1h}.
    const minimal = signJwt({api: randomUUID(), exp: Math.floor(Date.now() / 1000) + 3600});
    expectAuthError(await main.as(minimal).get('/v0/users'), 'no_resource_found');
  });

  it('15.3 token row deleted (revoked) → next request 401 no_resource_found', async () => {
    const p = await adminWithToken(main);
    expectList(await p.client.get('/v0/users'));
    const del = await main.admin.delete(`/_sandbox/tokens/${p.tokenId}`);
    expectStatus(del, 204);
    expectAuthError(await p.client.get('/v0/users'), 'no_resource_found');
  });

  it('15.4 token whose exp is in the past → 401 invalid_token', async () => {
    const row = await mintToken(main, main.adminId);
    const now = Math.floor(Date.now() / 1000);
    const expired = signJwt(claims(row.id, main.adminId, {exp: now - 60, iat: now - 3600, nbf: now - 3601}));
    expectAuthError(await main.as(expired).get('/v0/users'), 'invalid_token');
  });

  it('15.5 JWT signed with a different secret, or with HS256 → 401 invalid_token', async () => {
    const row = await mintToken(main, main.adminId);
    const otherSecret = signJwt(claims(row.id, main.adminId), 'some-other-secret-entirely-0123456789');
    expectAuthError(await main.as(otherSecret).get('/v0/users'), 'invalid_token');
    const hs256 = signJwt(claims(row.id, main.adminId), JWT_SECRET, 'HS256');
    expectAuthError(await main.as(hs256).get('/v0/users'), 'invalid_token');
  });

  it('15.6 Authorization: BEARER <valid jwt> → 200 (scheme case-insensitive)', async () => {
    const upper = await main.admin.get('/v0/users', {authorization: `BEARER ${main.sb.adminToken}`});
    expect(expectList(upper).map((u) => u.id)).toContain(main.adminId);
    expectList(await main.admin.get('/v0/users', {authorization: `bearer ${main.sb.adminToken}`}));
  });

  it('15.7 token of an admin whose disabled_at is set → requests still succeed', async () => {
    const p = await adminWithToken(main);
    const disabledAt = new Date().toISOString();
    const ctl = await main.admin.put(`/_sandbox/users/${p.id}`, {disabled_at: disabledAt, last_signed_in_at: null, last_signed_in_method: null});
    expect([200, 204], describeResponse(ctl)).toContain(ctl.status);
    // The control call took effect: the user is disabled.
    expect(expectData(await main.admin.get(`/v0/users/${p.id}`)).disabled_at).toMatch(TS_RE);
    expect(expectList(await p.client.get('/v0/users')).map((u) => u.id)).toContain(p.id);
  });

  it('15.8 Accept: text/html, no token, GET /v0/users → 500 empty body (0.7.36 double fault)', async () => {
    expectEmpty500(await main.anon.get('/v0/users', {accept: 'text/html'}));
  });
});

describe('Acceptance: Permissions (token U; the seed unprivileged token must behave the same)', () => {
  it('15.9 U GET /v0/users → 401 exactly {"error":"Unauthorized"}', async () => {
    for (const p of await principals(main)) expectUnauthorized(await p.client.get('/v0/users'));
  });

  it('15.10 U GET /v0/users/<own id> → 401 {"error":"Unauthorized"}', async () => {
    for (const p of await principals(main)) expectUnauthorized(await p.client.get(`/v0/users/${p.id}`));
  });

  it('15.11 U GET /v0/rules → 401 {"error":"Unauthorized"}', async () => {
    for (const p of await principals(main)) expectUnauthorized(await p.client.get('/v0/rules'));
  });

  it('15.12 U GET /v0/configuration → 401 {"error":"Unauthorized"}', async () => {
    for (const p of await principals(main)) expectUnauthorized(await p.client.get('/v0/configuration'));
  });

  it('15.13 U GET /v0/devices with 1 own and 1 foreign device → 200, only own devices', async () => {
    for (const p of await principals(main)) {
      const other = await createUser(main);
      const own = await createDevice(main, p.id);
      const foreign = await createDevice(main, String(other.id));
      const list = expectList(await p.client.get('/v0/devices'));
      const ids = list.map((d) => String(d.id)).sort();
      expect(ids, p.label).toContain(own.id);
      expect(ids, p.label).not.toContain(foreign.id);
      // Exactly the caller's devices (the demoted U has only the one created here).
      expect(ids, p.label).toEqual(await devicesOf(main, p.id));
      if (p.label.startsWith('U')) expect(ids, p.label).toEqual([own.id]);
      expect(
        list.find((d) => d.id === own.id),
        p.label,
      ).toEqual(own);
    }
  });

  it('15.14 U GET /v0/devices/<foreign device id> → 404 {"error":"not_found"} (own → 200)', async () => {
    for (const p of await principals(main)) {
      const other = await createUser(main);
      const own = await createDevice(main, p.id);
      const foreign = await createDevice(main, String(other.id));
      expect(expectData(await p.client.get(`/v0/devices/${own.id}`)), p.label).toEqual(own);
      expectNotFound(await p.client.get(`/v0/devices/${foreign.id}`));
    }
  });

  it('15.15 U POST /v0/devices with own user_id → 401 {"error":"Unauthorized"}, nothing created', async () => {
    for (const p of await principals(main)) {
      const before = await devicesOf(main, p.id);
      expectUnauthorized(await p.client.post('/v0/devices', {device: {user_id: p.id, public_key: publicKey()}}));
      expect(await devicesOf(main, p.id), p.label).toEqual(before);
    }
  });

  it('15.16 U PUT /v0/devices/<own id> {"device":{"name":"x"}} → 200 name "x"', async () => {
    for (const p of await principals(main)) {
      const own = await createDevice(main, p.id);
      const updated = expectData(await p.client.put(`/v0/devices/${own.id}`, {device: {name: 'x'}}));
      expect(updated.name, p.label).toBe('x');
      expect(updated.id, p.label).toBe(own.id);
      expect(expectData(await main.admin.get(`/v0/devices/${own.id}`)).name, p.label).toBe('x');
    }
  });

  // The upstream case list says "Same as 20"; the evident meaning is case 16 (U renaming an own device).
  it('15.17 case 16 with ALLOW_UNPRIVILEGED_DEVICE_MANAGEMENT=false → 401 {"error":"Unauthorized"}', async () => {
    const ctx = await fresh({env: {ALLOW_UNPRIVILEGED_DEVICE_MANAGEMENT: 'false'}});
    for (const p of await principals(ctx)) {
      const own = await createDevice(ctx, p.id);
      expectUnauthorized(await p.client.put(`/v0/devices/${own.id}`, {device: {name: 'x'}}));
      // Viewing own devices is still allowed, and the name did not change.
      expect(expectData(await p.client.get(`/v0/devices/${own.id}`)).name, p.label).toBe(own.name);
    }
  });

  it('15.18 U DELETE /v0/devices/<foreign id> → 404 {"error":"not_found"}, device kept', async () => {
    for (const p of await principals(main)) {
      const other = await createUser(main);
      const foreign = await createDevice(main, String(other.id));
      expectNotFound(await p.client.delete(`/v0/devices/${foreign.id}`));
      expect(expectData(await main.admin.get(`/v0/devices/${foreign.id}`)).id, p.label).toBe(foreign.id);
    }
  });
});

describe('Acceptance: Users', () => {
  it('15.19 GET /v0/users (A) with 3 extra admins → 200, ids == all user ids', async () => {
    const ctx = await fresh();
    const extra = [];
    for (let i = 0; i < 3; i++) extra.push(String((await createUser(ctx, {role: 'admin'})).id));
    const list = expectList(await ctx.admin.get('/v0/users'));
    expect(list.map((u) => String(u.id)).sort()).toEqual([ctx.adminId, ctx.seedUserId, ...extra].sort());
    for (const user of list) expect(Object.keys(user)).toEqual(USER_KEYS);
  });

  it('15.20 POST /v0/users with role "unprivileged" and password → 201, Location, exactly the 8 user keys', async () => {
    const email = uniqueEmail('new-user'); // the case's "new-user@test", made unique per run
    const res = await main.admin.post('/v0/users', {
      user: {email, role: 'unprivileged', password: 'test1234test', password_confirmation: 'test1234test'},
    });
    const user = expectData(res, 201);
    expect(Object.keys(user)).toEqual(USER_KEYS);
    expect(user).toEqual({
      disabled_at: null,
      email,
      id: expect.stringMatching(UUID_RE),
      inserted_at: expect.stringMatching(TS_RE),
      last_signed_in_at: null,
      last_signed_in_method: null,
      role: 'unprivileged',
      updated_at: user.inserted_at,
    });
    expect(res.headers.get('location')).toBe(`/v0/users/${user.id}`);
    expect(expectData(await main.admin.get(`/v0/users/${user.id}`))).toEqual(user);
  });

  it('15.21 POST /v0/users role "admin" → 201 role admin, last_signed_in_at null', async () => {
    const email = uniqueEmail('new-user');
    const res = await main.admin.post('/v0/users', {user: {email, role: 'admin'}});
    const user = expectData(res, 201);
    expect(user.role).toBe('admin');
    expect(user.last_signed_in_at).toBeNull();
    expect(user.email).toBe(email);
    expect(res.headers.get('location')).toBe(`/v0/users/${user.id}`);
  });

  it('15.22 POST /v0/users {"user":{"email":"x@y"}} → 201 role unprivileged', async () => {
    const user = expectData(await main.admin.post('/v0/users', {user: {email: 'x@y'}}), 201);
    expect(user.email).toBe('x@y');
    expect(user.role).toBe('unprivileged');
  });

  it('15.23 POST /v0/users short password without confirmation → 422 exactly password + password_confirmation errors', async () => {
    expectBody(await main.admin.post('/v0/users', {user: {email: 'test@test.com', password: 'test1234'}}), 422, SHORT_PASSWORD_ERRORS);
    expectNotFound(await main.admin.get('/v0/users/test@test.com'));
  });

  it('15.24 POST /v0/users 65-char password with matching confirmation → 422 {"errors":{"password":["should be at most 64 character(s)"]}}', async () => {
    const password = 'p'.repeat(65);
    const res = await main.admin.post('/v0/users', {user: {email: uniqueEmail(), password, password_confirmation: password}});
    expect422(res, {password: ['should be at most 64 character(s)']});
  });

  it('15.25 POST /v0/users {"user":{"email":"not-an-email"}} → 422 {"errors":{"email":["is invalid email address"]}}', async () => {
    expect422(await main.admin.post('/v0/users', {user: {email: 'not-an-email'}}), {email: ['is invalid email address']});
  });

  it('15.26 POST /v0/users {"user":{}} → 422 {"errors":{"email":["can\'t be blank"]}}', async () => {
    expect422(await main.admin.post('/v0/users', {user: {}}), {email: ["can't be blank"]});
  });

  it('15.27 POST /v0/users with "  spaced@x  " → 201, email "spaced@x"', async () => {
    const user = expectData(await main.admin.post('/v0/users', {user: {email: '  spaced@x  '}}), 201);
    expect(user.email).toBe('spaced@x');
    expect(expectData(await main.admin.get('/v0/users/spaced@x')).id).toBe(user.id);
  });

  it('15.28 POST /v0/users body {"email":"a@b"} (no wrapper) → 500 empty body (0.7.36), nothing created', async () => {
    expectEmpty500(await main.admin.post('/v0/users', {email: 'a@b'}));
    expectNotFound(await main.admin.get('/v0/users/a@b'));
  });

  it('15.29 GET /v0/users/<own id> → 200, data.id matches', async () => {
    const user = expectData(await main.admin.get(`/v0/users/${main.adminId}`));
    expect(Object.keys(user)).toEqual(USER_KEYS);
    expect(user.id).toBe(main.adminId);
    expect(user.email).toBe('admin@sandbox.test');
    expect(user.role).toBe('admin');
  });

  it('15.30 GET /v0/users/003da73d-… (unknown) → 404 exactly {"error":"not_found"}', async () => {
    expectNotFound(await main.admin.get(`/v0/users/${UNKNOWN_UUID}`));
  });

  it('15.31 GET /v0/users/nobody@example.com → 404 {"error":"not_found"}', async () => {
    expectNotFound(await main.admin.get('/v0/users/nobody@example.com'));
  });

  it('15.32 GET /v0/users/zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz → 500 empty body (0.7.36)', async () => {
    expectEmpty500(await main.admin.get(`/v0/users/${NON_HEX_UUID}`));
  });

  it('15.33 PUT /v0/users/<email of unprivileged user> {"user":{}} → 200, that user, updated_at unchanged', async () => {
    const user = await createUser(main);
    const res = await main.admin.put(`/v0/users/${String(user.email)}`, {user: {}});
    expect(expectData(res)).toEqual(user);
  });

  it('15.34 PUT /v0/users/<id> {"user":{"role":"admin"}} on another user → 200 role admin', async () => {
    const user = await createUser(main);
    expect(user.role).toBe('unprivileged');
    expect(expectData(await main.admin.put(`/v0/users/${user.id}`, {user: {role: 'admin'}})).role).toBe('admin');
    expect(expectData(await main.admin.get(`/v0/users/${user.id}`)).role).toBe('admin');
  });

  it('15.35 PUT /v0/users/<own id> {"user":{"role":"admin"}} (unchanged) → 200', async () => {
    const user = expectData(await main.admin.put(`/v0/users/${main.adminId}`, {user: {role: 'admin'}}));
    expect(user.id).toBe(main.adminId);
    expect(user.role).toBe('admin');
  });

  it('15.36 PUT /v0/users/<id> {"user":{"email":"new-email@test"}} → 200 with the new email', async () => {
    const user = await createUser(main);
    expect(expectData(await main.admin.put(`/v0/users/${user.id}`, {user: {email: 'new-email@test'}})).email).toBe('new-email@test');
    expect(expectData(await main.admin.get(`/v0/users/${user.id}`)).email).toBe('new-email@test');
  });

  // The stored hash is not observable over HTTP (never rendered, no sign-in route); what is
  // observable is the 200, the row's updated_at moving (the hash column changed) and no hash leak.
  it('15.37 PUT /v0/users/<id> password + confirmation → 200 and the stored hash changes', async () => {
    const user = await createUser(main, {password: 'original-password', password_confirmation: 'original-password'});
    const res = await main.admin.put(`/v0/users/${user.id}`, {user: {password: 'update-password', password_confirmation: 'update-password'}});
    const updated = expectData(res);
    expect(Object.keys(updated)).toEqual(USER_KEYS);
    expect(res.text).not.toMatch(/password/);
    expect(updated).toEqual({...user, updated_at: expect.stringMatching(TS_RE)});
    expect(String(updated.updated_at) > String(user.updated_at)).toBe(true);
  });

  // The upstream case list says "as in case 28"; the evident meaning is case 23 (same body, same errors).
  it('15.38 PUT /v0/users/<own id> {"user":{"email":"test@test.com","password":"test1234"}} → 422 the case-23 errors', async () => {
    const p = await adminWithToken(main);
    const before = expectData(await main.admin.get(`/v0/users/${p.id}`));
    expectBody(await p.client.put(`/v0/users/${p.id}`, {user: {email: 'test@test.com', password: 'test1234'}}), 422, SHORT_PASSWORD_ERRORS);
    expect(expectData(await main.admin.get(`/v0/users/${p.id}`))).toEqual(before);
  });

  it('15.39 PUT /v0/users/<random uuid> {"user":{}} → 404 {"error":"not_found"}', async () => {
    expectNotFound(await main.admin.put(`/v0/users/${randomUUID()}`, {user: {}}));
  });

  it('15.40 DELETE /v0/users/<unprivileged id> → 204, JSON content-type, empty body; then GET → 404', async () => {
    const user = await createUser(main);
    expectNoContent(await main.admin.delete(`/v0/users/${user.id}`), JSON_CT);
    expectNotFound(await main.admin.get(`/v0/users/${user.id}`));
  });

  it('15.41 DELETE /v0/users/<email> → 204', async () => {
    const user = await createUser(main);
    expectNoContent(await main.admin.delete(`/v0/users/${encodeURIComponent(String(user.email))}`), JSON_CT);
    expectNotFound(await main.admin.get(`/v0/users/${user.id}`));
  });

  it('15.42 DELETE /v0/users/<random uuid> → 404 {"error":"not_found"}', async () => {
    expectNotFound(await main.admin.delete(`/v0/users/${randomUUID()}`));
  });

  it('15.43 DELETE /v0/users/<user with devices> → 204; the devices are gone', async () => {
    const user = await createUser(main);
    const devices = [await createDevice(main, String(user.id)), await createDevice(main, String(user.id))];
    expectNoContent(await main.admin.delete(`/v0/users/${user.id}`), JSON_CT);
    for (const device of devices) expectNotFound(await main.admin.get(`/v0/devices/${device.id}`));
    const remaining = await listIds(main.admin, '/v0/devices');
    for (const device of devices) expect(remaining).not.toContain(device.id);
  });
});

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

describe('Acceptance: Rules', () => {
  // Overlap constraints are global (docs/firezone-0.7.36.md, "Rules: overlap constraints"): every
  // case starts from an empty rule table.
  beforeEach(async () => {
    for (const id of await listIds(main.admin, '/v0/rules')) expectStatus(await main.admin.delete(`/v0/rules/${id}`), 204);
  });

  it('15.70 POST /v0/rules accept 1.1.1.1/24 udp "1 - 2" for a user → 201 echoed, Location', async () => {
    const attrs = {destination: '1.1.1.1/24', action: 'accept', port_type: 'udp', port_range: '1 - 2', user_id: main.adminId};
    const res = await main.admin.post('/v0/rules', {rule: attrs});
    const rule = expectData(res, 201);
    expect(Object.keys(rule)).toEqual(RULE_KEYS);
    expect(rule).toEqual({...attrs, id: expect.stringMatching(UUID_RE), inserted_at: expect.stringMatching(TS_RE), updated_at: rule.inserted_at});
    expect(res.headers.get('location')).toBe(`/v0/rules/${rule.id}`);
  });

  it('15.71 POST /v0/rules drop 5.5.5.5/24 tcp "1 - 65000" for a user → 201', async () => {
    const user = await createUser(main);
    const attrs = {destination: '5.5.5.5/24', action: 'drop', port_type: 'tcp', port_range: '1 - 65000', user_id: user.id};
    expect(await createRule(main, attrs)).toMatchObject(attrs);
  });

  it('15.72 POST /v0/rules {"rule":{"action":"invalid"}} → 422 exactly action + destination errors', async () => {
    expect422(await main.admin.post('/v0/rules', {rule: {action: 'invalid'}}), {action: ['is invalid'], destination: ["can't be blank"]});
  });

  it('15.73 POST /v0/rules {"rule":{"destination":"10.10.10.0/24"}} → 201 drop, no ports, global', async () => {
    expect(await createRule(main, {destination: '10.10.10.0/24'})).toMatchObject({
      destination: '10.10.10.0/24',
      action: 'drop',
      port_range: null,
      port_type: null,
      user_id: null,
    });
  });

  it('15.74 port_range without port_type / port_type without port_range → 422 exactly the missing one', async () => {
    expect422(await main.admin.post('/v0/rules', {rule: {destination: '10.74.0.0/16', port_range: '10-20'}}), {port_type: ["can't be blank"]});
    expect422(await main.admin.post('/v0/rules', {rule: {destination: '10.74.0.0/16', port_type: 'tcp'}}), {port_range: ["can't be blank"]});
  });

  it('15.75 port_range "20-10" → 422 {"errors":{"port_range":["lower value cannot be higher than upper value"]}}', async () => {
    expect422(await main.admin.post('/v0/rules', {rule: {destination: '10.75.0.0/16', port_type: 'tcp', port_range: '20-10'}}), {
      port_range: ['lower value cannot be higher than upper value'],
    });
  });

  it('15.76 existing global drop 10.10.10.1/24: accept for it → 201; user-scoped drop → 201', async () => {
    const user = await createUser(main);
    await createRule(main, {destination: '10.10.10.1/24', action: 'drop'});
    expect(await createRule(main, {destination: '10.10.10.1/24', action: 'accept'})).toMatchObject({action: 'accept', user_id: null});
    expect(await createRule(main, {destination: '10.10.10.1/24', action: 'drop', user_id: user.id})).toMatchObject({action: 'drop', user_id: user.id});
    // Control (docs/firezone-0.7.36.md, "Rules: overlap constraints"): within the same partition an overlapping rule is refused.
    expect422(await main.admin.post('/v0/rules', {rule: {destination: '10.10.10.0/24', action: 'drop'}}), {
      destination: ['destination overlaps with an existing rule'],
    });
  });

  it('15.77 port_range "80" → "80"; "100-200" → "100 - 200"', async () => {
    expect((await createRule(main, {destination: '10.77.1.0/24', port_type: 'tcp', port_range: '80'})).port_range).toBe('80');
    expect((await createRule(main, {destination: '10.77.2.0/24', port_type: 'tcp', port_range: '100-200'})).port_range).toBe('100 - 200');
  });

  // The upstream case list says "the accept params of case 91"; the evident meaning is case 70.
  it('15.78 PUT /v0/rules/<id> with the case-70 accept params minus user_id → 200 echoed; GET shows the same', async () => {
    const rule = await createRule(main, {destination: '10.78.0.0/16', action: 'drop'});
    const attrs = {destination: '1.1.1.1/24', action: 'accept', port_type: 'udp', port_range: '1 - 2'};
    const updated = expectData(await main.admin.put(`/v0/rules/${rule.id}`, {rule: attrs}));
    expect(updated).toEqual({...rule, ...attrs, updated_at: expect.stringMatching(TS_RE)});
    expect(expectData(await main.admin.get(`/v0/rules/${rule.id}`))).toEqual(updated);
  });

  it('15.79 PUT /v0/rules/<id> {"rule":{"action":"invalid"}} → 422 exactly {"errors":{"action":["is invalid"]}}', async () => {
    const rule = await createRule(main, {destination: '10.79.0.0/16'});
    expect422(await main.admin.put(`/v0/rules/${rule.id}`, {rule: {action: 'invalid'}}), {action: ['is invalid']});
  });

  it('15.80 PUT /v0/rules/<id> action and destination null → 422 exactly both "can\'t be blank"', async () => {
    const rule = await createRule(main, {destination: '10.80.0.0/16'});
    expect422(await main.admin.put(`/v0/rules/${rule.id}`, {rule: {action: null, destination: null}}), {
      action: ["can't be blank"],
      destination: ["can't be blank"],
    });
  });

  it('15.81 PUT /v0/rules/<id> {"rule":{"user_id":<existing user id>}} → 200 user_id set', async () => {
    const user = await createUser(main);
    const rule = await createRule(main, {destination: '10.81.0.0/16'});
    expect(rule.user_id).toBeNull();
    expect(expectData(await main.admin.put(`/v0/rules/${rule.id}`, {rule: {user_id: user.id}})).user_id).toBe(user.id);
    expect(expectData(await main.admin.get(`/v0/rules/${rule.id}`)).user_id).toBe(user.id);
  });

  it('15.82 GET unknown rule → 404; DELETE → 204 then GET → 404; DELETE unknown → 404', async () => {
    expectNotFound(await main.admin.get(`/v0/rules/${randomUUID()}`));
    const rule = await createRule(main, {destination: '10.82.0.0/16'});
    expect(expectData(await main.admin.get(`/v0/rules/${rule.id}`))).toEqual(rule);
    expectNoContent(await main.admin.delete(`/v0/rules/${rule.id}`), null);
    expectNotFound(await main.admin.get(`/v0/rules/${rule.id}`));
    expectNotFound(await main.admin.delete(`/v0/rules/${randomUUID()}`));
  });

  it('15.83 GET /v0/rules with 5 rules → 200, ids equal, exactly the 8 keys each', async () => {
    const ctx = await fresh();
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) ids.push(String((await createRule(ctx, {destination: `10.83.${i}.0/24`})).id));
    const list = expectList(await ctx.admin.get('/v0/rules'));
    expect(list.map((r) => String(r.id)).sort()).toEqual(ids.sort());
    for (const rule of list) expect(Object.keys(rule)).toEqual(RULE_KEYS);
  });
});

describe('Acceptance: Configuration (each case on a sandbox of its own: the configuration is a singleton)', () => {
  const OIDC = {
    auto_create_users: false,
    client_id: 'test-id',
    client_secret: 'test-secret',
    discovery_document_uri: 'https://idp.example.com/.well-known/openid-configuration',
    id: 'google',
    label: 'google',
    redirect_uri: 'https://invalid',
    response_type: 'code',
    scope: 'openid email profile',
  };
  const SAML = {
    auto_create_users: false,
    base_url: 'https://saml',
    id: 'okta',
    label: 'okta',
    metadata: SAML_METADATA,
    sign_metadata: false,
    sign_requests: false,
    signed_assertion_in_resp: false,
    signed_envelopes_in_resp: false,
  };

  it('15.84 GET /v0/configuration (A) on a fresh install → 200, the 16 keys, fresh-install values', async () => {
    const ctx = await fresh();
    const config = expectData(await ctx.admin.get('/v0/configuration'));
    expect(Object.keys(config)).toEqual(CONFIG_KEYS);
    expect(config).toEqual({
      allow_unprivileged_device_configuration: true,
      allow_unprivileged_device_management: true,
      default_client_allowed_ips: ['0.0.0.0/0', '::/0'],
      default_client_dns: ['1.1.1.1', '1.0.0.1'],
      default_client_endpoint: expect.stringMatching(/^.+:51820$/),
      default_client_mtu: 1280,
      default_client_persistent_keepalive: 25,
      disable_vpn_on_oidc_error: false,
      id: expect.stringMatching(UUID_RE),
      inserted_at: expect.stringMatching(TS_RE),
      local_auth_enabled: true,
      logo: {},
      openid_connect_providers: [],
      saml_identity_providers: [],
      updated_at: expect.stringMatching(TS_RE),
      vpn_session_duration: 0,
    });
  });

  it('15.85 after storing logo {"url":…} → GET shows logo {"data":null,"type":null,"url":…}', async () => {
    const ctx = await fresh();
    const url = 'https://example.com/logo.png';
    const logo = {data: null, type: null, url};
    expect(expectData(await ctx.admin.put('/v0/configuration', {configuration: {logo: {url}}})).logo).toEqual(logo);
    const res = await ctx.admin.get('/v0/configuration');
    expect(expectData(res).logo).toEqual(logo);
    // `/` not escaped (docs/firezone-0.7.36.md, "Response framing and headers").
    expect(res.text).toContain(`"logo":{"data":null,"type":null,"url":"${url}"}`);
  });

  it('15.86 PUT /v0/configuration with the full CCT attrs → 200; response minus id/timestamps/logo equals them', async () => {
    const ctx = await fresh();
    const attrs = {
      local_auth_enabled: false,
      allow_unprivileged_device_management: false,
      allow_unprivileged_device_configuration: false,
      disable_vpn_on_oidc_error: true,
      openid_connect_providers: [OIDC],
      saml_identity_providers: [SAML],
      vpn_session_duration: 100,
      default_client_persistent_keepalive: 1,
      default_client_mtu: 1100,
      default_client_endpoint: 'new-endpoint',
      default_client_dns: ['1.1.1.1'],
      default_client_allowed_ips: ['1.1.1.1', '2.2.2.2'],
    };
    const config = expectData(await ctx.admin.put('/v0/configuration', {configuration: attrs}));
    const {id, inserted_at, logo, updated_at, ...rest} = config;
    expect(id).toMatch(UUID_RE);
    expect(inserted_at).toMatch(TS_RE);
    expect(updated_at).toMatch(TS_RE);
    expect(logo).toEqual({});
    expect(rest).toEqual(attrs);
    expect(expectData(await ctx.admin.get('/v0/configuration'))).toEqual(config);
  });

  it('15.87 PUT {"configuration":{"local_auth_enabled":123}} → 422 exactly {"errors":{"local_auth_enabled":["is invalid"]}}', async () => {
    const ctx = await fresh();
    expect422(await ctx.admin.put('/v0/configuration', {configuration: {local_auth_enabled: 123}}), {local_auth_enabled: ['is invalid']});
  });

  it('15.88 with env LOCAL_AUTH_ENABLED=true, PUT local_auth_enabled false → 422 exactly the env-override error', async () => {
    const ctx = await fresh({env: {LOCAL_AUTH_ENABLED: 'true'}});
    expect422(await ctx.admin.put('/v0/configuration', {configuration: {local_auth_enabled: false}}), {
      local_auth_enabled: ['cannot be changed; it is overridden by LOCAL_AUTH_ENABLED environment variable'],
    });
    // Control (docs/firezone-0.7.36.md, "Environment overrides"): the guard applies only to fields that actually change.
    expect(expectData(await ctx.admin.put('/v0/configuration', {configuration: {local_auth_enabled: true}})).local_auth_enabled).toBe(true);
  });

  it('15.89 PUT default_client_dns / default_client_endpoint with spaces → 200 trimmed', async () => {
    const ctx = await fresh();
    const config = expectData(
      await ctx.admin.put('/v0/configuration', {
        configuration: {default_client_dns: ['   foobar.com', 'google.com   '], default_client_endpoint: '   127.0.0.1    '},
      }),
    );
    expect(config.default_client_dns).toEqual(['foobar.com', 'google.com']);
    expect(config.default_client_endpoint).toBe('127.0.0.1');
  });

  it('15.90 PUT {"configuration":{"default_client_endpoint":"123"}} → 200 (accepted)', async () => {
    const ctx = await fresh();
    expect(expectData(await ctx.admin.put('/v0/configuration', {configuration: {default_client_endpoint: '123'}})).default_client_endpoint).toBe('123');
  });

  it('15.91 OIDC provider with id "saml" → 422 {"errors":{"openid_connect_providers":[{"id":["is reserved"]}]}}', async () => {
    const ctx = await fresh();
    const provider = {
      id: 'saml',
      label: 'x',
      client_id: 'a',
      client_secret: 'b',
      discovery_document_uri: 'https://idp.example.com/.well-known/openid-configuration',
      auto_create_users: false,
    };
    expect422(await ctx.admin.put('/v0/configuration', {configuration: {openid_connect_providers: [provider]}}), {
      openid_connect_providers: [{id: ['is reserved']}],
    });
    expect(expectData(await ctx.admin.get('/v0/configuration')).openid_connect_providers).toEqual([]);
  });

  it('15.92 OIDC provider without client_secret / response_type "token" / redirect_uri "ftp://x" → 422 per-provider errors', async () => {
    const ctx = await fresh();
    const put = (provider: Row) => ctx.admin.put('/v0/configuration', {configuration: {openid_connect_providers: [provider]}});
    const {client_secret: _secret, ...withoutSecret} = OIDC;
    expect422(await put(withoutSecret), {openid_connect_providers: [{client_secret: ["can't be blank"]}]});
    expect422(await put({...OIDC, response_type: 'token'}), {openid_connect_providers: [{response_type: ['is invalid']}]});
    expect422(await put({...OIDC, redirect_uri: 'ftp://x'}), {openid_connect_providers: [{redirect_uri: ['only http, https schemes are supported']}]});
    // Control: the same provider with the valid values is accepted.
    expect(expectData(await put(OIDC)).openid_connect_providers).toEqual([OIDC]);
  });

  it('15.93 PUT {"configuration":{"openid_connect_providers":[]}} → 200, providers [] (list replaced)', async () => {
    const ctx = await fresh();
    expect(expectData(await ctx.admin.put('/v0/configuration', {configuration: {openid_connect_providers: [OIDC]}})).openid_connect_providers).toEqual([OIDC]);
    expect(expectData(await ctx.admin.put('/v0/configuration', {configuration: {openid_connect_providers: []}})).openid_connect_providers).toEqual([]);
    expect(expectData(await ctx.admin.get('/v0/configuration')).openid_connect_providers).toEqual([]);
  });

  it('15.94 SAML provider without metadata → 422; without base_url → base_url = EXTERNAL_URL joined with /auth/saml', async () => {
    const ctx = await fresh({env: {EXTERNAL_URL: 'https://vpn.example.test'}});
    const {metadata: _metadata, ...withoutMetadata} = SAML;
    expect422(await ctx.admin.put('/v0/configuration', {configuration: {saml_identity_providers: [withoutMetadata]}}), {
      saml_identity_providers: [{metadata: ["can't be blank"]}],
    });
    const {base_url: _baseUrl, ...withoutBaseUrl} = SAML;
    const stored = expectData(await ctx.admin.put('/v0/configuration', {configuration: {saml_identity_providers: [withoutBaseUrl]}}));
    expect(stored.saml_identity_providers).toEqual([{...SAML, base_url: 'https://vpn.example.test/auth/saml'}]);
  });

  it('15.95 PUT /v0/configuration without a token → 401 {"errors":{"auth":"unauthenticated"}}', async () => {
    const ctx = await fresh();
    const before = expectData(await ctx.admin.get('/v0/configuration'));
    expectAuthError(await ctx.anon.put('/v0/configuration', {configuration: {default_client_mtu: 1400}}), 'unauthenticated');
    expect(expectData(await ctx.admin.get('/v0/configuration'))).toEqual(before);
  });

  it('15.96 PATCH /v0/configuration behaves exactly like PUT', async () => {
    const ctx = await fresh();
    const before = expectData(await ctx.admin.get('/v0/configuration'));
    // Partial update: absent keys unchanged.
    const patched = expectData(await ctx.admin.patch('/v0/configuration', {configuration: {default_client_mtu: 1400}}));
    expect(patched).toEqual({...before, default_client_mtu: 1400, updated_at: expect.stringMatching(TS_RE)});
    const put = expectData(await ctx.admin.put('/v0/configuration', {configuration: {default_client_mtu: 1400}}));
    expect({...put, updated_at: null}).toEqual({...patched, updated_at: null});
    expect422(await ctx.admin.patch('/v0/configuration', {configuration: {local_auth_enabled: 123}}), {local_auth_enabled: ['is invalid']});
    expectAuthError(await ctx.anon.patch('/v0/configuration', {configuration: {default_client_mtu: 1300}}), 'unauthenticated');
    // Missing wrapper, as for PUT (docs/firezone-0.7.36.md, "Empty-body 500s").
    expectEmpty500(await ctx.admin.patch('/v0/configuration', {default_client_mtu: 1300}));
  });
});

describe('Acceptance: Protocol-level', () => {
  it('15.97 POST /v0/users with a malformed JSON body → 500 empty body (0.7.36), nothing created', async () => {
    const email = uniqueEmail('malformed');
    expectEmpty500(await main.admin.post('/v0/users', undefined, {rawBody: `{"user":{"email":"${email}"`}));
    expectNotFound(await main.admin.get(`/v0/users/${email}`));
  });

  it('15.98 DELETE /v0/configuration with Accept: application/json → 404 {"error":"not_found"}', async () => {
    expectNotFound(await main.admin.delete('/v0/configuration', {accept: 'application/json'}));
    // docs/firezone-0.7.36.md, "Routes", "Empty-body 500s": the same unknown route without a JSON Accept renders the
    // html error page → empty 500.
    expectEmpty500(await main.admin.delete('/v0/configuration', {accept: '*/*'}));
  });

  it('15.99 HEAD /v0/users (A) → 200, no body', async () => {
    const res = await main.admin.head('/v0/users');
    expectStatus(res, 200);
    expect(res.text).toBe('');
    expect(res.headers.get('content-type')).toBe(JSON_CT);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    // Control: HEAD is authenticated like GET.
    expectStatus(await main.anon.head('/v0/users'), 401);
  });

  it('15.100 POST /v0/rules with a form body rule[destination]=10.20.0.0/16 → 201', async () => {
    const form = 'application/x-www-form-urlencoded';
    const literal = await main.admin.post('/v0/rules', undefined, {rawBody: 'rule[destination]=10.20.0.0/16', contentType: form});
    expect(expectData(literal, 201)).toMatchObject({destination: '10.20.0.0/16', action: 'drop', user_id: null});
    // The percent-encoded spelling browsers and URLSearchParams produce.
    const encoded = new URLSearchParams({'rule[destination]': '10.21.0.0/16', 'rule[action]': 'accept'}).toString();
    const res = await main.admin.post('/v0/rules', undefined, {rawBody: encoded, contentType: form});
    expect(expectData(res, 201)).toMatchObject({destination: '10.21.0.0/16', action: 'accept'});
  });

  it('15.101 every 2xx JSON response carries content-type application/json; charset=utf-8 and an x-request-id', async () => {
    const user = await createUser(main);
    const device = await createDevice(main, String(user.id));
    const rule = await createRule(main, {destination: '10.101.0.0/16'});
    const responses = [
      await main.admin.get('/v0/users'),
      await main.admin.get(`/v0/users/${user.id}`),
      await main.admin.post('/v0/users', {user: {email: uniqueEmail()}}),
      await main.admin.put(`/v0/users/${user.id}`, {user: {}}),
      await main.admin.patch(`/v0/users/${user.id}`, {user: {}}),
      await main.admin.get('/v0/devices'),
      await main.admin.get(`/v0/devices/${device.id}`),
      await main.admin.post('/v0/devices', {device: {user_id: user.id, public_key: publicKey()}}),
      await main.admin.put(`/v0/devices/${device.id}`, {device: {description: 'd101'}}),
      await main.admin.patch(`/v0/devices/${device.id}`, {device: {description: 'd101b'}}),
      await main.admin.get('/v0/rules'),
      await main.admin.get(`/v0/rules/${rule.id}`),
      await main.admin.post('/v0/rules', {rule: {destination: '10.102.0.0/16'}}),
      await main.admin.put(`/v0/rules/${rule.id}`, {rule: {action: 'accept'}}),
      await main.admin.patch(`/v0/rules/${rule.id}`, {rule: {action: 'drop'}}),
      await main.admin.get('/v0/configuration'),
      await main.admin.put('/v0/configuration', {configuration: {}}),
      await main.admin.patch('/v0/configuration', {configuration: {}}),
    ];
    const requestIds = new Set<string>();
    for (const res of responses) {
      expect(res.status, describeResponse(res)).toBeGreaterThanOrEqual(200);
      expect(res.status, describeResponse(res)).toBeLessThan(300);
      expectJson(res, res.status);
      // docs/firezone-0.7.36.md, "Response framing and headers"
      expect(res.headers.get('cache-control'), describeResponse(res)).toBe('max-age=0, private, must-revalidate');
      requestIds.add(String(res.headers.get('x-request-id')));
    }
    expect(requestIds.size).toBe(responses.length); // a fresh id per request
  });
});
