// The resource cache and everything derived from it: owner emails, online state, traffic
// rates, per-user counts, VPN status, rule precedence. Plain TypeScript, no rendering.
import {DeviceColumns} from '../../api/device-columns.js';
import type {Configuration, Device, Rule, SchemaIssue, User} from '../../api/index.js';
import {formatAge, parseTime} from './format.js';
import {deriveDeviceRowsSliced, deriveDeviceRowsWhole, DeviceRow, handshakeCounts} from './device-rows.js';
import {sortRulesByPrecedence} from './rule-precedence.js';

export {DeviceRow, rowsOf} from './device-rows.js';

/** WireGuard re-handshakes about every 2 minutes on a live tunnel; 180 s leaves room for the 60 s stats lag. */
export const ONLINE_WINDOW_MS = 180_000;

/** A rate computed from samples older than this says nothing about now. */
export const RATE_STALE_MS = 180_000;

export type DeviceState = 'online' | 'idle' | 'never';

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
  /**
   * Lists this token may not read (0.7.36: only an admin's token lists users and rules and reads
   * the configuration): shown as not visible, never as empty, and nothing is worked out from them.
   */
  hidden: ReadonlySet<HiddenList>;
}

/** What a non-admin token cannot read. */
export type HiddenList = 'users' | 'rules' | 'configuration';

/** Said where a list or the configuration would be, for a token that may not read it. */
export const NOT_VISIBLE = 'Not visible to this token (its user is not an admin): 0.7.36 lets only an admin list users and rules and read the configuration.';

export function deviceState(row: Pick<DeviceRow, 'handshakeAt'>, nowMs: number): DeviceState {
  // A list row reads its column without boxing a number: this runs for every row every second.
  if (row instanceof DeviceRow) {
    const within = row.handshakeWithin(nowMs, ONLINE_WINDOW_MS);
    return within === null ? 'never' : within ? 'online' : 'idle';
  }
  const at = row.handshakeAt;
  if (at === null) return 'never';
  return nowMs - at <= ONLINE_WINDOW_MS ? 'online' : 'idle';
}

/** Past this without a newer poll (the server unreachable, updates paused), states are said to be the poll's. */
export const STATES_AS_OF_MS = 60_000;

/**
 * Devices' states are the poll's (`deviceState` at `fetchedAt`): whether a device is still online
 * minutes later cannot be known without asking again. Once that is a while ago, "as of 3m ago"
 * says so; null while the poll is recent.
 */
export function statesAsOf(fetchedAt: number, nowMs: number): string | null {
  return nowMs - fetchedAt >= STATES_AS_OF_MS ? `as of ${formatAge(fetchedAt, nowMs)} ago` : null;
}

/** Devices by state at `now`: online (handshake within 3 minutes), idle, never connected. */
export interface StateCounts {
  online: number;
  idle: number;
  never: number;
}

const stateCountCache = new WeakMap<readonly DeviceRow[], {second: number; counts: StateCounts}>();

/**
 * How many of `rows` are online, idle and never connected at `now`. A pass over every device, so
 * it is made once per list and clock second, not on every frame; over a poll's rows it reads the
 * handshake column rather than the row objects (`handshakeCounts`).
 */
export function stateCounts(rows: readonly DeviceRow[], nowMs: number): StateCounts {
  const second = Math.floor(nowMs / 1000);
  const cached = stateCountCache.get(rows);
  if (cached && cached.second === second) return cached.counts;
  let counts: StateCounts;
  const fast = handshakeCounts(rows, nowMs, ONLINE_WINDOW_MS);
  if (fast !== null) {
    counts = {online: fast.within, idle: rows.length - fast.within - fast.never, never: fast.never};
  } else {
    counts = {online: 0, idle: 0, never: 0};
    for (const row of rows) counts[deviceState(row, nowMs)]++;
  }
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
  return nowMs - row.sampleAt > RATE_STALE_MS ? null : rate;
}

/**
 * rx/s + tx/s now, or null when the device has neither: `currentRate` of both, with the state and
 * the sample's age read once (RATE sorts 50k of these on a key after a poll).
 */
export function currentTotalRate(row: DeviceRow, nowMs: number): number | null {
  const rx = row.rxRate;
  const tx = row.txRate;
  if ((rx === null && tx === null) || nowMs - row.sampleAt > RATE_STALE_MS || deviceState(row, nowMs) !== 'online') return null;
  return (rx ?? 0) + (tx ?? 0);
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
  /** Column-wise as the client decodes them (src/api/device-columns.ts); plain objects from tests and devices known otherwise. */
  devices: DeviceColumns | readonly Device[];
  users: readonly User[];
  rules: readonly Rule[];
  configuration: Configuration | null;
  issues: readonly SchemaIssue[];
  /** The lists the token may not read (fetchAll), given as empty above; none when absent. */
  hidden?: readonly HiddenList[];
}

const NOTHING_HIDDEN: ReadonlySet<HiddenList> = new Set();

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
  deviceCountByUser: ReadonlyMap<string, number>;
}

const prepared = new WeakMap<FetchedData, Prepared>();

const NO_ROWS: readonly DeviceRow[] = [];

/** The device rows of the last snapshot built: the likely `previous` of the next one. */
let lastRows: readonly DeviceRow[] = NO_ROWS;

// A list that did not change is the same array as last poll (src/api/listcache.ts): what was
// derived from it alone is taken again instead of made again (at 2,000 users and 1,000 rules, a
// map of each and a sort with a collator, every poll).
let lastUsers: {users: readonly User[]; byId: Map<string, User>} | null = null;
let lastRules: {rules: readonly Rule[]; usersById: ReadonlyMap<string, User>; sorted: Rule[]; countByUser: Map<string, number>} | null = null;

function usersByIdOf(users: readonly User[]): Map<string, User> {
  if (lastUsers?.users === users) return lastUsers.byId;
  const byId = new Map(users.map((u) => [u.id, u]));
  lastUsers = {users, byId};
  return byId;
}

/** The rules in firewall order (the order reads owners' emails) and rules per user. */
function rulesOf(rules: readonly Rule[], usersById: ReadonlyMap<string, User>): {sorted: Rule[]; countByUser: Map<string, number>} {
  if (lastRules !== null && lastRules.rules === rules && lastRules.usersById === usersById) return lastRules;
  const emailOf = (id: string) => usersById.get(id)?.email ?? id;
  lastRules = {rules, usersById, sorted: sortRulesByPrecedence(rules, emailOf), countByUser: countBy(rules, (r) => r.user_id)};
  return lastRules;
}

const columnsOf = (devices: FetchedData['devices']): DeviceColumns =>
  devices instanceof DeviceColumns ? devices : DeviceColumns.from(devices as readonly Device[]);

/** A poll's device rows derived from `previous`, in one pass (tests; buildSnapshot when nothing was made ahead). */
export function deriveDeviceRows(devices: FetchedData['devices'], usersById: ReadonlyMap<string, User>, previous: readonly DeviceRow[]): DeviceRow[] {
  return deriveDeviceRowsWhole(columnsOf(devices), usersById, previous).rows;
}

/**
 * Does the per-device part of buildSnapshot ahead, in slices (fetchAll calls it before it
 * resolves), so that applying a poll of 50k devices is not one long task on the keyboard's path.
 */
export async function prepareSnapshot(data: FetchedData): Promise<void> {
  const base = lastRows;
  const usersById = usersByIdOf(data.users);
  const {rows, deviceCountByUser} = await deriveDeviceRowsSliced(columnsOf(data.devices), usersById, base);
  prepared.set(data, {base, usersById, rows, deviceCountByUser});
}

export function buildSnapshot(data: FetchedData, previous: Snapshot | null, fetchedAt: number): Snapshot {
  const ready = prepared.get(data);
  // Taken once: a fetch's data can outlive its snapshot (the first poll's promise stays with the
  // session), and its prepared rows would hold every table since. A row that changes keeps
  // pointing at the table of the poll before, so an old rows array pins one table per poll.
  prepared.delete(data);
  const pre = ready && ready.base === (previous?.devices ?? NO_ROWS) ? ready : undefined;
  const usersById = pre?.usersById ?? usersByIdOf(data.users);
  const derived = pre ?? deriveDeviceRowsWhole(columnsOf(data.devices), usersById, previous?.devices ?? NO_ROWS);
  const devices = derived.rows;
  lastRows = devices;
  const deviceCountByUser = derived.deviceCountByUser;
  const rules = rulesOf(data.rules, usersById);
  const ruleCountByUser = rules.countByUser;
  const sameUserRows =
    previous !== null && previous.users === data.users && previous.deviceCountByUser === deviceCountByUser && previous.ruleCountByUser === ruleCountByUser;
  return {
    devices,
    users: data.users,
    userRows: sameUserRows ? previous.userRows : deriveUserRows(data.users, deviceCountByUser, ruleCountByUser, previous?.userRows ?? null),
    rules: rules.sorted,
    configuration: data.configuration,
    usersById,
    deviceCountByUser,
    ruleCountByUser,
    fetchedAt,
    issues: data.issues,
    hidden: data.hidden && data.hidden.length > 0 ? new Set(data.hidden) : NOTHING_HIDDEN,
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
