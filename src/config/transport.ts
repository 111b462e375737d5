// Facts about the connection URL that the UI shows as badges.

/**
 * True when requests (and the API token in them) would cross a network unencrypted: an
 * `http:` URL whose host is not loopback (127.0.0.0/8, ::1, localhost). The console shows a
 * PLAIN HTTP badge then. An unparsable URL is false: the client refuses it anyway.
 */
export function isPlainHttpToNetwork(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:') return false;
  return !isLoopbackHost(parsed.hostname);
}

/** `hostname` as URL gives it: IPv6 in brackets, IPv4 normalised to dotted decimal. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  if (host === '[::1]') return true;
  // IPv4-mapped loopback: URL writes ::ffff:127.0.0.1 as [::ffff:7f00:1]
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}\]$/.exec(host);
  return mapped !== null && parseInt(mapped[1]!, 16) >> 8 === 127;
}
