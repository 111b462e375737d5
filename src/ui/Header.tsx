import React from 'react';
import {Box} from 'ink';
import {Text} from './SafeText.js';
import {ApiError} from '../api/index.js';
import {liveLabel, type PollStatus} from '../state/data/poller.js';
import {color} from './theme.js';
import {truncate} from './text.js';

export interface HeaderProps {
  label: string;
  badges: ReadonlyArray<{text: string; tone: 'badge' | 'danger' | 'warning'}>;
  status: PollStatus;
  width: number;
  /** The console's live clock (ConsoleState.clock). */
  now: number;
}

/**
 * Top line. "updated Ns ago" counts with the console's one 1 s clock: a clock of its own drew a
 * second frame each second, and a key pressed just after a frame waits for Ink's frame throttle.
 */
export function Header({label, badges, status, width, now}: HeaderProps): React.JSX.Element {
  // A rejected token is not a network problem: say what it is.
  const rejected = status.lastError instanceof ApiError && status.lastError.isAuthFailure && status.mode === 'backoff';
  const live = rejected ? liveLabel(status, now).replace(/^offline/, 'token rejected') : liveLabel(status, now);
  const badgeText = badges.map((b) => ` ${b.text} `).join(' ');
  const room = Math.max(10, width - live.length - badgeText.length - 16);
  const liveTone = status.mode === 'backoff' ? color('danger') : status.mode === 'paused' ? color('warning') : color('muted');
  return (
    <Box width={width} justifyContent="space-between">
      <Text wrap="truncate">
        <Text bold color={color('accent')}>
          fz-console
        </Text>
        <Text> · {truncate(label, room)} </Text>
        {badges.map((b) => (
          <Text key={b.text} inverse bold color={color(b.tone)}>{` ${b.text} `}</Text>
        ))}
      </Text>
      <Text color={liveTone} bold={status.mode === 'paused' || status.mode === 'backoff'}>
        {live}
      </Text>
    </Box>
  );
}
