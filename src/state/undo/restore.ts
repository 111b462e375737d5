// Taking a delete back: users first (with the same email and role), then their devices (the same
// keys, addresses, name, description and settings, so the client configs already out there keep
// working), then the rules, each bound to the user as they now exist. A device whose address
// another device took meanwhile comes back with a new one, and the report says its client needs
// a new config. What fails stays undoable, with the server's reason. What comes back is created
// anew, and the report says what that changes: new ids and creation dates, and a device's
// handshake, remote IP and traffic counters start from nothing (0.7.36 has no way to restore them).
// A new key (`K`, src/state/screens/devices/new-key.ts) is taken back the same way: the device that
// holds it is deleted, then the device is created again as it was, with its old keys.
import {ApiError, type Device, type DeviceCreate, type Rule, type User} from '../../api/index.js';
import type {ConsoleClient} from '../core/context.js';
import type {DialogLine} from '../core/modals.js';
import {errorText} from '../core/state.js';
import type {KeyChange, UndoItems} from './undo-log.js';

export interface RestoreReport {
  lines: DialogLine[];
  restored: number;
  /** What could not come back, still undoable. */
  left: UndoItems;
  /**
   * Devices' ids then → now: a device brought back (its old id), and the device that held a new key
   * taken back (its id), each to the device as it is now: a detail open on one follows it.
   */
  deviceIds: Map<string, string>;
}

/** The create body that brings a device back as it was: defaults stay defaults, own values are sent. */
export function deviceBody(d: Device, userId: string, keep: {ipv4: boolean; ipv6: boolean} = {ipv4: true, ipv6: true}): DeviceCreate {
  const body: DeviceCreate = {user_id: userId, public_key: d.public_key, name: d.name};
  if (d.description) body.description = d.description;
  if (d.preshared_key) body.preshared_key = d.preshared_key;
  if (keep.ipv4 && d.ipv4) body.ipv4 = d.ipv4;
  if (keep.ipv6 && d.ipv6) body.ipv6 = d.ipv6;
  body.use_default_allowed_ips = d.use_default_allowed_ips;
  if (!d.use_default_allowed_ips && d.allowed_ips) body.allowed_ips = d.allowed_ips;
  body.use_default_dns = d.use_default_dns;
  if (!d.use_default_dns && d.dns) body.dns = d.dns;
  body.use_default_endpoint = d.use_default_endpoint;
  if (!d.use_default_endpoint && d.endpoint) body.endpoint = d.endpoint;
  body.use_default_mtu = d.use_default_mtu;
  if (!d.use_default_mtu && d.mtu !== null) body.mtu = d.mtu;
  body.use_default_persistent_keepalive = d.use_default_persistent_keepalive;
  if (!d.use_default_persistent_keepalive && d.persistent_keepalive !== null) body.persistent_keepalive = d.persistent_keepalive;
  return body;
}

/** Whether a 422 is about an address being taken (the one thing undo works around). */
function addressTaken(err: unknown): boolean {
  return err instanceof ApiError && err.kind === 'validation' && ('ipv4' in err.fieldErrors || 'ipv6' in err.fieldErrors);
}

/** The server's reason: its field errors when it gave some (`email: has already been taken`). */
export function reason(err: unknown): string {
  if (err instanceof ApiError && Object.keys(err.fieldErrors).length > 0) {
    return Object.entries(err.fieldErrors)
      .map(([field, messages]) => `${field}: ${messages.join(', ')}`)
      .join('; ');
  }
  return errorText(err);
}

/**
 * `userIds`: old user id → the id of the user as restored (the server gives a new one), kept by
 * the session's UndoLog, so that a device deleted before its user was deleted and brought back
 * returns to that user as they exist now.
 */
export async function restore(
  client: ConsoleClient,
  items: UndoItems,
  userIds: Map<string, string> = new Map(),
  emailOf: (userId: string) => string | null = () => null,
): Promise<RestoreReport> {
  const lines: DialogLine[] = [];
  const left: {users: User[]; devices: Device[]; rules: Rule[]; newKeys: KeyChange[]} = {users: [], devices: [], rules: [], newKeys: []};
  let restored = 0;
  const deviceIds = new Map<string, string>();
  const lostUsers = new Set<string>();
  // A user restored more than once (deleted again after a restore) is found at the end of the chain.
  const userNow = (id: string): string => {
    let at = id;
    for (let hops = 0; userIds.has(at) && hops < 100; hops++) at = userIds.get(at)!;
    return at;
  };
  for (const u of items.users) {
    try {
      const made = (await client.createUser({email: u.email, role: u.role})).data;
      userIds.set(u.id, made.id);
      restored++;
      lines.push({text: `User ${u.email} (${u.role}) is back; their password is not (set a new one, or sign in through the identity provider)`, tone: 'ok'});
    } catch (err) {
      lostUsers.add(u.id);
      left.users.push(u);
      lines.push({text: `User ${u.email} did not come back: ${reason(err)}`, tone: 'danger'});
    }
  }
  // A device is named with its owner: a bulk restore brings back many devices of one name (one laptop per user).
  const restoredEmail = new Map(items.users.map((u) => [u.id, u.email]));
  const ownerOf = (d: Device) => restoredEmail.get(d.user_id) ?? emailOf(d.user_id);
  const label = (d: Device) => {
    const owner = ownerOf(d);
    return owner ? `${d.name} of ${owner}` : d.name;
  };
  // A new key first: the device that holds it has the old one's name and addresses, which the old
  // one takes back once that device is deleted.
  for (const k of items.newKeys ?? []) {
    const d = k.before;
    try {
      const id = k.replacementId ?? (await client.listDevices()).data.find((x) => x.public_key === k.replacementKey)?.id ?? null;
      if (id !== null) await client.deleteDevice(id);
    } catch (err) {
      if (!(err instanceof ApiError && err.kind === 'not_found')) {
        left.newKeys.push(k);
        lines.push({text: `Device ${label(d)} keeps its new key: deleting the device that holds it failed: ${reason(err)}`, tone: 'danger'});
        continue;
      }
    }
    // From here on the device with the new key is gone: what is left to do is an ordinary device's restore.
    const back = await bringBack(client, d, userNow(d.user_id));
    if (back.ok) {
      restored++;
      deviceIds.set(d.id, back.id);
      if (k.replacementId !== null) deviceIds.set(k.replacementId, back.id);
      lines.push({
        text:
          back.moved.length === 0
            ? `Device ${label(d)} has its old key back, with its addresses (${addresses(d)}): its old client config works again, the new one no longer does`
            : `Device ${label(d)} has its old key back, but ${back.moved.length === 1 ? 'an address' : 'its addresses'} had been taken meanwhile: ${back.moved.join(', ')}, so its old client config needs a new Address line; the new config no longer works`,
        tone: back.moved.length === 0 ? 'ok' : 'warning',
      });
    } else {
      left.devices.push(d);
      lines.push({text: `Device ${label(d)} lost its new key but did not get its old one back: ${back.reason}`, tone: 'danger'});
    }
  }
  for (const d of items.devices) {
    if (lostUsers.has(d.user_id)) {
      left.devices.push(d);
      lines.push({text: `Device ${label(d)} waits for its user to come back`, tone: 'warning'});
      continue;
    }
    const back = await bringBack(client, d, userNow(d.user_id));
    if (back.ok) deviceIds.set(d.id, back.id);
    if (!back.ok) {
      left.devices.push(d);
      lines.push({text: `Device ${label(d)} did not come back: ${back.reason}`, tone: 'danger'});
    } else if (back.moved.length === 0) {
      restored++;
      lines.push({text: `Device ${label(d)} is back with its keys and addresses (${addresses(d)}): its client config works again`, tone: 'ok'});
    } else {
      restored++;
      lines.push({
        text: `Device ${label(d)} is back with its keys, but ${back.moved.length === 1 ? 'an address' : 'its addresses'} had been taken meanwhile: ${back.moved.join(', ')}, so its client needs a new config (its Address line no longer matches)`,
        tone: 'warning',
      });
    }
  }
  for (const r of items.rules) {
    if (r.user_id !== null && lostUsers.has(r.user_id)) {
      left.rules.push(r);
      lines.push({text: `Rule ${r.action.toUpperCase()} ${r.destination} waits for its user to come back`, tone: 'warning'});
      continue;
    }
    try {
      await client.createRule({
        action: r.action,
        destination: r.destination,
        port_type: r.port_type,
        port_range: r.port_range,
        user_id: r.user_id === null ? null : userNow(r.user_id),
      });
      restored++;
      lines.push({text: `Rule ${r.action.toUpperCase()} ${r.destination}${r.port_type ? ` ${r.port_type} ${r.port_range ?? ''}` : ''} is back`, tone: 'ok'});
    } catch (err) {
      left.rules.push(r);
      lines.push({text: `Rule ${r.action.toUpperCase()} ${r.destination} did not come back: ${reason(err)}`, tone: 'danger'});
    }
  }
  const news = whatIsNew(items, left);
  if (news) lines.push({text: ''}, {text: news, tone: 'muted'});
  return {lines, restored, left: left.newKeys.length > 0 ? left : {users: left.users, devices: left.devices, rules: left.rules}, deviceIds};
}

function addresses(d: Device): string {
  return [d.ipv4, d.ipv6].filter(Boolean).join(', ');
}

/**
 * Creates the device again as it was; when the server says an address of it is taken meanwhile,
 * again without that address (the other, still free, is kept). `moved`: "was → now" per address
 * that changed.
 */
async function bringBack(client: ConsoleClient, d: Device, userId: string): Promise<{ok: true; id: string; moved: string[]} | {ok: false; reason: string}> {
  try {
    return {ok: true, id: (await client.createDevice(deviceBody(d, userId))).data.id, moved: []};
  } catch (err) {
    if (!addressTaken(err)) return {ok: false, reason: reason(err)};
    try {
      // Only the address the server named is given up; the other one, still free, is kept.
      const taken = (err as ApiError).fieldErrors;
      const made = (await client.createDevice(deviceBody(d, userId, {ipv4: !('ipv4' in taken), ipv6: !('ipv6' in taken)}))).data;
      const moved = [
        [d.ipv4, made.ipv4],
        [d.ipv6, made.ipv6],
      ].flatMap(([was, now]) => (was !== now ? [`${was ?? 'none'} → ${now ?? 'none'}`] : []));
      return {ok: true, id: made.id, moved};
    } catch (again) {
      return {ok: false, reason: reason(again)};
    }
  }
}

/** What a restored item does not get back, by the kinds that came back; null when none did. */
function whatIsNew(items: UndoItems, left: UndoItems): string | null {
  const back = (all: readonly unknown[], stayed: readonly unknown[]) => all.length > stayed.length;
  const users = back(items.users, left.users);
  // A device given a new key and brought back with its old one came back as a new device too.
  const devices = back([...items.devices, ...(items.newKeys ?? [])], [...left.devices, ...(left.newKeys ?? [])]);
  if (!users && !devices && !back(items.rules, left.rules)) return null;
  const parts = ['Restored items are new to the server: new ids and creation dates'];
  if (devices) parts.push('devices start with no handshake, no remote IP and traffic counters at zero until their clients connect');
  if (users) parts.push('users have no sign-in on record');
  return `${parts.join('; ')}.`;
}
