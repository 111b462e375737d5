// `S` on Devices: the stale view, the Devices list's own view (src/state/data/stale.ts says which
// devices are stale; src/state/lists/own-view.ts turns a list's own view on and off).
import {DEFAULT_STALE_DAYS, staleDevices} from '../../data/stale.js';
import type {DeviceRow, Snapshot} from '../../data/snapshot.js';
import type {ListSettings, OwnView} from '../display.js';

const daysOf = (settings: ListSettings) => settings.staleDays ?? DEFAULT_STALE_DAYS;

// The rows, the same array for a snapshot and a minute of the clock (the list view is memoised by
// its items: a new array each frame would filter and sort them again).
let made: {snapshot: Snapshot; minute: number; days: number; rows: readonly DeviceRow[]} | null = null;

/** Only stale devices, oldest first; again: all devices with the sort as it was. */
export const STALE_VIEW: OwnView<DeviceRow> = {
  items: (snapshot, now, settings) => {
    const minute = Math.floor(now / 60_000);
    const days = daysOf(settings);
    if (made && made.snapshot === snapshot && made.minute === minute && made.days === days) return made.rows;
    const rows = staleDevices(snapshot, now, days).map((s) => s.row);
    made = {snapshot, minute, days, rows};
    return rows;
  },
  noun: (settings) => `stale devices (no handshake for ${daysOf(settings)} days, or never connected since; S shows all)`,
  entered: (settings) =>
    `Stale devices: no handshake for ${daysOf(settings)} days (--stale-days), or never connected and created before that; oldest first; S shows all`,
  left: 'All devices',
};
