// `u` takes the last delete of this session back; `:undo` lists them (newest first) and `:undo N`
// takes back an older one. The restore runs in a report (src/state/undo/restore.ts) that says what
// came back, what did not and why; what did not stays undoable.
import type {ConsoleContext} from '../core/context.js';
import type {DialogLine} from '../core/modals.js';
import {formatAge, plural} from '../data/format.js';
import {restore} from './restore.js';
import {countOf, type UndoEntry} from './undo-log.js';

/** What a restore is called where read-only mode refuses it, for `u` and `:undo N` alike. */
export const UNDO_WRITE = 'undoing a delete';

/** Entries being restored now: a second `u` during a restore does not start it twice. */
const busy = new WeakSet<UndoEntry>();

function describe(entry: UndoEntry): string {
  const {users, devices, rules, newKeys = []} = entry.items;
  const parts = [
    users.length ? plural(users.length, 'user') : '',
    devices.length ? plural(devices.length, 'device') : '',
    rules.length ? plural(rules.length, 'rule') : '',
    newKeys.length ? plural(newKeys.length, 'new key') : '',
  ];
  return parts.filter(Boolean).join(', ');
}

export function undoLast(c: ConsoleContext): void {
  const entry = c.undo.last();
  const later = c.undo.laterWrite();
  if (!entry) {
    c.message({
      tone: 'info',
      text: later
        ? `Nothing to undo: u takes back deletes of devices, users and rules and new keys (K), and none is left (not "${later}")`
        : 'Nothing to undo: no delete or new key of this session is left to take back',
    });
    return;
  }
  if (later === null) {
    void undoEntry(c, entry);
    return;
  }
  // The admin's latest change is not the delete `u` would take back (a provider deleted, a device
  // renamed): say so, and ask, instead of bringing back something older unasked.
  c.openDialog({
    title: `Take back ${entry.label}, ${entry.items.newKeys?.length ? 'made' : 'deleted'} ${formatAge(entry.at, Date.now())} ago?`,
    lines: [
      {text: `Your latest change cannot be taken back with u: ${later}`, tone: 'warning'},
      {text: 'u takes back the newest delete (of devices, users or rules) or new key; :undo lists them all.', tone: 'muted'},
    ],
    choices: [
      // Not awaited: the restore's own report shows its progress; the question closes at once.
      {
        action: 'confirm',
        label: 'take it back',
        run: () => {
          void undoEntry(c, entry);
        },
      },
      {action: 'cancel', label: 'cancel'},
    ],
  });
}

/** `:undo` (the list) and `:undo N`. */
export function undoCommand(c: ConsoleContext, arg: string): void {
  if (arg === '') {
    const entries = c.undo.list();
    const lines: DialogLine[] =
      entries.length === 0
        ? [{text: 'No delete or new key of this session to take back.'}]
        : [
            ...entries.map((e) => ({
              // A bulk delete's label is already its count ("5 devices"): said once.
              text: `${String(e.number).padStart(3)}  ${new Date(e.at).toISOString().slice(11, 19)}  ${e.label}${e.restored ? '  (taken back)' : describe(e) === e.label ? '' : `  — ${describe(e)}`}`,
              ...(e.restored ? {tone: 'muted' as const} : {}),
            })),
            {text: ''},
            {text: 'u takes back the newest; :undo N the one numbered N. Kept in memory only: gone when the console quits.', tone: 'muted'},
          ];
    c.push({kind: 'report', title: 'Deletes and new keys of this session', phase: 'finished', progress: null, scroll: 0, lines});
    return;
  }
  const n = /^\d+$/.test(arg) ? Number(arg) : NaN;
  const entry = Number.isNaN(n) ? null : c.undo.get(n);
  if (!entry) {
    c.message({tone: 'warning', text: `Nothing numbered ${arg} to take back (:undo lists them)`});
    return;
  }
  if (entry.restored) {
    c.message({tone: 'info', text: `${n} (${entry.label}) was taken back already`});
    return;
  }
  void undoEntry(c, entry);
}

async function undoEntry(c: ConsoleContext, entry: UndoEntry): Promise<void> {
  if (busy.has(entry)) {
    c.message({tone: 'info', text: `Already taking back ${entry.label}…`});
    return;
  }
  busy.add(entry);
  const total = countOf(entry.items);
  const report = c.push({
    kind: 'report',
    title: `Undo: ${entry.label}`,
    phase: 'running',
    progress: null,
    scroll: 0,
    lines: [
      {
        text: entry.items.newKeys?.length
          ? `Taking back ${describe(entry)}: each device comes back as it was, with its old keys…`
          : `Creating ${describe(entry)} again, as they were…`,
      },
      ...entry.caveats.map((text) => ({text: `Cannot come back: ${text}`, tone: 'warning' as const})),
    ],
  });
  try {
    const result = await restore(c.client, entry.items, c.undo.restoredUsers, (id) => c.state.snapshot?.usersById.get(id)?.email ?? null);
    // A detail open on a device that came back, or on the one whose new key was taken back, shows the device as it is now.
    const follow = result.deviceIds.get(c.state.lists.devices.detailId ?? '');
    if (follow !== undefined) c.updateList('devices', (st) => ({...st, detailId: follow, selectedId: follow}));
    const left = countOf(result.left);
    if (left === 0) entry.restored = true;
    else entry.items = result.left;
    const head: DialogLine = {
      text:
        left === 0
          ? `Took back ${entry.label}: ${plural(result.restored, 'item')} restored.`
          : `Restored ${result.restored} of ${total}; ${left} still undoable (u again, or :undo ${entry.number}).`,
      tone: left === 0 ? 'ok' : 'warning',
    };
    const lines = [head, {text: ''}, ...result.lines, ...entry.caveats.map((text) => ({text: `Not restored: ${text}`, tone: 'warning' as const}))];
    const current = c.current(report);
    if (current) c.replaceModal(current, {...current, phase: 'finished', lines});
    c.afterWrite(head.text);
    // A restore is undo's own write: `u` again goes on to the next delete without asking.
    c.undo.noteWrite(null);
  } finally {
    busy.delete(entry);
  }
}
