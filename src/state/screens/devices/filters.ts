// What the Devices list's `/` filter knows besides text (grammar: src/state/lists/filter-query.ts).
// Rows are read through what the snapshot derived once per changed device (lowercased name and
// owner, parsed times): a keystroke at 50k devices reads fields, it does not parse.
import {currentTotalRate, deviceState, type DeviceRow} from '../../data/snapshot.js';
import {DEFAULT_STALE_DAYS, isStale} from '../../data/stale.js';
import {addressField, ageField, enumField, flag, sizeField, textField, type AddressSource, type FilterFields} from '../../lists/filter-query.js';
import type {ListSettings} from '../display.js';

/** rx/s + tx/s now, or null when the device has no current rate (idle, or its sample is stale). */
export const totalRate = currentTotalRate;

// The sort keys the rows keep (snapshot.ts, newRow) are the addresses as `ip:` compares them.
const ADDRESSES: readonly AddressSource<DeviceRow>[] = [
  {text: (r) => r.ipv4, sortKey: (r) => r.ipv4Key},
  {text: (r) => r.ipv6, sortKey: (r) => r.ipv6Key},
  {text: (r) => r.remoteIp, sortKey: (r) => r.remoteKey},
];

// The fields depend on the settings alone, and a poll asks for them (src/state/lists/screen-lists.ts
// keeps them per snapshot, as other screens' read the snapshot): the last ones made are kept.
let made: {days: number; fields: FilterFields<DeviceRow>} | null = null;

export function deviceFilters(settings: ListSettings = {}): FilterFields<DeviceRow> {
  const days = settings.staleDays ?? DEFAULT_STALE_DAYS;
  if (made?.days !== days) made = {days, fields: fieldsFor(days)};
  return made.fields;
}

function fieldsFor(days: number): FilterFields<DeviceRow> {
  return {
    noun: 'devices',
    fields: [
      enumField('state', ['online', 'idle', 'never'], (r, now) => deviceState(r, now)),
      textField('owner', 'owner:ann@example.com', (r) => r.ownerKey, true),
      textField('name', 'name:laptop', (r) => r.nameKey, true),
      addressField('ip', 'ip:10.3.0.0/16', ADDRESSES),
      textField('key', 'key:kQvb', (r) => r.publicKey),
      // No counters (never connected: 0.7.36 writes them with the first stats) is 0 bytes, as
      // the cell shows it (0.00 B, like 0.7.36's UI): `tx<1MiB` finds those devices too.
      sizeField('rx', 'rx>1GiB', (r) => r.rxBytes ?? 0),
      sizeField('tx', 'tx>500MB', (r) => r.txBytes ?? 0),
      sizeField('rate', 'rate>1MB/s', totalRate, true),
      ageField('handshake', 'handshake>30d', (r) => r.handshakeAt),
      ageField('created', 'created<7d', (r) => r.createdAt),
    ],
    flags: [flag('stale', (r, now) => isStale(r, now, days))],
  };
}
