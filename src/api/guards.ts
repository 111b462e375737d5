// Fast, zod-free equivalents of the response schemas of schemas.ts, for what every poll
// decodes: the device, user and rule lists and the configuration. Each accepts exactly what its
// zod schema accepts (test/api/fastguard.test.ts holds them in step, property by property);
// whatever one rejects goes through zod for the field-by-field salvage and messages. Kept apart
// from the schemas so that the client can decode the first poll before zod is loaded
// (docs/performance.md, "Start-up").
import type {Configuration, Device, Rule, User} from './schemas.js';
import {ISO_TIMESTAMP} from './timestamps.js';

const isStr = (v: unknown): v is string => typeof v === 'string';
const isStrOrNull = (v: unknown) => v === null || typeof v === 'string';
const isIntOrNull = (v: unknown) => v === null || Number.isSafeInteger(v);
const isBool = (v: unknown) => typeof v === 'boolean';
const isStrListOrNull = (v: unknown) => v === null || (Array.isArray(v) && v.every(isStr));
const isTime = (v: unknown) => typeof v === 'string' && ISO_TIMESTAMP.test(v);
const isInt = (v: unknown) => Number.isSafeInteger(v);
const isBoolOrNull = (v: unknown) => v === null || typeof v === 'boolean';
const isStrOrNullOrAbsent = (v: unknown) => v === undefined || v === null || typeof v === 'string';
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The device list is the hot path of every poll (up to 50k items). This guard accepts exactly
 * what the zod schema accepts (a property test keeps them in step) without copying the
 * object; anything it rejects goes through zod for the field-by-field salvage and messages.
 */
export function isDeviceFast(v: unknown): v is Device {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const d = v as Record<string, unknown>;
  return (
    isStr(d.id) &&
    isStr(d.user_id) &&
    isStr(d.name) &&
    isStrOrNull(d.description) &&
    isStr(d.public_key) &&
    isStrOrNull(d.preshared_key) &&
    isStrOrNull(d.server_public_key) &&
    isStrOrNull(d.ipv4) &&
    isStrOrNull(d.ipv6) &&
    isStrListOrNull(d.allowed_ips) &&
    isStrListOrNull(d.dns) &&
    isStrOrNull(d.endpoint) &&
    isIntOrNull(d.mtu) &&
    isIntOrNull(d.persistent_keepalive) &&
    isBool(d.use_default_allowed_ips) &&
    isBool(d.use_default_dns) &&
    isBool(d.use_default_endpoint) &&
    isBool(d.use_default_mtu) &&
    isBool(d.use_default_persistent_keepalive) &&
    (d.latest_handshake === null || isTime(d.latest_handshake)) &&
    isStrOrNull(d.remote_ip) &&
    isIntOrNull(d.rx_bytes) &&
    isIntOrNull(d.tx_bytes) &&
    isTime(d.inserted_at) &&
    isTime(d.updated_at)
  );
}

const isRole = (v: unknown) => v === 'admin' || v === 'unprivileged';

/** As isDeviceFast, for the user list (2k items on a big server): exactly what `User` accepts. */
export function isUserFast(v: unknown): v is User {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const u = v as Record<string, unknown>;
  return (
    isStr(u.id) &&
    isStr(u.email) &&
    isRole(u.role) &&
    (u.disabled_at === null || isTime(u.disabled_at)) &&
    (u.last_signed_in_at === null || isTime(u.last_signed_in_at)) &&
    isStrOrNull(u.last_signed_in_method) &&
    isTime(u.inserted_at) &&
    isTime(u.updated_at)
  );
}

/** As isDeviceFast, for the rule list: exactly what `Rule` accepts. */
export function isRuleFast(v: unknown): v is Rule {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const r = v as Record<string, unknown>;
  return (
    isStr(r.id) &&
    (r.action === 'accept' || r.action === 'drop') &&
    isStr(r.destination) &&
    isStrOrNull(r.port_range) &&
    (r.port_type === null || r.port_type === 'tcp' || r.port_type === 'udp') &&
    isStrOrNull(r.user_id) &&
    isTime(r.inserted_at) &&
    isTime(r.updated_at)
  );
}

/**
 * The configuration as the zod `Configuration` schema gives it, or null where that schema must
 * decide (and salvage). Not a pure guard: like the schema, it fills an absent `redirect_uri` or
 * `base_url` of a provider with null (in place: the object is freshly parsed).
 */
export function decodeConfigurationFast(v: unknown): Configuration | null {
  if (!isObject(v)) return null;
  const ok =
    isStr(v.id) &&
    isBoolOrNull(v.allow_unprivileged_device_configuration) &&
    isBoolOrNull(v.allow_unprivileged_device_management) &&
    isStrListOrNull(v.default_client_allowed_ips) &&
    isStrListOrNull(v.default_client_dns) &&
    isStrOrNull(v.default_client_endpoint) &&
    isIntOrNull(v.default_client_mtu) &&
    isIntOrNull(v.default_client_persistent_keepalive) &&
    isBoolOrNull(v.disable_vpn_on_oidc_error) &&
    isBoolOrNull(v.local_auth_enabled) &&
    isInt(v.vpn_session_duration) &&
    (v.logo === null || (isObject(v.logo) && isStrOrNullOrAbsent(v.logo.url) && isStrOrNullOrAbsent(v.logo.data) && isStrOrNullOrAbsent(v.logo.type))) &&
    Array.isArray(v.openid_connect_providers) &&
    v.openid_connect_providers.every(isOidcProvider) &&
    Array.isArray(v.saml_identity_providers) &&
    v.saml_identity_providers.every(isSamlProvider) &&
    isTime(v.inserted_at) &&
    isTime(v.updated_at);
  if (!ok) return null;
  for (const p of v.openid_connect_providers as Record<string, unknown>[]) p.redirect_uri ??= null;
  for (const p of v.saml_identity_providers as Record<string, unknown>[]) p.base_url ??= null;
  return v as Configuration;
}

function isOidcProvider(v: unknown): boolean {
  return (
    isObject(v) &&
    isStr(v.id) &&
    isStr(v.label) &&
    isStr(v.scope) &&
    isStr(v.response_type) &&
    isStr(v.client_id) &&
    isStr(v.client_secret) &&
    isStr(v.discovery_document_uri) &&
    isStrOrNullOrAbsent(v.redirect_uri) &&
    isBool(v.auto_create_users)
  );
}

function isSamlProvider(v: unknown): boolean {
  return (
    isObject(v) &&
    isStr(v.id) &&
    isStr(v.label) &&
    isStrOrNullOrAbsent(v.base_url) &&
    isStr(v.metadata) &&
    isBool(v.sign_requests) &&
    isBool(v.sign_metadata) &&
    isBool(v.signed_assertion_in_resp) &&
    isBool(v.signed_envelopes_in_resp) &&
    isBool(v.auto_create_users)
  );
}
