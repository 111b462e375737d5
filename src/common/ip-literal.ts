// IP address literals as Firezone writes them and admins type them, checked the same way by the
// console's form validators (src/state/validators.ts) and by the client-config validation
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
