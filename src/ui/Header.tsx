import React, {useEffect, useState} from 'react';
import {Box} from 'ink';
import {Text} from './SafeText.js';
import {ApiError} from '../api/index.js';
import {liveLabel, needsClock, type PollStatus} from '../state/poller.js';
import {color} from './theme.js';
import {truncate} from './text.js';

export interface HeaderProps {
  label: string;
  badges: ReadonlyArray<{text: string; tone: 'badge' | 'danger' | 'warning'}>;
  status: PollStatus;
  width: number;
}

/** Top line. Owns its 1 s clock so "updated Ns ago" ticks without re-rendering the screen. */
export function Header({label, badges, status, width}: HeaderProps): React.JSX.Element {
  const [now, setNow] = useState(() => Date.now());
  const ticking = needsClock(status);
  useEffect(() => {
    setNow(Date.now());
    if (!ticking) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking, status]);
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
