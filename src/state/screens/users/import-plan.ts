// Onboarding from a file: a CSV or TSV of `email,role,devices` (devices `;`-separated), read into
// a plan that says, before anything is sent, what each row will do. Plain TypeScript; the run is
// in src/state/screens/users/import-run.ts. The format is documented in README.md, "Onboarding from a file".
import type {Snapshot} from '../../data/snapshot.js';
import {validateDeviceName, validateEmail} from '../../data/validators.js';

/** Larger files are refused before parsing: a team roster is kilobytes, not megabytes. */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 10_000;

export type ImportRole = 'admin' | 'unprivileged';

export interface ImportDevice {
  name: string;
  outcome: 'create' | 'exists' | 'invalid' | 'duplicate';
  reason: string | null;
}

export interface ImportRow {
  /** Line number in the file (1 = the header). */
  line: number;
  email: string;
  role: ImportRole | null;
  outcome: 'new' | 'existing' | 'invalid' | 'duplicate';
  /** Why a row is invalid or a duplicate, or what stays as it is for an existing user. */
  reason: string | null;
  /** The existing user's id. */
  userId: string | null;
  devices: ImportDevice[];
}

export interface ImportPlan {
  rows: ImportRow[];
  /** Problems with the file as a whole (no email column, too many rows …); nothing is applied with any. */
  fileErrors: string[];
  /** Notes that do not stop the import (unknown columns ignored). */
  notes: string[];
  counts: {newUsers: number; existingUsers: number; invalid: number; duplicates: number; devices: number};
}

export type ImportFormat = 'csv' | 'tsv';

/** TSV for `.tsv`/`.tab`, CSV for `.csv`; otherwise the header line decides (a tab means TSV). */
export function detectFormat(path: string, text: string): ImportFormat {
  if (/\.(tsv|tab)$/i.test(path)) return 'tsv';
  if (/\.csv$/i.test(path)) return 'csv';
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  return firstLine.includes('\t') ? 'tsv' : 'csv';
}

/**
 * RFC 4180 fields: quoted fields may hold the separator, doubled quotes and line breaks. Returns
 * the records with the line each starts on. A quote left open is an error, not a silent merge of
 * the rest of the file into one field.
 */
export function parseDelimited(text: string, format: ImportFormat): {records: Array<{line: number; fields: string[]}>; error: string | null} {
  const sep = format === 'tsv' ? '\t' : ',';
  const records: Array<{line: number; fields: string[]}> = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let fieldStarted = false;
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  const endRecord = () => {
    fields.push(field);
    // Blank lines are skipped, as spreadsheets write them at the end.
    if (!(fields.length === 1 && fields[0]!.trim() === '')) records.push({line: recordLine, fields});
    fields = [];
    field = '';
    fieldStarted = false;
  };
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (quoted) {
      if (ch === '"') {
        if (body[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
        }
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
      continue;
    }
    if (ch === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
    } else if (ch === sep) {
      fields.push(field);
      field = '';
      fieldStarted = false;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && body[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else {
      field += ch;
      fieldStarted = true;
    }
  }
  if (quoted) return {records, error: `line ${recordLine}: a quoted field is never closed`};
  if (field !== '' || fields.length > 0) endRecord();
  return {records, error: null};
}

const COLUMNS = ['email', 'role', 'devices'] as const;

/** The same rule as 0.7.36's role cast: exactly `admin` or `unprivileged`; empty means unprivileged. */
function parseRole(text: string): ImportRole | null | 'invalid' {
  const v = text.trim();
  if (v === '') return null;
  return v === 'admin' || v === 'unprivileged' ? v : 'invalid';
}

/**
 * What each row will do against the data on screen. Emails match case-insensitively (0.7.36's
 * `citext` column), device names exactly per owner. Running the same file again therefore
 * plans nothing new: its users exist and their devices are there.
 */
export function planImport(text: string, format: ImportFormat, snapshot: Pick<Snapshot, 'users' | 'devices'>): ImportPlan {
  const plan: ImportPlan = {rows: [], fileErrors: [], notes: [], counts: {newUsers: 0, existingUsers: 0, invalid: 0, duplicates: 0, devices: 0}};
  const {records, error} = parseDelimited(text, format);
  if (error) plan.fileErrors.push(error);
  const header = records[0];
  if (!header) {
    plan.fileErrors.push('the file is empty (expected a header row: email,role,devices)');
    return plan;
  }
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const at = Object.fromEntries(COLUMNS.map((c) => [c, names.indexOf(c)])) as Record<(typeof COLUMNS)[number], number>;
  if (at.email < 0) {
    plan.fileErrors.push(`the header row has no "email" column (it reads: ${header.fields.join(format === 'tsv' ? ' <tab> ' : ',')})`);
    return plan;
  }
  const unknown = names.filter((n) => n !== '' && !(COLUMNS as readonly string[]).includes(n));
  if (unknown.length > 0) plan.notes.push(`ignored column${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')}`);
  if (records.length - 1 > IMPORT_MAX_ROWS) {
    plan.fileErrors.push(`${records.length - 1} rows; at most ${IMPORT_MAX_ROWS} are imported at once (split the file)`);
    return plan;
  }

  const usersByEmail = new Map(snapshot.users.map((u) => [u.email.toLowerCase(), u]));
  const deviceNamesByUser = new Map<string, Set<string>>();
  for (const row of snapshot.devices) {
    let set = deviceNamesByUser.get(row.userId);
    if (!set) deviceNamesByUser.set(row.userId, (set = new Set()));
    set.add(row.name);
  }
  const seen = new Map<string, number>();

  for (const record of records.slice(1)) {
    const cell = (i: number) => (i >= 0 ? (record.fields[i] ?? '') : '');
    const email = cell(at.email).trim();
    const roleText = cell(at.role);
    const role = parseRole(roleText);
    const deviceNames = cell(at.devices)
      .split(';')
      .map((d) => d.trim())
      .filter((d) => d !== '');
    const row: ImportRow = {line: record.line, email, role: role === 'invalid' ? null : role, outcome: 'new', reason: null, userId: null, devices: []};
    plan.rows.push(row);

    const emailProblem = validateEmail(email)[0];
    const key = email.toLowerCase();
    if (emailProblem) {
      row.outcome = 'invalid';
      row.reason = `email ${emailProblem}`;
    } else if (role === 'invalid') {
      row.outcome = 'invalid';
      row.reason = `role is invalid ("${roleText.trim()}": admin or unprivileged)`;
    } else if (seen.has(key)) {
      row.outcome = 'duplicate';
      row.reason = `duplicate of line ${seen.get(key)}`;
    } else {
      seen.set(key, record.line);
      const existing = usersByEmail.get(key);
      if (existing) {
        row.outcome = 'existing';
        row.userId = existing.id;
        row.reason = role !== null && role !== existing.role ? `kept as ${existing.role} (the file says ${role}; roles are not changed)` : 'kept as it is';
      }
    }

    const existingNames = row.userId ? (deviceNamesByUser.get(row.userId) ?? new Set<string>()) : new Set<string>();
    const inRow = new Set<string>();
    for (const name of deviceNames) {
      const problem = validateDeviceName(name)[0];
      let device: ImportDevice;
      if (problem) device = {name, outcome: 'invalid', reason: `name ${problem}`};
      else if (inRow.has(name)) device = {name, outcome: 'duplicate', reason: 'listed twice for this user'};
      else if (existingNames.has(name)) device = {name, outcome: 'exists', reason: 'already exists (kept)'};
      else device = {name, outcome: 'create', reason: null};
      inRow.add(name);
      row.devices.push(device);
    }
    if (row.outcome === 'invalid' || row.outcome === 'duplicate') {
      // Nothing of the row is sent; its devices say so rather than look like they will be created.
      for (const d of row.devices) if (d.outcome === 'create') d.outcome = row.outcome === 'invalid' ? 'invalid' : 'duplicate';
      for (const d of row.devices) if (d.reason === null) d.reason = row.outcome === 'invalid' ? 'the row is invalid' : 'the row is a duplicate';
    }
    switch (row.outcome) {
      case 'new':
        plan.counts.newUsers++;
        break;
      case 'existing':
        plan.counts.existingUsers++;
        break;
      case 'invalid':
        plan.counts.invalid++;
        break;
      case 'duplicate':
        plan.counts.duplicates++;
        break;
    }
    plan.counts.devices += row.devices.filter((d) => d.outcome === 'create').length;
  }
  if (plan.rows.length === 0 && plan.fileErrors.length === 0) plan.fileErrors.push('the file has a header row but no rows');
  return plan;
}

/** Whether applying the plan would send anything. */
export function planSendsNothing(plan: ImportPlan): boolean {
  return plan.counts.newUsers === 0 && plan.counts.devices === 0;
}

/**
 * `<email>-<device>.conf` with every character outside `A–Z a–z 0–9 @ _ = + . -` replaced by
 * `_`: the names come from a file and the server, and must not reach a path separator, a leading
 * dot or a terminal sequence.
 */
export function importConfigFileName(email: string, device: string): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9@_=+.-]/gu, '_');
  const name = `${safe(email)}-${safe(device)}`.replace(/^\./, '_').slice(0, 200);
  return `${name}.conf`;
}
