// What keys do outside modals: screens, help, the filter, lists and details. Functions of the
// Controller (src/state/controller.ts); resource-specific actions are in src/state/resources/*.
import {bulkDelete} from './bulk-delete.js';
import {markAllShown, toggleMark} from './marks.js';
import type {Controller} from '../controller.js';
import type {Action} from '../input/keymap.js';
import {exportList} from './export-action.js';
import {openImport} from '../screens/users/import-action.js';
import {flipSortDirection, stepSort} from './sort-by-column.js';
import {moveCursor, type Move} from './view-state.js';

export function filterAction(c: Controller, action: Action): void {
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

export function listAction(c: Controller, action: Action): void {
  const list = c.activeList();
  if (!list || !c.state.snapshot) return;
  const screen = list.spec.id;
  const pageSize = Math.max(1, c.bodyHeight() - 2);
  const move = (m: Move) => c.updateList(screen, (st) => moveCursor(list.view, st, m));
  const selected = list.selection.index >= 0 ? list.view.rows[list.selection.index] : undefined;
  const sortable = list.columns.filter((c) => c.sortValue);
  switch (action) {
    case 'up':
      return move(-1);
    case 'down':
      return move(1);
    case 'pageUp':
      return move({page: -1, pageSize});
    case 'pageDown':
      return move({page: 1, pageSize});
    case 'home':
      return move('home');
    case 'end':
      return move('end');
    case 'filter':
      return c.updateList(screen, (st) => ({...st, filtering: true}));
    case 'sortNext':
    case 'sortPrev':
      return c.updateList(screen, (st) => ({...st, sort: stepSort(st.sort, sortable, action === 'sortNext' ? 1 : -1)}));
    case 'sortReverse':
      return c.updateList(screen, (st) => ({...st, sort: flipSortDirection(st.sort, sortable)}));
    case 'open':
      if (list.selection.id) c.openDetail(screen, list.selection.id);
      return;
    case 'copy': {
      const value = selected ? list.spec.copyValue(selected) : null;
      if (value) c.copy(value.label, value.value);
      return;
    }
    case 'new':
      return list.spec.actions.new?.(c);
    case 'edit':
      if (selected) list.spec.actions.edit?.(c, selected);
      return;
    case 'delete':
      if (c.state.marks[screen].size > 0) bulkDelete(c, screen);
      else if (selected) list.spec.actions.delete?.(c, selected);
      return;
    case 'role':
      if (selected) list.spec.actions.role?.(c, selected);
      return;
    case 'mark':
      return toggleMark(c);
    case 'markAll':
      return markAllShown(c);
    case 'import':
      return openImport(c);
    case 'export':
      return exportList(c, false);
    case 'exportSecrets':
      return exportList(c, true);
    case 'stale':
      return c.toggleStaleView();
    default:
  }
}

export function detailAction(c: Controller, action: Action): void {
  const list = c.activeList();
  if (!list) return;
  const screen = list.spec.id;
  const item = list.detailItem;
  switch (action) {
    case 'back': {
      const from = list.state.returnTo;
      c.leaveDetail(screen);
      // Back one level: a device opened from a user's detail returns to that user.
      if (from) c.set((s) => ({...s, screen: from}));
      return;
    }
    case 'up':
    case 'down': {
      // A detail with selectable lines (a user's devices) moves a cursor over them; others scroll.
      const entries =
        item && c.state.snapshot
          ? list.spec.detail(item, {snapshot: c.state.snapshot, now: c.state.clock, reveal: false}).flatMap((l) => (l.entry ? [l.entry] : []))
          : [];
      if (entries.length > 0) {
        c.updateList(screen, (st) => {
          const at = st.detailEntry === null ? -1 : entries.indexOf(st.detailEntry);
          const next = action === 'down' ? Math.min(entries.length - 1, at + 1) : Math.max(0, at - 1);
          return {...st, detailEntry: entries[next] ?? null};
        });
        return;
      }
      return c.updateList(screen, (st) => ({...st, detailScroll: Math.max(0, st.detailScroll + (action === 'down' ? 1 : -1))}));
    }
    case 'open': {
      const entry = list.state.detailEntry;
      if (entry?.startsWith('device:')) c.openDetail('devices', entry.slice('device:'.length), screen);
      return;
    }
    case 'reveal':
      return c.updateList(screen, (st) => ({...st, reveal: !st.reveal}));
    case 'copy': {
      const value = item ? list.spec.copyValue(item) : null;
      if (value) c.copy(value.label, value.value);
      return;
    }
    case 'edit':
      if (item) list.spec.actions.edit?.(c, item);
      return;
    case 'delete':
      if (item) list.spec.actions.delete?.(c, item);
      return;
    case 'role':
      if (item) list.spec.actions.role?.(c, item);
      return;
    case 'new':
      if (item) list.spec.actions.newFromDetail?.(c, item);
      return;
    default:
  }
}
