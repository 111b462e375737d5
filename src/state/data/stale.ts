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
 * Oldest first: by last handshake, a device that never connected by its creation time (so one
 * created long ago and never used comes before one created today). Equal times keep the list's order.
 */
export function staleDevices(snapshot: Pick<Snapshot, 'devices'>, now: number, days: number = DEFAULT_STALE_DAYS): StaleDevice[] {
  const cutoff = now - days * DAY_MS;
  const out: StaleDevice[] = [];
  for (const row of snapshot.devices) {
    if (row.handshakeAt === null) {
      // Never connected, but created within the stale period: new, not stale (a device made a few
      // minutes ago has had no chance to connect yet).
      if (row.createdAt >= cutoff) continue;
      out.push({row, ownerEmail: row.ownerEmail, reason: 'never', since: row.createdAt, age: `never connected · created ${formatAge(row.createdAt, now)} ago`});
    } else if (row.handshakeAt < cutoff) {
      out.push({row, ownerEmail: row.ownerEmail, reason: 'idle', since: row.handshakeAt, age: `last handshake ${formatAge(row.handshakeAt, now)} ago`});
    }
  }
  return out.sort((a, b) => a.since - b.since);
}
