// IP address literals as Firezone writes them and admins type them, checked the same way by the
// console's form validators (src/state/data/validators.ts) and by the client-config validation
// (src/wireguard/validate.ts), which may not depend on each other.

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** A dotted quad, no leading zeros. */
export function isIPv4Literal(s: string): boolean {
  return IPV4.test(s);
}

/** An IPv6 literal as `:inet.ntoa` or an admin writes it, embedded IPv4 allowed; no zone (%eth0). */
export function isIPv6Literal(s: string): boolean {
  if (!s.includes(':') || !/^[0-9a-fA-F:.]+$/.test(s)) return false;
  const doubles = s.split('::').length - 1;
  if (doubles > 1) return false;
  let tail = s;
  const lastColon = s.lastIndexOf(':');
  const last = s.slice(lastColon + 1);
  if (last.includes('.')) {
    // an embedded IPv4 (::ffff:1.2.3.4) stands for two groups
    if (!isIPv4Literal(last)) return false;
    tail = `${s.slice(0, lastColon + 1)}0:0`;
  }
  const [head, rest] = doubles ? (tail.split('::') as [string, string]) : [tail, undefined];
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const all = [...groups(head), ...(rest === undefined ? [] : groups(rest))];
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  return doubles ? all.length < 8 : all.length === 8;
}

export function isIPLiteral(s: string): boolean {
  return isIPv4Literal(s) || isIPv6Literal(s);
}

/** `address` or `address/prefix`, the prefix within the family's range. */
export function isCidrOrIPLiteral(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash === -1) return isIPLiteral(s);
  const addr = s.slice(0, slash);
  const prefix = s.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefix)) return false;
  const n = Number(prefix);
  if (isIPv4Literal(addr)) return n <= 32;
  if (isIPv6Literal(addr)) return n <= 128;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Sort keys. These run for every row of a 50k list on each sort: no regexes, no splitting.

/** A dotted quad's 32-bit value, or null; leading zeros are read as decimal, as Firezone never writes them. */
function ipv4Value(s: string, from: number): number | null {
  let value = 0;
  let part = 0;
  let digits = 0;
  let parts = 0;
  for (let i = from; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 46; // the end closes the last part like a '.'
    if (c >= 48 && c <= 57) {
      part = part * 10 + (c - 48);
      if (++digits > 3 || part > 255) return null;
    } else if (c === 46) {
      if (digits === 0 || ++parts > 4) return null;
      value = value * 256 + part;
      part = 0;
      digits = 0;
    } else {
      return null;
    }
  }
  return parts === 4 ? value : null;
}

// '0'–'9', 'a'–'f' as char codes.
const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

// Scratch for ipv6Digits: the groups as parsed, and the 32 digits' char codes.
const parsedGroups = new Int32Array(8);
const digitCodes: number[] = new Array<number>(32).fill(0);

/** An IPv6 address (`::` and an embedded IPv4 allowed) as 32 lower-case hex digits, or null. */
function ipv6Digits(s: string): string | null {
  let count = 0;
  let gap = -1;
  let i = 0;
  const n = s.length;
  if (n >= 2 && s.charCodeAt(0) === 58 && s.charCodeAt(1) === 58) {
    gap = 0;
    i = 2;
  }
  while (i < n) {
    let j = i;
    let value = 0;
    for (; j < n && j - i < 5; j++) {
      const d = hexDigit(s.charCodeAt(j));
      if (d < 0) break;
      value = value * 16 + d;
    }
    if (j < n && s.charCodeAt(j) === 46) {
      // An embedded IPv4 (::ffff:10.0.0.1) is the last two groups.
      const v4 = ipv4Value(s, i);
      if (v4 === null || count > 6) return null;
      parsedGroups[count++] = Math.floor(v4 / 65536);
      parsedGroups[count++] = v4 % 65536;
      break;
    }
    if (j === i || j - i > 4 || count === 8) return null;
    parsedGroups[count++] = value;
    if (j === n) break;
    if (s.charCodeAt(j) !== 58) return null;
    if (j + 1 < n && s.charCodeAt(j + 1) === 58) {
      if (gap !== -1) return null;
      gap = count;
      i = j + 2;
    } else {
      i = j + 1;
      if (i === n) return null;
    }
  }
  if (gap === -1 ? count !== 8 : count > 7) return null;
  // Group g of the address: the groups after the gap move to the end, zeros fill it.
  const zeros = 8 - count;
  for (let g = 0; g < 8; g++) {
    const v = gap === -1 || g < gap ? parsedGroups[g]! : g < gap + zeros ? 0 : parsedGroups[g - zeros]!;
    digitCodes[4 * g] = HEX_CODES[v >> 12]!;
    digitCodes[4 * g + 1] = HEX_CODES[(v >> 8) & 15]!;
    digitCodes[4 * g + 2] = HEX_CODES[(v >> 4) & 15]!;
    digitCodes[4 * g + 3] = HEX_CODES[v & 15]!;
  }
  // One flat string from a plain array's char codes: cheaper than concatenating 32 pieces or
  // reading a typed array (docs/performance.md, "Sorting 50k rows").
  return String.fromCharCode(...digitCodes);
}

/**
 * Where an address sorts in a list: an IPv4 as its 32-bit number, an IPv6 as its 32 hex digits
 * (code-unit order is then address order: `fd00::9` before `fd00::10`), anything else as given.
 * In a column of both families every IPv4 comes first, as numbers sort before strings.
 */
export function ipSortKey(ip: string | null): number | string | null {
  if (ip === null) return null;
  if (ip.includes(':')) return ipv6Digits(ip) ?? ip;
  return ipv4Value(ip, 0) ?? ip;
}
