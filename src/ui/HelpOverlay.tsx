import React from 'react';
import {Box} from 'ink';
import {Text} from './SafeText.js';
import {helpSections} from '../state/input/keymap.js';
import {color} from './theme.js';
import {truncate, wrapLines} from './text.js';

interface HelpLine {
  text: string;
  title?: boolean;
}

const KEYS_WIDTH = 21;

/** The help as lines of one column `columnWidth` wide: long descriptions wrap under themselves. */
export function helpLines(columnWidth: number): HelpLine[] {
  const lines: HelpLine[] = [];
  const room = Math.max(10, columnWidth - 1 - KEYS_WIDTH);
  for (const section of helpSections()) {
    if (section.rows.length === 0) continue;
    lines.push({text: section.title, title: true});
    for (const row of section.rows) {
      wrapLines(row.help, room).forEach((part, i) =>
        lines.push({text: `${i === 0 ? `  ${row.keys.padEnd(KEYS_WIDTH - 3)} ` : ' '.repeat(KEYS_WIDTH)}${part}`}),
      );
    }
  }
  return lines;
}

/** Columns of help side by side: two from 120 cells, one below. */
export function helpColumnWidth(width: number): number {
  return Math.floor((width - 2) / (width >= 120 ? 2 : 1));
}

/** How many help lines fit at once: two columns from 120 cells, one below. */
export function helpCapacity(width: number, height: number): number {
  return (width >= 120 ? 2 : 1) * Math.max(1, height - 1);
}

/** `?`: generated from the keymap table; scrolls (↓/↑) when the terminal cannot hold it all. */
export function HelpOverlay({width, height, scroll}: {width: number; height: number; scroll: number}): React.JSX.Element {
  const colWidth = helpColumnWidth(width);
  const lines = helpLines(colWidth);
  const columns = width >= 120 ? 2 : 1;
  const perColumn = Math.max(1, height - 1);
  const capacity = helpCapacity(width, height);
  const start = Math.max(0, Math.min(scroll, lines.length - capacity));
  const visible = lines.slice(start, start + capacity);
  const chunks = Array.from({length: columns}, (_, i) => visible.slice(i * perColumn, (i + 1) * perColumn));
  const more = lines.length > capacity ? `  ↓/↑ scroll (${start + 1}–${start + visible.length} of ${lines.length})` : '';
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold color={color('accent')} wrap="truncate">{`Keys — press ? or Esc to close${more}`}</Text>
      <Box>
        {chunks.map((chunk, i) => (
          <Box key={i} flexDirection="column" width={colWidth}>
            {chunk.map((line, j) => (
              <Text key={j} bold={line.title} wrap="truncate">
                {truncate(line.text, colWidth - 1)}
              </Text>
            ))}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
