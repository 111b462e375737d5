// /v0/devices as 0.7.36 implements it (docs/firezone-0.7.36.md, "Devices: fields and effective values",
// "Devices: create", "Devices: what an update applies"; Devices.Device.Changeset).

import {randomBytes} from 'node:crypto';
import {generateDeviceName} from '../../common/names.js';
import {allocateAddress} from '../allocate.js';
import {Changeset, castBoolean, castInteger, castString, numberErrors, cast, type CastResult} from '../changeset.js';
import {isAdmin, isUuidShaped, newId, now, queryUuid, requireAdmin, type SandboxCore, type Subject} from '../core.js';
import {Crash, Forbidden, Invalid, NotFound} from '../errors.js';
import {cidrContains, FamilyMismatch, formatCidr, inetStorable, parseAddress, readForm, type Inet, type Ip} from '../inet.js';
import {isParamsMap} from '../json.js';
import type {NetworkSettings} from '../settings.js';
import type {DeviceRow} from '../store.js';
import {allowedIpsErrors, castInetArray, castStringArray, dnsErrors, endpointErrors, isBase64} from '../validators.js';

const DEFAULTABLE = ['allowed_ips', 'dns', 'endpoint', 'persistent_keepalive', 'mtu'] as const;
const MAX_DEVICES_MESSAGE = 'Maximum device limit reached. Remove an existing device before creating a new one.';

/** FzHttp.Types.IP: the whole string through `:inet.parse_address/1` (no trimming, no port). */
const castIp = (value: unknown): CastResult => {
  if (typeof value !== 'string') return cast.invalid();
  const ip = parseAddress(value);
  return ip ? cast.ok(ip) : cast.invalid();
};

export function listDevices(core: SandboxCore, subject: Subject): DeviceRow[] {
  if (isAdmin(subject)) return [...core.store.devices.values()];
  return [...core.store.devicesOf(subject.user.id)];
}

/** Device:manage sees every device, Device:view_own only the caller's; anything else is not found. */
export function findDevice(core: SandboxCore, subject: Subject, id: string): DeviceRow {
  if (!isUuidShaped(id)) throw new NotFound();
  const device = core.store.devices.get(queryUuid(id));
  if (!device || (!isAdmin(subject) && device.userId !== subject.user.id)) throw new NotFound();
  return device;
}

function requireManage(core: SandboxCore, subject: Subject, device: DeviceRow): void {
  if (isAdmin(subject)) return;
  const own = device.userId === subject.user.id;
  if (!own || !core.settings.allowsUnprivileged('allow_unprivileged_device_management', core.store.config)) throw new Forbidden();
}

interface CreatedDevice {
  device: DeviceRow;
  /** allowed_ips as cast (echoed in the create response with any /32, /128 suffix). */
  allowedIpsEcho: Inet[] | null;
}

function networkErrors(net: NetworkSettings, ip: Ip): string[] {
  try {
    return cidrContains(net.effective, ip) ? [] : [`is not in the CIDR ${formatCidr(net.effective)}`];
  } catch (e) {
    if (e instanceof FamilyMismatch) throw new Crash(`MatchError: ${e.message}`);
    throw e;
  }
}

/** Runs a config-definition validator on the field's current value (change or data), as config_changeset does. */
function configRule(cs: Changeset, field: string, validate: (value: never) => string[]): void {
  const value = cs.get(field);
  if (value === null || value === undefined) return;
  const errors = validate(value as never);
  if (errors.length > 0) cs.addErrors(field, errors);
}

export function createDevice(core: SandboxCore, subject: Subject, wrapper: unknown): CreatedDevice {
  const {store, settings} = core;
  // `device_params["user_id"]` runs before any permission check: Access on a non-map raises.
  if (wrapper !== null && !isParamsMap(wrapper)) throw new Crash('Access on a non-map device param');
  const userId = wrapper === null ? null : wrapper.user_id;
  // The owner is fetched with the User:manage permission, so only admins get further.
  requireAdmin(subject);
  if (!isUuidShaped(userId)) throw new NotFound();
  const owner = store.users.get(queryUuid(userId));
  if (!owner) throw new NotFound();
  const params = wrapper ?? {};

  const cs = new Changeset(
    {
      name: null,
      description: null,
      public_key: null,
      preshared_key: null,
      use_default_allowed_ips: true,
      use_default_dns: true,
      use_default_endpoint: true,
      use_default_mtu: true,
      use_default_persistent_keepalive: true,
      allowed_ips: [],
      dns: [],
      endpoint: null,
      mtu: null,
      persistent_keepalive: null,
      ipv4: null,
      ipv6: null,
    },
    params,
  );

  // create_changeset/1
  for (const field of ['name', 'description', 'public_key', 'preshared_key']) cs.cast(field, castString);
  if (cs.get('name') === null)
    cs.put(
      'name',
      generateDeviceName(() => core.random.names.next()),
    );
  if (cs.get('preshared_key') === null) cs.put('preshared_key', randomBytes(32).toString('base64'));
  cs.update('name', (v) => (v as string).trim());
  cs.update('description', (v) => (v === null ? v : (v as string).trim()));
  cs.validateLength('description', {max: 2048});
  cs.validateLength('name', {min: 1, max: 255});
  cs.validateChange('public_key', (v) => (isBase64(v as string) ? [] : ['must be a base64-encoded string']));
  cs.validateChange('preshared_key', (v) => (isBase64(v as string) ? [] : ['must be a base64-encoded string']));
  cs.validateLength('public_key', {is: 44});
  cs.validateLength('preshared_key', {is: 44});
  cs.validateRequired(['name', 'public_key']);
  // create_changeset/2: owner and the per-user limit (admins included; the count is not locked)
  if (store.deviceCount(owner.id) >= settings.maxDevicesPerUser) cs.addError('base', MAX_DEVICES_MESSAGE);

  // configure_changeset/2 (admins always hold Device:configure)
  cs.cast('ipv4', castIp);
  cs.cast('ipv6', castIp);
  for (const field of DEFAULTABLE) cs.cast(`use_default_${field}`, castBoolean, true);
  cs.cast('allowed_ips', castInetArray, []);
  cs.cast('dns', castStringArray, []);
  cs.cast('endpoint', castString);
  cs.cast('mtu', castInteger);
  cs.cast('persistent_keepalive', castInteger);
  cs.update('dns', (v) => (v === null ? v : (v as string[]).map((s) => s.trim())));
  cs.update('endpoint', (v) => (v === null ? v : (v as string).trim()));
  configRule(cs, 'allowed_ips', (v: Inet[]) => allowedIpsErrors(v));
  configRule(cs, 'dns', (v: string[]) => dnsErrors(v));
  configRule(cs, 'endpoint', (v: string) => endpointErrors(v));
  configRule(cs, 'persistent_keepalive', (v: number) => numberErrors(v, {gte: 0, lte: 120}));
  configRule(cs, 'mtu', (v: number) => numberErrors(v, {gte: 576, lte: 1500}));
  if (cs.get('use_default_endpoint') === false) cs.validateRequired(['endpoint']);
  for (const field of DEFAULTABLE) {
    if (cs.get(`use_default_${field}`) !== true) continue;
    cs.validateChange(field, (v) => (Array.isArray(v) && v.length === 0 ? [] : ['must not be present']));
  }
  // validate_exclusion against the gateway compares with an {:ok, inet} tuple and never matches
  // (docs/firezone-0.7.36.md, "Devices: create"; quirk 7)
  cs.validateChange('ipv4', (v) => networkErrors(settings.ipv4, v as Ip));
  cs.validateChange('ipv6', (v) => networkErrors(settings.ipv6, v as Ip));
  if (!cs.valid) throw new Invalid(cs.errorsJson());

  // prepare_changes: allocate addresses inside the insert transaction
  for (const [field, net] of [
    ['ipv4', settings.ipv4],
    ['ipv6', settings.ipv6],
  ] as const) {
    if (!net.enabled || cs.get(field) !== null) continue;
    const ip = allocateAddress(net, (candidate) => store.addressTaken(candidate), core.random.alloc);
    if (ip) cs.put(field, ip);
    else cs.addError('base', `CIDR ${formatCidr(net.effective)} is exhausted`);
    cs.validateRequired([field]);
  }
  if (!cs.valid) throw new Invalid(cs.errorsJson());

  // What Postgres checks, in the order it checks it
  const allowedIps = cs.get('allowed_ips') as Inet[] | null;
  if (allowedIps && !allowedIps.every(inetStorable)) throw new Crash('Postgrex.Error: invalid inet netmask');
  for (const field of DEFAULTABLE) {
    if (cs.get(`use_default_${field}`) === null) throw new Crash(`Postgrex.Error: null value in column "use_default_${field}" violates not-null constraint`);
  }
  const publicKey = cs.get('public_key') as string;
  const ipv4 = cs.get('ipv4') as Ip | null;
  const ipv6 = cs.get('ipv6') as Ip | null;
  const name = cs.get('name') as string;
  if (store.deviceByPublicKey(publicKey)) throw new Invalid({public_key: ['has already been taken']});
  if (ipv4 && store.addressTaken(ipv4)) throw new Invalid({ipv4: ['has already been taken']});
  if (ipv6 && store.addressTaken(ipv6)) throw new Invalid({ipv6: ['has already been taken']});
  if (store.deviceNamed(owner.id, name)) throw new Invalid({user_id: ['has already been taken']});

  const at = now();
  const device: DeviceRow = {
    id: newId(),
    userId: owner.id,
    name,
    description: cs.get('description') as string | null,
    publicKey,
    presharedKey: cs.get('preshared_key') as string,
    useDefaultAllowedIps: cs.get('use_default_allowed_ips') as boolean,
    useDefaultDns: cs.get('use_default_dns') as boolean,
    useDefaultEndpoint: cs.get('use_default_endpoint') as boolean,
    useDefaultMtu: cs.get('use_default_mtu') as boolean,
    useDefaultPersistentKeepalive: cs.get('use_default_persistent_keepalive') as boolean,
    allowedIps: allowedIps === null ? null : allowedIps.map(readForm),
    dns: cs.get('dns') as string[] | null,
    endpoint: cs.get('endpoint') as string | null,
    mtu: cs.get('mtu') as number | null,
    persistentKeepalive: cs.get('persistent_keepalive') as number | null,
    ipv4,
    ipv6,
    remoteIp: null,
    latestHandshake: null,
    rxBytes: null,
    txBytes: null,
    insertedAt: at,
    updatedAt: at,
    sim: 'never',
    cache: null,
    cacheVersion: 0,
  };
  store.insertDevice(device);
  return {device, allowedIpsEcho: allowedIps};
}

/** Only `name` and `description` are applied (docs/firezone-0.7.36.md, "Devices: what an update applies"); every other attribute is silently ignored. */
export function updateDevice(core: SandboxCore, subject: Subject, id: string, wrapper: unknown): DeviceRow {
  const device = findDevice(core, subject, id);
  requireManage(core, subject, device);
  if (!isParamsMap(wrapper)) throw new Crash('Ecto.CastError: expected params to be a map');
  const cs = new Changeset({name: device.name, description: device.description, public_key: device.publicKey}, wrapper);
  cs.cast('name', castString);
  cs.cast('description', castString);
  cs.update('name', (v) => (v === null ? v : (v as string).trim()));
  cs.update('description', (v) => (v === null ? v : (v as string).trim()));
  cs.validateLength('description', {max: 2048});
  cs.validateLength('name', {min: 1, max: 255});
  cs.validateRequired(['name', 'public_key']);
  if (!cs.valid) throw new Invalid(cs.errorsJson());
  if (cs.changes.size === 0) return device;
  if (cs.hasChange('name')) {
    const name = cs.get('name') as string;
    const holder = core.store.deviceNamed(device.userId, name);
    if (holder && holder !== device) throw new Invalid({user_id: ['has already been taken']});
    core.store.renameDevice(device, name);
  }
  if (cs.hasChange('description')) device.description = cs.get('description') as string | null;
  device.updatedAt = now();
  device.cache = null;
  return device;
}

export function deleteDevice(core: SandboxCore, subject: Subject, id: string): void {
  const device = findDevice(core, subject, id);
  requireManage(core, subject, device);
  core.store.deleteDevice(device);
}
