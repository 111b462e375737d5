// `K` on marked devices: one question for all of them, a folder for their new client configs
// (made 0700, or one of the admin's own that nobody else can open), then a job (at most
// JOB_CONCURRENCY in flight, Esc stops it) that replaces each device (replace-device.ts) and
// writes its config there, one file each (0600, never over an existing file), and a report.
// `u` brings the old keys back; a device whose new key failed and that did not come back is kept
// for `u` apart, newest, so `u` tries it first.
import {lstatSync} from 'node:fs';
import {promises as fs} from 'node:fs';
import {basename, dirname, join} from 'node:path';
import {ensurePrivateFolder, UnsafeFolderError} from '../../../common/private-folder.js';
import {expandPath, renderClientConfig, writeConfigFile} from '../../../wireguard/index.js';
import type {ConsoleContext} from '../../core/context.js';
import type {DialogLine, PromptModal} from '../../core/modals.js';
import {errorText} from '../../core/state.js';
import type {DeviceRow} from '../../data/snapshot.js';
import {plural} from '../../data/format.js';
import {isServerGone, Job, type JobOutcome} from '../../interactions/jobs.js';
import {runReport} from '../../interactions/report.js';
import {setMarks} from '../../lists/marks.js';
import {merge, type KeyChange, type UndoItems} from '../../undo/undo-log.js';
import {importConfigFileName} from '../users/import-plan.js';
import {addressWords, newKeyRefusal, REPLACED, restoreContext, stopsWorking} from './new-key.js';
import {replaceDevice, type ReplaceOutcome} from './replace-device.js';

/** How many marked devices the question names before "… and N more". */
const LISTED = 8;
const FOLDER_PROMPT = 'Folder for the new client configs';

export function askNewKeys(ctx: ConsoleContext, rows: readonly DeviceRow[]): void {
  const refusal = newKeyRefusal(ctx);
  if (refusal !== null) {
    ctx.message({tone: 'info', text: refusal});
    return;
  }
  if (rows.length === 0) return;
  const lines: DialogLine[] = [
    stopsWorking(rows.length === 1),
    {
      text:
        rows.length === 1
          ? 'Kept: its name, description, owner, addresses and settings. The new config goes to a file in a folder asked next.'
          : 'Kept: their names, descriptions, owners, addresses and settings. Each new config goes to a file of its own, in a folder asked next.',
    },
    ...rows.slice(0, LISTED).map((r) => ({text: `  ${r.name} (${r.ownerEmail})  ${addressWords(r.ipv4, r.ipv6)}`})),
  ];
  if (rows.length > LISTED) lines.push({text: `  … and ${rows.length - LISTED} more`, tone: 'muted'});
  lines.push(REPLACED, {text: 'u brings the old keys back. Esc stops it midway; what is done stays done.', tone: 'muted'});
  const owners = new Set(rows.map((r) => r.userId)).size;
  ctx.openDialog({
    title:
      rows.length === 1
        ? `A new key for ${rows[0]!.name} of ${rows[0]!.ownerEmail} (marked)?`
        : `New keys for ${plural(rows.length, 'device')} of ${plural(owners, 'user')}?`,
    lines,
    choices: [
      {action: 'confirm', label: `new keys for ${plural(rows.length, 'device')}`, run: () => askFolder(ctx, rows)},
      {action: 'cancel', label: 'keep the keys'},
    ],
  });
}

function askFolder(ctx: ConsoleContext, rows: readonly DeviceRow[]): void {
  const value = './firezone-new-keys';
  ctx.push({
    kind: 'prompt',
    label: FOLDER_PROMPT,
    value,
    cursor: value.length,
    lines: [
      {text: `Each device's new client config is written there as <email>-<device>.conf: it holds the private key.`, bold: true},
      {
        text: 'The folder is made owner-only (0700) if missing; one that exists must be yours and closed to others. Files are 0600 and never overwritten.',
        tone: 'muted',
      },
    ],
    help: 'Enter starts (nothing is sent before) · Esc cancels',
    accept: (path) => {
      const folder = prepareKeyFolder(path);
      if (!folder.ok) {
        ctx.message({tone: 'error', text: folder.message});
        return;
      }
      const prompt = ctx.state.modals.find((m): m is PromptModal => m.kind === 'prompt' && m.label === FOLDER_PROMPT);
      if (prompt) ctx.removeModal(prompt);
      void runNewKeys(ctx, rows, folder.dir);
    },
  });
}

/**
 * The folder for the private keys: made 0700 when missing; an existing one must be the admin's
 * own, a folder (not a symbolic link), and closed to group and others; no other user may rename
 * or replace a folder on the way to it (src/common/private-folder.ts). Its resolved path.
 */
export function prepareKeyFolder(path: string): {ok: true; dir: string} | {ok: false; message: string} {
  if (path.trim() === '') return {ok: false, message: 'Give a folder for the client configs'};
  const full = expandPath(path.trim());
  try {
    const dir = ensurePrivateFolder(dirname(full), [basename(full)]);
    const mode = lstatSync(dir).mode & 0o777;
    if ((mode & 0o077) !== 0)
      return {
        ok: false,
        message: `Cannot use ${dir}: others can open it (mode ${mode.toString(8).padStart(4, '0')}), and the configs hold private keys; give a new folder, or make it 0700`,
      };
    return {ok: true, dir};
  } catch (err) {
    return {ok: false, message: `Cannot use ${full}: ${err instanceof UnsafeFolderError ? err.message : errorText(err)}`};
  }
}

/** One device's ending: the replace's outcome, and its config file when it has one. */
interface Done {
  row: DeviceRow;
  outcome: ReplaceOutcome | null;
  /** The config file written (absolute); null when none was. */
  path: string | null;
  /** Why nothing was sent (its file exists), or why a device with its new key has no config file. */
  problem: string | null;
}

function runNewKeys(ctx: ConsoleContext, rows: readonly DeviceRow[], dir: string): Promise<void> {
  // Every ending that changed the server, whether or not the job saw the item fail: an error that
  // stops the job (the server went away) may come after a device was deleted here.
  const endings = new Map<string, Done>();
  const at = restoreContext(ctx);
  const files = configFileNames(rows);
  const job = new Job(rows, async (row: DeviceRow): Promise<Done> => {
    const path = join(dir, files.get(row.id)!);
    // Checked before anything is sent: a new key whose config cannot be written is one nobody holds.
    if (await exists(path)) return {row, outcome: null, path: null, problem: `${path} exists (never overwritten); nothing sent`};
    const outcome = await replaceDevice(ctx.client, row.id, at);
    const done: Done = {row, outcome, path: null, problem: null};
    endings.set(row.id, done);
    if (outcome.kind === 'replaced') {
      let config: string;
      try {
        config = renderClientConfig(outcome.device, {privateKey: outcome.privateKey});
      } catch (err) {
        done.problem = `its config was refused (${errorText(err)}): nobody holds its new private key; u brings the old key back`;
        return done;
      }
      const written = await writeConfigFile(path, config, {overwrite: false});
      if (written.ok) done.path = written.path;
      else done.problem = `its config was not written (${written.message}): nobody holds its new private key; u brings the old key back`;
    } else if (outcome.kind !== 'unchanged' && isServerGone(outcome.error)) {
      // The server stopped answering: stop the job too; what this device came to is kept above.
      throw outcome.error;
    }
    return done;
  });
  return runReport(ctx, {
    title: `New keys for ${plural(rows.length, 'device')}`,
    job,
    total: rows.length,
    intro: [{text: `Configs go to ${dir}`}],
    summarise: (outcome) => summarise(ctx, rows, dir, outcome, endings),
  });
}

/**
 * Each device's file name, `<email>-<device>.conf` as onboarding names them; two names that come
 * out the same once their odd characters are replaced (`a b`, `a_b`) get `-2`, `-3`…, so that no
 * device is given a new key whose config then finds its file taken by another's.
 */
export function configFileNames(rows: readonly DeviceRow[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  // The next number to try per name: many devices of one name cost one step each, not a search from 2.
  const next = new Map<string, number>();
  for (const row of rows) {
    const base = importConfigFileName(row.ownerEmail, row.name).slice(0, -'.conf'.length);
    let name = `${base}.conf`;
    let n = next.get(base) ?? 2;
    while (taken.has(name)) name = `${base}-${n++}.conf`;
    next.set(base, n);
    taken.add(name);
    names.set(row.id, name);
  }
  return names;
}

async function exists(path: string): Promise<boolean> {
  return fs.lstat(path).then(
    () => true,
    () => false,
  );
}

function summarise(ctx: ConsoleContext, rows: readonly DeviceRow[], dir: string, outcome: JobOutcome<DeviceRow, Done>, endings: ReadonlyMap<string, Done>) {
  // In the list's order, not the order they finished in.
  const all = rows.flatMap((row) => endings.get(row.id) ?? []);
  const replaced = all.filter((d) => d.outcome?.kind === 'replaced');
  const written = replaced.filter((d) => d.path !== null);
  const restored = all.filter((d) => d.outcome?.kind === 'restored');
  const undoable = all.filter((d) => d.outcome?.kind === 'undoable');
  const label = (row: DeviceRow) => `${row.name} (${row.ownerEmail})`;

  // The old devices are gone from the server whatever came next: their marks go with them. What
  // did not start, failed with nothing changed, or was skipped stays marked, for K again.
  const gone = new Set(all.filter((d) => d.outcome !== null && d.outcome.kind !== 'unchanged').map((d) => d.row.id));
  setMarks(ctx, 'devices', new Set([...ctx.state.marks.devices].filter((id) => !gone.has(id))));

  const head = `New keys for ${replaced.length} of ${plural(rows.length, 'device')}; ${plural(written.length, 'config file')} in ${dir} (mode 0600).`;
  const lines: DialogLine[] = [{text: head}];
  if (outcome.stoppedBy === 'admin') lines.push({text: `Stopped: ${outcome.notStarted.length} not started (still marked).`, tone: 'warning'});
  if (outcome.stoppedBy === 'server')
    lines.push({text: `The server stopped answering (${outcome.serverError}); ${outcome.notStarted.length} not started (still marked).`, tone: 'danger'});

  const trouble: DialogLine[] = [];
  for (const d of undoable) {
    const o = d.outcome as Extract<ReplaceOutcome, {kind: 'undoable'}>;
    trouble.push({text: `  ${label(d.row)}: ${o.reason}; not back yet (u tries again)`, tone: 'danger'});
  }
  for (const d of replaced) if (d.problem) trouble.push({text: `  ${label(d.row)}: has its new key, but ${d.problem}`, tone: 'danger'});
  for (const d of restored)
    trouble.push({
      text: `  ${label(d.row)}: ${(d.outcome as Extract<ReplaceOutcome, {kind: 'restored'}>).reason}; back as it was, with its old key`,
      tone: 'warning',
    });
  for (const f of outcome.failed)
    if (!endings.has(f.item.id)) trouble.push({text: `  ${label(f.item)}: ${f.reason} (nothing changed; still marked)`, tone: 'danger'});
  for (const {item, result} of outcome.done) {
    if (result.outcome === null) trouble.push({text: `  ${label(item)}: ${result.problem} (still marked)`, tone: 'warning'});
    else if (result.outcome.kind === 'unchanged') trouble.push({text: `  ${label(item)}: ${result.outcome.reason}; nothing changed`, tone: 'warning'});
  }
  if (trouble.length > 0) lines.push({text: ''}, {text: 'Not done as asked', tone: 'danger'}, ...trouble);
  if (outcome.notStarted.length > 0) {
    lines.push({text: ''}, {text: 'Not started (still marked)', tone: 'warning'});
    for (const row of outcome.notStarted) lines.push({text: `  ${label(row)}`, tone: 'warning'});
  }
  if (written.length > 0) {
    lines.push({text: ''}, {text: 'New keys, their configs written', tone: 'ok'});
    for (const d of written) lines.push({text: `  ${label(d.row)} → ${d.path}`, tone: 'ok'});
  }

  // What changed the server: a later `u` takes the new keys back; a device that is not back yet
  // is kept apart and newest, so `u` tries it first.
  if (all.some((d) => d.outcome !== null && d.outcome.kind !== 'unchanged')) ctx.undo.noteWrite(head);
  const changes: KeyChange[] = replaced.map((d) => (d.outcome as Extract<ReplaceOutcome, {kind: 'replaced'}>).change);
  if (ctx.undo.add(`new keys of ${plural(changes.length, 'device')}`, {users: [], devices: [], rules: [], newKeys: changes}, Date.now()))
    lines[0] = {text: `${head} u brings the old keys back.`};
  const keep: UndoItems = merge(undoable.map((d) => (d.outcome as Extract<ReplaceOutcome, {kind: 'undoable'}>).keep));
  ctx.undo.add(`${plural(undoable.length, 'device')} whose new key failed`, keep, Date.now());

  const ok = trouble.length === 0 && outcome.notStarted.length === 0 && outcome.stoppedBy === null;
  return {
    title: ok ? `New keys for ${plural(replaced.length, 'device')}` : `New keys for ${replaced.length} of ${plural(rows.length, 'device')}`,
    lines,
    message: {tone: ok ? ('ok' as const) : ('warning' as const), text: lines[0]!.text},
  };
}
