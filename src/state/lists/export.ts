// Exporting a list (as filtered and sorted on screen) to CSV or JSON: the records are each screen's
// (`export` in its spec: the server's fields plus what the console derives, never a secret unless
// the admin asked for it); here, the files they make.
import type {ListScreenId} from '../core/state.js';
import type {ExportRecord} from '../screens/display.js';

export type ExportFormat = 'csv' | 'json';

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab / carriage return before one) as a
 * formula: a device named `=HYPERLINK(…)` must not become one. Such cells get a leading `'`, the
 * usual neutraliser, which spreadsheets hide.
 */
function neutralise(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function csvCell(value: ExportRecord[string]): string {
  if (value === null) return '';
  const text = Array.isArray(value) ? value.join(';') : typeof value === 'string' ? neutralise(value) : String(value);
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180: a header row, CRLF line ends, quoted fields where needed. */
export function toCsv(records: readonly ExportRecord[]): string {
  if (records.length === 0) return '';
  const header = Object.keys(records[0]!);
  const lines = [header.join(',')];
  for (const r of records) lines.push(header.map((h) => csvCell(r[h] ?? null)).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export function toJson(records: readonly ExportRecord[]): string {
  return `${JSON.stringify(records, null, 2)}\n`;
}

export function serialise(records: readonly ExportRecord[], format: ExportFormat): string {
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
