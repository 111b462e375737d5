// The /v0 API over real HTTP: the configuration's quirks (docs/firezone-0.7.36.md, "Configuration:
// …"). The sandbox these tests share, and their helpers, are in ./harness.ts.
import {describe, expect, it} from 'vitest';
import {startSandbox} from '../../../src/sandbox/index.js';
import {data, send} from '../helpers.js';
import {sb, api, useApiSandbox} from './harness.js';

useApiSandbox();

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
