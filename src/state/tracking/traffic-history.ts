// Traffic over the session (issue #14): per-device rx/s and tx/s for the detail view's sparklines,
// and the total throughput for the header. Bounded whatever the session length: each device has a
// fixed ring of samples, one per poll, in one shared byte slab.
//
// Memory: 50k devices × 120 samples × 2 directions × 1 byte = 12 MB, plus the id → slot map
// (about 3 MB at 50k). A byte per sample is enough for a sparkline of 8 levels: rates are stored
// on a log scale in steps of 2^(1/6) (about 12%), so any rate from 1 B/s to terabytes per second
// fits with the same relative precision; the exact current rate is on the row.
import {currentRate, type Snapshot} from '../data/snapshot.js';
import {runSliced, runWhole, type SlicedPass} from '../core/slices.js';

/**
 * The reading half of TrafficHistory.record(): each row's encoded rates and slot. It writes no
 * sample, so it can run in slices before record() writes what it found. A device seen moving
 * traffic for the first time has a slot reserved here (a reserved slot reads as no history until
 * a record() writes it, and one no record() takes is freed by the next): in the first polls at 50k
 * devices, giving thousands of devices their slots in record() itself was one long task.
 */
let recordPasses = 0;

class RecordPass implements SlicedPass {
  next = 0;
  readonly epoch: number;
  readonly ids: string[];
  /** The device's slot, or -1 for a device with no history that moves nothing. */
  readonly slots: Int32Array;
  readonly rx: Uint8Array;
  readonly tx: Uint8Array;
  sumRx = 0;
  sumTx = 0;
  known = false;
  /** Marks the slots this pass reserved. */
  readonly stamp = ++recordPasses;
  /** Ids given a slot that their place in the last poll did not say (see `places`). */
  readonly found = new Map<string, number>();

  constructor(
    private readonly history: TrafficHistory,
    readonly snapshot: Snapshot,
    readonly now: number,
  ) {
    const n = snapshot.devices.length;
    this.epoch = history.epoch;
    this.ids = new Array<string>(n);
    this.slots = new Int32Array(n);
    this.rx = new Uint8Array(n);
    this.tx = new Uint8Array(n);
  }

  run(end: number): void {
    const rows = this.snapshot.devices;
    const {ids, slots, now, history} = this;
    for (let i = this.next; i < end; i++) {
      const row = rows[i]!;
      const id = row.id;
      ids[i] = id;
      const rx = currentRate(row, 'rx', now);
      const tx = currentRate(row, 'tx', now);
      if (rx !== null) {
        this.sumRx += rx;
        this.known = true;
      }
      if (tx !== null) {
        this.sumTx += tx;
        this.known = true;
      }
      this.rx[i] = encodeRate(rx);
      this.tx[i] = encodeRate(tx);
      const atPlace = history.slotAtPlace(i, id);
      const slot = atPlace === UNKNOWN ? history.slotOfId(id) : atPlace;
      // Devices that never moved a byte get no history: at 50k most are idle. A slot reserved by
      // another pass and not recorded since is history only for a device that moves now; one
      // reserved by this pass is (an id listed twice: its later rows write there, as when reading
      // and writing were one loop).
      const moves = (rx !== null && rx > 0) || (tx !== null && tx > 0);
      const given =
        slot >= 0 && (moves || history.heldFor(slot, this.stamp)) ? history.claim(slot, this.stamp) : moves ? history.reserve(id, rows.length, this.stamp) : -1;
      slots[i] = given;
      if (given >= 0 && (atPlace === UNKNOWN || given !== atPlace)) this.found.set(id, given);
    }
    this.next = end;
  }

  /**
   * The slot of each place's device after this poll, for the next poll to read by place: `slots`,
   * except where an id listed twice has no slot at one place (a row that moves nothing) and one at
   * another. Every place must say the device's slot, or that it has none: slotAtPlace believes it,
   * and a place that said "none" for a device with history would drop it once that row is listed
   * alone.
   */
  places(): Int32Array {
    if (this.placesMade) return this.placesMade;
    const {found, ids, slots} = this;
    let out = slots;
    if (found.size > 0) {
      out = slots.slice();
      for (let i = 0; i < out.length; i++) if (out[i]! < 0) out[i] = found.get(ids[i]!) ?? -1;
    }
    return (this.placesMade = out);
  }

  private placesMade: Int32Array | null = null;
}

/** What slotAtPlace answers when the device was not at this place in the last poll. */
const UNKNOWN = -2;

/** Samples kept per device and direction: two minutes at one poll a second, two hours at one a minute. */
export const DEVICE_SAMPLES = 120;
/** Samples of the total throughput: an hour at one poll a second. */
export const TOTAL_SAMPLES = 3600;
/** How long the ↑/↓ of a traffic cell stays after the poll that moved it (like the row highlights of src/state/tracking/tracker.ts). */
export const TREND_FADE_MS = 5_000;

const STEPS_PER_OCTAVE = 6;
const NO_SAMPLE = 255;
const MAX_CODE = 254;

/** A rate in bytes per second as one byte (NO_SAMPLE for "unknown"). */
export function encodeRate(rate: number | null): number {
  if (rate === null || !(rate >= 0)) return NO_SAMPLE;
  return Math.min(MAX_CODE, Math.round(Math.log2(1 + rate) * STEPS_PER_OCTAVE));
}

export function decodeRate(code: number): number | null {
  return code === NO_SAMPLE ? null : 2 ** (code / STEPS_PER_OCTAVE) - 1;
}

/** A fixed-size ring of numbers (NaN = no sample), oldest overwritten. */
class NumberRing {
  private readonly values: Float64Array;
  private head = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    this.values = new Float64Array(capacity);
  }

  push(value: number | null): void {
    this.values[this.head] = value === null ? NaN : value;
    this.head = (this.head + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  get size(): number {
    return this.count;
  }

  /** The k-th value from the newest (0 = newest); NaN when there is none. */
  fromNewest(k: number): number {
    if (k < 0 || k >= this.count) return NaN;
    return this.values[(this.head - 1 - k + this.capacity * 2) % this.capacity]!;
  }

  /** Oldest first. */
  toArray(): (number | null)[] {
    const out = new Array<number | null>(this.count);
    const start = (this.head - this.count + this.capacity) % this.capacity;
    for (let k = 0; k < this.count; k++) {
      const v = this.values[(start + k) % this.capacity]!;
      out[k] = Number.isNaN(v) ? null : v;
    }
    return out;
  }

  get byteLength(): number {
    return this.values.byteLength;
  }
}

export interface TrafficHistoryOptions {
  samples?: number;
  totalSamples?: number;
}

export class TrafficHistory {
  readonly samples: number;
  /** rx then tx ring of each slot: slot s occupies [s * 2 * samples, (s + 1) * 2 * samples). */
  private slab: Uint8Array;
  private readonly slotOf = new Map<string, number>();
  private readonly free: number[] = [];
  private slotsUsed = 0;
  /** The record() that last saw each slot's device, to free the slots of deleted devices; 0 for a slot reserved and not recorded since. */
  private seenAt: Uint32Array;
  /** The RecordPass that reserved a slot not recorded since (its stamp). */
  private reservedBy: Uint32Array;
  /** Slots reserved since the last record(). */
  private reservations = 0;
  /** Polls recorded so far; the ring column of the next one is `records % samples`. */
  private records = 0;
  private lastRecordAt = 0;
  // The previous poll's device ids and slots by position: consecutive polls list devices in the
  // same order, so most rows find their slot without a map lookup.
  private lastIds: string[] = [];
  private lastSlots: Int32Array = new Int32Array(0);

  private readonly times: NumberRing;
  private readonly totalRx: NumberRing;
  private readonly totalTx: NumberRing;
  /** Changes on every record(): a cache key for renders. */
  version = 0;

  constructor(options: TrafficHistoryOptions = {}) {
    this.samples = options.samples ?? DEVICE_SAMPLES;
    const total = options.totalSamples ?? TOTAL_SAMPLES;
    this.slab = new Uint8Array(64 * 2 * this.samples);
    this.seenAt = new Uint32Array(64);
    this.reservedBy = new Uint32Array(64);
    this.times = new NumberRing(total);
    this.totalRx = new NumberRing(total);
    this.totalTx = new NumberRing(total);
  }

  /** Devices with a history (those that have had a non-zero rate while they existed). */
  get tracked(): number {
    return this.slotOf.size;
  }

  /** Bytes held by the buffers (not counting the map's keys, which the snapshot holds anyway). */
  get byteLength(): number {
    return (
      this.slab.byteLength +
      this.seenAt.byteLength +
      this.reservedBy.byteLength +
      this.lastSlots.byteLength +
      this.times.byteLength +
      this.totalRx.byteLength +
      this.totalTx.byteLength
    );
  }

  /**
   * @internal RecordPass: a slot for a device that moves traffic for the first time, its samples
   * unknown and not yet recorded. `devices`: how many the poll lists, which no slot count needs
   * to exceed (doubling past it would waste up to half the slab).
   */
  reserve(id: string, devices: number, pass: number): number {
    // An id the last poll listed twice can have a slot that its other place says nothing of (the
    // pass reads slots by position first): that slot, not a second one (which would leave the
    // first held for good, and the history split between them).
    const held = this.slotOf.get(id);
    if (held !== undefined) return this.claim(held, pass);
    let slot = this.free.pop();
    if (slot === undefined) {
      slot = this.slotsUsed++;
      const stride = 2 * this.samples;
      if ((slot + 1) * stride > this.slab.length) {
        const slots = Math.max(slot + 1, Math.min(this.seenAt.length * 2, Math.ceil(devices / 256) * 256));
        const grown = new Uint8Array(slots * stride);
        grown.set(this.slab);
        this.slab = grown;
        const seen = new Uint32Array(slots);
        seen.set(this.seenAt);
        this.seenAt = seen;
        const reserved = new Uint32Array(slots);
        reserved.set(this.reservedBy);
        this.reservedBy = reserved;
      }
    }
    const start = slot * 2 * this.samples;
    this.slab.fill(NO_SAMPLE, start, start + 2 * this.samples);
    this.seenAt[slot] = 0;
    this.reservedBy[slot] = pass;
    this.reservations++;
    this.slotOf.set(id, slot);
    return slot;
  }

  /** @internal RecordPass: whether the slot is history for pass `pass`: recorded, or reserved by it. */
  heldFor(slot: number, pass: number): boolean {
    return this.seenAt[slot] !== 0 || this.reservedBy[slot] === pass;
  }

  /** @internal RecordPass: the slot, now the reservation of pass `pass` if it was not recorded yet. */
  claim(slot: number, pass: number): number {
    if (this.seenAt[slot] === 0) this.reservedBy[slot] = pass;
    return slot;
  }

  /**
   * Reads a poll's rows for record() ahead, in slices (the refresh pipeline calls it while the poll is
   * in flight): at 50k devices that read is the costly part. Nothing changes until record().
   */
  async prepare(snapshot: Snapshot, now: number = snapshot.fetchedAt): Promise<void> {
    const pass = new RecordPass(this, snapshot, now);
    await runSliced(pass, snapshot.devices.length);
    pass.places();
    this.prepared = pass;
  }

  private prepared: RecordPass | null = null;

  /** @internal RecordPass: the slot of the device at place `i` of the last record(), -1 for none, UNKNOWN when another device was there (ask slotOfId). */
  slotAtPlace(i: number, id: string): number {
    if (this.lastIds[i] !== id) return UNKNOWN;
    // No slot at the last record is still none, unless one has been reserved since.
    const slot = this.lastSlots[i]!;
    return slot >= 0 || this.reservations === 0 ? slot : UNKNOWN;
  }

  /** @internal RecordPass: the device's slot, or -1. */
  slotOfId(id: string): number {
    return this.slotOf.get(id) ?? -1;
  }

  /** @internal RecordPass: whether a pass read the history as it still is. */
  get epoch(): number {
    return this.records;
  }

  /** Once per good poll, with the time the rates are read at (the poll's time). */
  record(snapshot: Snapshot, now: number = snapshot.fetchedAt): void {
    let pass = this.prepared;
    this.prepared = null;
    if (!pass || pass.snapshot !== snapshot || pass.now !== now || pass.epoch !== this.records) {
      pass = new RecordPass(this, snapshot, now);
      runWhole(pass, snapshot.devices.length);
    }
    const n = snapshot.devices.length;
    const column = this.records % this.samples;
    const epoch = ++this.records;
    const stride = this.samples;
    const {ids, slots, rx, tx} = pass;
    for (let i = 0; i < n; i++) {
      const slot = slots[i]!;
      if (slot < 0) continue;
      this.seenAt[slot] = epoch;
      const base = slot * 2 * stride;
      this.slab[base + column] = rx[i]!;
      this.slab[base + stride + column] = tx[i]!;
    }
    this.lastIds = ids;
    this.lastSlots = pass.places();
    // Free the slots of devices this poll does not list, and those reserved by passes that were
    // not recorded. (`live` counts an id listed twice twice: reservations are looked for anyway.)
    if (this.slotOf.size > 0) {
      let live = 0;
      for (let i = 0; i < n; i++) if (slots[i]! >= 0) live++;
      if (live < this.slotOf.size || this.reservations > 0) {
        for (const [id, slot] of this.slotOf) {
          if (this.seenAt[slot] !== epoch) {
            this.slotOf.delete(id);
            this.free.push(slot);
          }
        }
      }
    }
    this.reservations = 0;
    this.lastRecordAt = now;
    this.times.push(now);
    this.totalRx.push(pass.known ? pass.sumRx : null);
    this.totalTx.push(pass.known ? pass.sumTx : null);
    this.version++;
  }

  /** A device's rates, oldest first, one per poll since it was first seen moving traffic (at most `samples`); [] when it has no history. */
  series(id: string, which: 'rx' | 'tx'): (number | null)[] {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return [];
    const count = Math.min(this.records, this.samples);
    const base = slot * 2 * this.samples + (which === 'tx' ? this.samples : 0);
    const start = (this.records - count) % this.samples;
    const out = new Array<number | null>(count);
    for (let k = 0; k < count; k++) out[k] = decodeRate(this.slab[base + ((start + k) % this.samples)]!);
    // Polls before the device was first tracked read as gaps; trim them.
    let first = 0;
    while (first < count && out[first] === null) first++;
    return first === 0 ? out : out.slice(first);
  }

  /**
   * How a device's rate last moved, for the ↑/↓ of its RX/S and TX/S cells: 'up' or 'down' when it
   * changed by more than one step of the encoding (about 12%, which also keeps jitter from blinking
   * arrows), kept for `fadeMs` after the poll that showed the move. Polls in between that carry the
   * same stats sample (the server writes stats about once a minute, polls are more frequent) keep
   * the arrow up instead of blinking it off; null once the move is older than `fadeMs`.
   */
  trend(id: string, which: 'rx' | 'tx', now: number, fadeMs: number = TREND_FADE_MS): 'up' | 'down' | null {
    const slot = this.slotOf.get(id);
    if (slot === undefined || this.records < 2 || now - this.lastRecordAt >= fadeMs) return null;
    const base = slot * 2 * this.samples + (which === 'tx' ? this.samples : 0);
    const at = (k: number) => this.slab[base + ((this.records - 1 - k) % this.samples)]!;
    const last = at(0);
    if (last === NO_SAMPLE) return null;
    // Walk back over the polls within the fade window that repeat the last value.
    const limit = Math.min(this.records, this.samples, this.times.size);
    for (let k = 1; k < limit; k++) {
      // The poll that showed `last` first is k - 1 polls back; past the window, nothing to show.
      if (now - this.times.fromNewest(k - 1) >= fadeMs) return null;
      const before = at(k);
      if (before === NO_SAMPLE) return null;
      if (before !== last) return last > before ? 'up' : 'down';
    }
    return null;
  }

  /** The times of the polls `total()` covers, oldest first. */
  totalTimes(): number[] {
    return this.times.toArray() as number[];
  }

  /** Total throughput of all devices over the session (null while no device had a known rate), oldest first. */
  total(which: 'rx' | 'tx'): (number | null)[] {
    return (which === 'rx' ? this.totalRx : this.totalTx).toArray();
  }
}
