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

describe('the changeset, rule by rule (Ecto 3.9 as 0.7.36 uses it)', async () => {
  const {Changeset, valueEquals, castArray, castBoolean, castEnum, castInteger, castString, numberErrors} = await import('../../src/sandbox/changeset.js');
  const {castInet} = await import('../../src/sandbox/inet.js');

  it('values are equal by shape: lists element by element, addresses as addresses, maps key by key', () => {
    expect(valueEquals(null, null)).toBe(true);
    expect(valueEquals(null, undefined)).toBe(false);
    expect(valueEquals(undefined, 'x')).toBe(false);
    expect(valueEquals('x', null)).toBe(false);
    expect(valueEquals(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(valueEquals(['a', 'b'], ['a'])).toBe(false);
    expect(valueEquals(['a', 'b'], ['a', 'c'])).toBe(false);
    expect(valueEquals(castInet('10.0.0.1'), castInet('10.0.0.1'))).toBe(true);
    expect(castInet('10.0.0.1')).not.toBe(castInet('10.0.0.1'));
    expect(valueEquals(castInet('10.0.0.1'), castInet('10.0.0.2'))).toBe(false);
    expect(valueEquals({a: 1, b: [1]}, {a: 1, b: [1]})).toBe(true);
    expect(valueEquals({a: 1}, {a: 1, b: 2})).toBe(false);
    expect(valueEquals({a: 1}, {a: 2})).toBe(false);
    expect(valueEquals(['a'], {0: 'a'})).toBe(false);
    expect(valueEquals({0: 'a'}, ['a'])).toBe(false);
    expect(valueEquals(1, '1')).toBe(false);
  });

  it('casts: absent is no change, "" is the default, nil stays nil, equal to the data is no change, a failed cast is the first error', () => {
    const cs = new Changeset({name: 'old', mtu: 1280, tags: ['a'], flag: null}, {name: 'old', mtu: '', tags: ['a', ''], flag: null, bad: 1.5});
    cs.cast('name', castString);
    cs.cast('mtu', castInteger, 1420);
    cs.cast('tags', castArray(castString));
    cs.cast('flag', castBoolean);
    cs.cast('bad', castInteger);
    cs.cast('absent', castString);
    expect(cs.hasChange('name')).toBe(false);
    expect(cs.change('mtu')).toBe(1420);
    expect(cs.hasChange('tags')).toBe(false);
    expect(cs.hasChange('flag')).toBe(false);
    expect(cs.supplied('absent')).toBe(false);
    expect(cs.errorsJson()).toEqual({bad: ['is invalid']});
    expect(cs.valid).toBe(false);
  });

  it('errors are prepended, a block keeps its order, validate_required skips fields with an error and drops their change', () => {
    const cs = new Changeset({}, {name: '  ', email: 'x', port: 70000});
    cs.cast('name', castString);
    cs.cast('email', castString);
    cs.cast('port', castInteger);
    cs.validateFormat('email', /@/, 'has invalid format');
    cs.addErrors('email', ['one', 'two']);
    cs.validateNumber('port', {gte: 1, lte: 65535});
    cs.validateRequired(['name', 'email', 'missing']);
    expect(cs.hasChange('name')).toBe(false);
    expect(cs.errorsJson()).toEqual({
      name: ["can't be blank"],
      missing: ["can't be blank"],
      port: ['must be less than or equal to 65535'],
      email: ['one', 'two', 'has invalid format'],
    });
    cs.setNested('providers', [{}, {id: ['is invalid']}]);
    expect(cs.hasError('providers')).toBe(true);
    expect(cs.errorsJson().providers).toEqual([{}, {id: ['is invalid']}]);
  });

  it('length counts graphemes (and CRLF as one), list items, and says which bound failed', () => {
    const check = (value: unknown, opts: {min?: number; max?: number; is?: number}) => {
      const cs = new Changeset({}, {v: value});
      cs.cast('v', (x) => ({ok: true, value: x}));
      cs.validateLength('v', opts);
      return cs.errorsJson().v ?? [];
    };
    expect(check('e\u0301e\u0301', {max: 2})).toEqual([]);
    expect(check('a\r\nb', {max: 3})).toEqual([]);
    expect(check('a\r\nb', {max: 2})).toEqual(['should be at most 2 character(s)']);
    expect(check('abc', {max: 2})).toEqual(['should be at most 2 character(s)']);
    expect(check('abc', {min: 4})).toEqual(['should be at least 4 character(s)']);
    expect(check('abc', {is: 2})).toEqual(['should be 2 character(s)']);
    expect(check('abc', {min: 3, max: 3, is: 3})).toEqual([]);
    expect(check(['a'], {min: 2})).toEqual(['should have at least 2 item(s)']);
    expect(check(['a', 'b'], {max: 1})).toEqual(['should have at most 1 item(s)']);
    expect(check(['a'], {is: 2})).toEqual(['should have 2 item(s)']);
    expect(check('日本語', {max: 3})).toEqual([]);
  });

  it('numbers, inclusion, exclusion and the primitive casts', () => {
    expect(numberErrors(5, {gt: 5})).toEqual(['must be greater than 5']);
    expect(numberErrors(6, {gt: 5})).toEqual([]);
    expect(numberErrors(0, {gte: 1})).toEqual(['must be greater than or equal to 1']);
    expect(numberErrors(1, {gte: 1, lte: 1})).toEqual([]);
    const cs = new Changeset({}, {a: 'x', b: 'y'});
    cs.cast('a', castString);
    cs.cast('b', castString);
    cs.validateInclusion('a', ['y']);
    cs.validateExclusion('b', ['y']);
    expect(cs.errorsJson()).toEqual({a: ['is invalid'], b: ['is reserved']});
    expect([castBoolean('true'), castBoolean('1'), castBoolean('false'), castBoolean('0'), castBoolean(true), castBoolean('yes')]).toEqual([
      {ok: true, value: true},
      {ok: true, value: true},
      {ok: true, value: false},
      {ok: true, value: false},
      {ok: true, value: true},
      {ok: false},
    ]);
    expect([castInteger(3), castInteger('-4'), castInteger('+5'), castInteger('5x'), castInteger(1.5)]).toEqual([
      {ok: true, value: 3},
      {ok: true, value: -4},
      {ok: true, value: 5},
      {ok: false},
      {ok: false},
    ]);
    expect(castEnum(['a'])('a')).toEqual({ok: true, value: 'a'});
    expect(castEnum(['a'])('b')).toEqual({ok: false});
    expect(castArray(castString)(['a', '', 'b'])).toEqual({ok: true, value: ['a', 'b']});
    expect(castArray(castString)(['a', null])).toEqual({ok: false});
    expect(castArray(castString)(['a', 1])).toEqual({ok: false});
    expect(castArray(castString)('a')).toEqual({ok: false});
    expect(castString(1)).toEqual({ok: false});
  });

  it('update keeps "no change" when the new value equals the data', () => {
    const cs = new Changeset({name: 'a'}, {name: ' a '});
    cs.cast('name', castString);
    expect(cs.change('name')).toBe(' a ');
    cs.update('name', (v) => (v as string).trim());
    expect(cs.hasChange('name')).toBe(false);
    cs.update('name', () => 'b');
    expect(cs.hasChange('name')).toBe(false);
    cs.put('name', 'c');
    cs.drop('name');
    expect(cs.get('name')).toBe('a');
  });
});
