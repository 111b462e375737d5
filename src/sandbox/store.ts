// The sandbox's in-memory database: the tables 0.7.36's API reads and writes (docs/firezone-0.7.36.md, "Database tables"),
// with the indexes its unique constraints and lookups need. Rows hold values in their stored
// ("read") form; write responses that echo a cast value are built by the resource modules.

import type {Inet, Ip} from './inet.js';

export type Role = 'admin' | 'unprivileged';

export interface UserRow {
  id: string;
  email: string;
  role: Role;
  passwordHash: string | null;
  disabledAt: number | null;
  lastSignedInAt: number | null;
  lastSignedInMethod: string | null;
  insertedAt: number;
  updatedAt: number;
}

/** How the stats simulation treats a device: never seen, seen long ago, or connected. */
export type SimulationClass = 'never' | 'idle' | 'busy';

export interface DeviceRow {
  id: string;
  userId: string;
  name: string;
  description: string | null;
  publicKey: string;
  presharedKey: string | null;
  useDefaultAllowedIps: boolean;
  useDefaultDns: boolean;
  useDefaultEndpoint: boolean;
  useDefaultMtu: boolean;
  useDefaultPersistentKeepalive: boolean;
  allowedIps: Inet[] | null;
  dns: string[] | null;
  endpoint: string | null;
  mtu: number | null;
  persistentKeepalive: number | null;
  ipv4: Ip | null;
  ipv6: Ip | null;
  remoteIp: Ip | null;
  latestHandshake: number | null;
  rxBytes: number | null;
  txBytes: number | null;
  insertedAt: number;
  updatedAt: number;
  sim: SimulationClass;
  /** UTF-8 JSON of this row for `cacheVersion` of the defaults; cleared on every write. */
  cache: Buffer | null;
  cacheVersion: number;
}

export type RuleAction = 'accept' | 'drop';
export type PortType = 'tcp' | 'udp';

export interface RuleRow {
  id: string;
  action: RuleAction;
  destination: Inet;
  portType: PortType | null;
  portRange: string | null;
  portLower: number | null;
  portUpper: number | null;
  userId: string | null;
  insertedAt: number;
  updatedAt: number;
}

export interface TokenRow {
  id: string;
  userId: string;
  expiresAt: number;
  insertedAt: number;
}

export interface OidcProvider {
  id: string | null;
  label: string | null;
  scope: string | null;
  response_type: string | null;
  client_id: string | null;
  client_secret: string | null;
  discovery_document_uri: string | null;
  redirect_uri: string | null;
  auto_create_users: boolean | null;
}

export interface SamlProvider {
  id: string | null;
  label: string | null;
  base_url: string | null;
  metadata: string | null;
  sign_requests: boolean | null;
  sign_metadata: boolean | null;
  signed_assertion_in_resp: boolean | null;
  signed_envelopes_in_resp: boolean | null;
  auto_create_users: boolean | null;
}

export interface Logo {
  url: string | null;
  data: string | null;
  type: string | null;
}

/** The `configurations` singleton, keys named as on the wire. */
export interface ConfigRow {
  id: string;
  insertedAt: number;
  updatedAt: number;
  local_auth_enabled: boolean | null;
  allow_unprivileged_device_management: boolean | null;
  allow_unprivileged_device_configuration: boolean | null;
  disable_vpn_on_oidc_error: boolean | null;
  default_client_persistent_keepalive: number | null;
  default_client_mtu: number | null;
  default_client_endpoint: string | null;
  default_client_dns: string[] | null;
  default_client_allowed_ips: Inet[] | null;
  vpn_session_duration: number;
  logo: Logo | null;
  openid_connect_providers: OidcProvider[];
  saml_identity_providers: SamlProvider[];
}

export class Store {
  readonly users = new Map<string, UserRow>();
  private readonly usersByEmail = new Map<string, UserRow>();
  readonly devices = new Map<string, DeviceRow>();
  /** user id → device name → device (per-user name uniqueness and counts). */
  private readonly devicesByUser = new Map<string, Map<string, DeviceRow>>();
  private readonly devicesByPublicKey = new Map<string, DeviceRow>();
  private readonly devicesByIpv4 = new Map<bigint, DeviceRow>();
  private readonly devicesByIpv6 = new Map<bigint, DeviceRow>();
  readonly rules = new Map<string, RuleRow>();
  readonly tokens = new Map<string, TokenRow>();
  /** Bumped whenever what device rendering depends on (the configuration row) changes. */
  renderVersion = 1;

  constructor(public config: ConfigRow) {}

  // ---- users

  static emailKey(email: string): string {
    return email.toLowerCase();
  }

  userByEmail(email: string): UserRow | undefined {
    return this.usersByEmail.get(Store.emailKey(email));
  }

  insertUser(user: UserRow): void {
    this.users.set(user.id, user);
    this.usersByEmail.set(Store.emailKey(user.email), user);
  }

  updateUserEmail(user: UserRow, email: string): void {
    this.usersByEmail.delete(Store.emailKey(user.email));
    user.email = email;
    this.usersByEmail.set(Store.emailKey(email), user);
  }

  /** Deletes the user and everything ON DELETE CASCADE removes with it. */
  deleteUser(user: UserRow): void {
    for (const device of [...this.devicesOf(user.id)]) this.deleteDevice(device);
    for (const rule of [...this.rules.values()]) if (rule.userId === user.id) this.rules.delete(rule.id);
    for (const token of [...this.tokens.values()]) if (token.userId === user.id) this.tokens.delete(token.id);
    this.users.delete(user.id);
    this.usersByEmail.delete(Store.emailKey(user.email));
    this.devicesByUser.delete(user.id);
  }

  adminCount(): number {
    let n = 0;
    for (const user of this.users.values()) if (user.role === 'admin') n++;
    return n;
  }

  // ---- devices

  devicesOf(userId: string): Iterable<DeviceRow> {
    return this.devicesByUser.get(userId)?.values() ?? [];
  }

  deviceCount(userId: string): number {
    return this.devicesByUser.get(userId)?.size ?? 0;
  }

  deviceNamed(userId: string, name: string): DeviceRow | undefined {
    return this.devicesByUser.get(userId)?.get(name);
  }

  deviceByPublicKey(key: string): DeviceRow | undefined {
    return this.devicesByPublicKey.get(key);
  }

  deviceByAddress(ip: Ip): DeviceRow | undefined {
    return (ip.family === 4 ? this.devicesByIpv4 : this.devicesByIpv6).get(ip.value);
  }

  addressTaken(ip: Ip): boolean {
    return (ip.family === 4 ? this.devicesByIpv4 : this.devicesByIpv6).has(ip.value);
  }

  insertDevice(device: DeviceRow): void {
    this.devices.set(device.id, device);
    let byName = this.devicesByUser.get(device.userId);
    if (!byName) {
      byName = new Map();
      this.devicesByUser.set(device.userId, byName);
    }
    byName.set(device.name, device);
    this.devicesByPublicKey.set(device.publicKey, device);
    if (device.ipv4) this.devicesByIpv4.set(device.ipv4.value, device);
    if (device.ipv6) this.devicesByIpv6.set(device.ipv6.value, device);
  }

  renameDevice(device: DeviceRow, name: string): void {
    const byName = this.devicesByUser.get(device.userId);
    byName?.delete(device.name);
    device.name = name;
    byName?.set(name, device);
  }

  deleteDevice(device: DeviceRow): void {
    this.devices.delete(device.id);
    this.devicesByUser.get(device.userId)?.delete(device.name);
    this.devicesByPublicKey.delete(device.publicKey);
    if (device.ipv4) this.devicesByIpv4.delete(device.ipv4.value);
    if (device.ipv6) this.devicesByIpv6.delete(device.ipv6.value);
  }

  // ---- tokens

  liveToken(id: string, nowMicros: number): TokenRow | undefined {
    const token = this.tokens.get(id);
    return token && token.expiresAt >= nowMicros ? token : undefined;
  }
}
