// `y`: an item's JSON (src/state/interactions/raw-view.ts). One screen row per line, cut to the
// width (never wrapped: a row is a line of the JSON), the window at the scroll position alone
// drawn, every line through the display boundary (SafeText).
import React from 'react';
import {Box} from 'ink';
import type {RawModal} from '../../state/core/modals.js';
import {Text} from '../SafeText.js';
import {truncate} from '../text.js';
import {color} from '../theme.js';

/** Rows for the JSON lines in a view of `height` rows (the title and the search line taken). */
export function rawCapacity(height: number): number {
  return Math.max(1, height - 3);
}

/** `onShown` hears how many lines fit and where the last page starts, so PgDn and End move by what shows. */
export function RawView({
  raw,
  width,
  height,
  onShown,
}: {
  raw: RawModal;
  width: number;
  height: number;
  onShown?: (lines: number, lastPage: number) => void;
}): React.JSX.Element {
  const capacity = rawCapacity(height);
  const lastPage = Math.max(0, raw.shown.length - capacity);
  const top = Math.min(raw.scroll, lastPage);
  React.useEffect(() => onShown?.(capacity, lastPage), [onShown, capacity, lastPage]);
  const window = raw.shown.slice(top, top + capacity);
  const where = raw.shown.length === 0 ? 'no line holds it' : `lines ${top + 1}–${top + window.length} of ${raw.shown.length}`;
  const search = raw.searching ? `/${raw.search}▌` : raw.search !== '' ? `/${raw.search} (Esc clears)` : '';
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{truncate(raw.title, width)}</Text>
      {window.map((line, i) => (
        <Text key={top + i}>{truncate(line, width) || ' '}</Text>
      ))}
      {window.length === 0 ? <Text color={color('muted')}>{raw.search ? `No line holds "${raw.search}"` : ' '}</Text> : null}
      <Text color={color('muted')}>
        {truncate(`${search}${search ? '  ' : ''}${where}${raw.secret && !raw.reveal ? ' · secrets masked (v reveals)' : ''}`, width)}
      </Text>
    </Box>
  );
}
