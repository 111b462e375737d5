// Marks and the work done on many items at once: Space marks, `*` marks what the filter shows,
// `d` with marks deletes them all after one question, with a progress bar and a report of each
// failure. Functions of the Controller (src/state/controller.ts); the running and stopping is
// src/state/interactions/jobs.ts, the report modal is drawn by src/ui/views/Report.tsx.
import {ApiError} from '../../api/index.js';
import {type DialogLine} from '../core/modals.js';
import {type ListScreenId} from '../core/state.js';
import type {Controller} from '../controller.js';
import {Job} from '../interactions/jobs.js';
import type {DeviceRow, Snapshot, UserRow} from '../data/snapshot.js';
import {ruleSummary} from '../screens/rules/screen.js';
import {plural} from '../screens/spec.js';
import {RESOURCE_NOUN, setMarks} from './marks.js';
import {runReport} from '../interactions/report.js';

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
