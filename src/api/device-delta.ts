// A poll's device table told across a thread boundary as its difference from the last one told
// (docs/performance-poll.md, "The poll on a worker thread"). The decoding thread keeps the table it
// told last; the console's thread keeps its copy of it, and rebuilds the next from:
//
// - per slot, the slot of the last table whose unchanging values (id, owner, name, description,
//   keys, addresses, client settings) it keeps, or -1 for a slot told whole; or nothing at all when
//   every slot keeps its own (no device added, removed, moved or edited: most polls);
// - the slots told whole, their values in pieces of TOLD_PER_PIECE slots, each its own message:
//   strings are what a handover costs (~450k of them at 50k devices, over 100 ms to receive at
//   once), and a piece is received in a few ms, with keys handled between two;
// - the columns every poll makes anew (bytes, times, digests) as typed arrays, copied whole (a few
//   MB at 50k, a memcpy); of the remote addresses only those that differ from the slot kept.
//
// `applyDelta(mine, encodeDelta(told, next))` is a table equal to `next` slot by slot whenever
// `mine` is equal to `told` (test/api/device-delta.test.ts holds the two to each other).
import {DeviceColumns, sameSettings, type DevicePools, type DeviceSettings, type TimeColumn} from './device-columns.js';
import {numberColumn, type NumberColumn} from '../common/number-column.js';

/** Slots told whole per message. */
export const TOLD_PER_PIECE = 4096;

/** The unchanging values of the slots told whole, in slot order. */
export interface ToldSlots {
  id: string[];
  userId: string[];
  name: string[];
  description: (string | null)[];
  publicKey: string[];
  presharedKey: (string | null)[];
  ipv4: (string | null)[];
  ipv6: (string | null)[];
  settings: DeviceSettings[];
}

export interface DeltaHead {
  length: number;
  /** Per slot, the slot of the last table it keeps, or -1 when told whole; null: every slot keeps its own. */
  from: Int32Array | null;
  /** How many slots are told whole (in `pieces` messages after this one). */
  told: number;
  pieces: number;
  rx: Float64Array;
  tx: Float64Array;
  /** The three time columns (handshake, inserted, updated), microseconds or NaN. */
  times: [Float64Array, Float64Array, Float64Array];
  /** Times not in 0.7.36's form, as text: column (0–2), slot, text. */
  timeTexts: Array<[number, number, string]>;
  digest: Int32Array;
  hashed: Uint8Array;
  /** Slots whose remote address differs from the slot they keep (every slot told whole among them). */
  remoteSlots: Int32Array;
  remoteValues: (string | null)[];
}

export interface Delta {
  head: DeltaHead;
  pieces: ToldSlots[];
}

function sameUnchanging(a: DeviceColumns, i: number, b: DeviceColumns, j: number): boolean {
  return (
    a.id[i] === b.id[j] &&
    a.userId[i] === b.userId[j] &&
    a.name[i] === b.name[j] &&
    a.description[i] === b.description[j] &&
    a.publicKey[i] === b.publicKey[j] &&
    a.presharedKey[i] === b.presharedKey[j] &&
    a.ipv4[i] === b.ipv4[j] &&
    a.ipv6[i] === b.ipv6[j] &&
    (a.settings[i] === b.settings[j] || sameSettings(a.settings[i]!, b.settings[j]!))
  );
}

/** Whether `next` shares every unchanging column with `told` (the builder kept them: device-columns.ts, `sharing`). */
function sharesUnchanging(told: DeviceColumns, next: DeviceColumns): boolean {
  return (
    told.length === next.length &&
    told.id === next.id &&
    told.userId === next.userId &&
    told.name === next.name &&
    told.description === next.description &&
    told.publicKey === next.publicKey &&
    told.presharedKey === next.presharedKey &&
    told.ipv4 === next.ipv4 &&
    told.ipv6 === next.ipv6 &&
    told.settings === next.settings
  );
}

const emptyTold = (): ToldSlots => ({id: [], userId: [], name: [], description: [], publicKey: [], presharedKey: [], ipv4: [], ipv6: [], settings: []});

/** `next` as its difference from `told` (null: nothing told yet, every slot told whole). */
export function encodeDelta(told: DeviceColumns | null, next: DeviceColumns): Delta {
  const n = next.length;
  const shared = told !== null && sharesUnchanging(told, next);
  let from: Int32Array | null = null;
  const pieces: ToldSlots[] = [];
  let toldCount = 0;
  if (!shared) {
    from = new Int32Array(n);
    let piece: ToldSlots | null = null;
    for (let i = 0; i < n; i++) {
      const j = told === null ? -1 : told.slotOf(next.id[i]!);
      if (j >= 0 && sameUnchanging(next, i, told!, j)) {
        from[i] = j;
        continue;
      }
      from[i] = -1;
      if (piece === null || piece.id.length === TOLD_PER_PIECE) pieces.push((piece = emptyTold()));
      piece.id.push(next.id[i]!);
      piece.userId.push(next.userId[i]!);
      piece.name.push(next.name[i]!);
      piece.description.push(next.description[i]!);
      piece.publicKey.push(next.publicKey[i]!);
      piece.presharedKey.push(next.presharedKey[i]!);
      piece.ipv4.push(next.ipv4[i]!);
      piece.ipv6.push(next.ipv6[i]!);
      piece.settings.push(next.settings[i]!);
      toldCount++;
    }
  }
  const remoteSlots: number[] = [];
  const remoteValues: (string | null)[] = [];
  for (let i = 0; i < n; i++) {
    const j = from === null ? i : from[i]!;
    if (j < 0 || told!.remoteIp[j] !== next.remoteIp[i]) {
      remoteSlots.push(i);
      remoteValues.push(next.remoteIp[i]!);
    }
  }
  const timeTexts: Array<[number, number, string]> = [];
  [next.latestHandshake, next.insertedAt, next.updatedAt].forEach((column, c) => {
    for (const [slot, text] of column.text) timeTexts.push([c, slot, text]);
  });
  return {
    head: {
      length: n,
      from,
      told: toldCount,
      pieces: pieces.length,
      rx: Float64Array.from(next.rxBytes),
      tx: Float64Array.from(next.txBytes),
      times: [Float64Array.from(next.latestHandshake.us), Float64Array.from(next.insertedAt.us), Float64Array.from(next.updatedAt.us)],
      timeTexts,
      digest: next.digest.slice(0, 4 * n),
      hashed: next.hashed.slice(0, n),
      remoteSlots: Int32Array.from(remoteSlots),
      remoteValues,
    },
    pieces,
  };
}

/** A typed column as the plain array of doubles the tables hold (common/number-column.ts says why). */
function column(values: Float64Array): NumberColumn {
  const out = numberColumn(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[i]!;
  return out;
}

/**
 * The values of a piece told whole as the decoder would have kept them: the repeated ones interned
 * in `pools`. Done as each piece arrives, so that receiving a long table is many short tasks.
 */
export function internTold(piece: ToldSlots, pools: DevicePools): ToldSlots {
  const n = piece.id.length;
  let last: DeviceSettings | null = null;
  for (let k = 0; k < n; k++) {
    piece.userId[k] = pools.string(piece.userId[k]!);
    piece.name[k] = pools.string(piece.name[k]!);
    piece.description[k] = pools.string(piece.description[k]!);
    piece.settings[k] = last = pools.settingsOf(piece.settings[k]!, last);
  }
  return piece;
}

/** A delta that does not fit the table it is applied to: the two threads no longer agree. */
export class DeltaMismatch extends Error {}

/**
 * The table `delta` describes, from `mine` (equal to the table it was encoded against): the values
 * told whole from its pieces (interned: internTold), the rest `mine`'s own.
 */
export function applyDelta(mine: DeviceColumns, delta: Delta): DeviceColumns {
  const {head} = delta;
  const n = head.length;
  const told = delta.pieces.reduce((sum, p) => sum + p.id.length, 0);
  if (told !== head.told || delta.pieces.length !== head.pieces) throw new DeltaMismatch(`told ${told} of ${head.told} slots`);
  if (head.rx.length !== n || head.tx.length !== n || head.digest.length !== 4 * n || head.hashed.length !== n || head.times.some((t) => t.length !== n))
    throw new DeltaMismatch('columns of another length');
  let id = mine.id;
  let userId = mine.userId;
  let name = mine.name;
  let description = mine.description;
  let publicKey = mine.publicKey;
  let presharedKey = mine.presharedKey;
  let ipv4 = mine.ipv4;
  let ipv6 = mine.ipv6;
  let settings = mine.settings;
  const remoteIp: (string | null)[] = new Array<string | null>(n);
  const from = head.from;
  if (from === null) {
    if (mine.length !== n) throw new DeltaMismatch(`${n} slots kept of a table of ${mine.length}`);
    for (let i = 0; i < n; i++) remoteIp[i] = mine.remoteIp[i]!;
  } else {
    if (from.length !== n) throw new DeltaMismatch('a slot map of another length');
    const ids: string[] = new Array<string>(n);
    const users: string[] = new Array<string>(n);
    const names: string[] = new Array<string>(n);
    const descriptions: (string | null)[] = new Array<string | null>(n);
    const publicKeys: string[] = new Array<string>(n);
    const presharedKeys: (string | null)[] = new Array<string | null>(n);
    const v4: (string | null)[] = new Array<string | null>(n);
    const v6: (string | null)[] = new Array<string | null>(n);
    const set: DeviceSettings[] = new Array<DeviceSettings>(n);
    let p = 0;
    let k = 0;
    for (let i = 0; i < n; i++) {
      const j = from[i]!;
      if (j >= 0) {
        if (j >= mine.length) throw new DeltaMismatch(`slot ${j} kept of a table of ${mine.length}`);
        ids[i] = mine.id[j]!;
        users[i] = mine.userId[j]!;
        names[i] = mine.name[j]!;
        descriptions[i] = mine.description[j]!;
        publicKeys[i] = mine.publicKey[j]!;
        presharedKeys[i] = mine.presharedKey[j]!;
        v4[i] = mine.ipv4[j]!;
        v6[i] = mine.ipv6[j]!;
        set[i] = mine.settings[j]!;
        remoteIp[i] = mine.remoteIp[j]!;
        continue;
      }
      const piece = delta.pieces[p];
      if (piece === undefined) throw new DeltaMismatch('more slots told whole than sent');
      ids[i] = piece.id[k]!;
      users[i] = piece.userId[k]!;
      names[i] = piece.name[k]!;
      descriptions[i] = piece.description[k]!;
      publicKeys[i] = piece.publicKey[k]!;
      presharedKeys[i] = piece.presharedKey[k]!;
      v4[i] = piece.ipv4[k]!;
      v6[i] = piece.ipv6[k]!;
      set[i] = piece.settings[k]!;
      remoteIp[i] = null;
      if (++k === piece.id.length) {
        p++;
        k = 0;
      }
    }
    [id, userId, name, description, publicKey, presharedKey, ipv4, ipv6, settings] = [ids, users, names, descriptions, publicKeys, presharedKeys, v4, v6, set];
  }
  if (head.remoteSlots.length !== head.remoteValues.length) throw new DeltaMismatch('remote addresses without their slots');
  for (let r = 0; r < head.remoteSlots.length; r++) {
    const slot = head.remoteSlots[r]!;
    if (slot >= n) throw new DeltaMismatch(`a remote address for slot ${slot} of ${n}`);
    remoteIp[slot] = head.remoteValues[r]!;
  }
  const texts: Map<number, string>[] = [new Map(), new Map(), new Map()];
  for (const [c, slot, text] of head.timeTexts) texts[c]?.set(slot, text);
  const time = (c: 0 | 1 | 2): TimeColumn => ({us: column(head.times[c]), text: texts[c]!});
  return new DeviceColumns(
    n,
    id,
    userId,
    name,
    description,
    publicKey,
    presharedKey,
    ipv4,
    ipv6,
    remoteIp,
    settings,
    column(head.rx),
    column(head.tx),
    time(0),
    time(1),
    time(2),
    head.digest,
    head.hashed,
  );
}
