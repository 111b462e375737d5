// Simulated server environment and 0.7.36's configuration resolution (docs/firezone-0.7.36.md, "Environment overrides"):
// environment variable (upper-cased key, then legacy aliases) > non-null DB column > built-in
// default. Environment values are validated at start like FzHttp.Config does at boot: an invalid
// value stops the sandbox with a message naming the variable.

import {castBoolean, castInteger} from './changeset.js';
import {bitsOf, castInet, castIpPort, formatIp, formatIpPort, parseAddress, parseCidr, type Cidr, type Inet, type Ip} from './inet.js';
import {encodeJson, isParamsMap, parseJson, JsonSyntaxError} from './json.js';
import {castEmbedList, logoChangeset, oidcChangeset, samlChangeset} from './providers.js';
import type {ConfigRow} from './store.js';
import {dnsErrors, endpointErrors, allowedIpsErrors} from './validators.js';

export class SettingsError extends Error {}

/** Configuration keys that an environment variable can override, with the variables in precedence order. */
export const CONFIG_ENV_VARS = {
  local_auth_enabled: ['LOCAL_AUTH_ENABLED'],
  allow_unprivileged_device_management: ['ALLOW_UNPRIVILEGED_DEVICE_MANAGEMENT'],
  allow_unprivileged_device_configuration: ['ALLOW_UNPRIVILEGED_DEVICE_CONFIGURATION'],
  disable_vpn_on_oidc_error: ['DISABLE_VPN_ON_OIDC_ERROR'],
  default_client_persistent_keepalive: ['DEFAULT_CLIENT_PERSISTENT_KEEPALIVE'],
  default_client_mtu: ['DEFAULT_CLIENT_MTU', 'WIREGUARD_MTU'],
  default_client_endpoint: ['DEFAULT_CLIENT_ENDPOINT'],
  default_client_dns: ['DEFAULT_CLIENT_DNS'],
  default_client_allowed_ips: ['DEFAULT_CLIENT_ALLOWED_IPS'],
  vpn_session_duration: ['VPN_SESSION_DURATION'],
  openid_connect_providers: ['OPENID_CONNECT_PROVIDERS'],
  saml_identity_providers: ['SAML_IDENTITY_PROVIDERS'],
  logo: ['LOGO'],
} as const;

export type ConfigKey = keyof typeof CONFIG_ENV_VARS;

export interface NetworkSettings {
  enabled: boolean;
  /** The configured network as given (host bits kept, as 0.7.36 renders it in messages). */
  network: Cidr;
  /** Allocation/containment network: IPv6 prefixes shorter than /70 are narrowed to /70. */
  effective: Cidr;
  gateway: Ip;
}

interface SettingsInput {
  env: Record<string, string>;
  externalUrl: string;
  ipv4Network?: string | undefined;
  ipv6Network?: string | undefined;
  maxDevicesPerUser?: number | undefined;
}

/** Device defaults resolved for one request, as the JSON fragments a device object embeds. */
export interface RenderedDefaults {
  allowedIps: string;
  dns: string;
  endpoint: string;
  mtu: string;
  persistentKeepalive: string;
}

type EnvValue = {source: string; value: unknown};

function envBoolean(name: string, raw: string): boolean | null {
  if (raw === '') return null;
  const r = castBoolean(raw);
  if (!r.ok) throw new SettingsError(`${name}: "${raw}" is not a boolean (true or false)`);
  return r.value as boolean;
}

function envInteger(name: string, raw: string, min: number, max: number): number | null {
  if (raw === '') return null;
  const r = castInteger(raw);
  if (!r.ok) throw new SettingsError(`${name}: "${raw}" can not be cast to an integer`);
  const n = r.value as number;
  if (n < min || n > max) throw new SettingsError(`${name}: ${n} must be between ${min} and ${max}`);
  return n;
}

function envList(raw: string): string[] {
  return raw === '' ? [] : raw.split(',').map((s) => s.trim());
}

/** Hosts of a URL as Elixir's URI.parse reports them (IPv6 without brackets). */
function urlHost(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return '';
  }
}

export class Settings {
  readonly env: Readonly<Record<string, string>>;
  readonly externalUrl: string;
  /** Path prefix from EXTERNAL_URL ("" or "/vpn"), under which the whole app lives. */
  readonly pathPrefix: string;
  readonly wireguardPort: number;
  readonly ipv4: NetworkSettings;
  readonly ipv6: NetworkSettings;
  readonly maxDevicesPerUser: number;
  /** Parsed environment values of the overridable configuration keys. */
  private readonly overrides = new Map<ConfigKey, EnvValue>();

  constructor(input: SettingsInput) {
    const env = input.env;
    this.env = env;
    const has = (name: string): boolean => Object.prototype.hasOwnProperty.call(env, name);

    this.externalUrl = has('EXTERNAL_URL') ? env.EXTERNAL_URL! : input.externalUrl;
    let prefix = '';
    try {
      prefix = new URL(this.externalUrl).pathname.replace(/\/+$/, '');
    } catch {
      throw new SettingsError(`EXTERNAL_URL: "${this.externalUrl}" is not a URL`);
    }
    this.pathPrefix = prefix;

    this.wireguardPort = has('WIREGUARD_PORT') ? (envInteger('WIREGUARD_PORT', env.WIREGUARD_PORT!, 1, 65535) ?? 51820) : 51820;

    const network = (family: 4 | 6, option: string | undefined): NetworkSettings => {
      const prefixName = `WIREGUARD_IPV${family}`;
      const enabled = has(`${prefixName}_ENABLED`) ? (envBoolean(`${prefixName}_ENABLED`, env[`${prefixName}_ENABLED`]!) ?? true) : true;
      const text = has(`${prefixName}_NETWORK`) ? env[`${prefixName}_NETWORK`]! : (option ?? (family === 4 ? '10.3.2.0/24' : 'fd00::3:2:0/120'));
      const cidr = parseCidr(text);
      if (!cidr || cidr.ip.family !== family) throw new SettingsError(`${prefixName}_NETWORK: "${text}" is not an IPv${family} CIDR`);
      const effective = family === 6 && cidr.prefix < 70 ? {ip: cidr.ip, prefix: 70} : cidr;
      let gateway: Ip;
      if (has(`${prefixName}_ADDRESS`)) {
        const ip = parseAddress(env[`${prefixName}_ADDRESS`]!);
        if (!ip || ip.family !== family) throw new SettingsError(`${prefixName}_ADDRESS: "${env[`${prefixName}_ADDRESS`]}" is not an IPv${family} address`);
        gateway = ip;
      } else {
        const bits = BigInt(bitsOf(family) - cidr.prefix);
        const base = (cidr.ip.value >> bits) << bits;
        gateway = {family, value: base + 1n};
      }
      return {enabled, network: cidr, effective, gateway};
    };
    this.ipv4 = network(4, input.ipv4Network);
    this.ipv6 = network(6, input.ipv6Network);

    if (has('MAX_DEVICES_PER_USER')) {
      this.maxDevicesPerUser = envInteger('MAX_DEVICES_PER_USER', env.MAX_DEVICES_PER_USER!, 0, 100) ?? 10;
    } else {
      const n = input.maxDevicesPerUser ?? 10;
      if (!Number.isInteger(n) || n < 0 || n > 100) throw new SettingsError(`maxDevicesPerUser: ${n} must be an integer between 0 and 100`);
      this.maxDevicesPerUser = n;
    }

    for (const key of Object.keys(CONFIG_ENV_VARS) as ConfigKey[]) {
      const source = CONFIG_ENV_VARS[key].find(has);
      if (source !== undefined) this.overrides.set(key, {source, value: this.parseEnvValue(key, source, env[source]!)});
    }
  }

  get samlBaseUrl(): string {
    return `${this.externalUrl.replace(/\/+$/, '')}/auth/saml`;
  }

  private parseEnvValue(key: ConfigKey, name: string, raw: string): unknown {
    switch (key) {
      case 'local_auth_enabled':
      case 'allow_unprivileged_device_management':
      case 'allow_unprivileged_device_configuration':
      case 'disable_vpn_on_oidc_error':
        return envBoolean(name, raw);
      case 'default_client_persistent_keepalive':
        return envInteger(name, raw, 0, 120);
      case 'default_client_mtu':
        return envInteger(name, raw, 576, 1500);
      case 'vpn_session_duration':
        return envInteger(name, raw, 0, 2147483647);
      case 'default_client_endpoint': {
        if (raw.trim() === '') return null;
        const errors = endpointErrors(raw.trim());
        if (errors.length > 0) throw new SettingsError(`${name}: ${errors.join(', ')}`);
        return raw.trim();
      }
      case 'default_client_dns': {
        const list = envList(raw).filter((s) => s !== '');
        const errors = dnsErrors(list);
        if (errors.length > 0) throw new SettingsError(`${name}: ${errors.join(', ')}`);
        return list;
      }
      case 'default_client_allowed_ips': {
        const list: Inet[] = [];
        for (const item of envList(raw)) {
          const inet = castInet(item);
          if (!inet) throw new SettingsError(`${name}: "${item}" is not an IP address or CIDR`);
          list.push(inet);
        }
        const errors = allowedIpsErrors(list);
        if (errors.length > 0) throw new SettingsError(`${name}: ${errors.join(', ')}`);
        return list;
      }
      case 'openid_connect_providers':
      case 'saml_identity_providers': {
        if (raw === '') return [];
        const parsed = parseEnvJson(name, raw);
        const result =
          key === 'openid_connect_providers' ? castEmbedList(parsed, oidcChangeset) : castEmbedList(parsed, (p) => samlChangeset(p, this.samlBaseUrl));
        if (result.kind === 'invalid') throw new SettingsError(`${name}: must be a JSON array of objects`);
        if (result.kind === 'errors') throw new SettingsError(`${name}: ${encodeJson(result.errors)}`);
        return result.value;
      }
      case 'logo': {
        if (raw === '') return null;
        const parsed = parseEnvJson(name, raw);
        if (!isParamsMap(parsed)) throw new SettingsError(`${name}: must be a JSON object`);
        const result = logoChangeset(parsed);
        if (!result.ok) throw new SettingsError(`${name}: ${encodeJson(result.errors)}`);
        return result.value;
      }
    }
  }

  /** The environment variable overriding a configuration key, if any. */
  overriddenBy(key: ConfigKey): string | undefined {
    return this.overrides.get(key)?.source;
  }

  /** The configuration row a fresh 0.7.36 install gets from its migrations (some seeded from env). */
  initialConfig(id: string, now: number): ConfigRow {
    const env = this.env;
    const has = (name: string): boolean => Object.prototype.hasOwnProperty.call(env, name);
    const bool = (name: string, fallback: boolean): boolean => (has(name) ? (envBoolean(name, env[name]!) ?? fallback) : fallback);
    const allowedIps = has('WIREGUARD_ALLOWED_IPS')
      ? envList(env.WIREGUARD_ALLOWED_IPS!)
          .map((s) => castInet(s))
          .filter((v): v is Inet => v !== null)
      : [castInet('0.0.0.0/0')!, castInet('::/0')!];
    const endpointHost = has('WIREGUARD_ENDPOINT') ? env.WIREGUARD_ENDPOINT! : urlHost(this.externalUrl);
    return {
      id,
      insertedAt: now,
      updatedAt: now,
      local_auth_enabled: bool('LOCAL_AUTH_ENABLED', true),
      allow_unprivileged_device_management: bool('ALLOW_UNPRIVILEGED_DEVICE_MANAGEMENT', true),
      allow_unprivileged_device_configuration: bool('ALLOW_UNPRIVILEGED_DEVICE_CONFIGURATION', true),
      disable_vpn_on_oidc_error: bool('DISABLE_VPN_ON_OIDC_ERROR', false),
      default_client_persistent_keepalive: has('WIREGUARD_PERSISTENT_KEEPALIVE')
        ? envInteger('WIREGUARD_PERSISTENT_KEEPALIVE', env.WIREGUARD_PERSISTENT_KEEPALIVE!, 0, 120)
        : 25,
      default_client_mtu: has('WIREGUARD_MTU') ? envInteger('WIREGUARD_MTU', env.WIREGUARD_MTU!, 576, 1500) : 1280,
      default_client_endpoint: `${endpointHost}:${this.wireguardPort}`,
      default_client_dns: has('WIREGUARD_DNS') ? envList(env.WIREGUARD_DNS!).filter((s) => s !== '') : ['1.1.1.1', '1.0.0.1'],
      default_client_allowed_ips: allowedIps,
      vpn_session_duration: 0,
      logo: null,
      openid_connect_providers: [],
      saml_identity_providers: [],
    };
  }

  /** env > non-null DB value > built-in default, for the keys whose effective value the API uses. */
  private effective(key: ConfigKey, config: ConfigRow): unknown {
    const override = this.overrides.get(key);
    if (override) return override.value;
    const db = config[key];
    if (db !== null && db !== undefined) return db;
    switch (key) {
      case 'local_auth_enabled':
      case 'allow_unprivileged_device_management':
      case 'allow_unprivileged_device_configuration':
        return true;
      case 'disable_vpn_on_oidc_error':
        return false;
      case 'default_client_persistent_keepalive':
        return 25;
      case 'default_client_mtu':
        return 1280;
      case 'default_client_endpoint':
        return `${urlHost(this.externalUrl)}:${this.wireguardPort}`;
      case 'default_client_dns':
        return [];
      case 'default_client_allowed_ips':
        return [castInet('0.0.0.0/0')!, castInet('::/0')!];
      case 'vpn_session_duration':
        return 0;
      default:
        return null;
    }
  }

  allowsUnprivileged(flag: 'allow_unprivileged_device_management' | 'allow_unprivileged_device_configuration', config: ConfigRow): boolean {
    return this.effective(flag, config) === true;
  }

  /**
   * The five device defaults, resolved and normalised as FzHttp.Config's casters return them
   * (addresses through `:inet.ntoa`, IP endpoints through the IPPort encoder).
   */
  renderedDefaults(config: ConfigRow): RenderedDefaults {
    const allowed = this.effective('default_client_allowed_ips', config) as Inet[] | null;
    const dns = this.effective('default_client_dns', config) as string[] | null;
    const endpoint = this.effective('default_client_endpoint', config) as string | null;
    const mtu = this.effective('default_client_mtu', config) as number | null;
    const keepalive = this.effective('default_client_persistent_keepalive', config) as number | null;
    const normaliseDns = (entry: string): string => {
      const ip = parseAddress(entry);
      return ip ? formatIp(ip) : entry;
    };
    const normaliseEndpoint = (value: string): string => {
      const ipPort = castIpPort(value);
      return ipPort ? formatIpPort(ipPort) : value;
    };
    return {
      allowedIps: allowed === null ? 'null' : JSON.stringify(allowed.map(inetText)),
      dns: dns === null ? 'null' : JSON.stringify(dns.map(normaliseDns)),
      endpoint: endpoint === null ? 'null' : JSON.stringify(normaliseEndpoint(endpoint)),
      mtu: mtu === null ? 'null' : String(mtu),
      persistentKeepalive: keepalive === null ? 'null' : String(keepalive),
    };
  }
}

function inetText(inet: Inet): string {
  return inet.netmask === null ? formatIp(inet.ip) : `${formatIp(inet.ip)}/${inet.netmask}`;
}

/** Addresses the allocator can hand out in a network: offsets 2 … size−2, minus the gateway. */
export function networkCapacity(net: NetworkSettings): bigint {
  const size = 1n << BigInt(bitsOf(net.effective.ip.family) - net.effective.prefix);
  if (size < 4n) return 0n;
  const bits = BigInt(bitsOf(net.effective.ip.family) - net.effective.prefix);
  const base = (net.effective.ip.value >> bits) << bits;
  const gatewayOffset = net.gateway.value - base;
  const gatewayInside = net.gateway.family === net.effective.ip.family && gatewayOffset >= 2n && gatewayOffset <= size - 2n;
  return size - 3n - (gatewayInside ? 1n : 0n);
}

/** An env var holding JSON (provider lists, logo), with 0.7.36-style startup errors. */
function parseEnvJson(name: string, raw: string): unknown {
  try {
    return parseJson(raw);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new SettingsError(`${name}: not valid JSON (${e.message})`);
    throw e;
  }
}
