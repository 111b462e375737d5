// Exporting a list (as filtered and sorted on screen) to CSV or JSON: the server's fields plus
// what the console derives (owner email, counts), never a secret unless the admin asked for it.
import type {Device, Rule, User} from '../../api/index.js';
import type {ActivityEvent} from '../tracking/events.js';
import type {ListScreenId} from '../core/state.js';
import type {DeviceRow, Snapshot, UserRow} from '../data/snapshot.js';

export type ExportFormat = 'csv' | 'json';

/** Device fields that are secrets: left out unless the admin ticks "include secrets". */
export const DEVICE_SECRET_FIELDS: ReadonlySet<string> = new Set(['preshared_key']);

type Record_ = Record<string, string | number | boolean | null | readonly string[]>;

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
const USER_FIELDS: readonly (keyof User)[] = ['id', 'email', 'role', 'disabled_at', 'last_signed_in_at', 'last_signed_in_method', 'inserted_at', 'updated_at'];
const RULE_FIELDS: readonly (keyof Rule)[] = ['id', 'action', 'destination', 'port_type', 'port_range', 'user_id', 'inserted_at', 'updated_at'];

/** The records of the rows shown, in their order. */
export function exportRecords(screen: ListScreenId, rows: readonly unknown[], snapshot: Snapshot, includeSecrets: boolean): Record_[] {
  switch (screen) {
    case 'devices':
      return (rows as DeviceRow[]).map((row) => {
        const record: Record_ = {};
        // One device materialised at a time (the rows hold columns, not Device objects).
        const device = row.toDevice();
        for (const field of DEVICE_FIELDS) {
          if (!includeSecrets && DEVICE_SECRET_FIELDS.has(field)) continue;
          record[field] = device[field];
          if (field === 'user_id') record.owner_email = row.ownerEmail;
        }
        return record;
      });
    case 'users':
      return (rows as UserRow[]).map((row) => {
        const record: Record_ = {};
        for (const field of USER_FIELDS) record[field] = row.user[field];
        record.devices = row.devices;
        record.rules = row.rules;
        return record;
      });
    case 'rules':
      return (rows as Rule[]).map((rule) => {
        const record: Record_ = {};
        for (const field of RULE_FIELDS) {
          record[field] = rule[field];
          if (field === 'user_id') record.user_email = rule.user_id === null ? null : (snapshot.usersById.get(rule.user_id)?.email ?? null);
        }
        return record;
      });
    case 'activity':
      return (rows as ActivityEvent[]).map((e) => ({
        seen_at: new Date(e.at).toISOString(),
        kind: e.kind,
        object_type: e.object.type,
        object_id: e.object.id,
        object: e.object.label,
        owner: e.owner,
        text: e.text,
        changes: e.detail,
        by: e.by,
      }));
  }
}

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab / carriage return before one) as a
 * formula: a device named `=HYPERLINK(…)` must not become one. Such cells get a leading `'`, the
 * usual neutraliser, which spreadsheets hide.
 */
function neutralise(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function csvCell(value: Record_[string]): string {
  if (value === null) return '';
  const text = Array.isArray(value) ? value.join(';') : typeof value === 'string' ? neutralise(value) : String(value);
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180: a header row, CRLF line ends, quoted fields where needed. */
export function toCsv(records: readonly Record_[]): string {
  if (records.length === 0) return '';
  const header = Object.keys(records[0]!);
  const lines = [header.join(',')];
  for (const r of records) lines.push(header.map((h) => csvCell(r[h] ?? null)).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export function toJson(records: readonly Record_[]): string {
  return `${JSON.stringify(records, null, 2)}\n`;
}

export function serialise(records: readonly Record_[], format: ExportFormat): string {
  return format === 'csv' ? toCsv(records) : toJson(records);
}

/** `.json` means JSON; anything else CSV. */
export function formatForPath(path: string): ExportFormat {
  return /\.json$/i.test(path.trim()) ? 'json' : 'csv';
}

export function defaultExportName(screen: ListScreenId, now: number): string {
  const day = new Date(now).toISOString().slice(0, 10);
  return `./firezone-${screen}-${day}.csv`;
}
