// The JSON views of 0.7.36 (docs/firezone-0.7.36.md, "Key order and JSON shapes"): every object with its keys in
// ascending order. Devices use a hand-written writer with the 25 keys in wire order, because a list
// of 50,000 of them is about 45 MB and is rendered on every poll; each row caches its rendering
// for the current configuration version until the row changes.

import {formatInet, formatIp, type Inet} from './inet.js';
import {encodeJson} from './json.js';
import type {RenderedDefaults} from './settings.js';
import type {ConfigRow, DeviceRow, RuleRow, Store, UserRow} from './store.js';
import {formatTimestamp} from './time.js';

const str = (value: string | null): string => (value === null ? 'null' : JSON.stringify(value));
const ts = (value: number | null): string => (value === null ? 'null' : `"${formatTimestamp(value)}"`);
const num = (value: number | null): string => (value === null ? 'null' : String(value));

export function userView(user: UserRow): Record<string, unknown> {
  return {
    disabled_at: user.disabledAt === null ? null : formatTimestamp(user.disabledAt),
    email: user.email,
    id: user.id,
    inserted_at: formatTimestamp(user.insertedAt),
    last_signed_in_at: user.lastSignedInAt === null ? null : formatTimestamp(user.lastSignedInAt),
    last_signed_in_method: user.lastSignedInMethod,
    role: user.role,
    updated_at: formatTimestamp(user.updatedAt),
  };
}

interface DeviceEcho {
  /** allowed_ips as cast in this write (a /32 or /128 suffix is still present). */
  allowedIps?: Inet[] | null;
}

function ownAllowedIps(list: Inet[] | null): string {
  return list === null ? 'null' : JSON.stringify(list.map(formatInet));
}

/** The device object (a JSON string); pass `echo` for a write response, omit it for reads. */
export function deviceJson(device: DeviceRow, defaults: RenderedDefaults, serverPublicKey: string, echo?: DeviceEcho): string {
  const allowedIps = device.useDefaultAllowedIps
    ? defaults.allowedIps
    : ownAllowedIps(echo && echo.allowedIps !== undefined ? echo.allowedIps : device.allowedIps);
  return (
    '{"allowed_ips":' +
    allowedIps +
    ',"description":' +
    str(device.description) +
    ',"dns":' +
    (device.useDefaultDns ? defaults.dns : device.dns === null ? 'null' : JSON.stringify(device.dns)) +
    ',"endpoint":' +
    (device.useDefaultEndpoint ? defaults.endpoint : str(device.endpoint)) +
    ',"id":"' +
    device.id +
    '","inserted_at":' +
    ts(device.insertedAt) +
    ',"ipv4":' +
    (device.ipv4 === null ? 'null' : `"${formatIp(device.ipv4)}"`) +
    ',"ipv6":' +
    (device.ipv6 === null ? 'null' : `"${formatIp(device.ipv6)}"`) +
    ',"latest_handshake":' +
    ts(device.latestHandshake) +
    ',"mtu":' +
    (device.useDefaultMtu ? defaults.mtu : num(device.mtu)) +
    ',"name":' +
    JSON.stringify(device.name) +
    ',"persistent_keepalive":' +
    (device.useDefaultPersistentKeepalive ? defaults.persistentKeepalive : num(device.persistentKeepalive)) +
    ',"preshared_key":' +
    str(device.presharedKey) +
    ',"public_key":' +
    JSON.stringify(device.publicKey) +
    ',"remote_ip":' +
    (device.remoteIp === null ? 'null' : `"${formatIp(device.remoteIp)}"`) +
    ',"rx_bytes":' +
    num(device.rxBytes) +
    ',"server_public_key":' +
    JSON.stringify(serverPublicKey) +
    ',"tx_bytes":' +
    num(device.txBytes) +
    ',"updated_at":' +
    ts(device.updatedAt) +
    ',"use_default_allowed_ips":' +
    String(device.useDefaultAllowedIps) +
    ',"use_default_dns":' +
    String(device.useDefaultDns) +
    ',"use_default_endpoint":' +
    String(device.useDefaultEndpoint) +
    ',"use_default_mtu":' +
    String(device.useDefaultMtu) +
    ',"use_default_persistent_keepalive":' +
    String(device.useDefaultPersistentKeepalive) +
    ',"user_id":"' +
    device.userId +
    '"}'
  );
}

/**
 * A read rendering of a device as UTF-8 bytes, cached on the row for the store's current render
 * version: lists are written as Buffers, so a cached row costs neither rendering nor re-encoding.
 */
export function cachedDeviceJson(store: Store, device: DeviceRow, defaults: RenderedDefaults, serverPublicKey: string): Buffer {
  if (device.cache !== null && device.cacheVersion === store.renderVersion) return device.cache;
  const json = Buffer.from(deviceJson(device, defaults, serverPublicKey), 'utf8');
  device.cache = json;
  device.cacheVersion = store.renderVersion;
  return json;
}

export interface RuleEcho {
  destination?: Inet;
  userId?: string | null;
}

export function ruleView(rule: RuleRow, echo: RuleEcho = {}): Record<string, unknown> {
  return {
    action: rule.action,
    destination: formatInet(echo.destination ?? rule.destination),
    id: rule.id,
    inserted_at: formatTimestamp(rule.insertedAt),
    port_range: rule.portRange,
    port_type: rule.portType,
    updated_at: formatTimestamp(rule.updatedAt),
    user_id: echo.userId !== undefined ? echo.userId : rule.userId,
  };
}

export interface ConfigEcho {
  defaultClientAllowedIps?: Inet[] | null;
}

export function configurationView(config: ConfigRow, echo: ConfigEcho = {}): Record<string, unknown> {
  const allowed = echo.defaultClientAllowedIps !== undefined ? echo.defaultClientAllowedIps : config.default_client_allowed_ips;
  return {
    allow_unprivileged_device_configuration: config.allow_unprivileged_device_configuration,
    allow_unprivileged_device_management: config.allow_unprivileged_device_management,
    default_client_allowed_ips: allowed === null ? null : allowed.map(formatInet),
    default_client_dns: config.default_client_dns,
    default_client_endpoint: config.default_client_endpoint,
    default_client_mtu: config.default_client_mtu,
    default_client_persistent_keepalive: config.default_client_persistent_keepalive,
    disable_vpn_on_oidc_error: config.disable_vpn_on_oidc_error,
    id: config.id,
    inserted_at: formatTimestamp(config.insertedAt),
    local_auth_enabled: config.local_auth_enabled,
    logo: config.logo === null ? {} : {data: config.logo.data, type: config.logo.type, url: config.logo.url},
    openid_connect_providers: config.openid_connect_providers.map((p) => ({...p})),
    saml_identity_providers: config.saml_identity_providers.map((p) => ({...p})),
    updated_at: formatTimestamp(config.updatedAt),
    vpn_session_duration: config.vpn_session_duration,
  };
}

/** `{"data": …}` framing for an already-encoded object. */
export const dataFrame = (json: string | Buffer): string => `{"data":${typeof json === 'string' ? json : json.toString('utf8')}}`;

export const encodeData = (value: unknown): string => encodeJson({data: value});
