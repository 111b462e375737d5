// Property: whatever a client sends, a 422 has the shape of docs/firezone-0.7.36.md, "Validation errors (422)",
// and every empty 500 is one of the
// deliberate 0.7.36 crashes (never a sandbox bug).
import fc from 'fast-check';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSandbox, type SandboxHandle} from '../../src/sandbox/index.js';
import {data, publicKey, send} from './helpers.js';

let sb: SandboxHandle;
const log: string[] = [];
let ownerId: string;

beforeAll(async () => {
  sb = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0, log: (l) => log.push(l)});
  const users = data<Array<{id: string}>>(await send(sb.url, 'GET', '/v0/users', {token: sb.adminToken}));
  ownerId = users[0]!.id;
});

afterAll(async () => {
  await sb.close();
});

const isStringList = (v: unknown): boolean => Array.isArray(v) && v.length > 0 && v.every((m) => typeof m === 'string' && m.length > 0);
const isFieldErrors = (v: unknown): boolean => !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every(isStringList);

/** `{"errors": {field: [msg…]}}`, with provider lists as aligned lists of field-error objects and the logo as an object. */
function has422Shape(body: unknown): boolean {
  if (!body || typeof body !== 'object' || Object.keys(body).join() !== 'errors') return false;
  const errors = (body as {errors: unknown}).errors;
  if (!errors || typeof errors !== 'object' || Array.isArray(errors) || Object.keys(errors).length === 0) return false;
  return Object.entries(errors).every(([field, value]) => {
    if (field === 'openid_connect_providers' || field === 'saml_identity_providers') {
      return isStringList(value) || (Array.isArray(value) && value.every((e) => isFieldErrors(e) || (e && Object.keys(e).length === 0)));
    }
    if (field === 'logo') return isStringList(value) || isFieldErrors(value);
    return isStringList(value);
  });
}

const scalar = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({min: -70000, max: 70000}),
  fc.constant(''),
  fc.constant('  '),
  fc.string({maxLength: 12}),
  fc.constantFrom(
    'admin',
    'accept',
    'drop',
    'tcp',
    'udp',
    '80',
    '1-2',
    '20-10',
    '10.3.2.9',
    'fd00::3:2:9',
    '1.1.1.1/32',
    '10.0.0.0/33',
    'x@y',
    'true',
    'false',
    '!!!',
    'vpn.example.com:51820',
    '[fd00::1]:80',
    'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
  ),
);
const value = fc.oneof(
  {weight: 4, arbitrary: scalar},
  {weight: 1, arbitrary: fc.array(scalar, {maxLength: 3})},
  {weight: 1, arbitrary: fc.dictionary(fc.constantFrom('id', 'label', 'url', 'file', 'metadata', 'scope'), scalar)},
);

function attrs(keys: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.dictionary(fc.constantFrom(...keys), value, {maxKeys: 6});
}

const USER_KEYS = ['email', 'role', 'password', 'password_confirmation'];
const DEVICE_KEYS = [
  'name',
  'description',
  'public_key',
  'preshared_key',
  'ipv4',
  'ipv6',
  'use_default_allowed_ips',
  'allowed_ips',
  'use_default_dns',
  'dns',
  'use_default_endpoint',
  'endpoint',
  'use_default_mtu',
  'mtu',
  'use_default_persistent_keepalive',
  'persistent_keepalive',
];
const RULE_KEYS = ['action', 'destination', 'port_type', 'port_range', 'user_id'];
const CONFIG_KEYS = [
  'local_auth_enabled',
  'allow_unprivileged_device_management',
  'default_client_mtu',
  'default_client_persistent_keepalive',
  'default_client_endpoint',
  'default_client_dns',
  'default_client_allowed_ips',
  'vpn_session_duration',
  'logo',
  'openid_connect_providers',
  'saml_identity_providers',
];

// See docs/firezone-0.7.36.md, "Validation errors (422)".
describe('422 bodies', () => {
  it('always have the documented shape, and every 500 is a deliberate crash', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          attrs(USER_KEYS).map((a) => ['/v0/users', {user: a}] as const),
          attrs(DEVICE_KEYS).map((a) => ['/v0/devices', {device: {user_id: ownerId, public_key: publicKey(), ...a}}] as const),
          attrs(RULE_KEYS).map((a) => ['/v0/rules', {rule: a}] as const),
          attrs(CONFIG_KEYS).map((a) => ['/v0/configuration', {configuration: a}] as const),
        ),
        async ([path, body]) => {
          const method = path === '/v0/configuration' ? 'PUT' : 'POST';
          const res = await send(sb.url, method, path, {token: sb.adminToken, body});
          expect([200, 201, 404, 422, 500], res.text).toContain(res.status);
          if (res.status === 422) expect(has422Shape(res.json), res.text).toBe(true);
          if (res.status === 500) expect(res.text).toBe('');
        },
      ),
      {numRuns: 400},
    );
    expect(log.filter((l) => l.includes('sandbox error'))).toEqual([]);
  });
});
