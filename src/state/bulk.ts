// Marks and the work done on many items at once: Space marks, `*` marks what the filter shows,
// `d` with marks deletes them all after one question, with a progress bar and a report of each
// failure. Functions of the Controller (src/state/controller.ts); the running and stopping is
// src/state/jobs.ts, the report modal is drawn by src/ui/views/Report.tsx.
import {ApiError} from '../api/index.js';
import {topModal, type ConsoleState, type DialogLine, type ListScreenId, type ReportModal} from './console.js';
import type {Controller} from './controller.js';
import {Job, type JobOutcome} from './jobs.js';
import type {Action} from './keymap.js';
import type {DeviceRow, Snapshot, UserRow} from './resources.js';
import {ruleSummary} from './resources/rules.js';
import {plural} from './resources/spec.js';

export const NO_MARKS: ReadonlySet<string> = new Set();

export function initialMarks(): ConsoleState['marks'] {
  return {devices: NO_MARKS, users: NO_MARKS, rules: NO_MARKS, activity: NO_MARKS};
}

function setMarks(c: Controller, screen: ListScreenId, marks: ReadonlySet<string>): void {
  c.set((s) => ({...s, marks: {...s.marks, [screen]: marks.size === 0 ? NO_MARKS : marks}}));
}

/** Space: the row under the cursor. The cursor moves on, as in k9s and mc, so Space Space Space marks a run. */
export function toggleMark(c: Controller): void {
  const list = c.activeList();
  if (!list || list.selection.id === null) return;
  const screen = list.spec.id;
  const id = list.selection.id;
  const marks = new Set(c.state.marks[screen]);
  if (marks.has(id)) marks.delete(id);
  else marks.add(id);
  setMarks(c, screen, marks);
  const next = list.selection.index + 1 < list.view.rows.length ? list.view.idAt(list.selection.index + 1) : null;
  if (next !== null) c.updateList(screen, (st) => ({...st, selectedId: next, selectedIndex: list.selection.index + 1}));
}

/** `*`: every row the filter shows; when they are all marked already, unmarks them. */
export function markAllShown(c: Controller): void {
  const list = c.activeList();
  if (!list) return;
  const screen = list.spec.id;
  const ids: string[] = [];
  for (let i = 0; i < list.view.rows.length; i++) ids.push(list.view.idAt(i));
  const before = c.state.marks[screen];
  const allMarked = ids.length > 0 && ids.every((id) => before.has(id));
  const marks = new Set(before);
  for (const id of ids) {
    if (allMarked) marks.delete(id);
    else marks.add(id);
  }
  setMarks(c, screen, marks);
  const noun = list.spec.noun;
  c.message({
    tone: 'info',
    text: allMarked
      ? `Unmarked ${plural(ids.length, noun)}; ${marks.size} marked`
      : `Marked ${plural(ids.length, noun)}${list.state.filter ? ` matching "${list.state.filter}"` : ''}; ${marks.size} marked`,
  });
}

/** Esc on a list with no filter left to clear. True when there were marks. */
export function clearMarks(c: Controller, screen: ListScreenId): boolean {
  const n = c.state.marks[screen].size;
  if (n === 0) return false;
  setMarks(c, screen, NO_MARKS);
  c.message({tone: 'info', text: `Unmarked ${plural(n, RESOURCE_NOUN[screen])}`});
  return true;
}

const RESOURCE_NOUN: Record<ListScreenId, string> = {devices: 'device', users: 'user', rules: 'rule', activity: 'event'};

function idsOf(snapshot: Snapshot, screen: ListScreenId): Set<string> {
  switch (screen) {
    case 'devices':
      return new Set(snapshot.devices.map((r) => r.id));
    case 'users':
      return new Set(snapshot.users.map((u) => u.id));
    case 'rules':
      return new Set(snapshot.rules.map((r) => r.id));
    case 'activity':
      return new Set();
  }
}

/**
 * After a poll: marks whose item is gone from the server drop out, and the admin is told. Costs
 * nothing while nothing is marked.
 */
export function pruneMarks(marks: ConsoleState['marks'], snapshot: Snapshot): {marks: ConsoleState['marks']; dropped: string | null} {
  let next = marks;
  const parts: string[] = [];
  for (const screen of ['devices', 'users', 'rules'] as const) {
    const current = marks[screen];
    if (current.size === 0) continue;
    const present = idsOf(snapshot, screen);
    const kept = new Set([...current].filter((id) => present.has(id)));
    if (kept.size === current.size) continue;
    parts.push(plural(current.size - kept.size, `marked ${RESOURCE_NOUN[screen]}`));
    next = {...next, [screen]: kept.size === 0 ? NO_MARKS : kept};
  }
  return {
    marks: next,
    dropped:
      parts.length === 0
        ? null
        : `${parts.join(' and ')} no longer exist${parts.length === 1 && parts[0]!.startsWith('1 ') ? 's' : ''} on the server and ${parts.length === 1 && parts[0]!.startsWith('1 ') ? 'was' : 'were'} unmarked`,
  };
}

// ---- bulk delete -------------------------------------------------------------------------------

interface Target {
  id: string;
  label: string;
}

function targets(c: Controller, screen: ListScreenId): Target[] {
  const snapshot = c.snapshot;
  const marks = c.state.marks[screen];
  switch (screen) {
    case 'devices':
      return snapshot.devices.filter((r) => marks.has(r.id)).map((r: DeviceRow) => ({id: r.id, label: `${r.device.name} (${r.ownerEmail})`}));
    case 'users':
      return snapshot.userRows.filter((r) => marks.has(r.user.id)).map((r: UserRow) => ({id: r.user.id, label: r.user.email}));
    case 'rules':
      return snapshot.rules.filter((r) => marks.has(r.id)).map((r) => ({id: r.id, label: ruleSummary(r)}));
    case 'activity':
      return [];
  }
}

/** "Delete 12 devices of 7 users?" / "Delete 3 users? This also deletes 5 devices and 2 rules." */
export function bulkDeleteQuestion(snapshot: Snapshot, screen: ListScreenId, marks: ReadonlySet<string>): string {
  switch (screen) {
    case 'devices': {
      const owners = new Set(snapshot.devices.filter((r) => marks.has(r.id)).map((r) => r.device.user_id));
      const n = snapshot.devices.filter((r) => marks.has(r.id)).length;
      return `Delete ${plural(n, 'device')} of ${plural(owners.size, 'user')}?`;
    }
    case 'users': {
      const rows = snapshot.userRows.filter((r) => marks.has(r.user.id));
      const devices = rows.reduce((n, r) => n + r.devices, 0);
      const rules = rows.reduce((n, r) => n + r.rules, 0);
      return `Delete ${plural(rows.length, 'user')}? This also deletes ${plural(devices, 'device')} and ${plural(rules, 'rule')}.`;
    }
    case 'rules':
      return `Delete ${plural(snapshot.rules.filter((r) => marks.has(r.id)).length, 'rule')}?`;
    case 'activity':
      return 'Events cannot be deleted';
  }
}

const LISTED = 8;

export function bulkDelete(c: Controller, screen: ListScreenId): void {
  const items = targets(c, screen);
  if (items.length === 0) return;
  const noun = RESOURCE_NOUN[screen];
  const lines: DialogLine[] = items.slice(0, LISTED).map((t) => ({text: `  ${t.label}`}));
  if (items.length > LISTED) lines.push({text: `  … and ${items.length - LISTED} more`, tone: 'muted'});
  lines.push({text: 'This cannot be undone. Esc stops it midway; what is done stays done.', tone: 'warning'});
  c.openDialog({
    title: bulkDeleteQuestion(c.snapshot, screen, c.state.marks[screen]),
    lines,
    choices: [
      {action: 'confirm', label: `delete ${plural(items.length, noun)}`, run: () => runBulkDelete(c, screen, items)},
      {action: 'cancel', label: 'keep them'},
    ],
  });
}

function deleteOne(c: Controller, screen: ListScreenId, id: string): Promise<unknown> {
  switch (screen) {
    case 'devices':
      return c.client.deleteDevice(id);
    case 'users':
      return c.client.deleteUser(id);
    case 'rules':
      return c.client.deleteRule(id);
    case 'activity':
      return Promise.reject(new Error('events cannot be deleted'));
  }
}

function runBulkDelete(c: Controller, screen: ListScreenId, items: Target[]): void {
  const noun = RESOURCE_NOUN[screen];
  const job = new Job(items, async (t: Target) => {
    try {
      await deleteOne(c, screen, t.id);
      return 'deleted' as const;
    } catch (err) {
      // Gone already (deleted elsewhere, or with its user): the goal is met, and it is said so.
      if (err instanceof ApiError && err.kind === 'not_found') return 'gone' as const;
      throw err;
    }
  });
  runReport(c, {
    title: `Deleting ${plural(items.length, noun)}`,
    job,
    total: items.length,
    summarise: (outcome) => {
      const deleted = outcome.done.filter((d) => d.result === 'deleted');
      const gone = outcome.done.filter((d) => d.result === 'gone');
      // What was deleted is no longer marked; failures and what was not started stay marked for a retry.
      const doneIds = new Set(outcome.done.map((d) => d.item.id));
      setMarks(c, screen, new Set([...c.state.marks[screen]].filter((id) => !doneIds.has(id))));
      const lines: DialogLine[] = [
        {
          text: `Deleted ${deleted.length} of ${plural(items.length, noun)}${gone.length ? `; ${gone.length} already gone` : ''}; ${outcome.failed.length} failed.`,
        },
      ];
      if (outcome.stoppedBy === 'admin') lines.push({text: `Stopped: ${outcome.notStarted.length} not started (still marked).`, tone: 'warning'});
      if (outcome.stoppedBy === 'server')
        lines.push({text: `The server stopped answering (${outcome.serverError}); ${outcome.notStarted.length} not started (still marked).`, tone: 'danger'});
      if (outcome.failed.length > 0) {
        lines.push({text: ''}, {text: 'Failed (still marked)', tone: 'danger'});
        for (const f of outcome.failed) lines.push({text: `  ${f.item.label}: ${f.reason}`, tone: 'danger'});
      }
      if (outcome.notStarted.length > 0) {
        lines.push({text: ''}, {text: 'Not started (still marked)', tone: 'warning'});
        for (const t of outcome.notStarted) lines.push({text: `  ${t.label}`, tone: 'warning'});
      }
      if (deleted.length + gone.length > 0) {
        lines.push({text: ''}, {text: 'Deleted', tone: 'ok'});
        for (const d of outcome.done) lines.push({text: `  ${d.item.label}${d.result === 'gone' ? ' (already gone)' : ''}`, tone: 'ok'});
      }
      const ok = outcome.failed.length === 0 && outcome.stoppedBy === null;
      return {
        title: ok ? `Deleted ${plural(deleted.length + gone.length, noun)}` : `Deleted ${deleted.length + gone.length} of ${plural(items.length, noun)}`,
        lines,
        message: {tone: ok ? 'ok' : 'warning', text: lines[0]!.text},
      };
    },
  });
}

// ---- the report modal ----------------------------------------------------------------------------

export interface ReportRun<T, R> {
  title: string;
  job: Job<T, R>;
  total: number;
  /** Lines shown while it runs, above the bar. */
  intro?: readonly DialogLine[];
  summarise: (outcome: JobOutcome<T, R>) => {title: string; lines: DialogLine[]; message: {tone: 'ok' | 'warning' | 'error'; text: string}};
}

/** Shows a job's progress in a report modal, then its summary there; the data is re-read after. */
export function runReport<T, R>(c: Controller, run: ReportRun<T, R>): Promise<void> {
  const report = c.push({
    kind: 'report',
    title: run.title,
    lines: run.intro ?? [],
    scroll: 0,
    phase: 'running',
    progress: {finished: 0, total: run.total, failed: 0},
    stop: () => {
      run.job.stop();
      const m = c.current(report);
      if (m && m.phase === 'running') c.replaceModal(m, {...m, phase: 'stopping'});
      c.message({tone: 'warning', text: 'Stopping: nothing new is started; waiting for the requests in flight'});
    },
  }) as ReportModal;
  let lastDraw = 0;
  const progressed = (finished: number, failed: number) => {
    const m = c.current(report);
    if (m) c.replaceModal(m, {...m, progress: {finished, total: run.total, failed}});
  };
  return run.job
    .run((p) => {
      // One frame per ~30 ms is all a terminal shows; the last update always lands.
      const now = Date.now();
      if (now - lastDraw < 30 && p.finished < run.total) return;
      lastDraw = now;
      progressed(p.finished, p.failed);
    })
    .then((outcome) => {
      const summary = run.summarise(outcome);
      const m = c.current(report);
      if (m) {
        c.replaceModal(m, {
          ...m,
          title: summary.title,
          lines: summary.lines,
          scroll: 0,
          phase: 'finished',
          progress: {finished: outcome.done.length + outcome.failed.length, total: run.total, failed: outcome.failed.length},
        });
      }
      c.message(summary.message);
      c.refresh();
    });
}

export function reportAction(c: Controller, action: Action): void {
  const m = topModal(c.state);
  if (m?.kind !== 'report') return;
  const page = Math.max(1, c.reportShown);
  const max = Math.max(0, m.lines.length - 1);
  const scrollTo = (n: number) => c.replaceModal(m, {...m, scroll: Math.max(0, Math.min(max, n))});
  switch (action) {
    case 'down':
      return scrollTo(m.scroll + 1);
    case 'up':
      return scrollTo(m.scroll - 1);
    case 'pageDown':
      return scrollTo(m.scroll + page);
    case 'pageUp':
      return scrollTo(m.scroll - page);
    case 'home':
      return scrollTo(0);
    case 'end':
      return scrollTo(max);
    case 'confirm':
      if (m.phase === 'preview' && m.confirm) m.confirm.run();
      else if (m.phase === 'preview') c.message({tone: 'info', text: 'Nothing to apply: Esc closes the preview'});
      else c.message({tone: 'info', text: m.phase === 'finished' ? 'Done: Esc closes the report' : 'Running: Esc stops it'});
      return;
    case 'cancel':
      if (m.phase === 'preview') {
        c.removeModal(m);
        c.message({tone: 'info', text: 'Cancelled: nothing was sent'});
      } else if (m.phase === 'running') {
        m.stop?.();
      } else if (m.phase === 'stopping') {
        c.message({tone: 'warning', text: 'Stopping: waiting for the requests in flight to finish'});
      } else {
        c.removeModal(m);
      }
      return;
    default:
  }
}
