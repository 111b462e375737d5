// Marks: Space marks the row under the cursor, `*` what the filter shows, Esc lets go. Tied to ids,
// so they survive refreshes, sorting and filtering; a mark whose item is gone from the server drops out.
import type {ConsoleContext, ListDerived} from '../core/context.js';
import type {ConsoleState, ListScreenId} from '../core/state.js';
import type {Snapshot} from '../data/snapshot.js';
import {plural} from '../data/format.js';
import {quotedFilter} from './filter-query.js';
import {polledItems, type ScreenDisplay} from '../screens/display.js';

export const NO_MARKS: ReadonlySet<string> = new Set();

export function initialMarks(): ConsoleState['marks'] {
  return {devices: NO_MARKS, users: NO_MARKS, rules: NO_MARKS, activity: NO_MARKS};
}

export function setMarks(c: ConsoleContext, screen: ListScreenId, marks: ReadonlySet<string>): void {
  c.set((s) => ({...s, marks: {...s.marks, [screen]: marks.size === 0 ? NO_MARKS : marks}}));
}

/** Space: the row under the cursor. The cursor moves on, as in k9s and mc, so Space Space Space marks a run. */
export function toggleMark(c: ConsoleContext, list: ListDerived): void {
  if (list.selection.id === null) return;
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
export function markAllShown(c: ConsoleContext, list: ListDerived): void {
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
      : `Marked ${plural(ids.length, noun)}${list.state.filter ? ` matching ${quotedFilter(list.state.filter)}` : ''}; ${marks.size} marked`,
  });
}

/** Esc on a list with no filter left to clear. True when there were marks. */
export function clearMarks(c: ConsoleContext, list: ListDerived): boolean {
  const n = c.state.marks[list.spec.id].size;
  if (n === 0) return false;
  setMarks(c, list.spec.id, NO_MARKS);
  c.message({tone: 'info', text: `Unmarked ${plural(n, list.spec.noun)}`});
  return true;
}

/**
 * After a poll: marks whose item is gone from the server drop out, and the admin is told. Costs
 * nothing while nothing is marked.
 */
export function pruneMarks(
  marks: ConsoleState['marks'],
  snapshot: Snapshot,
  screens: Readonly<Record<ListScreenId, ScreenDisplay<unknown>>>,
): {marks: ConsoleState['marks']; dropped: string | null} {
  let next = marks;
  const parts: string[] = [];
  for (const screen of Object.keys(marks) as ListScreenId[]) {
    const current = marks[screen];
    if (current.size === 0) continue;
    const spec = screens[screen];
    const present = new Set(polledItems(spec, snapshot).map((item) => spec.getId(item)));
    const kept = new Set([...current].filter((id) => present.has(id)));
    if (kept.size === current.size) continue;
    parts.push(plural(current.size - kept.size, `marked ${spec.noun}`));
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
