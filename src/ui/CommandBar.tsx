// The `:` command bar as drawn: the line at the bottom (in place of the status bar) and, on the
// info line above it, why Enter did not run it, what Tab offered, or the bar's keys.
import React from 'react';
import {Box} from 'ink';
import type {CommandLine} from '../state/commands/command-bar.js';
import {Text} from './SafeText.js';
import {TextField} from './TextField.js';
import {color} from './theme.js';
import {truncate} from './text.js';

/** The info line while the bar is open. */
export function CommandInfo({line, hints, width}: {line: CommandLine; hints: string; width: number}): React.JSX.Element {
  if (line.error) {
    return (
      <Text wrap="truncate" color={color('danger')} bold>
        {truncate(line.error, width)}
      </Text>
    );
  }
  if (line.candidates.length > 0) {
    return (
      <Text wrap="truncate" color={color('accent')}>
        {truncate(line.candidates.join('  '), width)}
      </Text>
    );
  }
  return (
    <Text wrap="truncate" color={color('muted')}>
      {truncate(hints, width)}
    </Text>
  );
}

export function CommandBar({line, width}: {line: CommandLine; width: number}): React.JSX.Element {
  return (
    <Box width={width}>
      <Text bold color={color('accent')}>
        :
      </Text>
      <TextField value={line.value} cursor={line.cursor} focused width={Math.max(4, width - 1)} />
    </Box>
  );
}
