import {describe, expect, it} from 'vitest';
import {toOidcWrite, type Configuration} from '../../src/api/index.js';
import {diffConfigurations, diffUpdate, explainOverride} from '../../src/state/screens/configuration/diff.js';
import {oidcFromValues, oidcInitial, providerUpdate} from '../../src/state/screens/configuration/provider-forms.js';
import {sectionInitial, sectionUpdate} from '../../src/state/screens/configuration/sections.js';
import {configuration} from '../fixtures/data.js';

const okta = {
  id: 'okta',
  label: 'Okta',
  scope: 'openid email profile',
  response_type: 'code',
  client_id: 'cid',
  client_secret: 's3cret',
  discovery_document_uri: 'https://okta.example.com/.well-known/openid-configuration',
  redirect_uri: null,
  auto_create_users: false,
};

const config = (over: Partial<Configuration> = {}): Configuration => configuration({openid_connect_providers: [okta], ...over});

describe('section forms', () => {
  it('lists become comma text and back; only changed fields are sent', () => {
    const initial = sectionInitial('defaults', config());
    expect(initial.default_client_dns).toBe('1.1.1.1, 1.0.0.1');
    expect(sectionUpdate('defaults', initial, initial)).toEqual({});
    expect(sectionUpdate('defaults', {...initial, default_client_dns: '9.9.9.9 ,', default_client_mtu: ''}, initial)).toEqual({
      default_client_dns: ['9.9.9.9'],
      default_client_mtu: null,
    });
  });
  it('session duration: presets and custom seconds', () => {
    const initial = sectionInitial('security', config({vpn_session_duration: 100}));
    expect(initial.session_preset).toBe('custom');
    expect(sectionUpdate('security', {...initial, session_preset: '86400'}, initial)).toEqual({vpn_session_duration: 86400});
    expect(sectionUpdate('security', {...initial, session_seconds: '120'}, initial)).toEqual({vpn_session_duration: 120});
    expect(sectionUpdate('security', {...initial, local_auth_enabled: false}, initial)).toEqual({local_auth_enabled: false});
  });
});

describe('providers', () => {
  it('operations produce the complete array and re-apply on a newer base', () => {
    const google = oidcFromValues({
      ...oidcInitial(null),
      id: 'google',
      label: 'Google',
      client_id: 'g',
      client_secret: 'x',
      discovery_document_uri: 'https://accounts.google.com/.well-known/openid-configuration',
    });
    const add = {kind: 'oidc' as const, op: 'add' as const, provider: google};
    expect(providerUpdate(config(), add).openid_connect_providers!.map((p) => p.id)).toEqual(['okta', 'google']);
    // someone else added "azure" meanwhile: re-applying keeps theirs
    const newer = config({openid_connect_providers: [okta, {...okta, id: 'azure', label: 'Azure'}]});
    expect(providerUpdate(newer, add).openid_connect_providers!.map((p) => p.id)).toEqual(['okta', 'azure', 'google']);
    expect(providerUpdate(newer, {kind: 'oidc', op: 'delete', id: 'okta'}).openid_connect_providers!.map((p) => p.id)).toEqual(['azure']);
  });
});

describe('diff', () => {
  it('field: old → new, providers added/removed/changed, secrets masked', () => {
    const before = config();
    const update = {
      default_client_mtu: 1400,
      openid_connect_providers: [{...toOidcWrite(okta), client_secret: 'changed', label: 'Okta SSO'}],
    };
    expect(diffUpdate(before, update)).toEqual([
      'MTU: 1280 → 1400',
      'OIDC provider okta: label: Okta → Okta SSO',
      'OIDC provider okta: client_secret changed (secret, not shown)',
    ]);
    expect(diffUpdate(before, {openid_connect_providers: []})).toEqual(['OIDC provider okta: removed']);
  });
  it('server-side changes between two reads', () => {
    expect(diffConfigurations(config(), config({local_auth_enabled: false, vpn_session_duration: 3600}))).toEqual([
      'Local auth: on → off',
      'VPN session duration: 0 → 3600',
    ]);
  });
  it('explains env overrides', () => {
    expect(explainOverride('cannot be changed; it is overridden by LOCAL_AUTH_ENABLED environment variable')).toMatch(/LOCAL_AUTH_ENABLED.*wins/);
    expect(explainOverride('is invalid')).toBeNull();
  });
});
