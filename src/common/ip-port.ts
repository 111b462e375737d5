// FzHttp's address-and-port text, as 0.7.36 reads it (docs/firezone-0.7.36.md, "Configuration:
// field rules"): the console's validators and the sandbox's casts both read it this way, so it is
// written once, here.

/** Elixir's `Integer.parse/1`: optional sign, at least one digit; the unparsed rest is returned. */
export function integerParse(text: string): {value: number; rest: string} | null {
  const m = /^[+-]?\d+/.exec(text);
  if (!m) return null;
  return {value: Number(m[0]), rest: text.slice(m[0].length)};
}

/**
 * FzHttp.Types.IPPort's shape: `a.b.c.d[:port]`, `[v6][:port]` or a bare IPv6 address (more than
 * one colon, no brackets). The address's text and the port's (null: none), or null when the
 * brackets are broken or something follows them that is not `:port`.
 */
export function splitIpPort(text: string): {address: string; port: string | null} | null {
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return null;
    const rest = text.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) return null;
    return {address: text.slice(1, close), port: rest === '' ? null : rest.slice(1)};
  }
  const i = text.indexOf(':');
  if (i < 0 || text.indexOf(':', i + 1) >= 0) return {address: text, port: null};
  return {address: text.slice(0, i), port: text.slice(i + 1)};
}

/** An IPPort's port: the whole text an integer, 1–65535; null when there is none, undefined when it is not one. */
export function ipPortNumber(text: string | null): number | null | undefined {
  if (text === null) return null;
  const parsed = integerParse(text);
  if (!parsed || parsed.rest !== '' || parsed.value <= 0 || parsed.value > 65535) return undefined;
  return parsed.value;
}

/** FzHttp.Validator.split_port: a port only counts when everything after the first ":" is an integer. */
export function splitPort(value: string): [string, number | null] {
  const i = value.indexOf(':');
  if (i < 0) return [value, null];
  const port = integerParse(value.slice(i + 1));
  return port && port.rest === '' ? [value.slice(0, i), port.value] : [value, null];
}
