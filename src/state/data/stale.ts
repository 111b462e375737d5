// Stale devices (issue #14): devices that never connected, or whose last handshake is older than
// N days (--stale-days, default 30). Candidates for clean-up, so the oldest come first.
import {formatAge} from './format.js';
import type {DeviceRow, Snapshot} from './snapshot.js';

export const DEFAULT_STALE_DAYS = 30;
const DAY_MS = 86_400_000;

export interface StaleDevice {
  readonly row: DeviceRow;
  readonly ownerEmail: string;
  readonly reason: 'never' | 'idle';
  /** The last handshake, or for a device that never connected its creation time. */
  readonly since: number;
  /** `never connected · created 45d ago` or `last handshake 40d ago`. */
  readonly age: string;
}

/**
 * Whether a device is stale at `now`: never connected and created before the cutoff (a device
 * made a few minutes ago has had no chance to connect yet), or its last handshake before it.
 * The `S` view and the filter's `stale` word both ask this.
 */
export function isStale(row: Pick<DeviceRow, 'handshakeAt' | 'createdAt'>, now: number, days: number = DEFAULT_STALE_DAYS): boolean {
  const cutoff = now - days * DAY_MS;
  return row.handshakeAt === null ? row.createdAt < cutoff : row.handshakeAt < cutoff;
}

/**
 * Oldest first: by last handshake, a device that never connected by its creation time (so one
 * created long ago and never used comes before one created today). Equal times keep the list's order.
 */
export function staleDevices(snapshot: Pick<Snapshot, 'devices'>, now: number, days: number = DEFAULT_STALE_DAYS): StaleDevice[] {
  const out: StaleDevice[] = [];
  for (const row of snapshot.devices) {
    if (!isStale(row, now, days)) continue;
    if (row.handshakeAt === null) {
      out.push({row, ownerEmail: row.ownerEmail, reason: 'never', since: row.createdAt, age: `never connected · created ${formatAge(row.createdAt, now)} ago`});
    } else {
      out.push({row, ownerEmail: row.ownerEmail, reason: 'idle', since: row.handshakeAt, age: `last handshake ${formatAge(row.handshakeAt, now)} ago`});
    }
  }
  return out.sort((a, b) => a.since - b.since);
}
