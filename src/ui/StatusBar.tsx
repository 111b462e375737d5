import React from 'react';
import {Box} from 'ink';
import {Text} from './SafeText.js';
import {color} from './theme.js';
import {displayWidth, truncate} from './text.js';

import type {StatusMessage} from '../state/console.js';

const TONE_COLOR = {info: undefined, ok: 'ok', error: 'danger', warning: 'warning'} as const;

/** Bottom line: the last result or error on the left, key hints on the right. Always one line. */
export function StatusBar({message, hints, width}: {message: StatusMessage | null; hints: string; width: number}): React.JSX.Element {
  // The message wins: hints are always one `?` away, a result or an error is not.
  const messageWidth = message ? displayWidth(message.text) : 0;
  const hintWidth = Math.max(0, Math.min(displayWidth(hints), width - messageWidth - 2));
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
