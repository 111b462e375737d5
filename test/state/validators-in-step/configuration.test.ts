// The console's validators and the sandbox's routes give the same messages: the configuration
// (identity providers, the VPN session's duration). How the rows are checked, and their helpers:
// ./harness.ts.
import {validateProviderId, validateRedirectUri, validateRequired, validateScope, validateSessionDuration} from '../../../src/state/data/validators.js';
import {compact, answer, asInteger, configPatch, oidcProbe, type Rule, row, text, crash, checkInStep, useProbeSandbox, SAML_OK} from './harness.js';

useProbeSandbox();

const rules = [
  {
    name: 'OIDC provider id',
    route: 'PATCH /v0/configuration (openid_connect_providers)',
    console: text('id', validateProviderId),
    sandbox: (v: string) => oidcProbe('id', v.trim()),
    rows: [row(''), row('   '), row('okta'), row('identity'), row('saml'), row('magic_link'), row(' saml '), row('corp:legacy'), row('SAML')],
  } satisfies Rule<string>,
  {
    name: 'SAML provider id',
    route: 'PATCH /v0/configuration (saml_identity_providers)',
    console: text('id', validateProviderId),
    sandbox: async (v: string) => answer(await configPatch('saml_identity_providers', [{...SAML_OK, id: v.trim()}]), ['id'], 'saml_identity_providers'),
    rows: [row(''), row('corp'), row('identity'), row('magic_link')],
  } satisfies Rule<string>,
  {
    name: 'OIDC scope',
    route: 'PATCH /v0/configuration (openid_connect_providers)',
    console: text('scope', validateScope),
    sandbox: (v: string) => oidcProbe('scope', v.trim()),
    rows: [
      row('openid email profile'),
      row('openid email'),
      row('profile'),
      row('openid profile'),
      row('email profile'),
      row('OPENID EMAIL'),
      // 0.7.36 matches substrings (validate_format ~r/openid/): these pass on both sides
      row('openid,email'),
      row('openidx emailx'),
      row('', {
        why: '0.7.36 replaces a blank scope with its default "openid email profile"; the console pre-fills that default and requires a scope',
        console: {scope: ["can't be blank"]},
        sandbox: {},
      }),
    ],
  } satisfies Rule<string>,
  {
    name: 'OIDC redirect URI',
    route: 'PATCH /v0/configuration (openid_connect_providers)',
    console: text('redirect_uri', (v) => validateRedirectUri(v, {required: false})),
    // oidcFromValues: a blank redirect URI is left out
    sandbox: (v: string) => oidcProbe('redirect_uri', v.trim() === '' ? undefined : v.trim()),
    rows: [
      row(''),
      row('https://vpn.example.com/auth/oidc/okta/callback/'),
      row('http://localhost:4000/cb'),
      row('HTTPS://VPN.EXAMPLE.COM/'),
      row('ftp://x'),
      row('example.com/cb'),
      row('//example.com/cb'),
      row('http:foo'),
      row('https://'),
      row('not a uri'),
      row('https://ex ample.com'),
      row('https://[fd00::1]:8443/cb'),
      row('https://[fd00::1'),
      row('https://host:port/'),
      row('https://host:/x'),
      row('https://user@host/cb'),
      row('a:b'),
      row('x:y/z'),
      row('1x:y'),
      row('https://example.com/%zz'),
      row('https://example.com/%41'),
      row('mailto:a@b'),
    ],
  } satisfies Rule<string>,
  {
    name: 'SAML base URL',
    route: 'PATCH /v0/configuration (saml_identity_providers)',
    console: text('base_url', (v) => validateRedirectUri(v, {required: false})),
    // samlFromValues: a blank base URL is left out (0.7.36 then uses EXTERNAL_URL/auth/saml)
    sandbox: async (v: string) =>
      answer(
        await configPatch('saml_identity_providers', [{...SAML_OK, ...(v.trim() === '' ? {} : {base_url: v.trim()})}]),
        ['base_url'],
        'saml_identity_providers',
      ),
    rows: [row(''), row('https://vpn.example.com/auth/saml'), row('ftp://x'), row('vpn.example.com'), row('bad uri')],
  } satisfies Rule<string>,
  {
    name: 'OIDC discovery document URI',
    route: 'PATCH /v0/configuration (openid_connect_providers)',
    console: text('discovery_document_uri', (v) => validateRedirectUri(v, {required: true})),
    sandbox: (v: string) => oidcProbe('discovery_document_uri', v.trim()),
    rows: [
      row(''),
      row('https://accounts.google.com/.well-known/openid-configuration'),
      // 0.7.36 fetches the document during validation ("is invalid. Reason: <reason>"); the sandbox stands in with a URL
      // shape check (src/sandbox/README.md, "Deviations"); the console can only check the URI's shape, in validate_uri's words.
      row('ftp://x', {
        why: 'the server fetches the document; the console checks the URI shape',
        console: {discovery_document_uri: ['only http, https schemes are supported']},
        sandbox: {discovery_document_uri: ['is invalid. Reason: :invalid_uri']},
      }),
      row('accounts.google.com', {
        why: 'the server fetches the document; the console checks the URI shape',
        console: {discovery_document_uri: ['does not contain a scheme or a host']},
        sandbox: {discovery_document_uri: ['is invalid. Reason: :invalid_uri']},
      }),
    ],
  } satisfies Rule<string>,
  {
    name: 'OIDC required texts (label, client id, client secret)',
    route: 'PATCH /v0/configuration (openid_connect_providers)',
    console: ([field, v]: [string, string]) => compact({[field]: validateRequired(v)}),
    // oidcFromValues trims all but the secret
    sandbox: ([field, v]: [string, string]) => oidcProbe(field, field === 'client_secret' ? v : v.trim()),
    rows: [
      row(['label', '']),
      row(['label', '  ']),
      row(['label', 'Okta']),
      row(['client_id', '']),
      row(['client_id', 'cid']),
      row(['client_secret', '']),
      row(['client_secret', '   ']),
      row(['client_secret', ' s3cret ']),
    ],
  } satisfies Rule<[string, string]>,
  {
    name: 'VPN session duration',
    route: 'PATCH /v0/configuration',
    console: text('vpn_session_duration', validateSessionDuration),
    sandbox: async (v: string) => answer(await configPatch('vpn_session_duration', asInteger(v)), ['vpn_session_duration']),
    rows: [
      row('0'),
      row('3600'),
      row('2147483647'),
      row('2147483648'),
      row('-1'),
      row('1.5'),
      row('soon'),
      row(' 60 '),
      row('+60'),
      row('', crash('vpn_session_duration', "can't be blank", 'null violates the NOT NULL column')),
    ],
  } satisfies Rule<string>,
] as unknown as Array<Rule<never>>;

checkInStep(rules, 8);
