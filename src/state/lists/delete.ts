// `d`: one path for the item under the cursor and for every marked one. What one delete is (its
// request, the label of an item, what `u` keeps, the questions) is the screen's delete action
// (src/state/screens/spec.ts). One item: a question (src/state/interactions/dialog.ts,
// `confirmDelete`), then the request. Rows marked: one question for all of them, then a progress
// bar, Esc to stop, and a report of each failure; the running and stopping is
// src/state/interactions/jobs.ts, the report modal src/state/interactions/report.ts.
import {ApiError} from '../../api/index.js';
import type {ConsoleContext} from '../core/context.js';
import type {DialogLine} from '../core/modals.js';
import type {ListScreenId} from '../core/state.js';
import {plural} from '../data/format.js';
import {Job, outcomeUnknown, type JobOutcome} from '../interactions/jobs.js';
import {errorText} from '../core/state.js';
import {runReport} from '../interactions/report.js';
import {confirmDelete, UNDO_NOT_HERE} from '../interactions/dialog.js';
import {polledItems, type ScreenDisplay} from '../screens/display.js';
import type {DeleteAction} from '../screens/spec.js';
import {setMarks} from './marks.js';
import {merge, type UndoItems} from '../undo/undo-log.js';

interface Target {
  id: string;
  label: string;
}

/** `d` on one item (the row under the cursor, or a detail's item): asks, then deletes it; `u` can take it back. */
export function deleteOne<T>(c: ConsoleContext, spec: ScreenDisplay<T>, remove: DeleteAction<T>, item: T): void {
  const id = spec.getId(item);
  const one = remove.one(c, item);
  confirmDelete(c, {
    title: one.title,
    lines: one.lines,
    screen: spec.id,
    send: () => remove.remove(c.client, id),
    done: one.done,
    kept: {label: `${spec.noun} ${one.label}`, items: one.kept},
  });
}

/** How many marked items the question lists by name before "… and N more". */
const LISTED = 8;

export function bulkDelete<T>(c: ConsoleContext, spec: ScreenDisplay<T>, remove: DeleteAction<T>): void {
  const marks = c.state.marks[spec.id];
  // The marked items as the server has them now, in the list's own order.
  const marked = polledItems(spec, c.snapshot).filter((item) => marks.has(spec.getId(item)));
  if (marked.length === 0) return;
  const ones = marked.map((item) => ({id: spec.getId(item), one: remove.one(c, item)}));
  const items: Target[] = ones.map(({id, one}) => ({id, label: one.label}));
  // What each delete removes, kept now (the poll after the delete no longer has it) for `u`.
  const kept = new Map(ones.map(({id, one}) => [id, one.kept] as const));
  // A warning goes first: "… and 18 more" must not hide what matters most.
  const warning = remove.warning?.(c, marked) ?? null;
  const lines: DialogLine[] = [...(warning ? [warning] : []), ...items.slice(0, LISTED).map((t) => ({text: `  ${t.label}`}))];
  if (items.length > LISTED) lines.push({text: `  … and ${items.length - LISTED} more`, tone: 'muted'});
  // Firezone's deletes are final; this console keeps what it deletes for `u` (src/state/undo/),
  // unless this token could not create it again (its user is not an admin).
  const final = c.snapshot.hidden.has('users');
  if (final) kept.clear();
  if ([...kept.values()].some((k) => k.users.length > 0))
    lines.push({text: 'u can bring the users back, but not their passwords: the hash never leaves the server.', tone: 'muted'});
  lines.push({
    text: final
      ? `${UNDO_NOT_HERE}. Esc stops it midway; what is done stays done.`
      : 'Firezone keeps nothing: u takes them back from what this console keeps, until it quits. Esc stops it midway; what is done stays done.',
    tone: 'warning',
  });
  c.openDialog({
    title: remove.question(marked),
    lines,
    choices: [
      {action: 'confirm', label: `delete ${plural(items.length, spec.noun)}`, run: () => runBulkDelete(c, spec.id, spec.noun, remove, items, kept)},
      {action: 'cancel', label: 'keep them'},
    ],
  });
}

function runBulkDelete<T>(
  c: ConsoleContext,
  screen: ListScreenId,
  noun: string,
  remove: DeleteAction<T>,
  items: Target[],
  kept: ReadonlyMap<string, UndoItems>,
): void {
  const job = new Job(items, async (t: Target) => {
    try {
      await remove.remove(c.client, t.id);
      return 'deleted' as const;
    } catch (err) {
      // Gone already (deleted elsewhere, or with its user): the goal is met, and it is said so.
      if (err instanceof ApiError && err.kind === 'not_found') return 'gone' as const;
      throw err;
    }
  }) as Job<Target, DeleteResult>;
  runReport(c, {
    title: `Deleting ${plural(items.length, noun)}`,
    job,
    total: items.length,
    settle: (outcome, say) => settleUnknown(c, remove, outcome, say),
    summarise: (outcome) => {
      const deleted = outcome.done.filter((d) => d.result !== 'gone');
      const checked = outcome.done.filter((d) => d.result === 'checked');
      const unknown = outcome.failed.filter((f) => f.unknown);
      const gone = outcome.done.filter((d) => d.result === 'gone');
      // What was deleted is no longer marked; failures and what was not started stay marked for a retry.
      const doneIds = new Set(outcome.done.map((d) => d.item.id));
      setMarks(c, screen, new Set([...c.state.marks[screen]].filter((id) => !doneIds.has(id))));
      const lines: DialogLine[] = [
        {
          text: `Deleted ${deleted.length} of ${plural(items.length, noun)}${gone.length ? `; ${gone.length} already gone` : ''}; ${outcome.failed.length - unknown.length} failed${unknown.length ? `; ${unknown.length} unknown` : ''}.`,
        },
      ];
      if (checked.length > 0)
        lines.push({
          text: `${plural(checked.length, 'answer')} never came (the connection broke); reading the ${noun}s again showed ${checked.length === 1 ? 'it' : 'them'} deleted.`,
          tone: 'muted',
        });
      if (outcome.stoppedBy === 'admin') lines.push({text: `Stopped: ${outcome.notStarted.length} not started (still marked).`, tone: 'warning'});
      if (outcome.stoppedBy === 'server' && outcome.notStarted.length > 0)
        lines.push({text: `The server stopped answering (${outcome.serverError}); ${outcome.notStarted.length} not started (still marked).`, tone: 'danger'});
      if (outcome.failed.length > 0) {
        const heading = unknown.length === 0 ? 'Failed' : unknown.length === outcome.failed.length ? 'Outcome unknown' : 'Failed or unknown';
        lines.push({text: ''}, {text: `${heading} (still marked)`, tone: 'danger'});
        for (const f of outcome.failed) lines.push({text: `  ${f.item.label}: ${f.reason}`, tone: 'danger'});
      }
      if (outcome.notStarted.length > 0) {
        lines.push({text: ''}, {text: 'Not started (still marked)', tone: 'warning'});
        for (const t of outcome.notStarted) lines.push({text: `  ${t.label}`, tone: 'warning'});
      }
      if (deleted.length + gone.length > 0) {
        lines.push({text: ''}, {text: 'Deleted', tone: 'ok'});
        for (const d of outcome.done)
          lines.push({
            text: `  ${d.item.label}${d.result === 'gone' ? ' (already gone)' : d.result === 'checked' ? ' (checked after the connection broke)' : ''}`,
            tone: 'ok',
          });
      }
      // What the server deleted (not what was gone already) can be taken back, as one entry.
      const undoable = deleted.flatMap((d) => (kept.has(d.item.id) ? [kept.get(d.item.id)!] : []));
      if (c.undo.add(plural(undoable.length, noun), merge(undoable), Date.now()))
        lines[0] = {text: `${lines[0]!.text} u takes ${undoable.length === 1 ? 'it' : 'them'} back.`};
      const ok = outcome.failed.length === 0 && outcome.stoppedBy === null;
      return {
        // The same count as the first line: what the server deleted, and what was gone already apart.
        title:
          ok && gone.length === 0
            ? `Deleted ${plural(deleted.length, noun)}`
            : `Deleted ${deleted.length} of ${plural(items.length, noun)}${gone.length ? `; ${gone.length} already gone` : ''}`,
        lines,
        message: {tone: ok ? 'ok' : 'warning', text: lines[0]!.text},
      };
    },
  });
}

/** `deleted`: the server said so; `gone`: it was not there (404); `checked`: no answer came, but it is gone now. */
type DeleteResult = 'deleted' | 'gone' | 'checked';

/**
 * A delete whose answer never came (the connection broke, the time ran out) may have been applied:
 * calling it failed would be untrue. One list request settles them all: gone now is deleted, still
 * there is failed; if that read fails too, the outcome is said to be unknown.
 */
async function settleUnknown<T>(
  c: ConsoleContext,
  remove: DeleteAction<T>,
  outcome: JobOutcome<Target, DeleteResult>,
  say: (text: string) => void,
): Promise<JobOutcome<Target, DeleteResult>> {
  const unknown = outcome.failed.filter((f) => outcomeUnknown(f.error));
  if (unknown.length === 0) return outcome;
  say(`No answer came for ${plural(unknown.length, 'delete')}; reading the list again to see what happened…`);
  let present: ReadonlySet<string>;
  try {
    present = await remove.present(c.client);
  } catch (err) {
    const failed = outcome.failed.map((f) =>
      unknown.includes(f) ? {...f, unknown: true as const, reason: `outcome unknown: ${f.reason}; reading the list again failed too (${errorText(err)})`} : f,
    );
    return {...outcome, failed};
  }
  const done = [...outcome.done];
  const failed: typeof outcome.failed = [];
  for (const f of outcome.failed) {
    if (!unknown.includes(f)) failed.push(f);
    // Known now: not deleted (no longer an unknown outcome, so no `error` that says so).
    else if (present.has(f.item.id)) failed.push({item: f.item, reason: `not deleted (${f.reason}; it is still there)`});
    else done.push({item: f.item, result: 'checked'});
  }
  return {...outcome, done, failed};
}
