// Acceptance cases, "Configuration" (docs/firezone-0.7.36.md, "Acceptance cases"); the suite's
// conventions and helpers are described in ./harness.ts.
import {describe, expect, it} from 'vitest';
import {type Row, UUID_RE, TS_RE, CONFIG_KEYS, SAML_METADATA, fresh, expectData, expectEmpty500, expectAuthError, expect422} from './harness.js';

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
