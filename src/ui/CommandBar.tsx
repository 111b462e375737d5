// The `:` command bar as drawn: the line at the bottom (in place of the status bar) and, on the
// info line above it, why Enter did not run it, what Tab offered, or the bar's keys.
import React from 'react';
import {Box} from 'ink';
import type {CommandLine} from '../state/commands/command-bar.js';
import {Text} from './SafeText.js';
import {TextField} from './TextField.js';
import {color} from './theme.js';
import {displayWidth, truncate, wrapLines} from './text.js';

/** Whether the bar's error needs a second line (App takes it from the body, as for a long status message). */
export function commandErrorIsLong(line: CommandLine | null, width: number): boolean {
  return line !== null && line.error !== null && displayWidth(line.error, width) > width;
}

/** The info line while the bar is open (two lines for an error longer than one). */
export function CommandInfo({line, hints, width}: {line: CommandLine; hints: string; width: number}): React.JSX.Element {
  if (line.error) {
    const wrapped = commandErrorIsLong(line, width) ? wrapLines(line.error, width, 3) : [line.error];
    // The rest of a very long error (past two lines) is cut with an ellipsis.
    const shown = wrapped.length > 2 ? [wrapped[0]!, truncate(wrapped.slice(1).join(' '), width)] : wrapped;
    return (
      <Box width={width} flexDirection="column">
        {shown.map((text, i) => (
          <Text key={i} wrap="truncate" color={color('danger')} bold>
            {truncate(text, width)}
          </Text>
        ))}
      </Box>
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
