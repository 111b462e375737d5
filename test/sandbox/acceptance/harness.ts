// The acceptance suite's shared part: constants from the behaviour doc, the sandboxes, the
// assertions and the request helpers. The cases themselves are in the *.test.ts files of this
// folder, one per area of docs/firezone-0.7.36.md, "Acceptance cases".
//
// Acceptance suite for the sandbox: every acceptance case from "Authentication" through
// "Protocol-level" (cases 1–101), run over real HTTP against an in-process sandbox. These files are
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
import {afterAll, beforeAll, expect, onTestFinished} from 'vitest';
import {startSandbox} from '../../../src/sandbox/index.js';
import {httpClient, type HttpClient, type HttpResponse} from '../../helpers/http.js';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
export type SandboxOptions = NonNullable<Parameters<typeof startSandbox>[0]>;
export type Row = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Constants from the behaviour doc

export const JWT_SECRET = 'acceptance-suite-guardian-secret-key-0123456789abcdefghijklmnopqrstuvwxyz';
export const JSON_CT = 'application/json; charset=utf-8';
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const TS_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
export const KEY_RE = /^[A-Za-z0-9+/]{43}=$/;
export const UNKNOWN_UUID = '003da73d-2dd9-4492-8136-3282843545e8';
export const NON_HEX_UUID = 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz';

// Wire order, ascending (docs/firezone-0.7.36.md, "Key order and JSON shapes").
export const USER_KEYS = ['disabled_at', 'email', 'id', 'inserted_at', 'last_signed_in_at', 'last_signed_in_method', 'role', 'updated_at'];
export const DEVICE_KEYS = [
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
export const RULE_KEYS = ['action', 'destination', 'id', 'inserted_at', 'port_range', 'port_type', 'updated_at', 'user_id'];
export const CONFIG_KEYS = [
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

export const UNAUTHORIZED = {error: 'Unauthorized'};
export const NOT_FOUND = {error: 'not_found'};
// Case 23 (and 38): the upstream example error.
export const SHORT_PASSWORD_ERRORS = {errors: {password: ['should be at least 12 character(s)'], password_confirmation: ["can't be blank"]}};

export const SAML_METADATA =
  '<?xml version="1.0" encoding="UTF-8"?>' +
  '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.com/metadata">' +
  '<IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">' +
  '<SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example.com/sso"/>' +
  '</IDPSSODescriptor></EntityDescriptor>';

// ---------------------------------------------------------------------------------------------
// Sandboxes

export interface Ctx {
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

export async function open(options: SandboxOptions = {}): Promise<Ctx> {
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
export async function fresh(options: SandboxOptions = {}): Promise<Ctx> {
  const ctx = await open(options);
  onTestFinished(() => ctx.sb.close());
  return ctx;
}

/** The test file's shared sandbox (seed 'empty'), open while its tests run: see useSharedSandbox. */
export let main: Ctx;

/** Opens the shared sandbox before the calling test file's tests and closes it after them. */
export function useSharedSandbox(): void {
  beforeAll(async () => {
    main = await open();
  });
  afterAll(async () => {
    await main?.sb.close();
  });
}

// ---------------------------------------------------------------------------------------------
// Assertions

export function describeResponse(res: HttpResponse): string {
  return `${res.method} ${res.path} → ${res.status} ${JSON.stringify(res.text.slice(0, 800))}`;
}

export function expectStatus(res: HttpResponse, status: number): void {
  expect(res.status, describeResponse(res)).toBe(status);
}

/** Keys in ascending byte order in every object at every depth (docs/firezone-0.7.36.md, "Key order and JSON shapes"). */
export function expectSortedKeys(value: unknown, where = '$'): void {
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
export function canonical(value: unknown): string {
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
export function expectJson(res: HttpResponse, status: number): Row {
  expectStatus(res, status);
  expect(res.headers.get('content-type'), describeResponse(res)).toBe(JSON_CT);
  expect(res.headers.get('x-request-id'), describeResponse(res)).toBeTruthy();
  expect(res.json, describeResponse(res)).toBeTypeOf('object');
  expectSortedKeys(res.json);
  return res.json as Row;
}

/** The whole body, compared as a value and byte for byte. */
export function expectBody(res: HttpResponse, status: number, body: unknown): void {
  expect(expectJson(res, status), describeResponse(res)).toEqual(body);
  expect(res.text).toBe(canonical(body));
}

export function expectData(res: HttpResponse, status = 200): Row {
  const json = expectJson(res, status);
  expect(Object.keys(json), describeResponse(res)).toEqual(['data']);
  expect(json.data, describeResponse(res)).toBeTypeOf('object');
  expect(Array.isArray(json.data)).toBe(false);
  return json.data as Row;
}

export function expectList(res: HttpResponse): Row[] {
  const json = expectJson(res, 200);
  expect(Object.keys(json), describeResponse(res)).toEqual(['data']);
  expect(Array.isArray(json.data), describeResponse(res)).toBe(true);
  return json.data as Row[];
}

/** The 0.7.36 double fault (docs/firezone-0.7.36.md, "Empty-body 500s"): HTTP 500, empty body, content-length 0. */
export function expectEmpty500(res: HttpResponse): void {
  expectStatus(res, 500);
  expect(res.text, describeResponse(res)).toBe('');
  expect(res.headers.get('content-length'), describeResponse(res)).toBe('0');
}

/** DELETE success (docs/firezone-0.7.36.md, "Response framing and headers"): 204, empty body; content-type only on users DELETE. */
export function expectNoContent(res: HttpResponse, contentType: string | null): void {
  expectStatus(res, 204);
  expect(res.text).toBe('');
  expect(res.headers.get('content-type'), describeResponse(res)).toBe(contentType);
  expect(res.headers.get('x-request-id'), describeResponse(res)).toBeTruthy();
}

export const expectNotFound = (res: HttpResponse) => expectBody(res, 404, NOT_FOUND);
export const expectUnauthorized = (res: HttpResponse) => expectBody(res, 401, UNAUTHORIZED);
export const expectAuthError = (res: HttpResponse, type: string) => expectBody(res, 401, {errors: {auth: type}});
export const expect422 = (res: HttpResponse, errors: Row) => expectBody(res, 422, {errors});

export function expectTimestamps(row: Row): void {
  expect(row.inserted_at).toMatch(TS_RE);
  expect(row.updated_at).toMatch(TS_RE);
}

// ---------------------------------------------------------------------------------------------
// Fixtures

export let emailSeq = 0;
export function uniqueEmail(tag = 'user'): string {
  emailSeq += 1;
  return `${tag}-${emailSeq}-${randomBytes(3).toString('hex')}@acceptance.test`;
}

/** A valid WireGuard public key: base64 of an X25519 public key (44 chars). */
export function publicKey(): string {
  // Encoded by the key-generation job itself: a JWK export of a generated key can hang Node 20 (src/wireguard/keys.ts).
  const {publicKey: der} = generateKeyPairSync('x25519', {
    publicKeyEncoding: {type: 'spki', format: 'der'},
    privateKeyEncoding: {type: 'pkcs8', format: 'der'},
  });
  return der.subarray(12).toString('base64');
}

export function presharedKey(): string {
  return randomBytes(32).toString('base64');
}

export async function createUser(ctx: Ctx, attrs: Row = {}): Promise<Row> {
  const res = await ctx.admin.post('/v0/users', {user: {email: uniqueEmail(), ...attrs}});
  return expectData(res, 201);
}

export interface TokenRow {
  token: string;
  id: string;
}

/** POST /_sandbox/tokens: a token row for the user and its JWT. */
export async function mintToken(ctx: Ctx, userId: string, expiresInDays = 30): Promise<TokenRow> {
  const res = await ctx.admin.post('/_sandbox/tokens', {user_id: userId, expires_in_days: expiresInDays});
  expectStatus(res, 201);
  const body = res.json as TokenRow;
  expect(body.token).toBeTypeOf('string');
  expect(body.id).toMatch(UUID_RE);
  return body;
}

export interface Principal {
  label: string;
  id: string;
  token: string;
  client: HttpClient;
}

export async function adminWithToken(ctx: Ctx): Promise<Principal & {tokenId: string}> {
  const user = await createUser(ctx, {role: 'admin'});
  expect(user.role).toBe('admin');
  const row = await mintToken(ctx, String(user.id));
  return {label: 'admin', id: String(user.id), token: row.token, tokenId: row.id, client: ctx.as(row.token)};
}

/** `U` (the conventions in docs/firezone-0.7.36.md, "Acceptance cases"): an admin's token, the admin then demoted to unprivileged. */
export async function demoted(ctx: Ctx): Promise<Principal> {
  const p = await adminWithToken(ctx);
  expectJson(await p.client.get('/v0/users'), 200); // it worked while the user was an admin
  const res = await ctx.admin.put(`/v0/users/${p.id}`, {user: {role: 'unprivileged'}});
  expect(expectData(res).role).toBe('unprivileged');
  return {...p, label: 'U (demoted admin)'};
}

/** The two unprivileged principals every permission case runs for: `U` and the seed's unprivileged token. */
export async function principals(ctx: Ctx): Promise<Principal[]> {
  return [
    await demoted(ctx),
    {label: 'seed unprivileged (unprivilegedToken)', id: ctx.seedUserId, token: ctx.sb.unprivilegedToken, client: ctx.as(ctx.sb.unprivilegedToken)},
  ];
}

export async function createDevice(ctx: Ctx, userId: string, attrs: Row = {}): Promise<Row> {
  const res = await ctx.admin.post('/v0/devices', {device: {user_id: userId, public_key: publicKey(), ...attrs}});
  return expectData(res, 201);
}

export async function createRule(ctx: Ctx, attrs: Row): Promise<Row> {
  return expectData(await ctx.admin.post('/v0/rules', {rule: attrs}), 201);
}

export async function listIds(client: HttpClient, path: string): Promise<string[]> {
  return expectList(await client.get(path))
    .map((row) => String(row.id))
    .sort();
}

export async function devicesOf(ctx: Ctx, userId: string): Promise<string[]> {
  return expectList(await ctx.admin.get('/v0/devices'))
    .filter((d) => d.user_id === userId)
    .map((d) => String(d.id))
    .sort();
}

/** An IPv4 address of the default network 10.3.2.0/24 that no device holds (explicit addresses may be any host). */
export async function freeIpv4(ctx: Ctx): Promise<string> {
  const used = new Set(expectList(await ctx.admin.get('/v0/devices')).map((d) => d.ipv4));
  for (let host = 250; host >= 2; host--) if (!used.has(`10.3.2.${host}`)) return `10.3.2.${host}`;
  throw new Error('no free IPv4 address');
}

/** An IPv6 address of the default network fd00::3:2:0/120 that no device holds. */
export async function freeIpv6(ctx: Ctx): Promise<string> {
  const used = new Set(expectList(await ctx.admin.get('/v0/devices')).map((d) => d.ipv6));
  for (let host = 0xfa; host >= 2; host--) if (!used.has(`fd00::3:2:${host.toString(16)}`)) return `fd00::3:2:${host.toString(16)}`;
  throw new Error('no free IPv6 address');
}

/** The DCT `@params` (device_controller_test.exs) with fresh keys and addresses inside the networks. */
export async function dctParams(ctx: Ctx): Promise<Row> {
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

export function ipv4ToInt(ip: string): number {
  const parts = ip.split('.').map(Number);
  expect(parts.length, ip).toBe(4);
  for (const part of parts) expect(Number.isInteger(part) && part >= 0 && part <= 255, ip).toBe(true);
  return parts.reduce((acc, part) => acc * 256 + part, 0);
}

/** The eight hextets of an IPv6 address (no embedded IPv4 form expected here). */
export function ipv6Hextets(ip: string): number[] {
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

export function signJwt(claims: Row, secret = JWT_SECRET, alg: 'HS512' | 'HS256' = 'HS512'): string {
  const header = Buffer.from(JSON.stringify({alg, typ: 'JWT'})).toString('base64url');
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = createHmac(alg === 'HS512' ? 'sha512' : 'sha256', Buffer.from(secret, 'utf8'))
    .update(`${header}.${payload}`)
    .digest('base64url');
  return `${header}.${payload}.${signature}`;
}

export function claims(api: string, sub: string, overrides: Row = {}): Row {
  const now = Math.floor(Date.now() / 1000);
  return {api, exp: now + 3600, sub, iss: 'fz_http', aud: 'fz_http', typ: 'access', iat: now, nbf: now - 1, jti: randomUUID(), ...overrides};
}
