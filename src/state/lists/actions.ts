// What keys do on a list, in a detail and while typing a filter. One path for lists and details:
// first the handling every list shares (moving, filtering, sorting, opening, marking, copying,
// exporting, revealing), then the screen's own action of that name (`actions` in
// src/state/screens/<screen>/screen.ts). Which keys work where is answered from the same tables
// (`listKeyAvailable`), so the hints, the help and read-only refusals cannot disagree with it.
import type {ConsoleContext, ListDerived} from '../core/context.js';
import {displayKey, type Action} from '../input/keymap.js';
import {SCREEN_SPECS, type AnySpec} from '../screens/index.js';
import {actionAt, type ActionPlace, type DeleteAction, type ScreenAction} from '../screens/spec.js';
import {bulkDelete, deleteOne} from './delete.js';
import {exportList} from './export-action.js';
import {markAllShown, toggleMark} from './marks.js';
import {flipSortDirection, stepSort} from './sort-by-column.js';
import {startSortPick} from './sort-letters.js';
import {moveCursor, type Move} from './view-state.js';
import {SIDE_PANEL_MIN_COLUMNS} from '../core/layout.js';
import {openRawView} from '../interactions/raw-view.js';
import {polledItems} from '../screens/display.js';

type Shared = (c: ConsoleContext, list: ListDerived) => void;

// From the row the cursor is shown on (never a row deleted a moment ago: see liveSelection in screen-lists.ts).
const move =
  (m: Move | ((c: ConsoleContext) => Move)): Shared =>
  (c, list) =>
    c.updateList(list.spec.id, (st) =>
      moveCursor(
        list.view,
        list.selection.id === null ? st : {...st, selectedId: list.selection.id, selectedIndex: list.selection.index},
        typeof m === 'function' ? m(c) : m,
      ),
    );
/** A click on the row at `index` of the list as shown: the cursor moves there as j/k would move it, from the row it is shown on. */
export function moveCursorTo(c: ConsoleContext, list: ListDerived, index: number): void {
  if (index < 0 || index >= list.view.rows.length || list.selection.index < 0) return;
  move(index - list.selection.index)(c, list);
}
const page = (direction: 1 | -1) => (c: ConsoleContext) => ({page: direction, pageSize: Math.max(1, c.layout.bodyHeight() - 2)});
const sortable = (list: ListDerived) => list.columns.filter((col) => col.sortValue);

function selectedItem(list: ListDerived): unknown {
  return list.selection.index >= 0 ? (list.view.rows[list.selection.index] ?? null) : null;
}

/** `y`: the item's JSON as the server sent it. */
function showRaw(c: ConsoleContext, list: ListDerived, item: unknown): void {
  if (item === null || !list.spec.raw) {
    c.message({tone: 'info', text: nothingUnder(list, 'list')});
    return;
  }
  openRawView(c, `${list.spec.title(item, c.snapshot)}, as the server sent it`, list.spec.raw(item));
}

function copyItem(c: ConsoleContext, list: ListDerived, item: unknown): void {
  const value = item !== null ? list.spec.copyValue(item) : null;
  if (value) c.copy(value.label, value.value);
}

/** What every list does, whatever its screen. */
const ON_LIST: Partial<Record<Action, Shared>> = {
  up: move(-1),
  down: move(1),
  pageUp: move(page(-1)),
  pageDown: move(page(1)),
  home: move('home'),
  end: move('end'),
  // The caret starts at the end of the filter kept from before.
  filter: (c, list) => c.updateList(list.spec.id, (st) => ({...st, filtering: true, filterEdit: {cursor: [...st.filter].length}})),
  sortBy: startSortPick,
  sortNext: (c, list) => c.updateList(list.spec.id, (st) => ({...st, sort: stepSort(st.sort, sortable(list), 1)})),
  sortPrev: (c, list) => c.updateList(list.spec.id, (st) => ({...st, sort: stepSort(st.sort, sortable(list), -1)})),
  sortReverse: (c, list) => c.updateList(list.spec.id, (st) => ({...st, sort: flipSortDirection(st.sort, sortable(list))})),
  open: (c, list) => {
    if (list.selection.id) c.openDetail(list.spec.id, list.selection.id);
  },
  copy: (c, list) => copyItem(c, list, selectedItem(list)),
  raw: (c, list) => showRaw(c, list, selectedItem(list)),
  mark: toggleMark,
  markAll: markAllShown,
  export: (c) => exportList(c, false),
  sidePanel: (c) => {
    const on = !c.state.sidePanel;
    c.set((s) => ({...s, sidePanel: on}));
    const wide = c.layout.width >= SIDE_PANEL_MIN_COLUMNS;
    c.message({
      tone: 'info',
      text: !on
        ? 'Detail beside the list: off'
        : wide
          ? 'Detail beside the list: on (P hides it)'
          : `Detail beside the list: on, shown from ${SIDE_PANEL_MIN_COLUMNS} columns (this terminal has ${c.layout.width})`,
    });
  },
};

/** What every detail does. */
const IN_DETAIL: Partial<Record<Action, Shared>> = {
  back: (c, list) => {
    const from = list.state.returnTo;
    c.leaveDetail(list.spec.id);
    // Back one level: a device opened from a user's detail returns to that user.
    if (from) c.set((s) => ({...s, screen: from}));
  },
  up: (c, list) => stepDetail(c, list, -1),
  down: (c, list) => stepDetail(c, list, 1),
  open: (c, list) => {
    const entry = list.state.detailEntry;
    const entries = detailEntries(c, list);
    if (entry?.startsWith('device:') && entries.includes(entry)) {
      c.openDetail('devices', entry.slice('device:'.length), list.spec.id);
      return;
    }
    // Nothing under the cursor (or a device no longer listed: deleted, or restored under a new
    // id): say so, rather than open the detail of nothing or do nothing at all.
    c.message({
      tone: 'info',
      text:
        entries.length === 0
          ? `Enter opens a device from a user's detail; nothing to open in this ${list.spec.noun}'s detail`
          : entry
            ? 'The device under the cursor is not on the server any more; j/k moves onto the devices listed'
            : `j/${displayKey('down')} moves onto a device first; Enter then opens it`,
    });
  },
  reveal: (c, list) => {
    if (list.detailItem === null) c.message({tone: 'info', text: nothingUnder(list, 'detail')});
    else c.updateList(list.spec.id, (st) => ({...st, reveal: !st.reveal}));
  },
  copy: (c, list) => {
    if (list.detailItem === null) c.message({tone: 'info', text: nothingUnder(list, 'detail')});
    else copyItem(c, list, list.detailItem);
  },
  raw: (c, list) => {
    if (list.detailItem === null) c.message({tone: 'info', text: nothingUnder(list, 'detail')});
    else showRaw(c, list, list.detailItem);
  },
};

/** Why a key that acts on an item did nothing: a detail whose item is gone, or a list with no row under the cursor. */
function nothingUnder(list: ListDerived, where: ActionPlace): string {
  return where === 'detail'
    ? `This ${list.spec.noun} is not on the server any more: there is nothing to act on (Esc returns to the list)`
    : `No ${list.spec.noun} under the cursor${list.view.rows.length === 0 ? ': the list shows none' : ''}`;
}

/** The detail's selectable lines (a user's devices), in order. */
function detailEntries(c: ConsoleContext, list: ListDerived): string[] {
  const item = list.detailItem;
  const snapshot = c.state.snapshot;
  return item && snapshot ? list.spec.detail(item, {snapshot, now: c.state.clock, reveal: false}).flatMap((l) => (l.entry ? [l.entry] : [])) : [];
}

/** A detail with selectable lines (a user's devices) moves a cursor over them; others scroll. */
function stepDetail(c: ConsoleContext, list: ListDerived, delta: 1 | -1): void {
  const entries = detailEntries(c, list);
  if (entries.length > 0) {
    c.updateList(list.spec.id, (st) => {
      const at = st.detailEntry === null ? -1 : entries.indexOf(st.detailEntry);
      const next = delta > 0 ? Math.min(entries.length - 1, at + 1) : Math.max(0, at - 1);
      return {...st, detailEntry: entries[next] ?? null};
    });
    return;
  }
  c.updateList(list.spec.id, (st) => ({...st, detailScroll: Math.max(0, st.detailScroll + delta)}));
}

const SHARED: Record<ActionPlace, Partial<Record<Action, Shared>>> = {list: ON_LIST, detail: IN_DETAIL};

/** Whether every list handles `action` there itself (a screen's own action of that name would never run). */
export function sharedListAction(action: Action, where: ActionPlace): boolean {
  return SHARED[where][action] !== undefined;
}

/** Whether `action` does something on this screen's list or detail: shared handling, or the screen's own action. */
export function listKeyAvailable(spec: AnySpec, action: Action, where: ActionPlace): boolean {
  if (SHARED[where][action]) {
    // Marks serve bulk work: a screen whose items cannot be deleted (Activity) has none.
    if (action === 'mark' || action === 'markAll') return spec.actions.delete !== undefined;
    if (action === 'reveal') return spec.revealable === true;
    if (action === 'raw') return spec.raw !== undefined;
    return true;
  }
  return actionAt(spec, action, where) !== undefined;
}

/** What the admin would have done with `action` here, for read-only refusals ("deleting devices"). */
export function listActionVerb(spec: AnySpec, action: Action, where: ActionPlace): string | null {
  return actionAt(spec, action, where)?.verb ?? null;
}

/** A key on a list (`where` = list) or in a detail. */
export function listAction(c: ConsoleContext, where: ActionPlace, action: Action): void {
  const list = c.activeList();
  if (!list || !c.state.snapshot) return;
  const spec = SCREEN_SPECS[list.spec.id];
  const shared = SHARED[where][action];
  if (shared) {
    if (listKeyAvailable(spec, action, where)) shared(c, list);
    return;
  }
  // `d` with rows marked deletes all of them (after one question), not the row under the cursor.
  if (action === 'delete' && where === 'list' && spec.actions.delete && c.state.marks[spec.id].size > 0) {
    bulkDelete(c, spec, spec.actions.delete);
    return;
  }
  const own = actionAt(spec, action, where);
  if (!own) return;
  // Likewise an action on one item that also acts on marked ones (`K`): all of them.
  if (where === 'list' && !isDelete(own) && own.needs === 'item' && own.marked && c.state.marks[spec.id].size > 0) {
    const marks = c.state.marks[spec.id];
    own.marked.run(
      c,
      polledItems(spec, c.snapshot).filter((item) => marks.has(spec.getId(item))),
    );
    return;
  }
  // A detail left open on an item deleted meanwhile (here or elsewhere): it is gone from the server.
  if (where === 'detail' && list.state.detailId !== null && list.ghosts.has(list.state.detailId)) {
    c.message({tone: 'info', text: `This ${list.spec.noun} was deleted a moment ago: nothing to act on (Esc goes back to the list)`, place: true});
    return;
  }
  if (!isDelete(own) && own.needs === 'nothing') {
    const reason = own.disabledReason?.(c) ?? null;
    if (reason !== null) c.message({tone: 'info', text: reason});
    else own.run(c, where);
    return;
  }
  // An action on an item, a delete included, is not run without one: that is said rather than
  // ignored (a key that does nothing without a word reads as broken).
  const item = where === 'list' ? selectedItem(list) : list.detailItem;
  if (item === null) {
    c.message({tone: 'info', text: nothingUnder(list, where), place: true});
    return;
  }
  if (isDelete(own)) {
    deleteOne(c, spec, own, item);
    return;
  }
  const reason = own.disabledReason?.(c, item) ?? null;
  if (reason !== null) c.message({tone: 'info', text: reason});
  else own.run(c, item, where);
}

/** The delete is the one action the list runs itself (src/state/lists/delete.ts): the screen says what one delete is. */
function isDelete<T>(action: ScreenAction<T> | DeleteAction<T>): action is DeleteAction<T> {
  return !('needs' in action);
}

/** Keys while typing a filter (the text itself is typed by the dispatch). */
export function filterAction(c: ConsoleContext, action: Action): void {
  const list = c.activeList();
  if (!list) return;
  const screen = list.spec.id;
  if (action === 'filterAccept') {
    // The cursor goes where the admin's attention is: to the first match if it is not on one.
    c.updateList(screen, (st) => {
      const view = c.list(screen)?.view;
      const inView = view && st.selectedId !== null && view.indexOf(st.selectedId) >= 0;
      const first = view && view.rows.length > 0 ? view.idAt(0) : null;
      return {...st, filtering: false, ...(inView || first === null ? {} : {selectedId: first, selectedIndex: 0})};
    });
  } else if (action === 'filterClear') {
    c.updateList(screen, (st) => ({...st, filtering: false, filter: ''}));
  } else if (action === 'up' || action === 'down') {
    c.updateList(screen, (st) => moveCursor(list.view, st, action === 'up' ? -1 : 1));
  }
}
