// The Devices list's rows over the compact store (src/api/device-columns.ts; docs/performance-poll.md,
// "The compact device store").
//
// A DeviceRow is a small object (a table and a slot) whose fields are read from columns: the
// poll's raw columns, plus the columns derived here once per poll (owner email, the stats sample's
// time, rx/tx rates, the sort keys). No row carries a full `Device`; `toDevice()` materialises
// the one a detail, a form or an undo needs.
//
// Rows keep their identity while their device does not change, which the list model, the search
// text and the change marks build on. An unchanged device's row is re-pointed at the new table's
// slot when a poll is derived: that slot holds exactly the values the row read before (same
// digest or same fields, same owner, copied derived values), so nothing that holds the row can
// tell, and the old table is let go once no changed or deleted row points into it.
import {DeviceColumns, sameSettings, timeMs, type DeviceSettings, type TimeColumn} from '../../api/device-columns.js';
import type {Device, User} from '../../api/index.js';
import {ipSortKey} from '../../common/ip-literal.js';
import {numberColumn, type NumberColumn} from '../../common/number-column.js';
import {runSliced, runWhole, type SlicedPass} from '../core/slices.js';

type SortKey = number | string | null;

/**
 * One poll's derived device columns, beside its raw ones. A column whose source did not change —
 * the raw column is the last table's own array (the same devices in the same places, see
 * DeviceColumnsBuilder) and, for the owners, every user has the same email — is the last table's
 * derived array too: nothing is derived again, nor written (at 50k devices, five arrays of 50k and
 * three map operations a row, every poll).
 */
export class DeviceTable {
  readonly ownerEmail: string[];
  /** `updated_at` of the stats sample the rates were computed from (ms). */
  readonly sampleAt: NumberColumn;
  /** Bytes per second between the last two distinct stats samples; NaN for none. */
  readonly rxRate: NumberColumn;
  readonly txRate: NumberColumn;
  readonly nameKey: string[];
  readonly ownerKey: string[];
  readonly ipv4Key: SortKey[];
  readonly ipv6Key: SortKey[];
  readonly remoteKey: SortKey[];
  /** Which derived columns are the last table's (see above). */
  readonly sharedOwners: boolean;
  readonly sharedNames: boolean;
  readonly sharedIpv4: boolean;
  readonly sharedIpv6: boolean;
  /** Set once every row is derived: the users the owners were read from, and devices per user. */
  owners: {usersById: ReadonlyMap<string, User>; deviceCountByUser: ReadonlyMap<string, number>} | null = null;

  // Stryker disable ArrayDeclaration: sized ahead for speed; every slot is written before it is read
  constructor(
    readonly raw: DeviceColumns,
    last: DeviceTable | null = null,
    usersById: ReadonlyMap<string, User> | null = null,
  ) {
    const n = raw.length;
    const aligned = last !== null && last.raw.length === n;
    this.sharedOwners = aligned && last.owners !== null && last.raw.userId === raw.userId && usersById !== null && sameEmails(last.owners.usersById, usersById);
    this.sharedNames = aligned && last.raw.name === raw.name;
    this.sharedIpv4 = aligned && last.raw.ipv4 === raw.ipv4;
    this.sharedIpv6 = aligned && last.raw.ipv6 === raw.ipv6;
    this.ownerEmail = this.sharedOwners ? last!.ownerEmail : new Array<string>(n);
    this.ownerKey = this.sharedOwners ? last!.ownerKey : new Array<string>(n);
    this.nameKey = this.sharedNames ? last!.nameKey : new Array<string>(n);
    this.ipv4Key = this.sharedIpv4 ? last!.ipv4Key : new Array<SortKey>(n);
    this.ipv6Key = this.sharedIpv6 ? last!.ipv6Key : new Array<SortKey>(n);
    this.sampleAt = numberColumn(n);
    this.rxRate = numberColumn(n);
    this.txRate = numberColumn(n);
    this.remoteKey = new Array<SortKey>(n);
  }
  // Stryker restore ArrayDeclaration
}

/** Whether every user id maps to the same email in both (the owner emails read from them are the same). */
function sameEmails(a: ReadonlyMap<string, User>, b: ReadonlyMap<string, User>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const [id, user] of b) if (a.get(id)?.email !== user.email) return false;
  return true;
}

const rate = (v: number): number | null => (v === v ? v : null);

/** A device of the list: fields read from its table's columns. */
export class DeviceRow {
  /** @internal the table and slot the fields are read from (see the top of this file). */
  constructor(
    public t: DeviceTable,
    public i: number,
  ) {}
  /** @internal the derivation that last took this row (RowDeriver). */
  taken = 0;

  get id(): string {
    return this.t.raw.id[this.i]!;
  }
  get userId(): string {
    return this.t.raw.userId[this.i]!;
  }
  get name(): string {
    return this.t.raw.name[this.i]!;
  }
  get description(): string | null {
    return this.t.raw.description[this.i]!;
  }
  get publicKey(): string {
    return this.t.raw.publicKey[this.i]!;
  }
  get ipv4(): string | null {
    return this.t.raw.ipv4[this.i]!;
  }
  get ipv6(): string | null {
    return this.t.raw.ipv6[this.i]!;
  }
  get remoteIp(): string | null {
    return this.t.raw.remoteIp[this.i]!;
  }
  get settings(): DeviceSettings {
    return this.t.raw.settings[this.i]!;
  }
  /** The device's byte counters (the current stats sample). */
  get rxBytes(): number | null {
    return this.t.raw.rx(this.i);
  }
  get txBytes(): number | null {
    return this.t.raw.tx(this.i);
  }
  get ownerEmail(): string {
    return this.t.ownerEmail[this.i]!;
  }
  /** `latest_handshake` (ms), null for never. */
  get handshakeAt(): number | null {
    return timeMs(this.t.raw.latestHandshake, this.i);
  }
  /**
   * Null when it never shook hands, else whether its last handshake is at most `windowMs` before
   * `nowMs`: handshakeAt's answer without making a number object for it (a time in ms is past
   * the small integers V8 keeps unboxed, and states are counted for every row every second).
   */
  handshakeWithin(nowMs: number, windowMs: number): boolean | null {
    return handshakeWithinAt(this.t.raw.latestHandshake, this.i, nowMs, windowMs);
  }
  /** `inserted_at` (ms). */
  get createdAt(): number {
    return timeMs(this.t.raw.insertedAt, this.i) ?? 0;
  }
  /** `updated_at` of the stats sample the rates come from (ms). */
  get sampleAt(): number {
    return this.t.sampleAt[this.i]!;
  }
  get rxRate(): number | null {
    return rate(this.t.rxRate[this.i]!);
  }
  get txRate(): number | null {
    return rate(this.t.txRate[this.i]!);
  }
  /** The Devices list's sort keys, made once per changed row (made per sort, they cost most of a sort at 50k). */
  get nameKey(): string {
    return this.t.nameKey[this.i]!;
  }
  get ownerKey(): string {
    return this.t.ownerKey[this.i]!;
  }
  get ipv4Key(): SortKey {
    return this.t.ipv4Key[this.i]!;
  }
  get ipv6Key(): SortKey {
    return this.t.ipv6Key[this.i]!;
  }
  get remoteKey(): SortKey {
    return this.t.remoteKey[this.i]!;
  }
  /** The whole device, materialised (a detail, a form, an undo): a new object each call. */
  toDevice(): Device {
    return this.t.raw.materialise(this.i);
  }
}

function rateBetween(prev: number | null, next: number | null, seconds: number): number {
  if (prev === null || next === null || seconds <= 0) return NaN;
  const delta = next - prev;
  // A counter that went down means the peer was re-added; there is no meaningful rate.
  return delta < 0 ? NaN : delta / seconds;
}

/** Slot i of a and slot j of b hold the same device, field for field (effective defaults can change without `updated_at` moving). */
function sameSlot(a: DeviceColumns, i: number, b: DeviceColumns, j: number): boolean {
  // Stryker disable next-line ConditionalExpression,BlockStatement,BooleanLiteral: a shortcut; the same bytes have the same fields, compared below
  if (a.sameBytes(i, b, j)) return true;
  const same = (x: readonly number[], y: readonly number[]) => x[i] === y[j] || (x[i] !== x[i] && y[j] !== y[j]);
  return (
    a.id[i] === b.id[j] &&
    a.userId[i] === b.userId[j] &&
    a.name[i] === b.name[j] &&
    a.description[i] === b.description[j] &&
    a.publicKey[i] === b.publicKey[j] &&
    a.presharedKey[i] === b.presharedKey[j] &&
    a.ipv4[i] === b.ipv4[j] &&
    a.ipv6[i] === b.ipv6[j] &&
    a.remoteIp[i] === b.remoteIp[j] &&
    (a.settings[i] === b.settings[j] || sameSettings(a.settings[i]!, b.settings[j]!)) &&
    same(a.rxBytes, b.rxBytes) &&
    same(a.txBytes, b.txBytes) &&
    sameTime(a, i, b, j)
  );
}

function sameTime(a: DeviceColumns, i: number, b: DeviceColumns, j: number): boolean {
  for (const key of ['latestHandshake', 'insertedAt', 'updatedAt'] as const) {
    const x = a[key];
    const y = b[key];
    const u = x.us[i]!;
    const v = y.us[j]!;
    if (u !== v && !(u !== u && v !== v)) return false;
    if (u !== u && x.text.get(i) !== y.text.get(j)) return false;
  }
  return true;
}

// Names and owners repeat across devices (2,000 owners for 50k devices): one lowercased instance
// each instead of a new string per row.
let lowered = new Map<string, string>();

function lowerCased(text: string): string {
  let lower = lowered.get(text);
  if (lower === undefined) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: a bound on sharing; a reset only costs sharing
    if (lowered.size >= 1 << 16) lowered = new Map();
    lower = text.toLowerCase();
    lowered.set(text, lower);
  }
  return lower;
}

/**
 * The table `previous` reads when it is exactly the rows of `columns` — row k reads slot k of a
 * table over these very columns, derived with owners of the same emails — else null.
 */
function sameTable(columns: DeviceColumns, usersById: ReadonlyMap<string, User>, previous: readonly DeviceRow[]): DeviceTable | null {
  const table = previous[0]?.t;
  if (table === undefined || table.raw !== columns || previous.length !== columns.length) return null;
  if (table.owners === null || !sameEmails(table.owners.usersById, usersById)) return null;
  for (let k = 0; k < previous.length; k++) {
    const row = previous[k]!;
    if (row.t !== table || row.i !== k) return null;
  }
  return table;
}

/** Counts RowDerivers, to stamp the rows each takes. */
let derivations = 0;

/**
 * Derives one poll's rows from its columns and the last poll's rows, in slices (a SlicedPass).
 * Devices are nearly always listed in the same order, so most are found at their old position:
 * only the others look their id up, in an index of the previous rows built on the first such one.
 */
export class RowDeriver implements SlicedPass {
  readonly rows: DeviceRow[];
  readonly table: DeviceTable;
  /** Devices per user id, counted in the same pass (a pass of its own would read every row again); the last table's when its owners are shared. */
  readonly deviceCountByUser: Map<string, number> | ReadonlyMap<string, number>;
  next = 0;
  private byId: Map<string, DeviceRow> | null = null;
  /** Stamps the rows this derivation took (an id the server lists twice gets a row per listing). */
  private readonly stamp = ++derivations;

  constructor(
    columns: DeviceColumns,
    private readonly usersById: ReadonlyMap<string, User>,
    private readonly previous: readonly DeviceRow[],
  ) {
    const same = sameTable(columns, usersById, previous);
    if (same !== null) {
      // Nothing changed (the decoder gave the last table itself, and every owner has the same
      // email): the last poll's rows are this poll's, every value derived from the same inputs.
      this.table = same;
      this.rows = previous as DeviceRow[];
      this.deviceCountByUser = same.owners!.deviceCountByUser;
      this.next = columns.length;
      tableOfRows.set(this.rows, same);
      return;
    }
    // Every row of the last poll points at its table (unchanged ones were re-pointed to it).
    this.table = new DeviceTable(columns, previous[0]?.t ?? null, usersById);
    this.rows = new Array<DeviceRow>(columns.length);
    this.deviceCountByUser = this.table.sharedOwners ? previous[0]!.t.owners!.deviceCountByUser : new Map<string, number>();
  }

  run(end: number): void {
    const {usersById, previous, rows, table} = this;
    const raw = table.raw;
    const shared = table.sharedOwners;
    const counts = shared ? null : (this.deviceCountByUser as Map<string, number>);
    for (let i = this.next; i < end; i++) {
      const id = raw.id[i]!;
      let ownerEmail: string;
      if (counts === null) ownerEmail = table.ownerEmail[i]!;
      else {
        const userId = raw.userId[i]!;
        counts.set(userId, (counts.get(userId) ?? 0) + 1);
        ownerEmail = usersById.get(userId)?.email ?? userId;
      }
      let prev: DeviceRow | undefined = previous[i];
      if (prev === undefined || prev.id !== id) {
        if (this.byId === null) {
          this.byId = new Map();
          // Last one wins for a repeated id, as it always has.
          for (const row of previous) this.byId.set(row.id, row);
        }
        prev = this.byId.get(id);
      }
      if (prev !== undefined && prev.taken === this.stamp) prev = undefined;
      if (prev !== undefined && prev.ownerEmail === ownerEmail && sameSlot(prev.t.raw, prev.i, raw, i)) {
        this.copyDerived(i, prev);
        // Same values in the new slot: the row is re-pointed, and keeps its identity.
        prev.t = table;
        prev.i = i;
        prev.taken = this.stamp;
        rows[i] = prev;
        continue;
      }
      this.derive(i, ownerEmail, prev);
      rows[i] = new DeviceRow(table, i);
    }
    this.next = end;
    if (end >= raw.length) {
      table.owners = {usersById, deviceCountByUser: this.deviceCountByUser};
      tableOfRows.set(rows, table);
    }
  }

  private copyDerived(i: number, prev: DeviceRow): void {
    const t = this.table;
    const p = prev.t;
    const j = prev.i;
    if (!t.sharedOwners) {
      t.ownerEmail[i] = p.ownerEmail[j]!;
      t.ownerKey[i] = p.ownerKey[j]!;
    }
    t.sampleAt[i] = p.sampleAt[j]!;
    t.rxRate[i] = p.rxRate[j]!;
    t.txRate[i] = p.txRate[j]!;
    if (!t.sharedNames) t.nameKey[i] = p.nameKey[j]!;
    if (!t.sharedIpv4) t.ipv4Key[i] = p.ipv4Key[j]!;
    if (!t.sharedIpv6) t.ipv6Key[i] = p.ipv6Key[j]!;
    t.remoteKey[i] = p.remoteKey[j]!;
  }

  private derive(i: number, ownerEmail: string, prev: DeviceRow | undefined): void {
    const t = this.table;
    const raw = t.raw;
    const at = timeMs(raw.updatedAt, i) ?? 0;
    const rx = raw.rx(i);
    const tx = raw.tx(i);
    let sampleAt = at;
    let rxRate = NaN;
    let txRate = NaN;
    if (prev) {
      const statsChanged = prev.rxBytes !== rx || prev.txBytes !== tx || prev.handshakeAt !== timeMs(raw.latestHandshake, i);
      if (prev.sampleAt !== at && statsChanged) {
        const seconds = (at - prev.sampleAt) / 1000;
        rxRate = rateBetween(prev.rxBytes, rx, seconds);
        txRate = rateBetween(prev.txBytes, tx, seconds);
      } else {
        // Same stats sample (the server writes stats about once a minute): keep its rate.
        rxRate = prev.t.rxRate[prev.i]!;
        txRate = prev.t.txRate[prev.i]!;
        // updated_at moved without new stats (a rename): keep the stats sample's time.
        if (prev.sampleAt !== at) sampleAt = prev.sampleAt;
      }
    }
    t.sampleAt[i] = sampleAt;
    t.rxRate[i] = rxRate;
    t.txRate[i] = txRate;
    // A shared column already holds this slot's value (the same source value in the same place).
    if (!t.sharedOwners) {
      t.ownerEmail[i] = ownerEmail;
      t.ownerKey[i] = prev && prev.ownerEmail === ownerEmail ? prev.ownerKey : lowerCased(ownerEmail);
    }
    if (!t.sharedNames) {
      const name = raw.name[i]!;
      t.nameKey[i] = prev && prev.name === name ? prev.nameKey : lowerCased(name);
    }
    if (!t.sharedIpv4) {
      const ipv4 = raw.ipv4[i]!;
      t.ipv4Key[i] = prev && prev.ipv4 === ipv4 ? prev.ipv4Key : ipSortKey(ipv4);
    }
    if (!t.sharedIpv6) {
      const ipv6 = raw.ipv6[i]!;
      t.ipv6Key[i] = prev && prev.ipv6 === ipv6 ? prev.ipv6Key : ipSortKey(ipv6);
    }
    const remote = raw.remoteIp[i]!;
    t.remoteKey[i] = prev && prev.remoteIp === remote ? prev.remoteKey : ipSortKey(remote);
  }
}

/**
 * The table a derivation's rows array reads, slot for slot (row k of it reads slot k: new rows are
 * made there and unchanged ones re-pointed there). Another array — a filtered list, a copy — is not
 * in it.
 */
const tableOfRows = new WeakMap<readonly DeviceRow[], DeviceTable>();

/**
 * Devices of a derivation's rows whose last handshake is within `windowMs` of `nowMs`, and those
 * with none; null for an array that is not a derivation's. The header counts states every clock
 * second: read from the handshake column (a run of packed doubles) instead of from every row
 * object, whose reads are cache misses over a large heap (docs/performance.md, "The header's
 * counts"). The same test as `DeviceRow.handshakeWithin`, per slot.
 */
export function handshakeCounts(rows: readonly DeviceRow[], nowMs: number, windowMs: number): {within: number; never: number} | null {
  const table = tableOfRows.get(rows);
  if (table === undefined) return null;
  const column = table.raw.latestHandshake;
  let within = 0;
  let never = 0;
  for (let i = 0; i < rows.length; i++) {
    const w = handshakeWithinAt(column, i, nowMs, windowMs);
    if (w === null) never++;
    else if (w) within++;
  }
  return {within, never};
}

/** Whether slot `i`'s handshake is within `windowMs` of `nowMs`; null for none. Packed times read without boxing a number. */
function handshakeWithinAt(column: TimeColumn, i: number, nowMs: number, windowMs: number): boolean | null {
  const us = column.us[i]!;
  if (us === us) return nowMs - Math.floor(us / 1000) <= windowMs;
  const ms = timeMs(column, i);
  return ms === null ? null : nowMs - ms <= windowMs;
}

/** A poll's device rows, in one pass (tests, and a snapshot built without its rows made ahead). */
export function deriveDeviceRowsWhole(columns: DeviceColumns, usersById: ReadonlyMap<string, User>, previous: readonly DeviceRow[]): RowDeriver {
  const derive = new RowDeriver(columns, usersById, previous);
  runWhole(derive, columns.length);
  return derive;
}

/** The same in slices of a few milliseconds with the thread yielded in between (50k devices with a third changed never make one long task). */
export async function deriveDeviceRowsSliced(
  columns: DeviceColumns,
  usersById: ReadonlyMap<string, User>,
  previous: readonly DeviceRow[],
): Promise<RowDeriver> {
  const derive = new RowDeriver(columns, usersById, previous);
  await runSliced(derive, columns.length);
  return derive;
}

/** Device rows of plain devices, as a first poll derives them (tests, and devices known without a poll). */
export function rowsOf(devices: readonly Device[], usersById: ReadonlyMap<string, User> = new Map()): DeviceRow[] {
  return deriveDeviceRowsWhole(DeviceColumns.from(devices), usersById, []).rows;
}
