// A detail view: labelled lines and headings, scrolled; long values wrap under their label.
import React from 'react';
import {Box} from 'ink';
import type {DetailLine} from '../../state/screens/display.js';
import {Text} from '../SafeText.js';
import {displayWidth, padEnd, truncate, wrapLines} from '../text.js';
import {color} from '../theme.js';

interface Row {
  key: string;
  element: React.JSX.Element;
  /** The line of `lines` this row belongs to. */
  line: number;
}

/** The rows a list of detail lines takes at `width`: a long value wraps onto rows of its own. */
function layout(lines: readonly DetailLine[], width: number, selectedEntry: string | undefined): Row[] {
  const labelWidth = Math.min(34, Math.max(0, ...lines.map((l) => (l.label === undefined ? 0 : displayWidth(l.label)))) + 2);
  const rows: Row[] = [];
  lines.forEach((line, i) => {
    const selected = line.entry !== undefined && line.entry === selectedEntry;
    if (line.heading) {
      rows.push({
        key: `${i}`,
        line: i,
        element: (
          <Text key={i} bold inverse={selected} color={color('accent')} wrap="truncate">
            {truncate(line.value, width)}
          </Text>
        ),
      });
      return;
    }
    const indent = line.label !== undefined ? labelWidth : 0;
    const parts = wrapLines(line.value, Math.max(10, width - indent));
    parts.forEach((part, k) => {
      const label = line.label !== undefined ? padEnd(k === 0 ? truncate(line.label, labelWidth - 1) : '', labelWidth) : '';
      rows.push({
        key: `${i}.${k}`,
        line: i,
        element: selected ? (
          <Text key={`${i}.${k}`} inverse wrap="truncate">
            {truncate(`${label}${part}`, width)}
          </Text>
        ) : (
          <Text key={`${i}.${k}`} wrap="truncate">
            {label !== '' ? <Text color={color('muted')}>{label}</Text> : null}
            <Text color={line.tone ? color(line.tone) : undefined}>{part}</Text>
          </Text>
        ),
      });
    });
  });
  return rows;
}

export function DetailView({
  lines,
  scroll,
  width,
  height,
  selectedEntry,
}: {
  lines: readonly DetailLine[];
  scroll: number;
  width: number;
  height: number;
  selectedEntry?: string;
}): React.JSX.Element {
  const rows = layout(lines, width, selectedEntry);
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
  return (
    <Box flexDirection="column" width={width} height={height}>
      {visible.map((r) => r.element)}
      {below > 0 && height > 1 ? (
        <Text key="more" color={color('muted')} wrap="truncate">
          {`↓ ${below + 1} more line${below + 1 === 1 ? '' : 's'} (j / ↓)`}
        </Text>
      ) : null}
    </Box>
  );
}
