// Client-side checks that mirror Firezone 0.7.36's rules and wording (docs/firezone-0.7.36.md: the
// sections on users, devices, rules and configuration),
// so most mistakes never leave the terminal. The server stays the authority: anything these
// accept may still come back as a 422, which the forms show the same way.

import {isCidrOrIPLiteral, isIPLiteral, isIPv4Literal, isIPv6Literal} from '../../common/ip-literal.js';
import {parseUri} from '../../common/uri.js';
// Ecto's validate_length counts graphemes ("e" + a combining accent is one character), counted only as far as the limit.
import {countGraphemes} from '../../common/graphemes.js';
import {ipPortNumber, splitIpPort, splitPort} from '../../common/ip-port.js';
import {SERVER_WORDS_PLAIN} from '../../api/errors.js';

export type Messages = string[];

// ---- addresses ------------------------------------------------------------------------------

// The address checks are shared with the client-config validation (src/common/ip-literal.ts).
const isIPv4 = isIPv4Literal;
export const isIPv6 = isIPv6Literal;
const isIP = isIPLiteral;
export const isCidrOrIP = isCidrOrIPLiteral;

const FQDN = /^[a-zA-Z0-9._-]+$/;
// The server's "must be one of: Elixir.FzHttp.Types.…" in the plain words its 422s are shown in.
const ENDPOINT_ONE_OF = SERVER_WORDS_PLAIN['must be one of: Elixir.FzHttp.Types.IPPort, string']!;
const DNS_ONE_OF = SERVER_WORDS_PLAIN['must be one of: Elixir.FzHttp.Types.IP, string']!;
const DUPLICATES = 'should not contain duplicates';

/** FzHttp.Validator.validate_fqdn: `^[a-zA-Z0-9._-]+$` on the part before the port, plus the port rule (docs/firezone-0.7.36.md, "Configuration: field rules"). */
function fqdnErrors(value: string, allowPort: boolean): Messages {
  const [fqdn, port] = splitPort(value);
  const errors: Messages = [];
  if (!FQDN.test(fqdn)) errors.push(`${fqdn} is not a valid FQDN`);
  if (port !== null) {
    if (!allowPort) errors.push('setting port is not allowed');
    // 1–65535, although the message says 0
    else if (!(port > 0 && port <= 65535)) errors.push('port is not a number between 0 and 65535');
  }
  return errors;
}

/** FzHttp.Types.IPPort: `a.b.c.d[:port]`, `[v6][:port]` or a bare IPv6 address, the port 1–65535. */
function isIpPort(text: string): boolean {
  const parts = splitIpPort(text);
  return parts !== null && isIP(parts.address) && ipPortNumber(parts.port) !== undefined;
}

/** Endpoint: IP, [IPv6]:port, IP:port, or FQDN-ish with an optional :port (docs/firezone-0.7.36.md, "Configuration: field rules"). */
export function validateEndpoint(value: string): Messages {
  const v = value.trim();
  if (v === '' || isIpPort(v)) return [];
  const errors = fqdnErrors(v, true);
  return errors.length > 0 ? [...errors, ENDPOINT_ONE_OF] : [];
}

/** DNS servers: IP or FQDN-ish, no port, no duplicates (docs/firezone-0.7.36.md, "Configuration: field rules"); the one-of messages first, each message once. */
export function validateDnsList(values: readonly string[]): Messages {
  const trimmed = values.map((v) => v.trim());
  const specific: Messages = [];
  for (const v of trimmed) if (!isIP(v)) specific.push(...fqdnErrors(v, false));
  const messages = specific.length > 0 ? [...specific, DNS_ONE_OF] : [];
  if (hasDuplicates(trimmed)) messages.push(DUPLICATES);
  return [...new Set(messages)];
}

export function validateAllowedIps(values: readonly string[]): Messages {
  const trimmed = values.map((v) => v.trim());
  if (trimmed.some((v) => !isCidrOrIP(v))) return ['is invalid'];
  // compared as cast values: "fd00::1" and "FD00:0::1" are the same address
  if (hasDuplicates(trimmed.map(canonicalCidr))) return [DUPLICATES];
  return [];
}

// ---- naming the entry ---------------------------------------------------------------------------
//
// 0.7.36's list messages name no entry ("is invalid", "should not contain duplicates"), and a list
// of allowed IPs may hold hundreds. A form shows the server's words, then which entry they are about.

/** How much of an entry a message quotes (a list is as long as a paste). */
const ENTRY_SHOWN = 40;

/** `"10.0.0.300/24" (entry 3 of 40)`: the entry, cut to ENTRY_SHOWN characters, and where it is. */
function entryName(values: readonly string[], i: number): string {
  const v = values[i]!;
  const shown = v.length > ENTRY_SHOWN ? `${v.slice(0, ENTRY_SHOWN - 1)}…` : v;
  return values.length > 1 ? `"${shown}" (entry ${i + 1} of ${values.length})` : `"${shown}"`;
}

/** The index of the first entry equal to an earlier one, or -1. */
function firstDuplicate(values: readonly string[]): number {
  const seen = new Set<string>();
  for (let i = 0; i < values.length; i++) {
    if (seen.has(values[i]!)) return i;
    seen.add(values[i]!);
  }
  return -1;
}

/** `message: "entry" (entry i of n)`, or the message alone when no entry is at fault (i < 0). */
const naming = (message: string, values: readonly string[], i: number): string => (i < 0 ? message : `${message}: ${entryName(values, i)}`);

/** validateAllowedIps for a form: the same words, each followed by the entry it is about. */
export function validateAllowedIpsNamed(values: readonly string[]): Messages {
  const trimmed = values.map((v) => v.trim());
  return validateAllowedIps(trimmed).map((m) =>
    m === DUPLICATES
      ? naming(m, trimmed, firstDuplicate(trimmed.map(canonicalCidr)))
      : naming(
          m,
          trimmed,
          trimmed.findIndex((v) => !isCidrOrIP(v)),
        ),
  );
}

/** validateDnsList for a form: the same words; the port and duplicate messages followed by the entry they are about (an FQDN's own message names it). */
export function validateDnsListNamed(values: readonly string[]): Messages {
  const trimmed = values.map((v) => v.trim());
  return validateDnsList(trimmed).map((m) => {
    if (m === DUPLICATES) return naming(m, trimmed, firstDuplicate(trimmed));
    if (m === 'setting port is not allowed')
      return naming(
        m,
        trimmed,
        trimmed.findIndex((v) => !isIP(v) && splitPort(v)[1] !== null),
      );
    return m;
  });
}

function canonicalCidr(s: string): string {
  const slash = s.indexOf('/');
  const addr = slash === -1 ? s : s.slice(0, slash);
  const prefix = slash === -1 ? '' : `/${Number(s.slice(slash + 1))}`;
  return `${isIPv6(addr) ? expandIPv6(addr) : addr}${prefix}`;
}

function expandIPv6(s: string): string {
  let text = s.toLowerCase();
  const last = text.slice(text.lastIndexOf(':') + 1);
  if (last.includes('.')) {
    const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, text.lastIndexOf(':') + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? (text.split('::') as [string, string]) : [text, null];
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const h = groups(head);
  const t = tail === null ? [] : groups(tail);
  const all = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return all.map((g) => parseInt(g, 16).toString(16)).join(':');
}

function hasDuplicates(values: readonly string[]): boolean {
  return new Set(values).size !== values.length;
}

/** "a, b ,c" → ["a","b","c"]: the web UI's comma lists (split on ",", trimmed, blanks dropped). */
export function parseList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function formatListInput(list: readonly string[] | null): string {
  return (list ?? []).join(', ');
}

// ---- numbers ---------------------------------------------------------------------------------

export function parseInteger(text: string): number | null {
  const t = text.trim();
  // Elixir's Integer.parse/1, which Ecto's :integer cast uses, takes a leading + too
  return /^[+-]?\d+$/.test(t) ? Number(t) : null;
}

function validateIntRange(text: string, min: number, max: number, {required}: {required: boolean}): Messages {
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
  const length = countGraphemes(password, 64);
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
  if (countGraphemes(v, 255) > 255) return ['should be at most 255 character(s)'];
  return [];
}

export function validateDescription(value: string): Messages {
  return countGraphemes(value.trim(), 2048) > 2048 ? ['should be at most 2048 character(s)'] : [];
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

/**
 * Port range syntax `N`, `L-U` / `L - U` or Int4Range's bracket forms (`[L,U]`, `(L,U)`, mixed), within
 * 1..65534 (0.7.36's half-open 1..65535). Stricter than 0.7.36 on purpose: a leading "-", a "+" or
 * trailing junk ("80abc", "80-90-100"), which 0.7.36 silently drops (quirk 18), are "bad format" here.
 */
export function validatePortRange(value: string): Messages {
  const v = value.trim();
  if (v === '') return [];
  let lower: number;
  let upper: number;
  const bracket = /^([[(])\s*(\d+),\s*(\d+)\s*([\])])$/.exec(v);
  if (bracket) {
    lower = Number(bracket[2]) + (bracket[1] === '(' ? 1 : 0);
    upper = Number(bracket[3]) - (bracket[4] === ')' ? 1 : 0);
  } else {
    const m = /^(\d+)\s*(?:-\s*(\d+))?$/.exec(v);
    if (!m) return ['bad format'];
    lower = Number(m[1]);
    upper = m[2] === undefined ? lower : Number(m[2]);
  }
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

const RESERVED_PROVIDER_IDS = ['identity', 'saml', 'magic_link'];

export function validateProviderId(value: string): Messages {
  const v = value.trim();
  if (v === '') return ["can't be blank"];
  return RESERVED_PROVIDER_IDS.includes(v) ? ['is reserved'] : [];
}

export function validateScope(value: string): Messages {
  if (value.trim() === '') return ["can't be blank"];
  const messages: Messages = [];
  // 0.7.36 checks with validate_format(~r/openid/) and (~r/email/): substrings, not whole scopes;
  // it lists the newer error first: email before openid.
  if (!value.includes('email')) messages.push('must include email scope');
  if (!value.includes('openid')) messages.push('must include openid scope');
  return messages;
}

/** FzHttp.Validator.validate_uri (http/https), checked in 0.7.36's order: parse, host, scheme, allowed scheme. */
export function validateRedirectUri(value: string, {required}: {required: boolean}): Messages {
  const v = value.trim();
  if (v === '') return required ? ["can't be blank"] : [];
  const result = parseUri(v);
  if ('error' in result) return [`is invalid. Error at ${result.error}`];
  const parsed = result.ok;
  // "https://" has an empty host, which 0.7.36 does not refuse
  if (parsed.host === null) return ['does not contain a scheme or a host'];
  if (parsed.scheme === null) return ['does not contain a scheme'];
  if (parsed.scheme !== 'http' && parsed.scheme !== 'https') return ['only http, https schemes are supported'];
  return [];
}

export function validateRequired(value: string): Messages {
  return value.trim() === '' ? ["can't be blank"] : [];
}
