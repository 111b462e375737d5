// Every server value that goes into a client config is checked for its kind before anything is
// rendered (issue #10 item 3, "Generated client configs are validated, not pasted"). The server,
// or anything between it and us under --insecure or plain http, is untrusted: a DNS entry
// `1.1.1.1\nPostUp = curl … | sh` would otherwise add a PostUp line that wg-quick runs as root
// on the user's machine. A value that is not of its kind refuses the whole config.
//
// The rules accept everything Firezone 0.7.36 itself lets through validation (docs/firezone-0.7.36.md,
// "Configuration: field rules" and "Devices: create"; FzHttp.Validator), so real data renders
// exactly as before; they are stricter only where
// 0.7.36 would write a config no WireGuard client can use anyway. Every accepted value is
// printable ASCII without spaces, so no accepted value can carry a line break or a terminal
// control sequence into the file, the screen, the clipboard or the QR code.
//
// The address checks duplicate src/state/data/validators.ts on purpose: wireguard must not depend
// on state.
import {isValidKey, KEY_BASE64_LENGTH, KEY_BYTES} from './keys.js';
import {isCidrOrIPLiteral, isIPLiteral, isIPv4Literal, isIPv6Literal} from '../common/ip-literal.js';

/**
 * The device fields the template reads. Names and types match the `/v0` device JSON, so the
 * API layer's 25-field Device type fits structurally. The JSON already carries the
 * *effective* values (the configuration default when a `use_default_*` flag is on;
 * `json/device_view.ex`), which is what the template prints.
 */
export interface ClientConfigDevice {
  ipv4: string | null;
  ipv6: string | null;
  mtu: number | null;
  persistent_keepalive: number | null;
  dns: string[] | null;
  allowed_ips: string[] | null;
  endpoint: string | null;
  preshared_key: string | null;
  server_public_key: string | null;
  /**
   * Where the endpoint came from. 0.7.36 keeps the *default* endpoint as an `IPPort` when it
   * parses as an IP, and IPPort endpoints without a port get the port added with IPv6
   * bracketed; a device's own endpoint is a plain string and an unbracketed IPv6 one gets
   * the malformed `fd00::1:51820`. The JSON flattens both to strings, so this flag is the only
   * way to tell them apart. Absent means "the device's own string" (the conservative reading).
   */
  use_default_endpoint?: boolean;
}

/**
 * A server value that is not of its kind, so no client config was built. `field` is the device
 * JSON field (`dns[0]`, `endpoint`, …; `privateKey` for the caller's key); `message` is one
 * line of printable ASCII naming the field in admin words, with the value escaped and cut.
 */
export class ClientConfigError extends Error {
  readonly field: string;
  /** What is wrong, without the message's "Refusing to build the client config:" head (said before anything is sent). */
  readonly reason: string;

  constructor(field: string, reason: string) {
    super(`Refusing to build the client config: ${reason}`);
    this.name = 'ClientConfigError';
    this.field = field;
    this.reason = reason;
  }
}

export const MTU_MIN = 576;
export const MTU_MAX = 1500;
/** WireGuard's own range (a 16-bit field); 0.7.36's form allows only 0–120, so real data fits. */
export const KEEPALIVE_MIN = 0;
export const KEEPALIVE_MAX = 65535;

/** Escaped values longer than this many characters are cut. */
const SHOWN_MAX = 60;

const SHORT_ESCAPES: Record<number, string> = {0x22: '\\"', 0x5c: '\\\\', 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0c: '\\f', 0x0d: '\\r'};

/**
 * A string in double quotes with JSON-style escapes, where every UTF-16 unit outside printable
 * ASCII (controls, DEL, C1, U+2028/U+2029, bidi overrides, anything non-ASCII) becomes `\uXXXX`,
 * so the result is one line that no terminal can interpret. Long strings are cut and say how
 * long they were.
 */
export function quoteUntrusted(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    const piece = SHORT_ESCAPES[unit] ?? (unit >= 0x20 && unit <= 0x7e ? s[i]! : `\\u${unit.toString(16).padStart(4, '0')}`);
    if (out.length + piece.length > SHOWN_MAX) return `"${out}"... (${s.length} characters)`;
    out += piece;
  }
  return `"${out}"`;
}

/** Any JSON value as a short, escaped, single-line description for a message. */
function describeUntrusted(value: unknown): string {
  if (typeof value === 'string') return quoteUntrusted(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  return `a value of type ${typeof value}`;
}

// ---- kinds ------------------------------------------------------------------------------------

/**
 * A host or domain name: 0.7.36's FQDN characters (`[a-zA-Z0-9._-]`; the underscore is in
 * there too), as dot-separated non-empty labels with an optional trailing dot, at most 253
 * characters, and a last label that is not all digits (so `1.2.3.4.5` or `10.0.0.256`, which
 * are broken IP addresses, do not pass as names).
 */
export function isHostName(s: string): boolean {
  if (s.length === 0 || s.length > 253) return false;
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.?$/.test(s)) return false;
  const labels = s.replace(/\.$/, '').split('.');
  return !/^\d+$/.test(labels[labels.length - 1]!);
}

function isPort(s: string): boolean {
  if (!/^\d{1,5}$/.test(s)) return false;
  const n = Number(s);
  return n >= 1 && n <= 65535;
}

/**
 * What the template can complete into an Endpoint line: `host`, `host:port`, `[IPv6]`,
 * `[IPv6]:port`, or a bare IPv6 address (which 0.7.36 renders as it does, with a warning from
 * configWarnings). Host is an IPv4 address or a host name; port 1–65535.
 */
export function isEndpoint(s: string): boolean {
  const bracketed = /^\[([^\]]*)\](?::([^:]*))?$/.exec(s);
  if (bracketed) return isIPv6Literal(bracketed[1]!) && (bracketed[2] === undefined || isPort(bracketed[2]));
  if (isIPv6Literal(s)) return true;
  const parts = s.split(':');
  if (parts.length > 2) return false;
  const [host, port] = parts as [string, string | undefined];
  return (isIPv4Literal(host) || isHostName(host)) && (port === undefined || isPort(port));
}

// ---- the device -------------------------------------------------------------------------------

const KEY_KIND = `is not a WireGuard key (${KEY_BASE64_LENGTH} characters of base64 encoding ${KEY_BYTES} bytes)`;

function refuse(field: string, what: string, problem: string, value: unknown): never {
  throw new ClientConfigError(field, `${what} ${field} ${problem}: ${describeUntrusted(value)}`);
}

function checkInteger(value: unknown, field: string, what: string, min: number, max: number, unit = ''): void {
  if (value === null) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    refuse(field, what, `is not a whole number${unit} from ${min} to ${max}`, value);
  }
}

function checkList(value: unknown, field: string, what: string, itemWhat: string, problem: string, ok: (s: string) => boolean): void {
  if (value === null) return;
  if (!Array.isArray(value)) refuse(field, what, 'is not a list', value);
  (value as unknown[]).forEach((item, i) => {
    if (typeof item !== 'string' || !ok(item)) refuse(`${field}[${i}]`, itemWhat, problem, item);
  });
}

/**
 * `null` drops the line or leaves the value empty, as the template does; `''` is 0.7.36's
 * blank value, printed as an empty key (configWarnings says so); anything else must be a key.
 */
function checkKey(value: unknown, field: string, what: string): void {
  if (value === null || value === '') return;
  if (typeof value !== 'string' || !isValidKey(value)) refuse(field, what, KEY_KIND, value);
}

/**
 * Throws ClientConfigError for the first device value (in config order) that is not of its
 * kind; returns when every value may go into the config. renderClientConfig() and
 * configWarnings() call it; the UI may call it to check a device without rendering.
 *
 * Accepted, besides the values themselves: `null` wherever the template has an empty
 * rendering, a blank (spaces only) endpoint, and the blank strings 0.7.36 prints as they are
 * (a `''` DNS entry, an empty preshared or server public key).
 */
export function validateClientConfigDevice(device: ClientConfigDevice): void {
  const d = device as unknown as Record<string, unknown>;
  for (const [field, family] of [
    ['ipv4', 4],
    ['ipv6', 6],
  ] as const) {
    const value = d[field];
    if (value === null) continue;
    const ok = typeof value === 'string' && (family === 4 ? isIPv4Literal(value) : isIPv6Literal(value));
    if (!ok) refuse(field, 'Tunnel address', `is not an IPv${family} address`, value);
  }
  checkInteger(d.mtu, 'mtu', 'MTU', MTU_MIN, MTU_MAX);
  checkList(d.dns, 'dns', 'DNS server list', 'DNS server', 'is not an IP address or domain name', (s) => s === '' || isIPLiteral(s) || isHostName(s));
  checkKey(d.preshared_key, 'preshared_key', 'Preshared key');
  checkKey(d.server_public_key, 'server_public_key', 'Server public key');
  checkList(d.allowed_ips, 'allowed_ips', 'Allowed IPs', 'Allowed IPs entry', 'is not an IP address or CIDR range', isCidrOrIPLiteral);
  const endpoint = d.endpoint;
  if (endpoint !== null && !(typeof endpoint === 'string' && (/^ *$/.test(endpoint) || isEndpoint(endpoint)))) {
    refuse('endpoint', 'Endpoint', 'is not host, host:port, [IPv6 address] or [IPv6 address]:port with a port from 1 to 65535', endpoint);
  }
  checkInteger(d.persistent_keepalive, 'persistent_keepalive', 'Persistent keepalive', KEEPALIVE_MIN, KEEPALIVE_MAX, ' of seconds');
  if (d.use_default_endpoint !== undefined && typeof d.use_default_endpoint !== 'boolean') {
    refuse('use_default_endpoint', 'Default endpoint flag', 'is not true or false', d.use_default_endpoint);
  }
}

/** Throws ClientConfigError (without showing the value, which is a secret) for a private key that is not a WireGuard key. */
export function validatePrivateKey(privateKey: unknown): void {
  if (typeof privateKey !== 'string' || !isValidKey(privateKey)) {
    throw new ClientConfigError('privateKey', `the device's private key privateKey ${KEY_KIND} (not shown)`);
  }
}
