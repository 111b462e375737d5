// The `?` help (src/state/input/help.ts): one column, the keys of where it was opened first, `/`
// searches its lines; scrolled with ↓/↑ when it is longer than the body.
import React from 'react';
import {Box} from 'ink';
import type {HelpState} from '../state/core/state.js';
import {glyphs} from '../state/core/glyphs.js';
import {helpSections} from '../state/input/help-sections.js';
import {displayKey} from '../state/input/keymap.js';
import {Text} from './SafeText.js';
import {color} from './theme.js';
import {truncate, wrapLines} from './text.js';

interface HelpLine {
  text: string;
  title?: boolean;
  here?: boolean;
}

const KEYS_WIDTH = 21;

/**
 * The help as lines `width` wide: long descriptions wrap under themselves. With a search, only the
 * rows whose keys or description hold it (case-insensitive), under their section's title.
 */
export function helpLines(width: number, help: Pick<HelpState, 'context' | 'search'>): HelpLine[] {
  const lines: HelpLine[] = [];
  const room = Math.max(10, width - 1 - KEYS_WIDTH);
  const needle = help.search.trim().toLowerCase();
  for (const section of helpSections(help.context)) {
    const titleHit = needle !== '' && section.title.toLowerCase().includes(needle);
    const rows = needle === '' || titleHit ? section.rows : section.rows.filter((r) => `${r.keys} ${r.help}`.toLowerCase().includes(needle));
    if (rows.length === 0) continue;
    lines.push({text: section.here ? `${section.title} (here)` : section.title, title: true, here: section.here === true});
    for (const row of rows) {
      wrapLines(row.help, room).forEach((part, i) =>
        lines.push({text: `${i === 0 ? `  ${row.keys.padEnd(KEYS_WIDTH - 3)} ` : ' '.repeat(KEYS_WIDTH)}${part}`}),
      );
    }
  }
  return lines;
}

/** How many help lines fit under its title and search lines. */
export function helpCapacity(height: number): number {
  return Math.max(1, height - 2);
}

/** `?`: generated from the keymap table. */
export function HelpOverlay({width, height, help}: {width: number; height: number; help: HelpState}): React.JSX.Element {
  const lines = helpLines(width - 1, help);
  const capacity = helpCapacity(height);
  const start = Math.max(0, Math.min(help.scroll, lines.length - capacity));
  const visible = lines.slice(start, start + capacity);
  const more = lines.length > capacity ? `  ${displayKey('down')}/${displayKey('up')} scroll (${start + 1}–${start + visible.length} of ${lines.length})` : '';
  const search = help.searching
    ? `/${[...help.search].slice(0, help.cursor).join('')}${glyphs().caret}${[...help.search].slice(help.cursor).join('')}`
    : help.search
      ? `search "${help.search}" (Esc clears)`
      : '/ searches the help';
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold color={color('accent')} wrap="truncate">{`Keys — where you are first; ? or Esc closes${more}`}</Text>
      <Text color={help.search || help.searching ? color('accent') : color('muted')} wrap="truncate">
        {truncate(lines.length === 0 ? `${search} — no key matches` : search, width)}
      </Text>
      {visible.map((line, j) => (
        <Text key={j} bold={line.title} color={line.here ? color('accent') : undefined} wrap="truncate">
          {truncate(line.text, width - 1)}
        </Text>
      ))}
    </Box>
  );
}
