// Whether a client config can be built, asked before the console changes what needs one: a new
// device's private key is shown once, and `K` deletes the device before it creates it again.
// 0.7.36 stores values its config renderer prints as they are and a client then rejects — a DNS
// server "999.1.1.1" passes its FQDN check — which the console's renderer refuses
// (src/wireguard/validate.ts): found only after the create, the device was made and its private
// key lost; after `K`'s delete, the user had no working config until `u`. The Configuration's
// review says it too, before client defaults like that are saved.
import type {Configuration, DeviceCreate} from '../../api/index.js';
import {ClientConfigError, configWarnings, validateClientConfigDevice, type ClientConfigDevice} from '../../wireguard/index.js';

/** Why no client config can be built for `device` (the renderer's words, without their "Refusing…" head), and the field, or null. */
export function configProblem(device: ClientConfigDevice): {field: string; why: string} | null {
  try {
    validateClientConfigDevice(device);
    return null;
  } catch (err) {
    if (!(err instanceof ClientConfigError)) throw err;
    return {field: err.field, why: err.reason};
  }
}

/**
 * Why a device created with `body` could get no client config, in words for the status line
 * (whose value it is: a client default of the Configuration, or the device's own), or null.
 */
export function createRefusal(body: Omit<DeviceCreate, 'user_id' | 'public_key'>, c: Configuration | null): string | null {
  // Without the configuration (a token that may not read it) there is nothing to check against.
  if (c === null) return null;
  const problem = configProblem(deviceAsCreated(body, c));
  if (problem === null) return null;
  const setting = problem.field.replace(/\[\d+\]$/, '') as 'dns' | 'allowed_ips' | 'endpoint' | 'mtu' | 'persistent_keepalive';
  const flag = body[`use_default_${setting}` as keyof typeof body];
  const whose = flag === false ? "this device's own value" : 'a client default of the Configuration (4): fix it there first';
  return `no client config could be built for it: ${problem.why} (${whose})`;
}

/**
 * What a device created with `body` holds for its config, 0.7.36 filling what the body leaves to
 * the defaults (a `use_default_*` not false) from `c`. Its addresses and the server's key are the
 * server's to give, not known before: left empty, as nothing to check.
 */
export function deviceAsCreated(body: Omit<DeviceCreate, 'user_id' | 'public_key'>, c: Configuration): ClientConfigDevice {
  const byDefault = (flag: boolean | undefined) => flag !== false;
  return {
    ipv4: null,
    ipv6: null,
    preshared_key: null,
    server_public_key: null,
    mtu: byDefault(body.use_default_mtu) ? c.default_client_mtu : (body.mtu ?? null),
    persistent_keepalive: byDefault(body.use_default_persistent_keepalive) ? c.default_client_persistent_keepalive : (body.persistent_keepalive ?? null),
    dns: byDefault(body.use_default_dns) ? c.default_client_dns : (body.dns ?? null),
    allowed_ips: byDefault(body.use_default_allowed_ips) ? c.default_client_allowed_ips : (body.allowed_ips ?? null),
    endpoint: byDefault(body.use_default_endpoint) ? c.default_client_endpoint : (body.endpoint ?? null),
    use_default_endpoint: byDefault(body.use_default_endpoint),
  };
}

/**
 * What the review of a configuration change says of its client defaults: that no device using
 * them can get a client config, and why; or the warnings a config on them would carry about its
 * endpoint (the other warnings are about a device's addresses and keys, which a default has not).
 */
export function defaultsWarnings(c: Configuration): string[] {
  const device = deviceAsCreated({}, c);
  const problem = configProblem(device);
  if (problem !== null) return [`No device that uses these client defaults can get a client config: ${problem.why}`];
  return configWarnings(device).filter((w) => w.startsWith('Endpoint ') || w.startsWith('The endpoint '));
}
