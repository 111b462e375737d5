// Client-side checks that mirror Firezone 0.7.36's rules and wording (docs/firezone-0.7.36.md: the
// sections on users, devices, rules and configuration),
// so most mistakes never leave the terminal. The server stays the authority: anything these
// accept may still come back as a 422, which the forms show the same way.

export type Messages = string[];

// ---- addresses ------------------------------------------------------------------------------

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function isIPv4(s: string): boolean {
  return IPV4.test(s);
}

export function isIPv6(s: string): boolean {
  if (!s.includes(':') || !/^[0-9a-fA-F:.]+$/.test(s)) return false;
  const doubles = s.split('::').length - 1;
  if (doubles > 1) return false;
  let tail = s;
  const lastColon = s.lastIndexOf(':');
  const last = s.slice(lastColon + 1);
  if (last.includes('.')) {
    // an embedded IPv4 (::ffff:1.2.3.4) stands for two groups
    if (!isIPv4(last)) return false;
    tail = `${s.slice(0, lastColon + 1)}0:0`;
  }
  const [head, rest] = doubles ? tail.split('::') as [string, string] : [tail, undefined];
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const all = [...groups(head), ...(rest === undefined ? [] : groups(rest))];
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  return doubles ? all.length < 8 : all.length === 8;
}

export function isIP(s: string): boolean {
  return isIPv4(s) || isIPv6(s);
}

/** `address` or `address/prefix` with the prefix in range for the family. */
export function isCidrOrIP(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash === -1) return isIP(s);
  const addr = s.slice(0, slash);
  const prefix = s.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefix)) return false;
  const n = Number(prefix);
  if (isIPv4(addr)) return n <= 32;
  if (isIPv6(addr)) return n <= 128;
  return false;
}

const FQDN = /^[a-zA-Z0-9._-]+$/;

/** Endpoint: IP, [IPv6]:port, IP:port, or FQDN-ish with an optional :port (docs/firezone-0.7.36.md, "Configuration: field rules"). */
export function validateEndpoint(value: string): Messages {
  const v = value.trim();
  if (v === '') return [];
  const generic = 'must be one of: Elixir.FzHttp.Types.IPPort, string';
  let host = v;
  let port: string | null = null;
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(v);
  if (bracketed) {
    host = bracketed[1]!;
    port = bracketed[2] ?? null;
    if (!isIPv6(host)) return [`${v} is not a valid FQDN`, generic];
  } else if (isIP(v)) {
    return [];
  } else if (v.split(':').length === 2) {
    [host, port] = v.split(':') as [string, string];
  }
  if (port !== null && !(/^\d+$/.test(port) && Number(port) >= 0 && Number(port) <= 65535)) {
    return ['port is not a number between 0 and 65535', generic];
  }
  if (bracketed || isIP(host) || FQDN.test(host)) return [];
  return [`${v} is not a valid FQDN`, generic];
}

/** DNS servers: IP or FQDN-ish, no port, no duplicates (docs/firezone-0.7.36.md, "Configuration: field rules"). */
export function validateDnsList(values: readonly string[]): Messages {
  const specific: string[] = [];
  for (const raw of values) {
    const v = raw.trim();
    if (isIP(v) || (FQDN.test(v) && !v.includes(':'))) continue;
    if (/^(\[[^\]]+\]|[^:]+):\d+$/.test(v) || (isIPv4(v.split(':')[0] ?? '') && v.includes(':'))) specific.push('setting port is not allowed');
    else specific.push(`${v} is not a valid FQDN`);
  }
  const messages = specific.length > 0 ? [...specific, 'must be one of: Elixir.FzHttp.Types.IP, string'] : [];
  if (hasDuplicates(values.map((v) => v.trim()))) messages.unshift('should not contain duplicates');
  return messages;
}

export function validateAllowedIps(values: readonly string[]): Messages {
  if (values.some((v) => !isCidrOrIP(v.trim()))) return ['is invalid'];
  if (hasDuplicates(values.map((v) => v.trim()))) return ['should not contain duplicates'];
  return [];
}

function hasDuplicates(values: readonly string[]): boolean {
  return new Set(values).size !== values.length;
}

/** "a, b ,c" → ["a","b","c"]: the web UI's comma lists (split on ",", trimmed, blanks dropped). */
export function parseList(text: string): string[] {
  return text.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

export function formatListInput(list: readonly string[] | null): string {
  return (list ?? []).join(', ');
}

// ---- numbers ---------------------------------------------------------------------------------

export function parseInteger(text: string): number | null {
  const t = text.trim();
  return /^-?\d+$/.test(t) ? Number(t) : null;
}

export function validateIntRange(text: string, min: number, max: number, {required}: {required: boolean}): Messages {
  const t = text.trim();
  if (t === '') return required ? ["can't be blank"] : [];
  const n = parseInteger(t);
  if (n === null) return ['is invalid'];
  if (n < min) return [`must be greater than or equal to ${min}`];
  if (n > max) return [`must be less than or equal to ${max}`];
  return [];
}

export const validateMtu = (text: string, required = false) => validateIntRange(text, 576, 1500, {required});
export const validateKeepalive = (text: string, required = false) => validateIntRange(text, 0, 120, {required});
export const validateSessionDuration = (text: string) => validateIntRange(text, 0, 2147483647, {required: true});

// ---- users -----------------------------------------------------------------------------------

export function validateEmail(value: string): Messages {
  const v = value.trim();
  if (v === '') return ["can't be blank"];
  if (!v.includes('@')) return ['is invalid email address'];
  return [];
}

/**
 * Password rules (docs/firezone-0.7.36.md, "Users: create, update, delete"): optional; when given,
 * 12–64 characters and a matching confirmation.
 */
export function validatePassword(password: string, confirmation: string): {password: Messages; password_confirmation: Messages} {
  if (password === '') return {password: [], password_confirmation: []};
  const length = [...new Intl.Segmenter().segment(password)].length;
  const p: Messages = [];
  if (length < 12) p.push('should be at least 12 character(s)');
  if (length > 64) p.push('should be at most 64 character(s)');
  const c: Messages = confirmation === '' ? ["can't be blank"] : confirmation !== password ? ['does not match confirmation'] : [];
  return {password: p, password_confirmation: c};
}

// ---- devices ---------------------------------------------------------------------------------

export function validateDeviceName(value: string): Messages {
  const v = value.trim();
  if (v === '') return ["can't be blank"];
  if ([...v].length > 255) return ['should be at most 255 character(s)'];
  return [];
}

export function validateDescription(value: string): Messages {
  return [...value.trim()].length > 2048 ? ['should be at most 2048 character(s)'] : [];
}

export function validateTunnelAddress(value: string, family: 4 | 6): Messages {
  const v = value.trim();
  if (v === '') return [];
  return (family === 4 ? isIPv4(v) : isIPv6(v)) ? [] : ['is invalid'];
}

// ---- rules -----------------------------------------------------------------------------------

export function validateDestination(value: string): Messages {
  const v = value.trim();
  if (v === '') return ["can't be blank"];
  return isCidrOrIP(v) ? [] : ['is invalid'];
}

/** Port range syntax `N` or `L-U` / `L - U`, within 1..65534 (0.7.36's half-open 1..65535). */
export function validatePortRange(value: string): Messages {
  const v = value.trim();
  if (v === '') return [];
  const m = /^(\d+)\s*(?:-\s*(\d+))?$/.exec(v);
  if (!m) return ['bad format'];
  const lower = Number(m[1]);
  const upper = m[2] === undefined ? lower : Number(m[2]);
  if (lower > upper) return ['lower value cannot be higher than upper value'];
  if (lower < 1 || upper > 65534) return ['port is not within valid range'];
  return [];
}

/** Both or neither of port type and port range (docs/firezone-0.7.36.md, "Rules: fields and port ranges"). */
export function validatePortPair(portType: string | null, portRange: string): {port_type: Messages; port_range: Messages} {
  const hasType = portType !== null && portType !== '';
  const hasRange = portRange.trim() !== '';
  return {
    port_type: !hasType && hasRange ? ["can't be blank"] : [],
    port_range: hasType && !hasRange ? ["can't be blank"] : validatePortRange(portRange),
  };
}

// ---- identity providers ----------------------------------------------------------------------

export const RESERVED_PROVIDER_IDS = ['identity', 'saml', 'magic_link'];

export function validateProviderId(value: string): Messages {
  const v = value.trim();
  if (v === '') return ["can't be blank"];
  return RESERVED_PROVIDER_IDS.includes(v) ? ['is reserved'] : [];
}

export function validateScope(value: string): Messages {
  if (value.trim() === '') return ["can't be blank"];
  const scopes = value.split(/\s+/);
  const messages: Messages = [];
  // 0.7.36 lists the newer error first: email before openid.
  if (!scopes.includes('email')) messages.push('must include email scope');
  if (!scopes.includes('openid')) messages.push('must include openid scope');
  return messages;
}

export function validateRedirectUri(value: string, {required}: {required: boolean}): Messages {
  const v = value.trim();
  if (v === '') return required ? ["can't be blank"] : [];
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    return /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(v) ? ['does not contain a scheme or a host'] : ['does not contain a scheme'];
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return ['only http, https schemes are supported'];
  if (url.host === '') return ['does not contain a scheme or a host'];
  return [];
}

export function validateRequired(value: string): Messages {
  return value.trim() === '' ? ["can't be blank"] : [];
}
