// Each user's devices as the Users list counts them (#47, "who moves the most traffic"): how many
// are online as of the poll, and how much they move together (rx/s + tx/s summed). Made once per
// snapshot, in one pass over the devices, and only when the Users list is drawn or filtered.
import type {DeviceRow, Snapshot} from '../../data/snapshot.js';
import {deviceState} from '../../data/snapshot.js';
import {totalRate} from '../devices/filters.js';

export interface UserTraffic {
  /** Their devices, in the poll's order. */
  readonly devices: DeviceRow[];
  /** How many had a handshake within 3 minutes at the poll (the Devices list's state). */
  online: number;
  /** rx/s + tx/s of their devices at the poll; null when none has a current rate. */
  rate: number | null;
}

const NONE: UserTraffic = Object.freeze({devices: [], online: 0, rate: null});
const made = new WeakMap<TrafficSource, ReadonlyMap<string, UserTraffic>>();

/** What the counts are made of: a snapshot (a filter's tests may give one without devices: no traffic). */
export type TrafficSource = Partial<Pick<Snapshot, 'devices' | 'fetchedAt'>>;

export function trafficByUser(s: TrafficSource): ReadonlyMap<string, UserTraffic> {
  let byUser = made.get(s);
  if (byUser) return byUser;
  const map = new Map<string, UserTraffic>();
  const now = s.fetchedAt ?? 0;
  for (const d of s.devices ?? []) {
    let t = map.get(d.userId);
    if (!t) map.set(d.userId, (t = {devices: [], online: 0, rate: null}));
    t.devices.push(d);
    if (deviceState(d, now) === 'online') t.online++;
    const rate = totalRate(d, now);
    if (rate !== null) t.rate = (t.rate ?? 0) + rate;
  }
  byUser = map;
  made.set(s, byUser);
  return byUser;
}

export function trafficOf(s: TrafficSource, userId: string): UserTraffic {
  return trafficByUser(s).get(userId) ?? NONE;
}

/** Their devices' rx/s + tx/s at `now` (the drawn cell: rates go stale by the clock, as on Devices). */
export function rateNow(t: UserTraffic, now: number): number | null {
  let sum: number | null = null;
  for (const d of t.devices) {
    const rate = totalRate(d, now);
    if (rate !== null) sum = (sum ?? 0) + rate;
  }
  return sum;
}
