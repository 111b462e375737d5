import React from 'react';
import {Box, Text} from 'ink';
import {helpSections} from './keymap.js';
import {color} from './theme.js';
import {truncate} from './text.js';

/** `?`: generated from the keymap table. Two columns of sections when the terminal is wide. */
export function HelpOverlay({width, height}: {width: number; height: number}): React.JSX.Element {
  const lines: Array<{text: string; title?: boolean}> = [];
  for (const section of helpSections()) {
    if (section.rows.length === 0) continue;
    lines.push({text: section.title, title: true});
    for (const row of section.rows) lines.push({text: `  ${row.keys.padEnd(18)} ${row.help}`});
  }
  const columns = lines.length > height - 2 && width >= 120 ? 2 : 1;
  const perColumn = Math.ceil(lines.length / columns);
  const colWidth = Math.floor((width - 2) / columns);
  const chunks = Array.from({length: columns}, (_, i) => lines.slice(i * perColumn, (i + 1) * perColumn).slice(0, height - 2));
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold color={color('accent')}>Keys — press ? or Esc to close</Text>
      <Box>
        {chunks.map((chunk, i) => (
          <Box key={i} flexDirection="column" width={colWidth}>
            {chunk.map((line, j) => (
              <Text key={j} bold={line.title} wrap="truncate">{truncate(line.text, colWidth - 1)}</Text>
            ))}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
