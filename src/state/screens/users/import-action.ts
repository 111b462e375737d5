// `I` on Users: onboarding users and their devices from a CSV/TSV file — path prompt, preview
// (nothing sent yet), folder prompt for the client configs, progress, summary. The plan is
// import-plan.ts, the run import-run.ts.
import {promises as fs} from 'node:fs';
import {expandPath} from '../../../wireguard/index.js';
import type {DialogLine, PromptModal, ReportModal} from '../../core/modals.js';
import type {ConsoleContext} from '../../core/context.js';
import {detectFormat, IMPORT_MAX_BYTES, planImport, planSendsNothing, type ImportPlan, type ImportRow} from './import-plan.js';
import {importJob, prepareConfigDir, rowsToApply, summarizeImport} from './import-run.js';
import {runReport} from '../../interactions/report.js';
import {plural} from '../../data/format.js';

// ---- import ------------------------------------------------------------------------------------

export function openImport(c: ConsoleContext): void {
  c.push({
    kind: 'prompt',
    label: 'Import from file',
    value: '',
    cursor: 0,
    lines: [
      {text: 'Onboard users and their devices from a CSV or TSV file (UTF-8, a header row):', bold: true},
      {text: '  email,role,devices'},
      {text: '  ann@example.com,unprivileged,laptop;phone'},
      {text: 'role is admin or unprivileged (empty: unprivileged); devices are ;-separated names. Existing users are kept as they are.', tone: 'muted'},
      {text: 'A preview shows what each row will do before anything is sent.', tone: 'muted'},
    ],
    help: 'Enter previews (nothing is sent yet) · Esc cancels',
    accept: (path) => previewImport(c, path),
  });
}

/** Reads the file as UTF-8, refusing what is not text rather than importing mojibake. */
export async function readImportFile(path: string): Promise<{ok: true; text: string; path: string} | {ok: false; message: string}> {
  if (path.trim() === '') return {ok: false, message: 'Give the path of a CSV or TSV file'};
  const full = expandPath(path.trim());
  try {
    const stat = await fs.stat(full);
    if (stat.isDirectory()) return {ok: false, message: `${full} is a folder; give a file`};
    if (stat.size > IMPORT_MAX_BYTES)
      return {ok: false, message: `${full} is ${Math.round(stat.size / 1024)} KiB; at most ${IMPORT_MAX_BYTES / 1024} KiB is imported at once`};
    const bytes = await fs.readFile(full);
    try {
      return {ok: true, path: full, text: new TextDecoder('utf-8', {fatal: true}).decode(bytes)};
    } catch {
      return {ok: false, message: `${full} is not UTF-8 text (save it from the spreadsheet as "CSV UTF-8")`};
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return {ok: false, message: code === 'ENOENT' ? `No file ${full}` : `Cannot read ${full}: ${code ?? String(err)}`};
  }
}

function rowLine(row: ImportRow): DialogLine {
  const devices = row.devices.map((d) => (d.outcome === 'create' ? `+${d.name}` : `${d.name} (${d.reason})`));
  const what: Record<ImportRow['outcome'], string> = {
    new: `new ${row.role ?? 'unprivileged'} user`,
    existing: `existing user, ${row.reason}`,
    invalid: `invalid: ${row.reason}`,
    duplicate: `skipped: ${row.reason}`,
  };
  const tone = row.outcome === 'new' ? 'ok' : row.outcome === 'existing' ? undefined : 'danger';
  return {
    text: `line ${row.line}  ${row.email || '(no email)'}  ${what[row.outcome]}${devices.length ? `; devices: ${devices.join(', ')}` : ''}`,
    ...(tone ? {tone} : {}),
  };
}

export function previewLines(plan: ImportPlan, path: string): DialogLine[] {
  const {counts} = plan;
  const lines: DialogLine[] = [
    {text: `${path}: ${plural(plan.rows.length, 'row')}`, bold: true},
    {
      text: `${plural(counts.newUsers, 'new user')}, ${plural(counts.existingUsers, 'existing user')} (kept), ${counts.invalid} invalid, ${plural(counts.duplicates, 'duplicate')}; ${plural(counts.devices, 'device')} to create`,
    },
  ];
  for (const note of plan.notes) lines.push({text: `Note: ${note}`, tone: 'warning'});
  if (planSendsNothing(plan)) lines.push({text: 'Nothing to do: every user and device in the file exists already or is invalid.', tone: 'warning'});
  lines.push({text: ''});
  for (const row of plan.rows) lines.push(rowLine(row));
  return lines;
}

async function previewImport(c: ConsoleContext, path: string): Promise<void> {
  const read = await readImportFile(path);
  if (!read.ok) {
    c.message({tone: 'error', text: read.message});
    return;
  }
  const plan = planImport(read.text, detectFormat(read.path, read.text), c.snapshot);
  if (plan.fileErrors.length > 0) {
    c.message({tone: 'error', text: `Cannot import ${read.path}: ${plan.fileErrors.join('; ')}`});
    return;
  }
  const prompt = c.state.modals.find((m): m is PromptModal => m.kind === 'prompt' && m.label === 'Import from file');
  if (prompt) c.removeModal(prompt);
  const sends = !planSendsNothing(plan);
  const preview = c.push({
    kind: 'report',
    title: `Import preview: nothing has been sent yet`,
    lines: previewLines(plan, read.path),
    scroll: 0,
    phase: 'preview',
    progress: null,
    ...(sends
      ? {
          confirm: {
            label: `import: create ${plural(plan.counts.newUsers, 'user')} and ${plural(plan.counts.devices, 'device')}`,
            run: () => askConfigDir(c, plan, preview as ReportModal),
          },
        }
      : {}),
  });
}

function askConfigDir(c: ConsoleContext, plan: ImportPlan, preview: ReportModal): void {
  const value = './firezone-configs';
  c.push({
    kind: 'prompt',
    label: 'Folder for the client configs',
    value,
    cursor: value.length,
    lines: [
      {text: `Each new device gets a key pair made here and its client config written as <email>-<device>.conf.`, bold: true},
      {text: 'The folder is created owner-only (0700) if missing; files are 0600 and never overwritten.', tone: 'muted'},
    ],
    help: 'Enter starts the import · Esc goes back to the preview',
    accept: async (path) => {
      const dir = await prepareConfigDir(path);
      if (!dir.ok) {
        c.message({tone: 'error', text: dir.message});
        return;
      }
      const prompt = c.state.modals.find((m): m is PromptModal => m.kind === 'prompt' && m.label === 'Folder for the client configs');
      if (prompt) c.removeModal(prompt);
      const still = c.current(preview);
      if (still) c.removeModal(still);
      void runReport(c, {
        title: `Importing ${plural(rowsToApply(plan).length, 'row')}`,
        job: importJob(c.client, plan, dir.dir, c.snapshot.configuration),
        total: rowsToApply(plan).length,
        intro: [{text: `Creating ${plural(plan.counts.newUsers, 'user')} and ${plural(plan.counts.devices, 'device')}; configs go to ${dir.dir}`}],
        summarise: (outcome) => {
          const summary = summarizeImport(plan, outcome, dir.dir);
          const ok = outcome.failed.length === 0 && outcome.stoppedBy === null && !summary.lines.some((l) => l.tone === 'danger');
          // What an import made is not taken back by u: a later u says so before an older delete.
          if (outcome.done.length > 0) c.undo.noteWrite(summary.lines[0]!.text);
          return {
            title: ok ? 'Import finished' : outcome.stoppedBy ? 'Import stopped' : 'Import finished with failures',
            lines: summary.lines,
            message: {tone: ok ? 'ok' : 'warning', text: summary.lines[0]!.text},
          };
        },
      });
    },
  });
}
