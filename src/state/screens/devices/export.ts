// `x` and `X` on Devices: a device's record in the file, the server's fields with the owner's email;
// the preshared key only when asked (`X`).
import type {Device} from '../../../api/index.js';
import type {DeviceRow} from '../../data/snapshot.js';
import type {ExportRecord, ScreenExport} from '../display.js';

/** Device fields that are secrets: left out unless the admin asks for them. */
export const DEVICE_SECRET_FIELDS: ReadonlySet<string> = new Set(['preshared_key']);

const DEVICE_FIELDS: readonly (keyof Device)[] = [
  'id',
  'name',
  'description',
  'user_id',
  'public_key',
  'preshared_key',
  'ipv4',
  'ipv6',
  'remote_ip',
  'latest_handshake',
  'rx_bytes',
  'tx_bytes',
  'allowed_ips',
  'dns',
  'endpoint',
  'mtu',
  'persistent_keepalive',
  'use_default_allowed_ips',
  'use_default_dns',
  'use_default_endpoint',
  'use_default_mtu',
  'use_default_persistent_keepalive',
  'server_public_key',
  'inserted_at',
  'updated_at',
];

export const DEVICE_EXPORT: ScreenExport<DeviceRow> = {
  records: (rows, _snapshot, secrets) =>
    rows.map((row) => {
      const record: ExportRecord = {};
      // One device materialised at a time (the rows hold columns, not Device objects).
      const device = row.toDevice();
      for (const field of DEVICE_FIELDS) {
        if (!secrets && DEVICE_SECRET_FIELDS.has(field)) continue;
        record[field] = device[field];
        if (field === 'user_id') record.owner_email = row.ownerEmail;
      }
      return record;
    }),
  secrets: {what: 'preshared keys', risk: 'The file will hold secrets that let anyone with it pose as these devices.'},
};
