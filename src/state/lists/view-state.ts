// Per-screen view state (filter, sort, selection by id, detail) and its pure transitions.
import {buildListView, prepareIdIndex, prepareListView, moveSelection, reconcileSelection, type ListView} from './list-view.js';
import {warmSortOrder} from './column-order.js';
import type {ColumnSpec, SortSpec} from './columns.js';
import type {FilterFields} from './filter-query.js';
import type {TextEdit} from '../input/textedit.js';

export interface ListUiState {
  filter: string;
  filtering: boolean;
  /** The filter line's caret and undo steps while it is typed (src/state/input/textedit.ts). */
  filterEdit: FilterEdit;
  sort: SortSpec | null;
  selectedId: string | null;
  /** Index of the selection when last seen, to land nearby if the item disappears. */
  selectedIndex: number;
  detailId: string | null;
  detailScroll: number;
  /** A cursor over the detail's selectable lines (a user's devices), or null. */
  detailEntry: string | null;
  /** The screen whose detail opened this one (a user's device): Esc goes back there. */
  returnTo: 'devices' | 'users' | 'rules' | null;
  reveal: boolean;
  /** `s` was pressed: the next key picks the sort column by its letter (src/state/lists/sort-letters.ts). */
  sortPicking: boolean;
  /** The list shows its own view (the Devices list's stale devices, `S`: src/state/lists/own-view.ts). */
  ownView: boolean;
  /** The sort before the own view took over, put back when it is left. */
  sortBeforeOwnView: SortSpec | null;
}

export interface FilterEdit {
  cursor: number;
  undo?: readonly TextEdit[];
  typing?: boolean;
}

export function initialListState(sort: SortSpec | null): ListUiState {
  return {
    filter: '',
    filtering: false,
    filterEdit: {cursor: 0},
    sort,
    selectedId: null,
    selectedIndex: 0,
    detailId: null,
    detailScroll: 0,
    detailEntry: null,
    returnTo: null,
    reveal: false,
    sortPicking: false,
    ownView: false,
    sortBeforeOwnView: null,
  };
}

interface ViewCacheEntry<T> {
  items: readonly T[];
  filter: string;
  sortKey: string | null;
  sortDesc: boolean;
  fields: FilterFields<T> | null;
  now: number;
  view: ListView<T>;
}

/**
 * Memoises the filtered and sorted view per (items, filter, sort, and for a filter with field
 * terms the field table and time): renders and key presses between two polls reuse it instead of
 * re-filtering 50k rows.
 */
export class ListViewCache<T> {
  private entry: ViewCacheEntry<T> | null = null;

  constructor(private readonly getId: (t: T) => string) {}

  get(items: readonly T[], state: Pick<ListUiState, 'filter' | 'sort'>, columns: ColumnSpec<T>[], fields: FilterFields<T> | null = null, now = 0): ListView<T> {
    const e = this.entry;
    const sortKey = state.sort?.key ?? null;
    const sortDesc = state.sort?.desc ?? false;
    if (
      e &&
      e.items === items &&
      e.filter === state.filter &&
      e.sortKey === sortKey &&
      e.sortDesc === sortDesc &&
      // A text-only filter gives the same rows whatever the table (of the same screen) and the time.
      ((e.fields === fields && e.now === now) || (!e.view.readsFields && (e.fields === null) === (fields === null)))
    )
      return e.view;
    const view = buildListView(items, {getId: this.getId, filter: state.filter, sort: state.sort, columns, fields, now});
    this.entry = {items, filter: state.filter, sortKey, sortDesc, fields, now, view};
    return view;
  }

  /** The id index of a poll's items, taken over from the last poll's ahead of the render where it can be (see prepareIdIndex). */
  prepareIndex(items: readonly T[]): Promise<void> {
    return prepareIdIndex(items, this.getId);
  }

  /** Makes ahead, in slices, what `get` would make for a poll's items not shown yet (see prepareListView). */
  prepare(
    items: readonly T[],
    state: Pick<ListUiState, 'filter' | 'sort'>,
    columns: ColumnSpec<T>[],
    fields: FilterFields<T> | null = null,
    now = 0,
  ): Promise<void> {
    return prepareListView(items, {getId: this.getId, filter: state.filter, sort: state.sort, columns, fields, now});
  }

  /** One step of ordering these items by every sortable column ahead of time; true when all are (see warmSortOrder). */
  warm(items: readonly T[], columns: ColumnSpec<T>[], budgetMs?: number): boolean {
    return warmSortOrder(items, columns, this.getId, budgetMs);
  }
}

/** The id the cursor is on now: the stored one if still listed, else the row nearest its old place. */
export function effectiveSelection<T>(view: ListView<T>, state: ListUiState): {id: string | null; index: number} {
  const id = reconcileSelection(view, state.selectedId, state.selectedIndex);
  return {id, index: id === null ? -1 : view.indexOf(id)};
}

export type Move = number | 'home' | 'end' | {page: 1 | -1; pageSize: number};

export function moveCursor<T>(view: ListView<T>, state: ListUiState, move: Move): ListUiState {
  const current = effectiveSelection(view, state);
  const id = moveSelection(view, current.id, move);
  return {...state, selectedId: id, selectedIndex: id === null ? 0 : view.indexOf(id)};
}
