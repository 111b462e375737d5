// What a configuration change changes, in the admin's words: the review before a save, and the
// Activity event after one (secrets masked).
import {toOidcWrite, toSamlWrite, type Configuration, type ConfigurationUpdate} from '../../../api/index.js';

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
  disable_vpn_on_oidc_error: 'Disable VPN on OIDC error',
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
