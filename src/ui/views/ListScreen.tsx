// A resource list or its detail, on the generic table and detail views.
import React, {useCallback, useMemo} from 'react';
import {Box} from 'ink';
import type {ListDerived} from '../../state/core/context.js';
import {NOT_VISIBLE, type HiddenList, type Snapshot} from '../../state/data/snapshot.js';
import type {ListSettings} from '../../state/screens/display.js';
import {glyphs} from '../../state/core/glyphs.js';
import {SIDE_PANEL_MIN_COLUMNS, type TablePlacement} from '../../state/core/layout.js';
import {Text} from '../SafeText.js';
import {fitColumns, sortMarker, Table, tableBodyRows} from '../table/Table.js';
import type {ListScreenId} from '../../state/core/state.js';
import {color} from '../theme.js';
import {truncate, wrapLines} from '../text.js';
import {changeDecorator, type ChangeSources} from '../table/changes.js';
import {DetailView} from './DetailView.js';
import {sortLetters, sortPickInfo} from '../../state/lists/sort-letters.js';
import {quotedFilter} from '../../state/lists/filter-query.js';

export function listInfo(
  list: ListDerived,
  snapshot: Snapshot,
  width: number,
  marked = 0,
  settings: ListSettings = {},
  now: number = snapshot.fetchedAt,
): string {
  const {spec, state, view, selection} = list;
  if (state.sortPicking && !state.detailId) return sortPickInfo(list, width);
  if (state.detailId) {
    const noun = `${spec.noun[0]!.toUpperCase()}${spec.noun.slice(1)}`;
    return list.detailItem ? `${noun} › ${spec.title(list.detailItem, snapshot)}` : `${spec.noun} gone`;
  }
  const total = list.total;
  const position = selection.index >= 0 ? `${selection.index + 1}/${view.rows.length}` : `0/${view.rows.length}`;
  const filterText = state.filtering
    ? `/${withCaret(state.filter, state.filterEdit.cursor)}`
    : state.filter
      ? `filter ${quotedFilter(keptFilter(state.filter))} (Esc clears)`
      : '';
  // The sorted column may be one the width hides: say so rather than show an order with no arrow.
  const sorted = state.sort ? list.columns.find((c) => c.key === state.sort!.key) : undefined;
  const hidden =
    sorted && !fitColumns(list.columns, width).some((f) => f.column.key === sorted.key)
      ? `  · sorted by ${sorted.header.trim() || sorted.key} ${sortMarker(state.sort!.desc)} (hidden column)`
      : '';
  // The list's own view (the stale devices) is named for what it shows; the summary is of all the items.
  const own = state.ownView ? spec.ownView : undefined;
  const noun = own ? own.noun(settings) : `${spec.noun}s`;
  const summary = own ? null : (spec.summary?.(snapshot, now) ?? null);
  const deleted = list.deleted > 0 ? ` · ${list.deleted} just deleted` : '';
  // A sort by a hidden column comes before the counts: at 80 columns the line's end is cut.
  return `${filterText ? `${filterText}  ` : ''}${position}${view.rows.length !== total + list.deleted ? ` of ${total}` : ''} ${noun}${hidden}${deleted}${marked > 0 ? ` · ${marked} marked` : ''}${summary ? ` · ${summary}` : ''}`;
}

/** Cells of the filter the info line shows: the counts after it must stay in view. */
const FILTER_WINDOW = 40;

/** The filter as typed, the caret drawn where the next character goes; a long one is a window around the caret. */
function withCaret(text: string, cursor: number): string {
  const chars = [...text];
  const at = Math.max(0, Math.min(cursor, chars.length));
  const start = Math.max(0, Math.min(at - FILTER_WINDOW / 2, chars.length - FILTER_WINDOW));
  const end = Math.min(chars.length, start + FILTER_WINDOW);
  const more = glyphs().ellipsis;
  return `${start > 0 ? more : ''}${chars.slice(start, at).join('')}${glyphs().caret}${chars.slice(at, end).join('')}${end < chars.length ? more : ''}`;
}

/** A kept filter, cut so the counts after it stay in view. */
function keptFilter(text: string): string {
  const chars = [...text];
  return chars.length > FILTER_WINDOW ? `${chars.slice(0, FILTER_WINDOW - 1).join('')}${glyphs().ellipsis}` : text;
}

/** Rows the filter's error may take from the table: the devices' list of keys needs two at 80 columns. */
const FILTER_ERROR_ROWS = 2;

/**
 * The filter's error as the lines under the table, right above the info line that shows the
 * filter: `✗ unknown filter key "foo" — devices know: …`, wrapped, at most FILTER_ERROR_ROWS.
 */
export function filterErrorLines(error: string, width: number): string[] {
  const lines = wrapLines(`✗ ${error}`, width, FILTER_ERROR_ROWS + 1);
  if (lines.length <= FILTER_ERROR_ROWS) return lines;
  return [...lines.slice(0, FILTER_ERROR_ROWS - 1), truncate(lines.slice(FILTER_ERROR_ROWS - 1).join(' '), width)];
}

/** Whether the detail fits beside the list at this width. */
export function sideBySide(width: number): boolean {
  return width >= SIDE_PANEL_MIN_COLUMNS;
}

/** The list's share of the width when the detail is beside it. */
export function listWidthBeside(width: number): number {
  return Math.floor(width * 0.55);
}

/**
 * The table's scroll offset reported with its list's id. Made here, not inside ListScreen: a
 * closure shares its function's scope, and one kept by useCallback in ListScreen kept that
 * render's list and snapshot alive for as long as it lived (40 MB at 50,000 devices, measured).
 */
function useTopReport(screen: ListScreenId, onTableTop: ((screen: ListScreenId, top: number) => void) | undefined): (top: number) => void {
  return useCallback((top: number) => onTableTop?.(screen, top), [screen, onTableTop]);
}

export function ListScreen({
  list,
  snapshot,
  now,
  width,
  height,
  marks,
  changes,
  side = false,
  onTable,
  onTableTop,
  onEntries,
}: {
  list: ListDerived;
  snapshot: Snapshot;
  now: number;
  width: number;
  height: number;
  marks: ReadonlySet<string>;
  changes: ChangeSources;
  /** `P`: the detail of the cursor row beside the list, where the width allows (sideBySide). */
  side?: boolean;
  /** Told where the table is (for the mouse), its rows counted from the top of this view. */
  onTable?: (placement: TablePlacement) => void;
  /** Told the table's scroll offset once it has drawn; keep it stable (the table is memoised). */
  onTableTop?: (screen: ListScreenId, top: number) => void;
  /** Told which rows of an open detail (from this view's top) hold an entry (a user's devices), for the mouse. */
  onEntries?: (rows: {row: number; entry: string}[]) => void;
}): React.JSX.Element {
  const {spec, state, view, selection, columns} = list;
  const screen = spec.id;
  const onTopChange = useTopReport(screen, onTableTop);
  const second = Math.floor(now / 1000);
  const highlights = changes.tracker.highlights.version;
  const traffic = changes.history.version;
  // A new function (and so new visible rows) only when a mark may have appeared or faded.
  const decorate = useMemo(
    () => changeDecorator(spec.id, changes, second * 1000),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the versions stand for the tracker's and history's mutable state
    [spec.id, changes, second, highlights, traffic],
  );
  // After `s`: each column's letter, underlined in the header.
  const letters = useMemo(() => (state.sortPicking ? sortLetters(columns) : null), [state.sortPicking, columns]);
  if (state.detailId) {
    if (!list.detailItem) {
      return (
        <Box height={height}>
          <Text color={color('warning')}>{`This ${spec.noun} is not on the server any more. Esc returns to the list.`}</Text>
        </Box>
      );
    }
    const lines = spec.detail(list.detailItem, {snapshot, now, reveal: state.reveal, history: changes.history});
    return (
      <DetailView
        lines={lines}
        scroll={state.detailScroll}
        width={width}
        height={height}
        {...(state.detailEntry ? {selectedEntry: state.detailEntry} : {})}
        {...(onEntries ? {onEntries} : {})}
      />
    );
  }
  // The list, with the filter's error under it when a term could not be read.
  const listPart = (width: number): React.JSX.Element => {
    const table = (tableHeight: number) => {
      // The header is the table's first line; its rows start under it.
      onTable?.({screen, firstRow: 1, left: 0, width, capacity: tableBodyRows(tableHeight), total: view.rows.length});
      return (
        <Table
          rows={view.rows}
          columns={columns}
          getId={spec.getId}
          indexOf={view.indexOf}
          selectedId={selection.id}
          width={width}
          height={tableHeight}
          sort={state.sort ?? undefined}
          sortLetters={letters}
          version={Math.floor(now / 1000)}
          marked={marks}
          gutter
          {...(decorate ? {decorate} : {})}
          emptyText={isHidden(snapshot, spec.id) ? NOT_VISIBLE : state.filter ? `No ${spec.noun}s match ${quotedFilter(state.filter)}.` : `No ${spec.noun}s.`}
          onTopChange={onTopChange}
        />
      );
    };
    if (!list.filterError) return table(height);
    // A term the filter could not read is left out; saying so in the error colour next to the
    // filter keeps a typo from passing for "these are the matches".
    const errorLines = filterErrorLines(list.filterError, width).slice(0, Math.max(0, height - 1));
    return (
      <Box flexDirection="column" height={height}>
        {table(height - errorLines.length)}
        {errorLines.map((line, i) => (
          <Text key={i} wrap="truncate" color={color('danger')}>
            {line}
          </Text>
        ))}
      </Box>
    );
  };
  // `P` on a wide terminal: the list on the left, the cursor row's detail on the right, drawn
  // from the same derived list on every frame, so it follows the cursor and the refreshes.
  const panelItem = side && sideBySide(width) && selection.index >= 0 ? (view.rows[selection.index] ?? null) : null;
  const listWidth = panelItem !== null ? listWidthBeside(width) : width;
  const listBlock = listPart(listWidth);
  if (panelItem === null) return listBlock;
  const panelWidth = width - listWidth - 2;
  const panelLines = spec.detail(panelItem, {snapshot, now, reveal: false, history: changes.history});
  return (
    <Box flexDirection="row" height={height}>
      <Box width={listWidth} flexDirection="column">
        {listBlock}
      </Box>
      <Box width={2} flexDirection="column">
        {/* One line each: a newline inside a Text is untrusted-looking text to the display boundary. */}
        {Array.from({length: height}, (_, i) => (
          <Text key={i} color={color('muted')}>
            {glyphs().divider}
          </Text>
        ))}
      </Box>
      <Box width={panelWidth} flexDirection="column">
        <Text bold color={color('accent')} wrap="truncate">
          {truncate(spec.title(panelItem, snapshot), panelWidth)}
        </Text>
        <DetailView lines={panelLines} scroll={0} width={panelWidth} height={height - 1} />
      </Box>
    </Box>
  );
}

/** A list the token may not read (Users, Rules for a non-admin token): not "No users.". */
function isHidden(snapshot: Snapshot, screen: string): boolean {
  return snapshot.hidden.has(screen as HiddenList);
}
