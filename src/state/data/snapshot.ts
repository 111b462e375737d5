// The resource cache and everything derived from it: owner emails, online state, traffic
// rates, per-user counts, VPN status, rule precedence. Plain TypeScript, no rendering.
import type {Configuration, Device, Rule, SchemaIssue, User} from '../../api/index.js';
import {parseTime} from './format.js';
import {ipSortKey} from '../../common/ip-literal.js';
import {runSliced, runWhole, type SlicedPass} from '../core/slices.js';
import {sortRulesByPrecedence} from './rule-precedence.js';

/** WireGuard re-handshakes about every 2 minutes on a live tunnel; 180 s leaves room for the 60 s stats lag. */
export const ONLINE_WINDOW_MS = 180_000;

/** A rate computed from samples older than this says nothing about now. */
export const RATE_STALE_MS = 180_000;

export type DeviceState = 'online' | 'idle' | 'never';

export interface Sample {
  rx: number | null;
  tx: number | null;
  /** `updated_at` of the device when sampled: 0.7.36 bumps it on every stats write. */
  at: number;
}

export interface DeviceRow {
  readonly id: string;
  readonly device: Device;
  readonly ownerEmail: string;
  readonly handshakeAt: number | null;
  readonly createdAt: number;
  readonly sample: Sample;
  /** Bytes per second between the last two distinct stats samples. */
  readonly rxRate: number | null;
  readonly txRate: number | null;
  /**
   * The Devices list's sort keys, made with the row (and taken from the previous row when their
   * field did not change). Made on every sort instead, they touched every device's strings: at
   * 50k rows that cache-missing pass was most of a sort's time.
   */
  readonly nameKey: string;
  readonly ownerKey: string;
  readonly ipv4Key: number | string | null;
  readonly ipv6Key: number | string | null;
  readonly remoteKey: number | string | null;
}

/** A user with the counts the Users list shows; built once per poll. */
export interface UserRow {
  readonly user: User;
  readonly devices: number;
  readonly rules: number;
}

export interface Snapshot {
  devices: readonly DeviceRow[];
  users: readonly User[];
  userRows: readonly UserRow[];
  /** In the order Firezone's nftables layout applies them (`sortRulesByPrecedence`). */
  rules: readonly Rule[];
  configuration: Configuration | null;
  usersById: ReadonlyMap<string, User>;
  deviceCountByUser: ReadonlyMap<string, number>;
  ruleCountByUser: ReadonlyMap<string, number>;
  /** Wall-clock time the data was received. */
  fetchedAt: number;
  issues: readonly SchemaIssue[];
}

export function deviceState(row: Pick<DeviceRow, 'handshakeAt'>, nowMs: number): DeviceState {
  if (row.handshakeAt === null) return 'never';
  return nowMs - row.handshakeAt <= ONLINE_WINDOW_MS ? 'online' : 'idle';
}

/** Devices by state at `now`: online (handshake within 3 minutes), idle, never connected. */
export interface StateCounts {
  online: number;
  idle: number;
  never: number;
}

const stateCountCache = new WeakMap<readonly DeviceRow[], {second: number; counts: StateCounts}>();

/**
 * How many of `rows` are online, idle and never connected at `now`. A pass over every row, so it
 * is made once per list and clock second, not on every frame.
 */
export function stateCounts(rows: readonly DeviceRow[], nowMs: number): StateCounts {
  const second = Math.floor(nowMs / 1000);
  const cached = stateCountCache.get(rows);
  if (cached && cached.second === second) return cached.counts;
  const counts: StateCounts = {online: 0, idle: 0, never: 0};
  for (const row of rows) counts[deviceState(row, nowMs)]++;
  stateCountCache.set(rows, {second, counts});
  return counts;
}

/**
 * The device's rate now, or null when there is none to tell: only an online device with a fresh
 * sample has one. An idle device's last rate is history, not "now" (it would sort a device that
 * stopped minutes ago to the top of RX/S and count in the header's totals).
 */
export function currentRate(row: DeviceRow, which: 'rx' | 'tx', nowMs: number): number | null {
  const rate = which === 'rx' ? row.rxRate : row.txRate;
  if (rate === null || deviceState(row, nowMs) !== 'online') return null;
  return nowMs - row.sample.at > RATE_STALE_MS ? null : rate;
}

function sameStrings(a: readonly string[] | null, b: readonly string[] | null): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Field-by-field equality: effective defaults can change without `updated_at` moving (docs/firezone-0.7.36.md, "Devices: fields and effective values"). */
export function sameDevice(a: Device, b: Device): boolean {
  // The client hands back the same object for an item whose bytes did not change (src/api/listcache.ts).
  if (a === b) return true;
  for (const key of Object.keys(a) as (keyof Device)[]) {
    const x = a[key];
    const y = b[key];
    if (Array.isArray(x) || Array.isArray(y)) {
      if (!sameStrings(x as string[] | null, y as string[] | null)) return false;
    } else if (x !== y) {
      return false;
    }
  }
  return true;
}

function rateBetween(prev: number | null, next: number | null, seconds: number): number | null {
  if (prev === null || next === null || seconds <= 0) return null;
  const delta = next - prev;
  // A counter that went down means the peer was re-added; there is no meaningful rate.
  return delta < 0 ? null : delta / seconds;
}

/**
 * Builds the device rows of a new poll from the previous ones. Unchanged devices keep
 * their row object, so caches keyed by identity (search text, rendered lines) stay warm.
 *
 * The client returns the previous poll's object for every item whose bytes did not change, and
 * servers list devices in a stable order, so nearly every device is found at its old position
 * with the same object: one identity check each. Only the others look their id up, in an index of
 * the previous rows built on the first such device.
 */
export function deriveDeviceRows(devices: readonly Device[], usersById: ReadonlyMap<string, User>, previous: readonly DeviceRow[]): DeviceRow[] {
  return deriveDeviceRowsWithCounts(devices, usersById, previous).rows;
}

function deriveDeviceRowsWithCounts(devices: readonly Device[], usersById: ReadonlyMap<string, User>, previous: readonly DeviceRow[]): RowDeriver {
  const derive = new RowDeriver(devices, usersById, previous);
  runWhole(derive, devices.length);
  return derive;
}

/**
 * The same rows as deriveDeviceRows, with each user's device count, in slices of a few
 * milliseconds with the thread yielded in between, so that 50k devices with a third of them
 * changed never make one long task.
 */
export async function deriveDeviceRowsSliced(
  devices: readonly Device[],
  usersById: ReadonlyMap<string, User>,
  previous: readonly DeviceRow[],
): Promise<{rows: DeviceRow[]; deviceCountByUser: Map<string, number>}> {
  const derive = new RowDeriver(devices, usersById, previous);
  await runSliced(derive, devices.length);
  return {rows: derive.rows, deviceCountByUser: derive.deviceCountByUser};
}

class RowDeriver implements SlicedPass {
  readonly rows: DeviceRow[];
  /** Devices per user id, counted in the same pass (a pass of its own cost 20–30 ms at 50k). */
  readonly deviceCountByUser = new Map<string, number>();
  next = 0;
  private byId: Map<string, DeviceRow> | null = null;

  constructor(
    private readonly devices: readonly Device[],
    private readonly usersById: ReadonlyMap<string, User>,
    private readonly previous: readonly DeviceRow[],
  ) {
    this.rows = new Array<DeviceRow>(devices.length);
  }

  run(end: number): void {
    const {devices, usersById, previous, rows, deviceCountByUser} = this;
    for (let i = this.next; i < end; i++) {
      const device = devices[i]!;
      deviceCountByUser.set(device.user_id, (deviceCountByUser.get(device.user_id) ?? 0) + 1);
      const ownerEmail = usersById.get(device.user_id)?.email ?? device.user_id;
      const same = previous[i];
      if (same !== undefined && same.device === device && same.ownerEmail === ownerEmail) {
        rows[i] = same;
        continue;
      }
      let prev: DeviceRow | undefined;
      if (same !== undefined && same.id === device.id) {
        // A device whose stats changed, still at its place.
        prev = same;
      } else {
        if (this.byId === null) {
          this.byId = new Map();
          // Last one wins for a repeated id, as it always has.
          for (const row of previous) this.byId.set(row.id, row);
        }
        prev = this.byId.get(device.id);
      }
      rows[i] = prev && prev.ownerEmail === ownerEmail && sameDevice(prev.device, device) ? prev : newRow(device, ownerEmail, prev);
    }
    this.next = end;
  }
}

// Names and owners repeat across devices (2,000 owners for 50k devices): one lowercased instance
// each, like the pooled values of src/api/value-pool.ts, instead of a new string per row.
let lowered = new Map<string, string>();

function lowerCased(text: string): string {
  let lower = lowered.get(text);
  if (lower === undefined) {
    if (lowered.size >= 1 << 16) lowered = new Map();
    lower = text.toLowerCase();
    lowered.set(text, lower);
  }
  return lower;
}

function newRow(device: Device, ownerEmail: string, prev: DeviceRow | undefined): DeviceRow {
  const at = parseTime(device.updated_at) ?? 0;
  const sample: Sample = {rx: device.rx_bytes, tx: device.tx_bytes, at};
  let rxRate: number | null = null;
  let txRate: number | null = null;
  if (prev) {
    const statsChanged = prev.sample.rx !== sample.rx || prev.sample.tx !== sample.tx || prev.device.latest_handshake !== device.latest_handshake;
    if (prev.sample.at !== at && statsChanged) {
      const seconds = (at - prev.sample.at) / 1000;
      rxRate = rateBetween(prev.sample.rx, sample.rx, seconds);
      txRate = rateBetween(prev.sample.tx, sample.tx, seconds);
    } else {
      // Same stats sample (the server writes stats about once a minute): keep its rate.
      rxRate = prev.rxRate;
      txRate = prev.txRate;
      if (prev.sample.at !== at) {
        // updated_at moved without new stats (a rename): keep the stats sample's time.
        sample.at = prev.sample.at;
      }
    }
  }
  return {
    id: device.id,
    device,
    ownerEmail,
    // Date.parse is a large part of a changed row's cost; most changes leave these times alone.
    handshakeAt: prev && prev.device.latest_handshake === device.latest_handshake ? prev.handshakeAt : parseTime(device.latest_handshake),
    createdAt: prev && prev.device.inserted_at === device.inserted_at ? prev.createdAt : (parseTime(device.inserted_at) ?? 0),
    sample,
    rxRate,
    txRate,
    nameKey: prev && prev.device.name === device.name ? prev.nameKey : lowerCased(device.name),
    ownerKey: prev && prev.ownerEmail === ownerEmail ? prev.ownerKey : lowerCased(ownerEmail),
    ipv4Key: prev && prev.device.ipv4 === device.ipv4 ? prev.ipv4Key : ipSortKey(device.ipv4),
    ipv6Key: prev && prev.device.ipv6 === device.ipv6 ? prev.ipv6Key : ipSortKey(device.ipv6),
    remoteKey: prev && prev.device.remote_ip === device.remote_ip ? prev.remoteKey : ipSortKey(device.remote_ip),
  };
}

export function countBy<T>(items: readonly T[], key: (t: T) => string | null): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) {
    const k = key(item);
    if (k !== null) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

export interface FetchedData {
  devices: readonly Device[];
  users: readonly User[];
  rules: readonly Rule[];
  configuration: Configuration | null;
  issues: readonly SchemaIssue[];
}

/** User rows of a new poll; a user whose object and counts did not change keeps its row object. */
function deriveUserRows(
  users: readonly User[],
  devices: ReadonlyMap<string, number>,
  rules: ReadonlyMap<string, number>,
  previous: readonly UserRow[] | null,
): UserRow[] {
  const before = new Map<User, UserRow>();
  if (previous) for (const row of previous) before.set(row.user, row);
  return users.map((user) => {
    const d = devices.get(user.id) ?? 0;
    const r = rules.get(user.id) ?? 0;
    const old = before.get(user);
    return old && old.devices === d && old.rules === r ? old : {user, devices: d, rules: r};
  });
}

// The device rows of a fetch, derived while it was fetched (prepareSnapshot), and the rows they
// were derived from. buildSnapshot takes them only when its previous snapshot has exactly those
// rows; otherwise it derives the rows itself, so the result never depends on which path ran.
interface Prepared {
  base: readonly DeviceRow[];
  usersById: Map<string, User>;
  rows: DeviceRow[];
  deviceCountByUser: Map<string, number>;
}

const prepared = new WeakMap<FetchedData, Prepared>();

const NO_ROWS: readonly DeviceRow[] = [];

/** The device rows of the last snapshot built: the likely `previous` of the next one. */
let lastRows: readonly DeviceRow[] = NO_ROWS;

/**
 * Does the per-device part of buildSnapshot ahead, in slices (fetchAll calls it before it
 * resolves), so that applying a poll of 50k devices is not one long task on the keyboard's path.
 */
export async function prepareSnapshot(data: FetchedData): Promise<void> {
  const base = lastRows;
  const usersById = new Map(data.users.map((u) => [u.id, u]));
  const {rows, deviceCountByUser} = await deriveDeviceRowsSliced(data.devices, usersById, base);
  prepared.set(data, {base, usersById, rows, deviceCountByUser});
}

export function buildSnapshot(data: FetchedData, previous: Snapshot | null, fetchedAt: number): Snapshot {
  const ready = prepared.get(data);
  const pre = ready && ready.base === (previous?.devices ?? NO_ROWS) ? ready : undefined;
  const usersById = pre?.usersById ?? new Map(data.users.map((u) => [u.id, u]));
  const derived = pre ?? deriveDeviceRowsWithCounts(data.devices, usersById, previous?.devices ?? NO_ROWS);
  const devices = derived.rows;
  lastRows = devices;
  const deviceCountByUser = derived.deviceCountByUser;
  const ruleCountByUser = countBy(data.rules, (r) => r.user_id);
  const emailOf = (id: string) => usersById.get(id)?.email ?? id;
  return {
    devices,
    users: data.users,
    userRows: deriveUserRows(data.users, deviceCountByUser, ruleCountByUser, previous?.userRows ?? null),
    rules: sortRulesByPrecedence(data.rules, emailOf),
    configuration: data.configuration,
    usersById,
    deviceCountByUser,
    ruleCountByUser,
    fetchedAt,
    issues: data.issues,
  };
}

// ---- users ---------------------------------------------------------------------------------

export type VpnStatus = 'ENABLED' | 'DISABLED' | 'EXPIRED';

/** Sessions expire only when 0 < duration < 2147483647 (docs/firezone-0.7.36.md, "VPN session duration and the ENABLED/DISABLED/EXPIRED tag"). */
export function sessionsExpire(durationSeconds: number): boolean {
  return durationSeconds > 0 && durationSeconds < 2147483647;
}

/** 0.7.36's VPN Connection tag (same section), evaluated in the same order. */
export function vpnStatus(user: User, sessionDurationSeconds: number, nowMs: number): VpnStatus {
  if (user.disabled_at !== null) return 'DISABLED';
  const signedIn = parseTime(user.last_signed_in_at);
  if (signedIn !== null && sessionsExpire(sessionDurationSeconds) && signedIn + sessionDurationSeconds * 1000 <= nowMs) {
    return 'EXPIRED';
  }
  return 'ENABLED';
}

export const VPN_STATUS_HELP: Record<VpnStatus, string> = {
  ENABLED: "This user's VPN connection is enabled",
  DISABLED: "This user's VPN connection is disabled by an administrator or OIDC refresh failure",
  EXPIRED: "This user's VPN connection is disabled due to authentication expiration",
};
