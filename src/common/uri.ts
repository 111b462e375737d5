// Enough of Elixir's URI parsing (`URI.new/1`, `:uri_string.parse/1`) for 0.7.36's URI checks: the
// scheme, the host, and the first part that does not parse. Shared by the console's form validators
// (src/state/data/validators.ts) and the sandbox (src/sandbox/validators.ts), so both say the same.

// RFC 3986 characters `:uri_string.parse/1` accepts anywhere in a URI reference.
const URI_CHAR = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/;

export interface ParsedUri {
  scheme: string | null;
  host: string | null;
}

/** Enough of Elixir's `URI.new/1` to tell scheme and host apart and to find the first invalid part. */
export function parseUri(value: string): {ok: ParsedUri} | {error: string} {
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (!URI_CHAR.test(ch)) return {error: value.slice(i)};
    if (ch === '%' && !/^%[0-9A-Fa-f]{2}/.test(value.slice(i))) return {error: value.slice(i)};
  }
  let rest = value;
  let scheme: string | null = null;
  const schemeMatch = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (schemeMatch) {
    scheme = schemeMatch[1]!.toLowerCase();
    rest = rest.slice(schemeMatch[0].length);
  } else {
    // a relative reference may not have ":" in its first path segment
    const firstSegment = rest.split(/[/?#]/)[0] ?? '';
    if (firstSegment.includes(':')) return {error: rest.slice(rest.indexOf(':'))};
  }
  let host: string | null = null;
  if (rest.startsWith('//')) {
    const authority = rest.slice(2).split(/[/?#]/)[0] ?? '';
    const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
    if (hostPort.startsWith('[')) {
      const close = hostPort.indexOf(']');
      if (close < 0) return {error: hostPort};
      host = hostPort.slice(1, close);
      const after = hostPort.slice(close + 1);
      if (after !== '' && !/^:\d*$/.test(after)) return {error: after};
    } else {
      const colon = hostPort.indexOf(':');
      host = colon < 0 ? hostPort : hostPort.slice(0, colon);
      if (colon >= 0 && !/^\d*$/.test(hostPort.slice(colon + 1))) return {error: hostPort.slice(colon)};
    }
  }
  return {ok: {scheme, host}};
}
