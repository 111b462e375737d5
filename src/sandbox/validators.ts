// FzHttp.Validator and the FzHttp.Config.Definitions field rules of 0.7.36, reused for
// configuration defaults, device fields and environment variables (docs/firezone-0.7.36.md, "Configuration: field rules").

import {castInet, castIpPort, parseAddress, sameInet, type Inet} from './inet.js';
import {splitPort} from '../common/ip-port.js';
import {castArray, cast, type CastResult} from './changeset.js';
import {parseUri} from '../common/uri.js';

const ENDPOINT_ONE_OF = 'must be one of: Elixir.FzHttp.Types.IPPort, string';
const DNS_ONE_OF = 'must be one of: Elixir.FzHttp.Types.IP, string';
const DUPLICATES = 'should not contain duplicates';

/** FzHttp.Validator.validate_fqdn: `^[a-zA-Z0-9._-]+$` plus the port rule. */
function fqdnErrors(value: string, allowPort: boolean): string[] {
  const [fqdn, port] = splitPort(value);
  const errors: string[] = [];
  if (!/^[a-zA-Z0-9._-]+$/.test(fqdn)) errors.push(`${fqdn} is not a valid FQDN`);
  if (port !== null) {
    if (!allowPort) errors.push('setting port is not allowed');
    else if (!(port > 0 && port <= 65535)) errors.push('port is not a number between 0 and 65535');
  }
  return errors;
}

/** `{:one_of, [Types.IPPort, :string]}` for an (already trimmed) endpoint. */
export function endpointErrors(value: string): string[] {
  if (castIpPort(value)) return [];
  const errors = fqdnErrors(value, true);
  return errors.length > 0 ? [...errors, ENDPOINT_ONE_OF] : [];
}

function uniq(messages: string[]): string[] {
  return [...new Set(messages)];
}

/** `{:array, ",", {:one_of, [Types.IP, :string]}, validate_unique: true}` for (already trimmed) DNS entries. */
export function dnsErrors(values: readonly string[]): string[] {
  const specific: string[] = [];
  for (const value of values) {
    if (parseAddress(value)) continue;
    specific.push(...fqdnErrors(value, false));
  }
  const errors = specific.length > 0 ? [...specific, DNS_ONE_OF] : [];
  if (new Set(values).size !== values.length) errors.push(DUPLICATES);
  return uniq(errors);
}

/** `{:array, ",", {:one_of, [Types.CIDR, Types.IP]}, validate_unique: true}` on cast INET values. */
export function allowedIpsErrors(values: readonly Inet[]): string[] {
  const duplicate = values.some((v, i) => values.findIndex((w) => sameInet(v, w)) !== i);
  return duplicate ? [DUPLICATES] : [];
}

const castInetElement = (value: unknown): CastResult => {
  if (typeof value !== 'string') return cast.invalid();
  const inet = castInet(value);
  return inet ? cast.ok(inet) : cast.invalid();
};

export const castInetArray = castArray(castInetElement);
export const castStringArray = castArray((value) => (typeof value === 'string' ? cast.ok(value) : cast.invalid()));

/** Elixir `Base.decode64/1` (strict: standard alphabet, padding required). */
export function isBase64(value: string): boolean {
  return value.length % 4 === 0 && /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(value);
}

/** FzHttp.Validator.validate_uri with 0.7.36's messages (docs/firezone-0.7.36.md, "Configuration and providers (wholesale replacement)"). */
export function uriErrors(value: string, schemes: readonly string[] = ['http', 'https']): string[] {
  const parsed = parseUri(value);
  if ('error' in parsed) return [`is invalid. Error at ${parsed.error}`];
  const {scheme, host} = parsed.ok;
  if (host === null) return ['does not contain a scheme or a host'];
  if (scheme === null) return ['does not contain a scheme'];
  if (!schemes.includes(scheme)) return [`only ${schemes.join(', ')} schemes are supported`];
  return [];
}
