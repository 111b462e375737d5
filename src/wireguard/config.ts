// The WireGuard client config exactly as Firezone 0.7.36's web UI produces it
// (`fz_http_web/views/wireguard_config_view.ex` at tag 0.7.36, plus the browser's
// `REPLACE_ME` substitution in `js/wg_conf.js`; docs/firezone-0.7.36.md, "The WireGuard client config").
//
// Byte-for-byte fidelity is the point: an admin comparing the console's file with one the web
// UI produced must see no difference, quirks included (blank lines where a value is empty, an
// unbracketed IPv6 endpoint getting `:51820` glued on). The quirks that yield a config a
// client may not accept are reported separately by configWarnings() instead of being "fixed".
//
// Every server value is checked for its kind first (validate.ts): a value that is not refuses
// the config with a ClientConfigError, so nothing the server sends can add a line to it.
import {isIP, isIPv6} from 'node:net';
import {validateClientConfigDevice, validatePrivateKey, type ClientConfigDevice} from './validate.js';

export type {ClientConfigDevice};

export interface RenderOptions {
  /** The device's private key (never sent to the server; 0.7.36's `REPLACE_ME`). */
  privateKey: string;
  /**
   * The server's WIREGUARD_PORT, used for endpoints without a port. The API does not expose
   * it (docs/firezone-0.7.36.md, "The WireGuard client config"), so the caller assumes 51820 unless the admin
   * configured another.
   */
  wireguardPort?: number;
}

export const DEFAULT_WIREGUARD_PORT = 51820;

// 0.7.36 `field_empty?/1`: nil, [] and blank strings are empty; 0 is printed since 0.7.36
// (commit 001f634017, "PersistentKeepalive = 0"). A list holding only blank strings is NOT
// empty there, so `DNS = ` can appear — mirrored.
function fieldEmpty(value: string | number | readonly string[] | null | undefined): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'string') return value.trim().length === 0;
  return false;
}

function checkPort(port: number): number {
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new RangeError(`WireGuard port must be an integer from 1 to 65535, got ${port}`);
  }
  return port;
}

interface IpPort {
  address: string;
  family: 4 | 6;
  port: string | null;
}

// 0.7.36 `FzHttp.Types.IPPort.cast/1`: trim; `[addr]:port` or `[addr]`; otherwise split on
// ":" and take exactly two parts as address and port, else the whole string is the address;
// the address must parse as an IP and the port as an integer 1–65535.
function parseIpPort(raw: string): IpPort | null {
  const s = raw.trim();
  let address: string;
  let port: string | null = null;
  if (s.startsWith('[')) {
    const rest = s.slice(1);
    const at = rest.indexOf(']:');
    if (at >= 0) {
      address = rest.slice(0, at);
      port = rest.slice(at + 2);
    } else {
      address = rest;
    }
  } else {
    const parts = s.split(':');
    if (parts.length === 2) {
      address = parts[0]!;
      port = parts[1]!;
    } else {
      address = s;
    }
  }
  const family = isIP(address);
  if (family !== 4 && family !== 6) return null;
  // Stryker disable all: validateClientConfigDevice refuses every port outside 1–65535 or not all
  // digits before this runs; the check stays to mirror 0.7.36, but no test can reach it.
  if (port !== null) {
    // Elixir Integer.parse accepts a sign; the remainder must be empty.
    if (!/^[+-]?\d+$/.test(port)) return null;
    const n = Number(port);
    if (!(n > 0 && n <= 65535)) return null;
    port = String(n);
  }
  // Stryker restore all
  return {address, family, port};
}

// 0.7.36 `maybe_add_port/1` for string endpoints: exactly one ":" or a `[..]:port` anywhere
// means "has a port"; anything else gets `:<WIREGUARD_PORT>` appended.
const BRACKETED_WITH_PORT = /\[.*]:(\d+)/;

function stringEndpointHasPort(endpoint: string): boolean {
  const colons = [...endpoint].filter((c) => c === ':').length;
  return colons === 1 || BRACKETED_WITH_PORT.test(endpoint);
}

interface ResolvedEndpoint {
  text: string;
  /** True when 0.7.36's string rule appended a port to an address that already had colons. */
  ambiguous: boolean;
}

function resolveEndpoint(endpoint: string, port: number, fromDefault: boolean): ResolvedEndpoint {
  if (fromDefault) {
    const ipPort = parseIpPort(endpoint);
    if (ipPort) {
      // IPPort.to_string/1. The API's string was produced by that same function (Jason
      // encoder), so the address is already in :inet.ntoa form and is reused as is.
      const p = ipPort.port ?? String(port);
      const text = ipPort.family === 6 ? `[${ipPort.address}]:${p}` : `${ipPort.address}:${p}`;
      return {text, ambiguous: false};
    }
  }
  if (stringEndpointHasPort(endpoint)) return {text: endpoint, ambiguous: false};
  // `[v6]` without a port is completed into a well-formed `[v6]:port`; only an unbracketed
  // address with colons ends up ambiguous.
  return {text: `${endpoint}:${port}`, ambiguous: endpoint.includes(':') && !endpoint.trim().startsWith('[')};
}

/** The host of a rendered endpoint when it is 0.0.0.0 or :: (an address that names no machine), else null. */
function unspecifiedHost(endpoint: string): string | null {
  const bracketed = /^\[([^\]]*)\]/.exec(endpoint);
  const host = bracketed ? bracketed[1]! : endpoint.slice(0, endpoint.lastIndexOf(':') < 0 ? endpoint.length : endpoint.lastIndexOf(':'));
  if (/^0+\.0+\.0+\.0+$/.test(host)) return '0.0.0.0';
  if (bracketed && /^[0:]+$/.test(host) && host.includes('::')) return '::';
  return null;
}

/**
 * 0.7.36 `Devices.inet/1`: IPv4 `/32` first, then IPv6 `/128`, joined by "," without a space.
 * The server includes a family when it is enabled; the API does not say which are, so a
 * family counts as enabled when the device has an address in it (docs/firezone-0.7.36.md, "The WireGuard
 * client config").
 */
function address(device: ClientConfigDevice): string {
  const parts: string[] = [];
  if (device.ipv4 !== null) parts.push(`${device.ipv4}/32`);
  if (device.ipv6 !== null) parts.push(`${device.ipv6}/128`);
  return parts.join(',');
}

/**
 * The client config for a device, byte-for-byte what Firezone 0.7.36's web UI offers for
 * download after "Generate Configuration" (ends with a newline).
 *
 * Throws ClientConfigError, before rendering anything, when the private key is not a
 * WireGuard key (a config with a broken key would fail only later, on the user's machine) or
 * a server value is not of its kind (validateClientConfigDevice); RangeError when
 * `wireguardPort` is out of range.
 */
export function renderClientConfig(device: ClientConfigDevice, opts: RenderOptions): string {
  validatePrivateKey(opts.privateKey);
  const port = checkPort(opts.wireguardPort ?? DEFAULT_WIREGUARD_PORT);
  validateClientConfigDevice(device);
  const line = (key: string, value: string | number | readonly string[] | null, text: () => string) => (fieldEmpty(value) ? '' : `${key} = ${text()}`);

  const endpoint = device.endpoint;
  const lines = [
    '[Interface]',
    `PrivateKey = ${opts.privateKey}`,
    // Always present, even empty: the template interpolates inet/1 unconditionally.
    `Address = ${address(device)}`,
    line('MTU', device.mtu, () => String(device.mtu)),
    line('DNS', device.dns, () => (device.dns ?? []).join(',')),
    '',
    '[Peer]',
    // psk_config/1 tests truthiness (`if device.preshared_key`), not field_empty?: only nil
    // drops the line. The server always stores a 44-character PSK, so this is academic.
    device.preshared_key === null ? '' : `PresharedKey = ${device.preshared_key}`,
    // Interpolated unconditionally; nil renders as an empty value (0.7.36 only logs an error).
    `PublicKey = ${device.server_public_key ?? ''}`,
    line('AllowedIPs', device.allowed_ips, () => (device.allowed_ips ?? []).join(',')),
    line('Endpoint', endpoint, () => resolveEndpoint(endpoint ?? '', port, device.use_default_endpoint === true).text),
    line('PersistentKeepalive', device.persistent_keepalive, () => String(device.persistent_keepalive)),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Human-readable problems with the config renderClientConfig() produces for this device —
 * the cases where mirroring 0.7.36 byte-for-byte yields a config a client will reject, misread
 * or cannot use. Empty when the config is fine. Shown next to the config, never instead of it.
 *
 * Throws like renderClientConfig() (ClientConfigError for a value that is not of its kind),
 * so a warning never quotes an unchecked server value; call it after renderClientConfig().
 */
export function configWarnings(device: ClientConfigDevice, opts: {wireguardPort?: number} = {}): string[] {
  const port = checkPort(opts.wireguardPort ?? DEFAULT_WIREGUARD_PORT);
  validateClientConfigDevice(device);
  const warnings: string[] = [];

  if (device.ipv4 === null && device.ipv6 === null) {
    warnings.push('The device has no tunnel address (ipv4 and ipv6 are both null); the config has an empty Address line, as Firezone 0.7.36 would render it');
  }
  if (fieldEmpty(device.server_public_key)) {
    warnings.push(
      'The server public key is unknown (server_public_key is empty); the config has an empty PublicKey line, as Firezone 0.7.36 would render it, and cannot connect',
    );
  }
  if (device.preshared_key === '') {
    warnings.push(
      'The preshared key is empty (preshared_key is ""); the config has an empty PresharedKey line, as Firezone 0.7.36 would render it, which WireGuard rejects',
    );
  }
  if (fieldEmpty(device.allowed_ips)) {
    warnings.push('AllowedIPs is empty, so the config has no AllowedIPs line and the client routes no traffic through the tunnel');
  }

  const endpoint = device.endpoint;
  if (fieldEmpty(endpoint) || endpoint === null) {
    warnings.push('The endpoint is empty, so the config has no Endpoint line and the client cannot start the connection');
  } else {
    const resolved = resolveEndpoint(endpoint, port, device.use_default_endpoint === true);
    const unspecified = unspecifiedHost(resolved.text);
    if (unspecified !== null) {
      warnings.push(
        `Endpoint ${resolved.text} is the unspecified address ${unspecified} (0.7.36 reads an endpoint of "0" as 0.0.0.0): no client can reach the server there; set the server's public address or name`,
      );
    }
    if (resolved.ambiguous) {
      const bare = endpoint.trim();
      const fix = isIPv6(bare) ? `; use [${bare}]:${port} instead` : '';
      const what = isIPv6(bare) ? 'an unbracketed IPv6 address' : 'an endpoint with more than one ":" and no [address]:port form';
      warnings.push(
        `Endpoint ${endpoint} is ${what}; the config gets ${resolved.text} exactly as Firezone 0.7.36 would, ` +
          `where host and port are ambiguous and WireGuard clients may reject or misread it${fix}`,
      );
    }
  }
  return warnings;
}
