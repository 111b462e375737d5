// The list table: header + only the visible window of rows, each row ONE <Text> line.
//
// Why this shape (docs/terminal-notes.md, "Every commit lays out the whole tree" and "Packages that cannot load under Ink 4 and later"): Ink re-lays out the whole tree with Yoga on every
// commit and has no virtualisation, so the frame holds at most `height` lines whatever the row
// count, rows are single truncated Text nodes (no per-cell Boxes), and the element of an
// unselected row is cached per row object so React bails out of it on the next render.
//
// Scrolling: by default the component keeps its own `top` (first visible row) and moves it only
// when the cursor enters the scroll-off margin (src/state/lists/list-view.ts `computeWindow`). Pass `top` to control it
// from outside; `onTopChange` reports every change in both modes.

import React, {memo, useEffect, useMemo, useState} from 'react';
import {Box} from 'ink';
import {Text} from '../SafeText.js';
import {glyphs} from '../../state/core/glyphs.js';
import {computeWindow} from '../../state/lists/list-view.js';
import {type SortSpec} from '../../state/lists/columns.js';
import {padEnd, truncate} from '../text.js';
import {color} from '../theme.js';
import {fitColumns, headerText, rowSegments, type FittedColumn, type TableColumn} from './layout.js';

export {fitColumns, fittedWidth, headerText, rowSegments, rowText, COLUMN_GAP, sortMarker} from './layout.js';
export type {ColumnWidth, FittedColumn, Segment, TableColumn} from './layout.js';

/** The header with the letters at `marks` underlined and in the accent colour (the sort letters after `s`). */
function underlined(text: string, marks: readonly number[]): React.JSX.Element[] {
  const out: React.JSX.Element[] = [];
  let from = 0;
  for (const at of [...marks].sort((a, b) => a - b)) {
    if (at < from || at >= text.length) continue;
    if (at > from) out.push(<Text key={`t${from}`}>{text.slice(from, at)}</Text>);
    out.push(
      <Text key={`m${at}`} underline color={color('accent')}>
        {text[at]}
      </Text>,
    );
    from = at + 1;
  }
  if (from < text.length) out.push(<Text key={`t${from}`}>{text.slice(from)}</Text>);
  return out;
}

export interface TableProps<T> {
  /** The rows to list, already filtered and sorted (`buildListView(...).rows`). */
  rows: readonly T[];
  /** Memoise this array: a new array re-fits the columns and rebuilds every visible row. */
  columns: readonly TableColumn<T>[];
  getId: (row: T) => string;
  selectedId: string | null;
  /**
   * O(1) position of an id in `rows` (pass `view.indexOf`). Without it the table scans `rows`
   * for the selected id on every frame.
   */
  indexOf?: (id: string) => number;
  /** Cells available. */
  width: number;
  /** Lines available, the header line included. The table renders exactly this many lines. */
  height: number;
  sort?: SortSpec | null;
  /** After `s`: each sortable column's letter and where it is in its title, underlined in the header. */
  sortLetters?: ReadonlyMap<string, {at: number}> | null;
  /** Shown under the header when there are no rows. */
  emptyText?: string;
  /** Controlled first visible row; omit to let the table keep it. */
  top?: number;
  onTopChange?: (top: number) => void;
  /** Rows kept visible above/below the cursor (default 2, like lazygit). */
  scrollOff?: number;
  /** Cells that depend on time (ages, online state): a new value redraws the visible rows. */
  version?: number;
  /**
   * Marked ids (Space). While any row is marked every row gets a two-cell gutter, the mark glyph
   * on marked rows, so marks show without colour too.
   */
  marked?: ReadonlySet<string>;
  /**
   * A three-cell gutter before the first column: the mark (✓) and the row's change glyph (+ ~ × ↑ ↓)
   * from `decorate`. Lists keep it on so a change never shifts the columns.
   */
  gutter?: boolean;
  /** How a row changed at the last polls (issue #14): its glyph and colour, and ↑/↓ after cells that moved. */
  decorate?: (row: T, id: string) => RowDecoration | null;
}

export interface RowDecoration {
  glyph: string;
  /** The glyph's colour. */
  color?: string;
  /** The whole row bold: a device that came online or went idle. */
  bold?: boolean;
  /** The whole row dim: deleted, about to disappear. */
  dim?: boolean;
  /** Column key → ↑/↓ drawn right after that cell. */
  cells?: Readonly<Record<string, string>>;
}

/** The gutter of a list: the mark, the change glyph and a space. */
export const GUTTER = 3;

/** Body rows a table of `height` lines shows: use it as the PgUp/PgDn page size. */
export function tableBodyRows(height: number): number {
  return Math.max(0, Math.floor(height) - 1);
}

interface CachedRow {
  id: string;
  /** The row drawn unselected; reused as-is while the row object and the layout are unchanged. */
  element: React.JSX.Element;
  /** Plain text of the row, for the selected (inverse) variant. */
  plain: string;
  /** `element` keyed by the screen line it was last drawn on (see TableImpl). */
  placed: {line: number; element: React.JSX.Element} | null;
}

function buildRow<T>(
  row: T,
  id: string,
  fitted: readonly FittedColumn<T>[],
  gutter: boolean,
  marked: ReadonlySet<string> | null,
  decoration: RowDecoration | null,
): CachedRow {
  const cells = decoration?.cells;
  const segments = rowSegments(row, fitted, true, cells ? (key) => cells[key] : undefined);
  if (gutter) {
    const on = marked?.has(id) === true;
    const markColor = on ? color('accent') : undefined;
    const glyph = decoration?.glyph ?? ' ';
    segments.unshift(
      {text: on ? glyphs().mark : ' ', ...(markColor ? {color: markColor} : {})},
      {text: `${glyph} `, ...(decoration?.color ? {color: decoration.color} : {})},
    );
  }
  let plain = '';
  for (const s of segments) plain += s.text;
  const children = segments.map((s, k) =>
    s.color === undefined ? (
      s.text
    ) : (
      <Text key={k} color={s.color}>
        {s.text}
      </Text>
    ),
  );
  const element = (
    <Text key={`r:${id}`} wrap="truncate" bold={decoration?.bold === true} dimColor={decoration?.dim === true}>
      {/* An empty Text would measure 0 lines high and pull the rows below it up. */}
      {children.length === 0 ? ' ' : children.length === 1 && typeof children[0] === 'string' ? children[0] : children}
    </Text>
  );
  return {id, element, plain, placed: null};
}

function findIndex<T>(rows: readonly T[], getId: (row: T) => string, id: string | null): number {
  if (id === null) return -1;
  for (let i = 0; i < rows.length; i++) if (getId(rows[i]!) === id) return i;
  return -1;
}

function TableImpl<T>({
  rows,
  columns,
  getId,
  selectedId,
  indexOf,
  width,
  height,
  sort,
  sortLetters,
  emptyText = 'Nothing to show.',
  top: topProp,
  onTopChange,
  scrollOff = 2,
  version = 0,
  marked,
  gutter: withGutter = false,
  decorate,
}: TableProps<T>): React.JSX.Element {
  const marks = marked && marked.size > 0 ? marked : null;
  const gutter = withGutter ? GUTTER : 0;
  const fitted = useMemo(() => fitColumns(columns, width - gutter), [columns, width, gutter]);
  const sortKey = sort?.key;
  const sortDesc = sort?.desc;
  const header = useMemo(() => {
    const marks: number[] = [];
    const text =
      ' '.repeat(gutter) + headerText(fitted, sortKey === undefined ? null : {key: sortKey, desc: sortDesc === true}, sortLetters ?? undefined, marks);
    return {text, marks: marks.map((m) => m + gutter)};
  }, [fitted, sortKey, sortDesc, gutter, sortLetters]);
  // A new cache whenever the layout or the marks change; rows are then rebuilt lazily, only when visible.
  const rowCache = useMemo(() => ({fitted, version, marks, decorate, rows: new WeakMap<object, CachedRow>()}), [fitted, version, marks, decorate]);
  const selectedIndex = useMemo(
    () => (selectedId === null ? -1 : indexOf ? indexOf(selectedId) : findIndex(rows, getId, selectedId)),
    [rows, getId, selectedId, indexOf],
  );

  const bodyRows = tableBodyRows(height);
  const [ownTop, setOwnTop] = useState(0);
  const controlled = topProp !== undefined;
  const top = computeWindow({total: rows.length, selectedIndex, height: bodyRows, top: controlled ? topProp : ownTop, scrollOff});
  // React's "adjust state while rendering" pattern: re-runs this component before committing,
  // never loops because computeWindow is idempotent.
  if (!controlled && top !== ownTop) setOwnTop(top);
  useEffect(() => {
    if (onTopChange && top !== topProp) onTopChange(top);
  }, [top, topProp, onTopChange]);

  const lineWidth = Math.max(0, Math.floor(width));
  const lines: React.JSX.Element[] = [];
  if (height >= 1) {
    lines.push(
      <Text key="header" bold wrap="truncate">
        {header.text === '' ? ' ' : header.marks.length === 0 ? header.text : underlined(header.text, header.marks)}
      </Text>,
    );
  }
  if (rows.length === 0) {
    if (bodyRows > 0)
      lines.push(
        <Text key="empty" dimColor wrap="truncate">
          {truncate(emptyText, lineWidth)}
        </Text>,
      );
  } else {
    const end = Math.min(rows.length, top + bodyRows);
    for (let i = top; i < end; i++) {
      const row = rows[i]!;
      let cached = typeof row === 'object' && row !== null ? rowCache.rows.get(row) : undefined;
      if (!cached) {
        const id = getId(row);
        cached = buildRow(row, id, rowCache.fitted, gutter > 0, rowCache.marks, rowCache.decorate?.(row, id) ?? null);
        if (typeof row === 'object' && row !== null) rowCache.rows.set(row, cached);
      }
      // Keyed by screen line, not by id: after a sort or a jump every line shows another row, and
      // updating 35 lines' text costs far less than unmounting and mounting 35 (Yoga nodes, layout).
      const line = i - top;
      if (i !== selectedIndex && cached.placed?.line !== line) cached.placed = {line, element: React.cloneElement(cached.element, {key: `l:${line}`})};
      lines.push(
        i === selectedIndex ? (
          // Full-width inverse bar, no cell colours: a coloured cell in inverse becomes a coloured block.
          <Text key={`l:${line}`} inverse wrap="truncate">
            {padEnd(cached.plain, lineWidth) || ' '}
          </Text>
        ) : (
          cached.placed!.element
        ),
      );
    }
  }

  return (
    <Box flexDirection="column" width={lineWidth} height={Math.max(0, Math.floor(height))} overflowY="hidden">
      {lines}
    </Box>
  );
}

/**
 * Memoised: re-rendering with the same props (same `rows` array, `columns` array, `sort` values)
 * does no work. Keep `getId`, `indexOf` and `onTopChange` stable for the same reason.
 */
export const Table = memo(TableImpl) as typeof TableImpl;
