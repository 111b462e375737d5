import React from 'react';
import {Box} from 'ink';
import {Text} from './SafeText.js';
import {color} from './theme.js';
import {displayWidth, truncate, wrapLines} from './text.js';

import type {StatusMessage} from '../state/core/state.js';

const TONE_COLOR = {info: undefined, ok: 'ok', error: 'danger', warning: 'warning'} as const;

/** Bottom line: the last result or error on the left, key hints on the right. Always one line. */
export function StatusBar({message, hints, width, lines = 1}: {message: StatusMessage | null; hints: string; width: number; lines?: 1 | 2}): React.JSX.Element {
  if (lines === 2 && message) {
    // Two lines for a long message: wrapped, the rest (if any) cut with an ellipsis.
    const wrapped = wrapLines(message.text, width, 3);
    const shown = wrapped.length > 2 ? [wrapped[0]!, truncate(wrapped.slice(1).join(' '), width)] : [wrapped[0]!, wrapped[1] ?? ''];
    const tone = TONE_COLOR[message.tone];
    return (
      <Box width={width} flexDirection="column">
        {shown.map((line, i) => (
          <Text key={i} color={tone ? color(tone) : undefined} bold={message.tone === 'error'} wrap="truncate">
            {line === '' ? ' ' : line}
          </Text>
        ))}
      </Box>
    );
  }
  // The message wins: hints are always one `?` away, a result or an error is not.
  // Measured only as far as the line goes: a message is at most that wide as far as this line cares.
  const messageWidth = message ? displayWidth(message.text, width) : 0;
  const hintWidth = Math.max(0, Math.min(displayWidth(hints, width), width - messageWidth - 2));
  const left = message ? truncate(message.text, Math.max(0, width - (hintWidth > 0 ? hintWidth + 1 : 0))) : '';
  const tone = message ? TONE_COLOR[message.tone] : undefined;
  return (
    <Box width={width} justifyContent="space-between">
      <Text color={tone ? color(tone) : undefined} bold={message?.tone === 'error'} wrap="truncate">
        {left}
      </Text>
      {hintWidth >= 8 ? (
        <Text color={color('muted')} wrap="truncate">
          {truncate(hints, hintWidth)}
        </Text>
      ) : null}
    </Box>
  );
}
