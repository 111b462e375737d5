// The device list held column-wise (docs/performance-poll.md, "The compact device store").
//
// A 50k-device server's list used to be 50k `Device` objects of 25 properties each, most of them
// strings JSON.parse made anew (three timestamps, two keys, addresses), boxed numbers, and the same
// allowed-IPs, DNS and endpoint settings repeated on every device: much heap per device, and as
// many objects for the collector to mark while a refresh runs. Here one poll's list is a set
// of columns instead:
//
// - numbers and times in typed arrays (rx/tx bytes; the three timestamps as microseconds since
//   the epoch, which is exactly what 0.7.36 writes — `2026-04-29T14:17:55.842627Z`);
// - the values that repeat (owner ids, names, descriptions, and a device's client settings taken
//   together: allowed IPs, DNS, endpoint, MTU, keepalive, the five "use default" flags and the
//   server's key) interned, one instance each;
// - the strings unique to a device (id, keys, addresses) kept as one string each;
// - per item, a 64-bit digest of its bytes in the body (device-decoder.ts), which is how the next
//   poll recognises an unchanged item without keeping this poll's body.
//
// A table is never changed once built. A poll builds a new one, copying the slots of unchanged
// devices from the last (a copy of a few numbers and pointers each). `materialise(i)` gives back
// the one `Device` a detail, a form or an export needs, equal to what a full parse of the same
// item gives (test/api/device-columns.test.ts holds the two to each other).
import {fitted, TimeBuilder, timeText, type TimeColumn} from './packed-time.js';
import type {Device} from './schemas.js';
import {cutColumn, numberColumn, type NumberColumn} from '../common/number-column.js';

export {packTime, packTimeBytes, timeMs, timeText, unpackTime, type TimeColumn} from './packed-time.js';

/** The client settings of a device, which nearly all devices of a server share: interned as one value. */
export interface DeviceSettings {
  readonly allowed_ips: readonly string[] | null;
  readonly dns: readonly string[] | null;
  readonly endpoint: string | null;
  readonly mtu: number | null;
  readonly persistent_keepalive: number | null;
  readonly use_default_allowed_ips: boolean;
  readonly use_default_dns: boolean;
  readonly use_default_endpoint: boolean;
  readonly use_default_mtu: boolean;
  readonly use_default_persistent_keepalive: boolean;
  readonly server_public_key: string | null;
}

/** Past this many distinct values a pool starts again (a server of unique names must not grow it forever). */
const MAX_POOLED = 1 << 16;

function sameList(a: readonly string[] | null, b: readonly string[] | null): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function sameSettings(s: DeviceSettings, d: DeviceSettings): boolean {
  return (
    s.endpoint === d.endpoint &&
    s.mtu === d.mtu &&
    s.persistent_keepalive === d.persistent_keepalive &&
    s.use_default_allowed_ips === d.use_default_allowed_ips &&
    s.use_default_dns === d.use_default_dns &&
    s.use_default_endpoint === d.use_default_endpoint &&
    s.use_default_mtu === d.use_default_mtu &&
    s.use_default_persistent_keepalive === d.use_default_persistent_keepalive &&
    s.server_public_key === d.server_public_key &&
    sameList(s.allowed_ips, d.allowed_ips) &&
    sameList(s.dns, d.dns)
  );
}

/**
 * One instance per repeated value, shared by the tables of successive polls. A reset (past
 * MAX_POOLED) only costs sharing: tables hold the values themselves, not indexes into the pool.
 */
export class DevicePools {
  private strings = new Map<string, string>();
  private settings = new Map<string, DeviceSettings>();

  string<S extends string | null>(value: S): S {
    if (value === null) return value;
    const hit = this.strings.get(value);
    if (hit !== undefined) return hit as S;
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: a bound on sharing; a reset only costs sharing
    if (this.strings.size >= MAX_POOLED) this.strings = new Map();
    this.strings.set(value, value);
    return value;
  }

  /** The pooled settings equal to the device's; `likely` (the same device's last settings) is tried first. */
  settingsOf(d: DeviceSettings, likely: DeviceSettings | null): DeviceSettings {
    if (likely !== null && sameSettings(likely, d)) return likely;
    // JSON text, not a join: ["a,b"] and ["a", "b"] must not meet.
    const key = JSON.stringify([
      d.allowed_ips,
      d.dns,
      d.endpoint,
      d.mtu,
      d.persistent_keepalive,
      d.use_default_allowed_ips,
      d.use_default_dns,
      d.use_default_endpoint,
      d.use_default_mtu,
      d.use_default_persistent_keepalive,
      d.server_public_key,
    ]);
    let hit = this.settings.get(key);
    if (hit === undefined) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: a bound on sharing; a reset only costs sharing
      if (this.settings.size >= MAX_POOLED) this.settings = new Map();
      const list = (l: readonly string[] | null) => (l === null ? null : Object.freeze(l.map((s) => this.string(s))));
      hit = Object.freeze({
        allowed_ips: list(d.allowed_ips),
        dns: list(d.dns),
        endpoint: this.string(d.endpoint),
        mtu: d.mtu,
        persistent_keepalive: d.persistent_keepalive,
        use_default_allowed_ips: d.use_default_allowed_ips,
        use_default_dns: d.use_default_dns,
        use_default_endpoint: d.use_default_endpoint,
        use_default_mtu: d.use_default_mtu,
        use_default_persistent_keepalive: d.use_default_persistent_keepalive,
        server_public_key: this.string(d.server_public_key),
      });
      this.settings.set(key, hit);
    }
    return hit;
  }
}

// ---- the table ---------------------------------------------------------------------------------

/** What a poll may change on a device without anything else changing: its stats (0.7.36 writes them together). */
/** The five stats values of an item read without a parse (device-decoder.ts); a time as text, or packed (microseconds) when read from 0.7.36's form. */
export interface DeviceStats {
  latest_handshake: string | number | null;
  remote_ip: string | null;
  rx_bytes: number | null;
  tx_bytes: number | null;
  updated_at: string | number;
}

/** An item's digests (device-decoder.ts): of all its bytes, and of them without its stats values (`plain` when that one was made). */
export interface ItemDigest {
  a: number;
  b: number;
  sa: number;
  sb: number;
  plain: boolean;
}

const NONE = NaN;

/** One poll's devices, column by column, in the order the server listed them. Never changed once built (but for `itemLengths`, set once by the decoder that built it). */
export class DeviceColumns {
  private index: Map<string, number> | null = null;
  /**
   * The length of each item of the body this table was decoded from, by place in the body (set
   * by the decoder, device-decoder.ts): where the next decode looks for each item's end first.
   * Null for a table made otherwise.
   */
  itemLengths: Int32Array | null = null;

  /** @internal — made by DeviceColumnsBuilder. */
  constructor(
    readonly length: number,
    readonly id: readonly string[],
    readonly userId: readonly string[],
    readonly name: readonly string[],
    readonly description: readonly (string | null)[],
    readonly publicKey: readonly string[],
    readonly presharedKey: readonly (string | null)[],
    readonly ipv4: readonly (string | null)[],
    readonly ipv6: readonly (string | null)[],
    readonly remoteIp: readonly (string | null)[],
    readonly settings: readonly DeviceSettings[],
    /** Bytes; NaN for null. */
    readonly rxBytes: readonly number[],
    readonly txBytes: readonly number[],
    readonly latestHandshake: TimeColumn,
    readonly insertedAt: TimeColumn,
    readonly updatedAt: TimeColumn,
    /**
     * Four 32-bit lanes per slot: the digest of the item's bytes (two lanes), then that of its
     * bytes without the values of its stats fields (device-decoder.ts, "stats only").
     */
    readonly digest: Int32Array,
    /** Per slot: 0 no digest (parsed whole or salvaged), 1 the item's digest, 3 both digests (a plain item: the schema's keys only). */
    readonly hashed: Uint8Array,
  ) {}

  /** Slot i's item had exactly the bytes of slot j of `other` (both digested, digests equal). */
  sameBytes(i: number, other: DeviceColumns, j: number): boolean {
    const d = this.digest;
    const e = other.digest;
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,ArithmeticOperator: only sameSlot's shortcut (device-rows.ts): without it the fields are compared
    return this.hashed[i]! !== 0 && other.hashed[j]! !== 0 && d[4 * i] === e[4 * j] && d[4 * i + 1] === e[4 * j + 1];
  }

  // Stryker disable ArrayDeclaration,ObjectLiteral: EMPTY has no slots; nothing reads its columns
  static readonly EMPTY = new DeviceColumns(
    0,
    [],
    [],
    [],
    [],
    [],
    [],
    [],
    [],
    [],
    [],
    numberColumn(0),
    numberColumn(0),
    {us: numberColumn(0), text: new Map()},
    {us: numberColumn(0), text: new Map()},
    {us: numberColumn(0), text: new Map()},
    new Int32Array(0),
    new Uint8Array(0),
  );
  // Stryker restore ArrayDeclaration,ObjectLiteral

  /** Devices already decoded (a test's, or a body parsed whole), in a table without digests. */
  static from(devices: readonly Device[], pools = new DevicePools()): DeviceColumns {
    const b = new DeviceColumnsBuilder(pools, devices.length);
    for (const d of devices) b.add(d, null);
    return b.finish();
  }

  /** The first slot holding `id` (the server may repeat one), or -1. Built on first use. */
  slotOf(id: string): number {
    if (this.index === null) {
      const index = new Map<string, number>();
      for (let i = this.length - 1; i >= 0; i--) index.set(this.id[i]!, i);
      this.index = index;
    }
    return this.index.get(id) ?? -1;
  }

  rx(i: number): number | null {
    const v = this.rxBytes[i]!;
    return v === v ? v : null;
  }

  tx(i: number): number | null {
    const v = this.txBytes[i]!;
    return v === v ? v : null;
  }

  /** The device in slot `i`, as a full parse of its item gives it (the schema's keys, in its order). */
  materialise(i: number): Device {
    const s = this.settings[i]!;
    return {
      id: this.id[i]!,
      user_id: this.userId[i]!,
      name: this.name[i]!,
      description: this.description[i]!,
      public_key: this.publicKey[i]!,
      preshared_key: this.presharedKey[i]!,
      server_public_key: s.server_public_key,
      ipv4: this.ipv4[i]!,
      ipv6: this.ipv6[i]!,
      allowed_ips: s.allowed_ips === null ? null : [...s.allowed_ips],
      dns: s.dns === null ? null : [...s.dns],
      endpoint: s.endpoint,
      mtu: s.mtu,
      persistent_keepalive: s.persistent_keepalive,
      use_default_allowed_ips: s.use_default_allowed_ips,
      use_default_dns: s.use_default_dns,
      use_default_endpoint: s.use_default_endpoint,
      use_default_mtu: s.use_default_mtu,
      use_default_persistent_keepalive: s.use_default_persistent_keepalive,
      latest_handshake: timeText(this.latestHandshake, i),
      remote_ip: this.remoteIp[i]!,
      rx_bytes: this.rx(i),
      tx_bytes: this.tx(i),
      inserted_at: timeText(this.insertedAt, i)!,
      updated_at: timeText(this.updatedAt, i)!,
    };
  }

  /** Every device, materialised (an export, or a caller that wants the plain list). */
  materialiseAll(): Device[] {
    const out = new Array<Device>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.materialise(i);
    return out;
  }
}

/** Whether parsed device `d` has, in every column a builder shares, the values of slot `j` of `base`. */
function sameStatic(d: Device, base: DeviceColumns, j: number): boolean {
  return (
    d.id === base.id[j] &&
    d.user_id === base.userId[j] &&
    d.name === base.name[j] &&
    d.description === base.description[j] &&
    d.public_key === base.publicKey[j] &&
    d.preshared_key === base.presharedKey[j] &&
    d.ipv4 === base.ipv4[j] &&
    d.ipv6 === base.ipv6[j] &&
    sameSettings(base.settings[j]!, d)
  );
}

/** Builds a table slot by slot: `add` a parsed device, or `copy` an unchanged one from the last table. */
export class DeviceColumnsBuilder {
  length = 0;
  private id: string[] = [];
  private userId: string[] = [];
  private name: string[] = [];
  private description: (string | null)[] = [];
  private publicKey: string[] = [];
  private presharedKey: (string | null)[] = [];
  private ipv4: (string | null)[] = [];
  private ipv6: (string | null)[] = [];
  private readonly remoteIp: (string | null)[] = [];
  private settings: DeviceSettings[] = [];
  /**
   * While every slot so far is slot i of `base` (copied, or with new stats), the columns stats
   * never change are `base`'s own arrays, not copies: a poll where no device was added, removed,
   * moved or edited makes none of them (nine arrays of 50k pointers at 50k devices).
   */
  private sharing: DeviceColumns | null;
  /**
   * While every slot so far is slot i of `base` copied unchanged, nothing is written at all: a
   * poll where no device changed gives `base` itself (finish), which everything after the decoder
   * recognises by identity and does not derive again. The first other slot writes the ones before
   * it (`writeUnchanged`).
   */
  private unchanged: DeviceColumns | null;
  /**
   * The columns every table has its own of. They grow by themselves, like the time columns (slots
   * are written in order), and are made only once a slot is written (see `unchanged`): five
   * columns of doubles as long as the list, made for a poll that changed nothing, cost time for
   * nothing.
   */
  private rxBytes!: NumberColumn;
  private txBytes!: NumberColumn;
  private handshake!: TimeBuilder;
  private inserted!: TimeBuilder;
  private updated!: TimeBuilder;
  private digest!: Int32Array;
  private hashed!: Uint8Array;
  private capacity: number;

  constructor(
    private readonly pools: DevicePools,
    capacity = 1024,
    base: DeviceColumns | null = null,
  ) {
    this.sharing = base;
    this.unchanged = base;
    // Slots stay unchanged only while they are `base`'s, so never more than its length.
    this.capacity = Math.max(16, capacity, base?.length ?? 0);
    if (base === null) this.makeOwn();
  }

  private makeOwn(): void {
    this.rxBytes = numberColumn(this.capacity);
    this.txBytes = numberColumn(this.capacity);
    this.handshake = new TimeBuilder(this.capacity);
    this.inserted = new TimeBuilder(this.capacity);
    this.updated = new TimeBuilder(this.capacity);
    this.digest = new Int32Array(this.capacity * 4);
    this.hashed = new Uint8Array(this.capacity);
  }

  private slot(): number {
    const i = this.length++;
    if (i >= this.capacity) {
      this.capacity *= 2;
      const grow = <A extends Int32Array | Uint8Array>(a: A, size: number): A => {
        const b = new (a.constructor as new (n: number) => A)(size);
        b.set(a);
        return b;
      };
      this.digest = grow(this.digest, this.capacity * 4);
      this.hashed = grow(this.hashed, this.capacity);
    }
    return i;
  }

  /** From here on the columns are this table's own: those shared so far become copies of their first slots. */
  private unshare(): void {
    const base = this.sharing;
    if (base === null) return;
    this.sharing = null;
    const n = this.length;
    this.id = base.id.slice(0, n);
    this.userId = base.userId.slice(0, n);
    this.name = base.name.slice(0, n);
    this.description = base.description.slice(0, n);
    this.publicKey = base.publicKey.slice(0, n);
    this.presharedKey = base.presharedKey.slice(0, n);
    this.ipv4 = base.ipv4.slice(0, n);
    this.ipv6 = base.ipv6.slice(0, n);
    this.settings = base.settings.slice(0, n);
  }

  /**
   * A parsed (and validated) device. `digest` holds its bytes' digests (ItemDigest), or is null
   * when it has none; `likely` is the same device's last slot, whose interned values are tried first.
   */
  add(d: Device, digest: ItemDigest | null, likely?: {from: DeviceColumns; slot: number}): void {
    this.writeUnchanged();
    const base = this.sharing;
    let i: number;
    if (base !== null && likely !== undefined && likely.from === base && likely.slot === this.length && sameStatic(d, base, likely.slot)) {
      // The same device in the same place, with the same values but for its stats and times (a
      // device's first stats change is parsed, before it has a digest without its stats): the
      // columns stay shared, as for a copy, and only the stats and times are written below.
      i = this.slot();
    } else {
      this.unshare();
      i = this.slot();
      const pools = this.pools;
      this.id.push(d.id);
      this.userId.push(pools.string(d.user_id));
      this.name.push(pools.string(d.name));
      this.description.push(pools.string(d.description));
      this.publicKey.push(d.public_key);
      this.presharedKey.push(d.preshared_key);
      this.ipv4.push(d.ipv4);
      this.ipv6.push(d.ipv6);
      // The same device's last settings, else the last device's (a server's devices mostly share them).
      this.settings.push(pools.settingsOf(d, likely ? likely.from.settings[likely.slot]! : (this.settings[i - 1] ?? null)));
    }
    this.remoteIp.push(d.remote_ip);
    this.rxBytes[i] = d.rx_bytes ?? NONE;
    this.txBytes[i] = d.tx_bytes ?? NONE;
    this.handshake.set(i, d.latest_handshake);
    this.inserted.set(i, d.inserted_at);
    this.updated.set(i, d.updated_at);
    if (digest !== null) this.setDigest(i, digest);
  }

  private setDigest(i: number, digest: ItemDigest): void {
    this.digest[4 * i] = digest.a;
    this.digest[4 * i + 1] = digest.b;
    this.digest[4 * i + 2] = digest.sa;
    this.digest[4 * i + 3] = digest.sb;
    this.hashed[i] = digest.plain ? 3 : 1;
  }

  /** Slot `j` of `from`, unchanged (its digests included). */
  copy(from: DeviceColumns, j: number): void {
    if (this.unchanged !== null) {
      if (from === this.unchanged && j === this.length) {
        this.slot();
        return;
      }
      this.writeUnchanged();
    }
    if (this.sharing !== null && (from !== this.sharing || j !== this.length)) this.unshare();
    const i = this.slot();
    if (this.sharing === null) {
      this.id.push(from.id[j]!);
      this.userId.push(from.userId[j]!);
      this.name.push(from.name[j]!);
      this.description.push(from.description[j]!);
      this.publicKey.push(from.publicKey[j]!);
      this.presharedKey.push(from.presharedKey[j]!);
      this.ipv4.push(from.ipv4[j]!);
      this.ipv6.push(from.ipv6[j]!);
      this.settings.push(from.settings[j]!);
    }
    this.copyOwn(i, from, j);
  }

  /** The columns every table has its own of (stats, times, digests), slot `j` of `from` into slot `i`. */
  private copyOwn(i: number, from: DeviceColumns, j: number): void {
    this.remoteIp.push(from.remoteIp[j]!);
    this.rxBytes[i] = from.rxBytes[j]!;
    this.txBytes[i] = from.txBytes[j]!;
    this.handshake.copy(i, from.latestHandshake, j);
    this.inserted.copy(i, from.insertedAt, j);
    this.updated.copy(i, from.updatedAt, j);
    for (let k = 0; k < 4; k++) this.digest[4 * i + k] = from.digest[4 * j + k]!;
    this.hashed[i] = from.hashed[j]!;
  }

  /** Writes the slots passed over while every one was unchanged (see `unchanged`); from here on every slot is written. */
  private writeUnchanged(): void {
    const base = this.unchanged;
    if (base === null) return;
    this.unchanged = null;
    this.makeOwn();
    // The static columns are still `base`'s own (`sharing`): only the table's own are written.
    for (let i = 0; i < this.length; i++) this.copyOwn(i, base, i);
  }

  /** Slot `j` of `from` with new values of its stats fields (an item whose other bytes did not change). */
  copyWithStats(from: DeviceColumns, j: number, stats: DeviceStats, digest: ItemDigest): void {
    this.writeUnchanged();
    this.copy(from, j);
    const i = this.length - 1;
    this.remoteIp[i] = stats.remote_ip;
    this.rxBytes[i] = stats.rx_bytes ?? NONE;
    this.txBytes[i] = stats.tx_bytes ?? NONE;
    this.handshake.text.delete(i);
    this.handshake.set(i, stats.latest_handshake);
    this.updated.text.delete(i);
    this.updated.set(i, stats.updated_at);
    this.setDigest(i, digest);
  }

  finish(): DeviceColumns {
    const n = this.length;
    // Every device unchanged, in its place, and none gone: the last table is this one.
    if (this.unchanged !== null && n === this.unchanged.length) return this.unchanged;
    this.writeUnchanged();
    // Still shared: the same devices in the same places (or the last ones gone).
    if (this.sharing !== null && n < this.sharing.length) this.unshare();
    const base = this.sharing;
    return new DeviceColumns(
      n,
      base?.id ?? this.id,
      base?.userId ?? this.userId,
      base?.name ?? this.name,
      base?.description ?? this.description,
      base?.publicKey ?? this.publicKey,
      base?.presharedKey ?? this.presharedKey,
      base?.ipv4 ?? this.ipv4,
      base?.ipv6 ?? this.ipv6,
      this.remoteIp,
      base?.settings ?? this.settings,
      cutColumn(this.rxBytes, n),
      cutColumn(this.txBytes, n),
      this.handshake.finish(n),
      this.inserted.finish(n),
      this.updated.finish(n),
      fitted(this.digest, 4 * n),
      fitted(this.hashed, n),
    );
  }
}
