// A plan as a person reads it in one pass (docs/server-as-a-file.md, "The plan"): one line per
// change with the file's line, old → new per field, what is kept, and a summary line. Every value
// from the server or the file is made plain-safe (no control character reaches the terminal).
import {plainSafe} from '../../common/display-safe.js';
import type {ApplyResult} from './apply.js';
import type {Plan, Step} from './plan.js';

const safe = (s: string) => plainSafe(s).text;

const MARK: Record<Step['op'], string> = {create: '+', update: '~', replace: '±', delete: '-'};

export interface PlanCounts {
  create: number;
  update: number;
  replace: number;
  delete: number;
}

export function planCounts(plan: Plan): PlanCounts {
  const counts: PlanCounts = {create: 0, update: 0, replace: 0, delete: 0};
  for (const s of plan.steps) counts[s.op]++;
  return counts;
}

/** The plan's text, one line per element; `replace` says whether replacements will be made (apply --replace). */
export function planLines(plan: Plan, options: {file: string; replace: boolean}): string[] {
  const out: string[] = [];
  if (plan.problems.length > 0) {
    for (const p of plan.problems) out.push(safe(`${options.file}${p.line > 0 ? `:${p.line}` : ''}: ${p.message}`));
    out.push(`${plan.problems.length} problem${plan.problems.length === 1 ? '' : 's'} in ${safe(options.file)}: nothing was sent.`);
    return out;
  }
  for (const s of plan.steps) {
    const where = s.line > 0 ? `  (line ${s.line})` : '';
    out.push(safe(`${MARK[s.op]} ${s.op} ${s.label}${where}`));
    for (const f of s.fields) out.push(safe(`    ${f.field}: ${f.old} → ${f.new}`));
    if (s.op === 'replace') {
      const needs = options.replace ? '' : ' (apply needs --replace)';
      out.push(
        `    0.7.36 changes only a device's name and description in place: it is deleted and created again with its addresses, public key and preshared key, so its client keeps working${needs}`,
      );
    }
  }
  if (plan.kept.length > 0) {
    out.push(`Kept: on the server, not in the file (apply --prune deletes them):`);
    for (const k of plan.kept) out.push(safe(`  = ${k}`));
  }
  const c = planCounts(plan);
  const kept = plan.kept.length > 0 ? `; ${plan.kept.length} kept` : '';
  if (plan.steps.length === 0) out.push(`No changes: the server matches ${safe(options.file)}${kept}.`);
  else out.push(`Plan: ${c.create} to create, ${c.update} to update, ${c.replace} to replace, ${c.delete} to delete${kept}.`);
  return out;
}

/** What apply did, exactly: the first line the outcome, then every step that failed, was applied, was cut in half, or was not started. */
export function applySummary(result: ApplyResult, file: string): string[] {
  const n = (count: number, what: string) => `${count} ${what}${count === 1 ? '' : 's'}`;
  if (result.failed.length === 0 && result.notStarted.length === 0 && result.halfReplaced.length === 0)
    return [`apply: done: ${n(result.applied.length, 'change')} applied.`];
  const half = result.halfReplaced.length ? `${result.halfReplaced.length} replaced only by half, ` : '';
  const lines = [
    `apply: stopped${result.failed.length ? ' after a failure' : ''}: ${result.applied.length} applied, ${result.failed.length} failed, ${half}${result.notStarted.length} not started.`,
  ];
  for (const f of result.failed) lines.push(safe(`  failed: ${file}${f.step.line > 0 ? `:${f.step.line}` : ''}: ${f.step.op} ${f.step.label}: ${f.reason}`));
  for (const s of result.applied) lines.push(safe(`  applied: ${s.op} ${s.label}`));
  for (const s of result.halfReplaced) lines.push(safe(`  deleted, not created again: ${s.label} (the backup file holds it, preshared key included)`));
  for (const s of result.notStarted) lines.push(safe(`  not started: ${s.op} ${s.label}`));
  lines.push(safe(`apply: run \`fz-console apply ${file}\` again to finish: it plans only what is left.`));
  return lines;
}
