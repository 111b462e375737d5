// The OIDC and SAML provider forms, and the whole-list update a provider change sends (Firezone
// replaces the provider lists wholesale).
import {
  toOidcWrite,
  toSamlWrite,
  type Configuration,
  type ConfigurationUpdate,
  type OidcProvider,
  type OidcProviderWrite,
  type SamlProvider,
  type SamlProviderWrite,
} from '../../../api/index.js';
import {bool, str, type FieldSpec, type Values} from '../../interactions/form.js';
import {validateProviderId, validateRedirectUri, validateRequired, validateScope} from '../../data/validators.js';

// ---- providers -------------------------------------------------------------------------------

export type ProviderKind = 'oidc' | 'saml';

export type ProviderOp =
  | {kind: ProviderKind; op: 'add'; provider: OidcProviderWrite | SamlProviderWrite}
  | {kind: ProviderKind; op: 'edit'; id: string; provider: OidcProviderWrite | SamlProviderWrite}
  | {kind: ProviderKind; op: 'delete'; id: string};

/**
 * The complete provider array to send (0.7.36 replaces the list wholesale: docs/firezone-0.7.36.md, "Configuration and providers (wholesale replacement)"), built by
 * applying the admin's operation to `base`. Re-applying the same operation to a newer base is
 * how an edit survives someone else's change to another provider.
 */
export function providerUpdate(base: Configuration, op: ProviderOp): ConfigurationUpdate {
  const apply = <W extends {id: string}>(list: W[]): W[] => {
    switch (op.op) {
      case 'add':
        return [...list, op.provider as unknown as W];
      case 'edit': {
        const i = list.findIndex((p) => p.id === op.id);
        if (i === -1) return [...list, op.provider as unknown as W];
        return list.map((p, j) => (j === i ? (op.provider as unknown as W) : p));
      }
      case 'delete':
        return list.filter((p) => p.id !== op.id);
    }
  };
  return op.kind === 'oidc'
    ? {openid_connect_providers: apply(base.openid_connect_providers.map(toOidcWrite))}
    : {saml_identity_providers: apply(base.saml_identity_providers.map(toSamlWrite))};
}

export function oidcSpecs(externalHint: string): FieldSpec[] {
  return [
    {
      key: 'id',
      label: 'Config ID',
      kind: 'text',
      help: 'A unique ID used to generate login URLs for this provider.',
      validate: (v) => validateProviderId(String(v)),
    },
    {key: 'label', label: 'Label', kind: 'text', help: 'Text on the login button.', validate: (v) => validateRequired(String(v))},
    {
      key: 'scope',
      label: 'Scope',
      kind: 'text',
      placeholder: 'e.g. openid email profile',
      help: 'Space-delimited OpenID scopes; openid and email are required.',
      validate: (v) => validateScope(String(v)),
    },
    {key: 'response_type', label: 'Response type', kind: 'text', disabledWhen: () => 'code (the only type Firezone supports)'},
    {key: 'client_id', label: 'Client ID', kind: 'text', validate: (v) => validateRequired(String(v))},
    {key: 'client_secret', label: 'Client secret', kind: 'secret', validate: (v) => validateRequired(String(v))},
    {
      key: 'discovery_document_uri',
      label: 'Discovery document URI',
      kind: 'text',
      placeholder: 'e.g. https://accounts.google.com/.well-known/openid-configuration',
      validate: (v) => validateRedirectUri(String(v), {required: true}),
    },
    {
      key: 'redirect_uri',
      label: 'Redirect URI',
      kind: 'text',
      placeholder: `optional (default ${externalHint}auth/oidc/<id>/callback/)`,
      validate: (v) => validateRedirectUri(String(v), {required: false}),
    },
    {key: 'auto_create_users', label: 'Auto-create users', kind: 'toggle', help: 'Automatically provision users when signing in for the first time.'},
  ];
}

export function oidcInitial(p: OidcProvider | null): Values {
  return {
    id: p?.id ?? randomId(),
    label: p?.label ?? '',
    scope: p?.scope ?? 'openid email profile',
    response_type: 'code',
    client_id: p?.client_id ?? '',
    client_secret: p?.client_secret ?? '',
    discovery_document_uri: p?.discovery_document_uri ?? '',
    redirect_uri: p?.redirect_uri ?? '',
    auto_create_users: p?.auto_create_users ?? false,
  };
}

export function oidcFromValues(v: Values): OidcProviderWrite {
  const redirect = str(v, 'redirect_uri').trim();
  return {
    id: str(v, 'id').trim(),
    label: str(v, 'label').trim(),
    scope: str(v, 'scope').trim(),
    response_type: 'code',
    client_id: str(v, 'client_id').trim(),
    client_secret: str(v, 'client_secret'),
    discovery_document_uri: str(v, 'discovery_document_uri').trim(),
    ...(redirect ? {redirect_uri: redirect} : {}),
    auto_create_users: bool(v, 'auto_create_users'),
  };
}

export function samlSpecs(): FieldSpec[] {
  return [
    {key: 'id', label: 'Config ID', kind: 'text', help: 'ID used for generating auth URLs.', validate: (v) => validateProviderId(String(v))},
    {key: 'label', label: 'Label', kind: 'text', help: 'Sign in button text.', validate: (v) => validateRequired(String(v))},
    {
      key: 'base_url',
      label: 'Base URL',
      kind: 'text',
      placeholder: 'blank: <EXTERNAL_URL>/auth/saml',
      help: "Base URL for the ACS URL; in most cases this shouldn't be changed.",
      validate: (v) => validateRedirectUri(String(v), {required: false}),
    },
    {
      key: 'metadata',
      label: 'Metadata XML',
      kind: 'text',
      multiline: true,
      help: 'IdP metadata XML: paste it as it is (its lines are kept).',
      validate: (v) => validateRequired(String(v)),
    },
    {key: 'sign_requests', label: 'Sign requests', kind: 'toggle'},
    {key: 'sign_metadata', label: 'Sign metadata', kind: 'toggle'},
    {key: 'signed_assertion_in_resp', label: 'Require signed assertions', kind: 'toggle'},
    {key: 'signed_envelopes_in_resp', label: 'Require signed envelopes', kind: 'toggle'},
    {key: 'auto_create_users', label: 'Auto-create users', kind: 'toggle', help: 'Automatically provision users when signing in for the first time.'},
  ];
}

export function samlInitial(p: SamlProvider | null): Values {
  return {
    id: p?.id ?? randomId(),
    label: p?.label ?? '',
    base_url: p?.base_url ?? '',
    metadata: p?.metadata ?? '',
    sign_requests: p?.sign_requests ?? true,
    sign_metadata: p?.sign_metadata ?? true,
    signed_assertion_in_resp: p?.signed_assertion_in_resp ?? true,
    signed_envelopes_in_resp: p?.signed_envelopes_in_resp ?? true,
    auto_create_users: p?.auto_create_users ?? false,
  };
}

export function samlFromValues(v: Values): SamlProviderWrite {
  const base = str(v, 'base_url').trim();
  return {
    id: str(v, 'id').trim(),
    label: str(v, 'label').trim(),
    ...(base ? {base_url: base} : {}),
    metadata: str(v, 'metadata').trim(),
    sign_requests: bool(v, 'sign_requests'),
    sign_metadata: bool(v, 'sign_metadata'),
    signed_assertion_in_resp: bool(v, 'signed_assertion_in_resp'),
    signed_envelopes_in_resp: bool(v, 'signed_envelopes_in_resp'),
    auto_create_users: bool(v, 'auto_create_users'),
  };
}

/** Like the web UI's "Add OpenID Connect Provider": a random 8-character id to start from. */
function randomId(): string {
  return Math.random().toString(36).slice(2, 10).padEnd(8, '0');
}
