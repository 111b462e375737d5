// A detail view: labelled lines and headings, scrolled; long values wrap under their label.
import React from 'react';
import {Box} from 'ink';
import {moreBelow} from '../../state/core/glyphs.js';
import {displayKey} from '../../state/input/keymap.js';
import type {DetailLine} from '../../state/screens/display.js';
import {Text} from '../SafeText.js';
import {displayWidth, padEnd, truncate, wrapLines} from '../text.js';
import {color} from '../theme.js';

/** One row of the view: a heading, or one wrapped part of a labelled value. Drawn only when visible. */
interface Row {
  key: string;
  /** The line of `lines` this row belongs to. */
  line: number;
  text: string;
  /** The label column (first part) or its blank indent (later parts); '' without a label. */
  label: string;
}

// Wrapped long values, by width: a detail is drawn again every second (the clock, live traffic)
// and a device's 10,000 allowed IPs should be wrapped once, not on every frame.
const WRAP_CACHE_MIN = 512;
const wrapCache = new Map<number, Map<string, string[]>>();
function wrapped(value: string, width: number): string[] {
  if (value.length < WRAP_CACHE_MIN) return wrapLines(value, width);
  let byValue = wrapCache.get(width);
  if (!byValue) {
    // One width at a time is what a terminal shows; a resize starts afresh.
    wrapCache.clear();
    wrapCache.set(width, (byValue = new Map()));
  }
  const hit = byValue.get(value);
  if (hit) return hit;
  const parts = wrapLines(value, width);
  if (byValue.size >= 16) byValue.delete(byValue.keys().next().value!);
  byValue.set(value, parts);
  return parts;
}

/** The rows a list of detail lines takes at `width`: a long value wraps onto rows of its own. */
function layout(lines: readonly DetailLine[], width: number): Row[] {
  const labelWidth = Math.min(34, Math.max(0, ...lines.map((l) => (l.label === undefined ? 0 : displayWidth(l.label, 34)))) + 2);
  const rows: Row[] = [];
  lines.forEach((line, i) => {
    if (line.heading) {
      rows.push({key: `${i}`, line: i, text: line.value, label: ''});
      return;
    }
    const indent = line.label !== undefined ? labelWidth : 0;
    const room = Math.max(10, width - indent);
    const parts = wrapped(line.fit ? line.fit(room) : line.value, room);
    const first = line.label !== undefined ? padEnd(truncate(line.label, labelWidth - 1), labelWidth) : '';
    const blank = line.label !== undefined ? ' '.repeat(labelWidth) : '';
    parts.forEach((part, k) => rows.push({key: `${i}.${k}`, line: i, text: part, label: k === 0 ? first : blank}));
  });
  return rows;
}

function rowElement(row: Row, line: DetailLine, selected: boolean, width: number): React.JSX.Element {
  if (line.heading) {
    return (
      <Text key={row.key} bold inverse={selected} color={color('accent')} wrap="truncate">
        {truncate(row.text, width)}
      </Text>
    );
  }
  if (selected) {
    return (
      <Text key={row.key} inverse wrap="truncate">
        {truncate(`${row.label}${row.text}`, width)}
      </Text>
    );
  }
  return (
    <Text key={row.key} wrap="truncate">
      {row.label !== '' ? <Text color={color('muted')}>{row.label}</Text> : null}
      <Text color={line.tone ? color(line.tone) : undefined}>{row.text}</Text>
    </Text>
  );
}

export function DetailView({
  lines,
  scroll,
  width,
  height,
  selectedEntry,
  onEntries,
}: {
  lines: readonly DetailLine[];
  scroll: number;
  width: number;
  height: number;
  selectedEntry?: string;
  /** Told, as it draws, which of its rows (from the view's top) hold an entry a cursor can stand on (for the mouse). */
  onEntries?: (rows: {row: number; entry: string}[]) => void;
}): React.JSX.Element {
  const rows = layout(lines, width);
  // With a cursor entry, scroll keeps it in the upper third; otherwise `scroll` counts rows.
  let start = scroll;
  if (selectedEntry !== undefined) {
    const at = Math.max(
      0,
      rows.findIndex((r) => lines[r.line]?.entry === selectedEntry),
    );
    start = at - Math.floor(height / 3);
  }
  start = Math.max(0, Math.min(start, rows.length - height));
  // More below than fits: the last row says so (and how to get there) instead of ending mid-way.
  const below = rows.length - (start + height);
  const visible = below > 0 && height > 1 ? rows.slice(start, start + height - 1) : rows.slice(start, start + height);
  onEntries?.(
    visible.flatMap((r, i) => {
      const entry = lines[r.line]?.entry;
      return entry === undefined ? [] : [{row: i, entry}];
    }),
  );
  return (
    <Box flexDirection="column" width={width} height={height}>
      {visible.map((r) => {
        const line = lines[r.line]!;
        return rowElement(r, line, line.entry !== undefined && line.entry === selectedEntry, width);
      })}
      {below > 0 && height > 1 ? (
        <Text key="more" color={color('muted')} wrap="truncate">
          {`${moreBelow(below + 1, 'line')} (j / ${displayKey('down')})`}
        </Text>
      ) : null}
    </Box>
  );
}
