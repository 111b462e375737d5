// The configuration panel's logic: one form per section, provider edits as operations (so an
// edit can be re-applied on top of a configuration that changed on the server), the diff shown
// before saving, and the lost-update check.
import type {Configuration, ConfigurationUpdate, OidcProvider, OidcProviderWrite, SamlProvider, SamlProviderWrite} from '../api/index.js';
import {bool, str, type FieldSpec, type Values} from './form.js';
import {SESSION_PRESETS} from './format.js';
import {
  formatListInput,
  parseInteger,
  parseList,
  validateAllowedIps,
  validateDnsList,
  validateEndpoint,
  validateKeepalive,
  validateMtu,
  validateProviderId,
  validateRedirectUri,
  validateRequired,
  validateScope,
  validateSessionDuration,
} from './validators.js';

export type Section = 'defaults' | 'security';

// ---- cursor entries of the Configuration screen ----------------------------------------------

/** What the cursor on the Configuration screen can stand on. */
export type ConfigEntry = {kind: 'defaults'} | {kind: 'security'} | {kind: 'oidc' | 'saml'; id: string} | {kind: 'oidc-add'} | {kind: 'saml-add'};

/**
 * A string key for an entry, for comparing cursor positions. The kind never contains `:` and the
 * id is everything after the first one, so a provider id with colons (Firezone allows `corp:legacy`
 * next to `corp`) stays distinct.
 */
export function entryKey(entry: ConfigEntry): string {
  return entry.kind === 'oidc' || entry.kind === 'saml' ? `${entry.kind}:${entry.id}` : entry.kind;
}

export function parseEntryKey(key: string): ConfigEntry {
  const sep = key.indexOf(':');
  if (sep >= 0) {
    const kind = key.slice(0, sep);
    if (kind === 'oidc' || kind === 'saml') return {kind, id: key.slice(sep + 1)};
  }
  if (key === 'security' || key === 'oidc-add' || key === 'saml-add') return {kind: key};
  return {kind: 'defaults'};
}

// ---- section forms ---------------------------------------------------------------------------

export function defaultsSpecs(): FieldSpec[] {
  return [
    {
      key: 'default_client_allowed_ips',
      label: 'Allowed IPs',
      kind: 'text',
      placeholder: 'e.g. 0.0.0.0/0, ::/0',
      help: 'Comma-separated IPs/CIDRs routed through the VPN; 0.0.0.0/0, ::/0 sends all traffic.',
      validate: (v) => validateAllowedIps(parseList(String(v))),
    },
    {
      key: 'default_client_dns',
      label: 'DNS servers',
      kind: 'text',
      placeholder: 'e.g. 1.1.1.1, 1.0.0.1',
      help: 'Comma-separated; blank omits DNS from generated configs.',
      validate: (v) => validateDnsList(parseList(String(v))),
    },
    {
      key: 'default_client_endpoint',
      label: 'Endpoint',
      kind: 'text',
      placeholder: 'e.g. vpn.example.com:51820',
      help: 'IPv4, IPv6 or FQDN (optional :port) devices connect to.',
      validate: (v) => validateEndpoint(String(v)),
    },
    {
      key: 'default_client_mtu',
      label: 'MTU',
      kind: 'text',
      placeholder: 'e.g. 1280',
      help: '576–1500. 1280 is a safe bet for most networks. Blank falls back to the built-in 1280.',
      validate: (v) => validateMtu(String(v)),
    },
    {
      key: 'default_client_persistent_keepalive',
      label: 'Persistent keepalive',
      kind: 'text',
      placeholder: 'e.g. 25',
      help: '0–120 seconds; 0 disables. Blank falls back to the built-in 25.',
      validate: (v) => validateKeepalive(String(v)),
    },
  ];
}

const CUSTOM = 'custom';

export function securitySpecs(): FieldSpec[] {
  return [
    {key: 'local_auth_enabled', label: 'Local auth', kind: 'toggle', help: 'Enable or disable authentication with email and password.'},
    {
      key: 'allow_unprivileged_device_management',
      label: 'Unprivileged device management',
      kind: 'toggle',
      help: 'Enable or disable management of devices on unprivileged accounts.',
    },
    {
      key: 'allow_unprivileged_device_configuration',
      label: 'Unprivileged device configuration',
      kind: 'toggle',
      help: 'Enable or disable configuration of device network settings for unprivileged users.',
    },
    {key: 'disable_vpn_on_oidc_error', label: 'Auto disable VPN', kind: 'toggle', help: "Disable a user's VPN connection when their OIDC token refresh fails."},
    {
      key: 'session_preset',
      label: 'Require auth for VPN',
      kind: 'choice',
      choices: [...SESSION_PRESETS.map((p) => ({value: String(p.seconds), label: p.label})), {value: CUSTOM, label: 'Every N seconds…'}],
      help: 'Users re-authenticate in the web UI this often to keep their VPN session. ←/→ to change.',
    },
    {
      key: 'session_seconds',
      label: '  seconds',
      kind: 'text',
      placeholder: 'e.g. 3600',
      disabledWhen: (v) => (str(v, 'session_preset') === CUSTOM ? null : 'set by the preset'),
      validate: (v) => validateSessionDuration(String(v)),
    },
  ];
}

export function sectionInitial(section: Section, c: Configuration): Values {
  if (section === 'defaults') {
    return {
      default_client_allowed_ips: formatListInput(c.default_client_allowed_ips),
      default_client_dns: formatListInput(c.default_client_dns),
      default_client_endpoint: c.default_client_endpoint ?? '',
      default_client_mtu: c.default_client_mtu === null ? '' : String(c.default_client_mtu),
      default_client_persistent_keepalive: c.default_client_persistent_keepalive === null ? '' : String(c.default_client_persistent_keepalive),
    };
  }
  const preset = SESSION_PRESETS.find((p) => p.seconds === c.vpn_session_duration);
  return {
    local_auth_enabled: c.local_auth_enabled ?? true,
    allow_unprivileged_device_management: c.allow_unprivileged_device_management ?? true,
    allow_unprivileged_device_configuration: c.allow_unprivileged_device_configuration ?? true,
    disable_vpn_on_oidc_error: c.disable_vpn_on_oidc_error ?? false,
    session_preset: preset ? String(preset.seconds) : CUSTOM,
    session_seconds: String(c.vpn_session_duration),
  };
}

/** The update for one section: only fields whose value differs from what the form opened with. */
export function sectionUpdate(section: Section, values: Values, initial: Values): ConfigurationUpdate {
  const update: ConfigurationUpdate = {};
  const changed = (key: string) => values[key] !== initial[key];
  if (section === 'defaults') {
    if (changed('default_client_allowed_ips')) update.default_client_allowed_ips = parseList(str(values, 'default_client_allowed_ips'));
    if (changed('default_client_dns')) update.default_client_dns = parseList(str(values, 'default_client_dns'));
    if (changed('default_client_endpoint')) update.default_client_endpoint = str(values, 'default_client_endpoint').trim() || null;
    if (changed('default_client_mtu')) update.default_client_mtu = parseInteger(str(values, 'default_client_mtu'));
    if (changed('default_client_persistent_keepalive')) {
      update.default_client_persistent_keepalive = parseInteger(str(values, 'default_client_persistent_keepalive'));
    }
    return update;
  }
  for (const key of [
    'local_auth_enabled',
    'allow_unprivileged_device_management',
    'allow_unprivileged_device_configuration',
    'disable_vpn_on_oidc_error',
  ] as const) {
    if (changed(key)) update[key] = bool(values, key);
  }
  const seconds = (v: Values) => (str(v, 'session_preset') === CUSTOM ? parseInteger(str(v, 'session_seconds')) : Number(str(v, 'session_preset')));
  const next = seconds(values);
  if (next !== null && next !== seconds(initial)) update.vpn_session_duration = next;
  return update;
}

// ---- providers -------------------------------------------------------------------------------

export type ProviderKind = 'oidc' | 'saml';

export type ProviderOp =
  | {kind: ProviderKind; op: 'add'; provider: OidcProviderWrite | SamlProviderWrite}
  | {kind: ProviderKind; op: 'edit'; id: string; provider: OidcProviderWrite | SamlProviderWrite}
  | {kind: ProviderKind; op: 'delete'; id: string};

export function toOidcWrite(p: OidcProvider): OidcProviderWrite {
  return {
    id: p.id,
    label: p.label,
    scope: p.scope,
    response_type: p.response_type,
    client_id: p.client_id,
    client_secret: p.client_secret,
    discovery_document_uri: p.discovery_document_uri,
    redirect_uri: p.redirect_uri,
    auto_create_users: p.auto_create_users,
  };
}

export function toSamlWrite(p: SamlProvider): SamlProviderWrite {
  return {
    id: p.id,
    label: p.label,
    base_url: p.base_url,
    metadata: p.metadata,
    sign_requests: p.sign_requests,
    sign_metadata: p.sign_metadata,
    signed_assertion_in_resp: p.signed_assertion_in_resp,
    signed_envelopes_in_resp: p.signed_envelopes_in_resp,
    auto_create_users: p.auto_create_users,
  };
}

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

// ---- diff --------------------------------------------------------------------------------

const FIELD_LABELS: Record<string, string> = {
  default_client_allowed_ips: 'Allowed IPs',
  default_client_dns: 'DNS servers',
  default_client_endpoint: 'Endpoint',
  default_client_mtu: 'MTU',
  default_client_persistent_keepalive: 'Persistent keepalive',
  local_auth_enabled: 'Local auth',
  allow_unprivileged_device_management: 'Unprivileged device management',
  allow_unprivileged_device_configuration: 'Unprivileged device configuration',
  disable_vpn_on_oidc_error: 'Auto disable VPN',
  vpn_session_duration: 'VPN session duration',
};

const SECRET_KEYS = new Set(['client_secret']);

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(not set)';
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.join(', ');
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return String(value);
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function providerDiff(
  kind: string,
  before: ReadonlyArray<{id: string} & Record<string, unknown>>,
  after: ReadonlyArray<{id: string} & Record<string, unknown>>,
): string[] {
  const lines: string[] = [];
  const byId = new Map(before.map((p) => [p.id, p]));
  const afterIds = new Set(after.map((p) => p.id));
  for (const p of before) if (!afterIds.has(p.id)) lines.push(`${kind} provider ${p.id}: removed`);
  for (const p of after) {
    const old = byId.get(p.id);
    if (!old) {
      lines.push(`${kind} provider ${p.id}: added (${String(p.label ?? '')})`);
      continue;
    }
    for (const key of Object.keys(p)) {
      if (key === 'id' || sameValue(old[key], p[key])) continue;
      if (SECRET_KEYS.has(key)) lines.push(`${kind} provider ${p.id}: ${key} changed (secret, not shown)`);
      else if (key === 'metadata')
        lines.push(`${kind} provider ${p.id}: metadata changed (${String(old[key] ?? '').length} → ${String(p[key] ?? '').length} bytes)`);
      else lines.push(`${kind} provider ${p.id}: ${key}: ${show(old[key])} → ${show(p[key])}`);
    }
  }
  return lines;
}

/** `field: old → new` lines for an update against a configuration; secrets masked. */
export function diffUpdate(before: Configuration, update: ConfigurationUpdate): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(update)) {
    if (key === 'openid_connect_providers' || key === 'saml_identity_providers') continue;
    const old = (before as unknown as Record<string, unknown>)[key];
    if (sameValue(old, value)) continue;
    lines.push(`${FIELD_LABELS[key] ?? key}: ${show(old)} → ${show(value)}`);
  }
  if (update.openid_connect_providers) {
    lines.push(...providerDiff('OIDC', before.openid_connect_providers.map(toOidcWrite) as never, update.openid_connect_providers as never));
  }
  if (update.saml_identity_providers) {
    lines.push(...providerDiff('SAML', before.saml_identity_providers.map(toSamlWrite) as never, update.saml_identity_providers as never));
  }
  return lines;
}

/** What changed on the server between two reads of the configuration (for the lost-update screen). */
export function diffConfigurations(before: Configuration, after: Configuration): string[] {
  const update: ConfigurationUpdate = {};
  const u = update as Record<string, unknown>;
  for (const key of Object.keys(FIELD_LABELS)) u[key] = (after as unknown as Record<string, unknown>)[key];
  update.openid_connect_providers = after.openid_connect_providers.map(toOidcWrite);
  update.saml_identity_providers = after.saml_identity_providers.map(toSamlWrite);
  return diffUpdate(before, update);
}

/** 0.7.36's env-override error, explained: the server's environment wins over the API. */
export function explainOverride(message: string): string | null {
  const m = /cannot be changed; it is overridden by (\S+) environment variable/.exec(message);
  return m
    ? `Set by the server's ${m[1]} environment variable, which wins over the API: change it in the server's environment (e.g. /etc/firezone or docker-compose) instead.`
    : null;
}
