import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {Configuration, Device, Rule, User} from '../../src/api/schemas.js';
import {decodeConfigurationFast, isDeviceFast, isRuleFast, isUserFast} from '../../src/api/guards.js';
import {device, rule, user} from '../fixtures/data.js';

// Values of every JSON type, to put in any field.
const anyJson = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.array(fc.string(), {maxLength: 3}),
  fc.array(fc.integer(), {maxLength: 2}),
  fc.constant({}),
  fc.constant('2026-01-01T00:00:00.000000Z'),
  fc.constant(undefined),
);
const keys = Object.keys(device()) as Array<keyof ReturnType<typeof device>>;

describe('isDeviceFast', () => {
  it('accepts exactly what the zod Device schema accepts (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...keys), anyJson), {maxLength: 3}), fc.boolean(), (edits, extra) => {
        const candidate: Record<string, unknown> = {...device()};
        for (const [key, value] of edits) {
          if (value === undefined) delete candidate[key];
          else candidate[key] = value;
        }
        if (extra) candidate.unknown_field = 1;
        expect(isDeviceFast(candidate)).toBe(Device.safeParse(candidate).success);
      }),
      {numRuns: 3000},
    );
  });

  it('rejects non-objects and a float where an integer belongs', () => {
    expect(isDeviceFast(null)).toBe(false);
    expect(isDeviceFast([])).toBe(false);
    expect(isDeviceFast({...device(), rx_bytes: 1.5})).toBe(false);
    expect(isDeviceFast({...device(), latest_handshake: 'yesterday'})).toBe(false);
    expect(isDeviceFast(device())).toBe(true);
  });
});

// The user and rule guards, the same way; their enums get the values either side of the line.
const enumish = fc.oneof(anyJson, fc.constantFrom('admin', 'unprivileged', 'Admin', 'accept', 'drop', 'tcp', 'udp', 'TCP', 'reject'));

describe.each([
  {name: 'isUserFast', guard: isUserFast, schema: User, base: user() as Record<string, unknown>},
  {name: 'isRuleFast', guard: isRuleFast, schema: Rule, base: rule() as Record<string, unknown>},
])('$name', ({guard, schema, base}) => {
  it('accepts exactly what the zod schema accepts (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...Object.keys(base)), enumish), {maxLength: 3}), fc.boolean(), (edits, extra) => {
        const candidate: Record<string, unknown> = {...base};
        for (const [key, value] of edits) {
          if (value === undefined) delete candidate[key];
          else candidate[key] = value;
        }
        if (extra) candidate.unknown_field = 1;
        expect(guard(candidate)).toBe(schema.safeParse(candidate).success);
      }),
      {numRuns: 3000},
    );
    expect(guard(base)).toBe(true);
    expect(guard(null)).toBe(false);
    expect(guard([])).toBe(false);
  });
});

// The configuration decodes fast too (the first poll needs it before zod loads). It is not a pure
// guard: like the schema, it fills an absent provider redirect_uri/base_url with null.
describe('decodeConfigurationFast', () => {
  const oidc = {
    id: 'okta',
    label: 'Okta',
    scope: 'openid email profile',
    response_type: 'code',
    client_id: 'cid',
    client_secret: 'secret',
    discovery_document_uri: 'https://example.okta.com/.well-known/openid-configuration',
    redirect_uri: null,
    auto_create_users: true,
  };
  const saml = {
    id: 'adfs',
    label: 'ADFS',
    base_url: 'https://vpn.example.com/auth/saml',
    metadata: '<EntityDescriptor/>',
    sign_requests: true,
    sign_metadata: true,
    signed_assertion_in_resp: true,
    signed_envelopes_in_resp: true,
    auto_create_users: false,
  };
  const base = (): Record<string, unknown> => ({
    id: 'c-1',
    allow_unprivileged_device_configuration: true,
    allow_unprivileged_device_management: null,
    default_client_allowed_ips: ['0.0.0.0/0', '::/0'],
    default_client_dns: null,
    default_client_endpoint: 'vpn.example.com:51820',
    default_client_mtu: 1280,
    default_client_persistent_keepalive: null,
    disable_vpn_on_oidc_error: false,
    local_auth_enabled: true,
    vpn_session_duration: 0,
    logo: {},
    openid_connect_providers: [{...oidc}],
    saml_identity_providers: [{...saml}],
    inserted_at: '2026-01-01T00:00:00.000000Z',
    updated_at: '2026-01-01T00:00:00.000000Z',
  });
  const value = fc.oneof(
    anyJson,
    fc.constantFrom(
      {url: 'https://x/logo.png'},
      {data: 'aGk=', type: 'image/png', url: null},
      {url: 5},
      [],
      [{...oidc}],
      [{...oidc, redirect_uri: undefined}],
      [{...saml, base_url: undefined}],
      [{...saml, sign_requests: 'yes'}],
      [{...oidc, client_id: null}],
    ),
  );

  it('gives exactly what the zod Configuration schema gives, or leaves it to zod (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...Object.keys(base())), value), {maxLength: 3}), (edits) => {
        const candidate = base();
        for (const [key, v] of edits) {
          if (v === undefined) delete candidate[key];
          else candidate[key] = structuredClone(v);
        }
        const parsed = Configuration.safeParse(structuredClone(candidate));
        const fast = decodeConfigurationFast(candidate);
        expect(fast === null).toBe(!parsed.success);
        if (fast) expect(fast).toEqual(parsed.data);
      }),
      {numRuns: 3000},
    );
  });

  it('fills an absent redirect_uri and base_url with null, as the schema does', () => {
    const candidate = {...base(), openid_connect_providers: [{...oidc, redirect_uri: undefined}], saml_identity_providers: [{...saml, base_url: undefined}]};
    for (const p of [...candidate.openid_connect_providers, ...candidate.saml_identity_providers]) {
      delete (p as Record<string, unknown>).redirect_uri;
      delete (p as Record<string, unknown>).base_url;
    }
    const fast = decodeConfigurationFast(structuredClone(candidate));
    expect(fast?.openid_connect_providers[0]?.redirect_uri).toBeNull();
    expect(fast?.saml_identity_providers[0]?.base_url).toBeNull();
    expect(fast).toEqual(Configuration.parse(candidate));
  });
});
