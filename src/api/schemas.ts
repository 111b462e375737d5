// zod schemas for everything that crosses the /v0 boundary: the four resources as
// Firezone 0.7.36 renders them (docs/firezone-0.7.36.md, "Key order and JSON shapes") and the request
// bodies the console sends. zod's default object mode strips unknown keys, which is
// exactly the "unknown response fields are ignored" rule.
import {z} from 'zod';
import {ISO_TIMESTAMP} from './timestamps.js';

const Timestamp = z.string().regex(ISO_TIMESTAMP, 'expected an ISO-8601 timestamp');

const nullableString = z.string().nullable();
const nullableInt = z.number().int().nullable();
const stringList = z.array(z.string());

export const Device = z.object({
  id: z.string(),
  user_id: z.string(),
  name: z.string(),
  description: nullableString,
  public_key: z.string(),
  preshared_key: nullableString,
  server_public_key: nullableString,
  ipv4: nullableString,
  ipv6: nullableString,
  allowed_ips: stringList.nullable(),
  dns: stringList.nullable(),
  endpoint: nullableString,
  mtu: nullableInt,
  persistent_keepalive: nullableInt,
  use_default_allowed_ips: z.boolean(),
  use_default_dns: z.boolean(),
  use_default_endpoint: z.boolean(),
  use_default_mtu: z.boolean(),
  use_default_persistent_keepalive: z.boolean(),
  latest_handshake: Timestamp.nullable(),
  remote_ip: nullableString,
  rx_bytes: nullableInt,
  tx_bytes: nullableInt,
  inserted_at: Timestamp,
  updated_at: Timestamp,
});
export type Device = z.infer<typeof Device>;

const Role = z.enum(['admin', 'unprivileged']);
type Role = z.infer<typeof Role>;

export const User = z.object({
  id: z.string(),
  email: z.string(),
  role: Role,
  disabled_at: Timestamp.nullable(),
  last_signed_in_at: Timestamp.nullable(),
  last_signed_in_method: nullableString,
  inserted_at: Timestamp,
  updated_at: Timestamp,
});
export type User = z.infer<typeof User>;

const RuleAction = z.enum(['accept', 'drop']);
type RuleAction = z.infer<typeof RuleAction>;
const PortType = z.enum(['tcp', 'udp']);
type PortType = z.infer<typeof PortType>;

export const Rule = z.object({
  id: z.string(),
  action: RuleAction,
  destination: z.string(),
  port_range: nullableString,
  port_type: PortType.nullable(),
  user_id: nullableString,
  inserted_at: Timestamp,
  updated_at: Timestamp,
});
export type Rule = z.infer<typeof Rule>;

export const OidcProvider = z.object({
  id: z.string(),
  label: z.string(),
  scope: z.string(),
  response_type: z.string(),
  client_id: z.string(),
  client_secret: z.string(),
  discovery_document_uri: z.string(),
  redirect_uri: nullableString.optional().transform((v) => v ?? null),
  auto_create_users: z.boolean(),
});
export type OidcProvider = z.infer<typeof OidcProvider>;

export const SamlProvider = z.object({
  id: z.string(),
  label: z.string(),
  base_url: nullableString.optional().transform((v) => v ?? null),
  metadata: z.string(),
  sign_requests: z.boolean(),
  sign_metadata: z.boolean(),
  signed_assertion_in_resp: z.boolean(),
  signed_envelopes_in_resp: z.boolean(),
  auto_create_users: z.boolean(),
});
export type SamlProvider = z.infer<typeof SamlProvider>;

// `{}` when unset, otherwise {data, type, url} (docs/firezone-0.7.36.md, "Key order and JSON shapes").
const Logo = z.object({
  url: nullableString.optional(),
  data: nullableString.optional(),
  type: nullableString.optional(),
});
type Logo = z.infer<typeof Logo>;

// GET /v0/configuration renders raw DB values, so every default may be null
// (docs/firezone-0.7.36.md, "Configuration: raw values").
export const Configuration = z.object({
  id: z.string(),
  allow_unprivileged_device_configuration: z.boolean().nullable(),
  allow_unprivileged_device_management: z.boolean().nullable(),
  default_client_allowed_ips: stringList.nullable(),
  default_client_dns: stringList.nullable(),
  default_client_endpoint: nullableString,
  default_client_mtu: nullableInt,
  default_client_persistent_keepalive: nullableInt,
  disable_vpn_on_oidc_error: z.boolean().nullable(),
  local_auth_enabled: z.boolean().nullable(),
  vpn_session_duration: z.number().int(),
  logo: Logo.nullable(),
  openid_connect_providers: z.array(OidcProvider),
  saml_identity_providers: z.array(SamlProvider),
  inserted_at: Timestamp,
  updated_at: Timestamp,
});
export type Configuration = z.infer<typeof Configuration>;

// ---- request bodies -------------------------------------------------------------------

const ipList = z.array(z.string());

export const DeviceCreate = z
  .object({
    user_id: z.string().min(1),
    public_key: z.string().min(1),
    name: z.string().optional(),
    description: z.string().optional(),
    preshared_key: z.string().optional(),
    ipv4: z.string().optional(),
    ipv6: z.string().optional(),
    use_default_allowed_ips: z.boolean().optional(),
    allowed_ips: ipList.optional(),
    use_default_dns: z.boolean().optional(),
    dns: ipList.optional(),
    use_default_endpoint: z.boolean().optional(),
    endpoint: z.string().optional(),
    use_default_mtu: z.boolean().optional(),
    mtu: z.number().int().optional(),
    use_default_persistent_keepalive: z.boolean().optional(),
    persistent_keepalive: z.number().int().optional(),
  })
  .strict();
export type DeviceCreate = z.infer<typeof DeviceCreate>;

// 0.7.36 applies only name and description on update (docs/firezone-0.7.36.md, "Devices: what an
// update applies"); sending anything else would
// be silently ignored, so the console's type does not allow it.
export const DeviceUpdate = z
  .object({
    name: z.string().nullable().optional(),
    description: z.string().nullable().optional(),
  })
  .strict();
export type DeviceUpdate = z.infer<typeof DeviceUpdate>;

export const UserCreate = z
  .object({
    email: z.string(),
    role: Role.optional(),
    password: z.string().optional(),
    password_confirmation: z.string().optional(),
  })
  .strict();
export type UserCreate = z.infer<typeof UserCreate>;

export const UserUpdate = z
  .object({
    email: z.string().optional(),
    role: Role.optional(),
    password: z.string().optional(),
    password_confirmation: z.string().optional(),
  })
  .strict();
export type UserUpdate = z.infer<typeof UserUpdate>;

export const RuleWrite = z
  .object({
    action: RuleAction.optional(),
    destination: z.string().optional(),
    port_type: PortType.nullable().optional(),
    port_range: z.string().nullable().optional(),
    user_id: z.string().nullable().optional(),
  })
  .strict();
export type RuleWrite = z.infer<typeof RuleWrite>;

// The write shapes are the read shapes with the optional URL fields left optional (no
// null-filling transform) and unknown keys refused, so a typo cannot be sent silently.
export const OidcProviderWrite = OidcProvider.extend({redirect_uri: z.string().nullable().optional()}).strict();
export type OidcProviderWrite = z.infer<typeof OidcProviderWrite>;

export const SamlProviderWrite = SamlProvider.extend({base_url: z.string().nullable().optional()}).strict();
export type SamlProviderWrite = z.infer<typeof SamlProviderWrite>;

export const ConfigurationUpdate = z
  .object({
    allow_unprivileged_device_configuration: z.boolean().optional(),
    allow_unprivileged_device_management: z.boolean().optional(),
    default_client_allowed_ips: ipList.optional(),
    default_client_dns: ipList.optional(),
    default_client_endpoint: z.string().nullable().optional(),
    default_client_mtu: z.number().int().nullable().optional(),
    default_client_persistent_keepalive: z.number().int().nullable().optional(),
    disable_vpn_on_oidc_error: z.boolean().optional(),
    local_auth_enabled: z.boolean().optional(),
    vpn_session_duration: z.number().int().optional(),
    openid_connect_providers: z.array(OidcProviderWrite).optional(),
    saml_identity_providers: z.array(SamlProviderWrite).optional(),
  })
  .strict();
export type ConfigurationUpdate = z.infer<typeof ConfigurationUpdate>;
