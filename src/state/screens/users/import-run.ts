// Applying an onboarding plan (src/state/screens/users/import-plan.ts): users created, each device given a key pair
// made here (only the public key is sent), each client config written 0600 into a folder created
// 0700, never over an existing file. Runs as a Job (src/state/interactions/jobs.ts), one row at a time per
// worker, so a user exists before their devices are created.
import {promises as fs} from 'node:fs';
import {join} from 'node:path';
import {ApiError, type Configuration, type User} from '../../../api/index.js';
import {createRefusal} from '../../interactions/config-check.js';
import {expandPath, generateKeyPair, renderClientConfig, writeConfigFile} from '../../../wireguard/index.js';
import type {ConsoleClient} from '../../core/context.js';
import {errorText} from '../../core/state.js';
import {importConfigFileName, type ImportPlan, type ImportRow} from './import-plan.js';
import {isServerGone, Job, type JobOptions, type JobOutcome} from '../../interactions/jobs.js';
import {deviceCreateBody, deviceFormInitial} from '../devices/forms.js';

export interface DeviceDone {
  name: string;
  /** The config file, absolute; null when the device was created but its config was not written. */
  path: string | null;
  /** Why a device was not created, or why its config was not written. */
  problem: string | null;
  created: boolean;
}

export interface RowDone {
  row: ImportRow;
  userCreated: boolean;
  devices: DeviceDone[];
}

/** The rows that send something: new users, and existing users with devices to create. */
export function rowsToApply(plan: ImportPlan): ImportRow[] {
  return plan.rows.filter((r) => r.outcome === 'new' || (r.outcome === 'existing' && r.devices.some((d) => d.outcome === 'create')));
}

/**
 * The folder for the client configs: created owner-only (0700) if missing, refused if it is a
 * file. An existing folder is used as it is; files in it are never overwritten.
 */
export async function prepareConfigDir(path: string): Promise<{ok: true; dir: string} | {ok: false; message: string}> {
  if (path.trim() === '') return {ok: false, message: 'Give a folder for the client configs'};
  const dir = expandPath(path.trim());
  try {
    const stat = await fs.stat(dir).catch(() => null);
    if (stat && !stat.isDirectory()) return {ok: false, message: `${dir} is a file; give a folder`};
    if (!stat) await fs.mkdir(dir, {recursive: true, mode: 0o700});
    await fs.access(dir, fs.constants?.W_OK ?? 2);
    return {ok: true, dir};
  } catch (err) {
    return {ok: false, message: `Cannot use ${dir}: ${(err as NodeJS.ErrnoException).code ?? errorText(err)}`};
  }
}

async function exists(path: string): Promise<boolean> {
  return fs.lstat(path).then(
    () => true,
    () => false,
  );
}

/** One row: the user (unless they exist), then their devices one by one. */
async function applyRow(client: ConsoleClient, row: ImportRow, dir: string, configuration: Configuration | null): Promise<RowDone> {
  let userId = row.userId;
  let userCreated = false;
  if (userId === null) {
    const user: User = (await client.createUser({email: row.email, role: row.role ?? 'unprivileged'})).data;
    userId = user.id;
    userCreated = true;
  }
  const devices: DeviceDone[] = [];
  for (const d of row.devices) {
    if (d.outcome !== 'create') continue;
    const path = join(dir, importConfigFileName(row.email, d.name));
    // Checked before the device is created: a device whose config cannot be written is one
    // nobody can use, and its private key would be lost.
    if (await exists(path)) {
      devices.push({name: d.name, path: null, created: false, problem: `not created: ${path} already exists (never overwritten)`});
      continue;
    }
    const keys = generateKeyPair();
    const body = deviceCreateBody(deviceFormInitial(d.name, userId), userId, keys.publicKey);
    // Nor one whose config cannot be built (client defaults 0.7.36 takes and a client refuses).
    const refusal = createRefusal(body, configuration);
    if (refusal !== null) {
      devices.push({name: d.name, path: null, created: false, problem: `not created: ${refusal}`});
      continue;
    }
    let device;
    try {
      device = (await client.createDevice(body)).data;
    } catch (err) {
      if (isServerGone(err)) throw err;
      const reason = err instanceof ApiError && err.kind === 'validation' ? fieldErrorsText(err.fieldErrors) || err.message : errorText(err);
      devices.push({name: d.name, path: null, created: false, problem: reason});
      continue;
    }
    let config: string;
    try {
      config = renderClientConfig(device, {privateKey: keys.privateKey});
    } catch (err) {
      devices.push({name: d.name, path: null, created: true, problem: `created, but its config was refused: ${errorText(err)}`});
      continue;
    }
    const written = await writeConfigFile(path, config, {overwrite: false});
    devices.push(
      written.ok
        ? {name: d.name, path: written.path, created: true, problem: null}
        : {name: d.name, path: null, created: true, problem: `created, but ${written.message}`},
    );
  }
  return {row, userCreated, devices};
}

/** `name: has already been taken`, as the server words it. */
function fieldErrorsText(fieldErrors: Record<string, string[]>): string {
  return Object.entries(fieldErrors)
    .map(([field, messages]) => `${field === 'user_id' ? 'name' : field} ${messages.join(', ')}`)
    .join('; ');
}

/** `configuration`: the client defaults each device's config is checked against before its create (null: not known to this token). */
export function importJob(
  client: ConsoleClient,
  plan: ImportPlan,
  dir: string,
  configuration: Configuration | null,
  options: JobOptions = {},
): Job<ImportRow, RowDone> {
  return new Job(rowsToApply(plan), (row) => applyRow(client, row, dir, configuration), options);
}

export interface ImportSummary {
  usersCreated: number;
  devicesCreated: number;
  configsWritten: number;
  lines: Array<{text: string; tone?: 'ok' | 'danger' | 'warning' | 'muted'}>;
}

/** What exists now, what was skipped and what failed, row by row: the last screen of an import. */
export function summarizeImport(plan: ImportPlan, outcome: JobOutcome<ImportRow, RowDone>, dir: string): ImportSummary {
  const summary: ImportSummary = {usersCreated: 0, devicesCreated: 0, configsWritten: 0, lines: []};
  const failedLines: ImportSummary['lines'] = [];
  const doneLines: ImportSummary['lines'] = [];
  for (const {result} of outcome.done) {
    if (result.userCreated) summary.usersCreated++;
    const created = result.devices.filter((d) => d.created);
    summary.devicesCreated += created.length;
    summary.configsWritten += result.devices.filter((d) => d.path !== null).length;
    const who = `line ${result.row.line} ${result.row.email}`;
    const parts = [result.userCreated ? 'user created' : 'user kept', ...created.map((d) => `${d.name} → ${d.path ?? 'no config'}`)];
    doneLines.push({text: `${who}: ${parts.join('; ')}`, tone: 'ok'});
    for (const d of result.devices) if (d.problem) failedLines.push({text: `${who}, device ${d.name}: ${d.problem}`, tone: 'danger'});
  }
  for (const f of outcome.failed) failedLines.push({text: `line ${f.item.line} ${f.item.email}: ${f.reason}`, tone: 'danger'});
  const skipped = plan.rows.filter((r) => r.outcome === 'invalid' || r.outcome === 'duplicate');
  const kept = plan.rows.filter((r) => r.outcome === 'existing' && !r.devices.some((d) => d.outcome === 'create'));
  const existingDevices = plan.rows.reduce((n, r) => n + r.devices.filter((d) => d.outcome === 'exists').length, 0);

  const head = [
    `Created ${summary.usersCreated} user${summary.usersCreated === 1 ? '' : 's'} and ${summary.devicesCreated} device${summary.devicesCreated === 1 ? '' : 's'}`,
  ];
  if (summary.configsWritten > 0) head.push(`${summary.configsWritten} client config${summary.configsWritten === 1 ? '' : 's'} in ${dir} (mode 0600)`);
  summary.lines.push({text: head.join('; ')});
  if (outcome.stoppedBy === 'admin') summary.lines.push({text: `Stopped: ${outcome.notStarted.length} row(s) not started (listed below).`, tone: 'warning'});
  if (outcome.stoppedBy === 'server')
    summary.lines.push({text: `The server stopped answering (${outcome.serverError}); ${outcome.notStarted.length} row(s) not started.`, tone: 'danger'});
  summary.lines.push({
    text: `Skipped: ${kept.length} existing user(s) with nothing new, ${existingDevices} existing device(s), ${skipped.length} invalid or duplicate row(s); failed: ${failedLines.length}`,
    tone: 'muted',
  });
  if (failedLines.length > 0) summary.lines.push({text: ''}, {text: 'Failed', tone: 'danger'}, ...failedLines);
  if (outcome.notStarted.length > 0) {
    summary.lines.push(
      {text: ''},
      {text: 'Not started', tone: 'warning'},
      ...outcome.notStarted.map((r) => ({text: `line ${r.line} ${r.email}`, tone: 'warning' as const})),
    );
  }
  if (doneLines.length > 0) summary.lines.push({text: ''}, {text: 'Done', tone: 'ok'}, ...doneLines);
  if (skipped.length > 0)
    summary.lines.push(
      {text: ''},
      {text: 'Skipped rows', tone: 'muted'},
      ...skipped.map((r) => ({text: `line ${r.line} ${r.email}: ${r.reason}`, tone: 'muted' as const})),
    );
  return summary;
}
