// `:plan FILE` and `:export FILE` in the console (docs/server-as-a-file.md, "In the console"): the
// plan as a scrollable report, the same text as `fz-console plan`; `y` in it applies, with the
// progress and summary of bulk work; the export written as `fz-console export --output` writes it.
import {errorText} from '../core/state.js';
import {refusedInReadOnly} from '../input/read-only.js';
import type {ConsoleContext} from '../core/context.js';
import type {DialogLine, ReportModal} from '../core/modals.js';
import {expandPath, writeConfigFile} from '../../wireguard/file.js';
import {applyPlan} from './apply.js';
import {writeBackup} from './backup.js';
import {DocumentError, formatForPath, parseServerDocument, readDocumentFile, serialiseDocument} from './document.js';
import {exportDocument, readServerState} from './export.js';
import {checkFile, makePlan} from './plan.js';
import {applySummary, planLines} from './plan-text.js';

/** `FILE [--prune] [--replace]`: the words of `:plan`'s argument. */
export function planArguments(arg: string): {file: string; prune: boolean; replace: boolean} | string {
  const words = arg.split(' ').filter((w) => w !== '');
  const flags = new Set(words.filter((w) => w.startsWith('--')));
  const files = words.filter((w) => !w.startsWith('--'));
  for (const f of flags) if (f !== '--prune' && f !== '--replace') return `:plan takes --prune and --replace, not ${f}`;
  if (files.length !== 1) return 'Give one file: :plan FILE [--prune] [--replace]';
  return {file: files[0]!, prune: flags.has('--prune'), replace: flags.has('--replace')};
}

const lineTone = (text: string): DialogLine => {
  if (/^[+~±-] /.test(text)) return {text, tone: text.startsWith('-') ? 'danger' : text.startsWith('±') ? 'warning' : 'ok'};
  if (/^(Plan|No changes)/.test(text)) return {text, bold: true};
  return {text, tone: text.startsWith('  ') ? 'muted' : 'accent'};
};

export async function runPlanCommand(c: ConsoleContext, arg: string): Promise<void> {
  const args = planArguments(arg);
  if (typeof args === 'string') {
    c.message({tone: 'warning', text: args});
    return;
  }
  const {file, prune, replace} = args;
  let read;
  try {
    read = parseServerDocument(readDocumentFile(expandPath(file)), file);
    const problems = checkFile(read.document, read.lineOf);
    if (problems.length > 0) throw new DocumentError(file, problems);
  } catch (err) {
    if (!(err instanceof DocumentError)) throw err;
    c.push({
      kind: 'report',
      title: `Plan of ${file}: the file has problems`,
      lines: planLines({steps: [], kept: [], problems: err.problems}, {file, replace}).map((text) => ({text, tone: 'danger' as const})),
      scroll: 0,
      phase: 'preview',
      progress: null,
    });
    return;
  }
  c.message({tone: 'info', text: `Planning ${file}…`});
  let state;
  try {
    state = await readServerState(c.client);
  } catch (err) {
    c.message({tone: 'error', text: `Cannot plan ${file}: ${errorText(err)}`});
    return;
  }
  const plan = makePlan(read.document, read.lineOf, state, {prune, selfUserId: c.client.tokenUserId?.() ?? null});
  const lines = planLines(plan, {file, replace}).map(lineTone);
  const replaces = plan.steps.filter((s) => s.op === 'replace').length;
  const blocked =
    plan.problems.length > 0
      ? 'the file has problems'
      : replaces > 0 && !replace
        ? `${replaces} device(s) must be replaced: run :plan ${file} --replace`
        : null;
  if (blocked && plan.steps.length > 0) lines.push({text: `Not applied from here: ${blocked}.`, tone: 'warning'});
  c.message(null);
  const preview = c.push({
    kind: 'report',
    title: plan.steps.length === 0 ? `Plan of ${file}: no changes` : `Plan of ${file}: nothing has been sent yet`,
    lines,
    scroll: 0,
    phase: 'preview',
    progress: null,
    ...(plan.steps.length > 0 && !blocked ? {confirm: {label: `apply ${plan.steps.length} change(s)`, run: () => void apply()}} : {}),
  });
  async function apply(): Promise<void> {
    // `y` writes: read-only mode refuses it as it refuses every write.
    if (refusedInReadOnly(c, 'applying a file')) return;
    let stop = false;
    let backup: string | null;
    try {
      backup = await writeBackup(plan, state!, process.env);
    } catch (err) {
      c.message({tone: 'error', text: `Nothing was sent: ${errorText(err)}`});
      return;
    }
    const intro: DialogLine[] = backup ? [{text: `What is deleted or replaced is saved in ${backup} (0600): applying it brings it back.`, tone: 'muted'}] : [];
    const running = c.current(preview);
    if (!running) return;
    const report: ReportModal = {
      ...running,
      title: `Applying ${file}`,
      lines: intro,
      phase: 'running',
      progress: {finished: 0, total: plan.steps.length, failed: 0, unknown: 0},
      stop: () => {
        stop = true;
        const m = c.current(report);
        if (m) c.replaceModal(m, {...m, phase: 'stopping'});
      },
    };
    delete report.confirm;
    c.replaceModal(running, report);
    const result = await applyPlan(
      plan,
      state!,
      c.client,
      (line, finished, total) => {
        const m = c.current(report);
        if (m) c.replaceModal(m, {...m, lines: [...m.lines, {text: line, tone: 'muted'}], progress: {finished, total, failed: 0, unknown: 0}});
      },
      {stopped: () => stop},
    );
    const summary = applySummary(result, file);
    const ok = result.applied.length === plan.steps.length;
    if (result.applied.length > 0) c.undo.noteWrite(`applying ${file}`);
    const m = c.current(report);
    if (m)
      c.replaceModal(m, {
        ...m,
        title: ok ? `Applied ${file}` : `Applying ${file} stopped`,
        lines: [...intro, ...summary.map((text, i) => ({text, ...(i === 0 ? {bold: true} : {})}))],
        scroll: 0,
        phase: 'finished',
        progress: {finished: result.applied.length + result.failed.length, total: plan.steps.length, failed: result.failed.length, unknown: 0},
      });
    c.message({tone: ok ? 'ok' : 'warning', text: summary[0]!});
    c.refresh();
  }
}

export async function runExportCommand(c: ConsoleContext, file: string): Promise<void> {
  if (file.trim() === '') {
    c.message({tone: 'warning', text: 'Give a file: :export FILE (YAML, or JSON for a .json name)'});
    return;
  }
  try {
    const text = serialiseDocument(exportDocument(await readServerState(c.client), {withSecrets: false}), formatForPath(file));
    const written = await writeConfigFile(file, text, {overwrite: true});
    c.message(
      written.ok
        ? {tone: 'ok', text: `Exported the server to ${written.path} (without secrets; :plan ${file} compares it again)`}
        : {tone: 'error', text: written.message},
    );
  } catch (err) {
    c.message({tone: 'error', text: `Cannot export: ${errorText(err)}`});
  }
}
