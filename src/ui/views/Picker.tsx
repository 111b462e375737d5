// The user picker: type to filter by email, ↑/↓, Enter picks.
import React from 'react';
import {Box} from 'ink';
import type {User} from '../../api/index.js';
import type {PickerModal} from '../../state/core/modals.js';
import {filterUsers} from '../../state/interactions/picker.js';
import {displayKey} from '../../state/input/keymap.js';
import {Text} from '../SafeText.js';
import {TextField} from '../TextField.js';
import {truncate} from '../text.js';
import {color} from '../theme.js';

export function Picker({picker, users, width, height}: {picker: PickerModal; users: readonly User[]; width: number; height: number}): React.JSX.Element {
  const matches = filterUsers(users, picker.filter);
  const entries: Array<{key: string; label: string}> = [
    ...(picker.allowNone && picker.filter === '' ? [{key: '', label: '(everyone: not bound to a user)'}] : []),
    ...matches.map((u) => ({key: u.id, label: `${u.email}  ${u.role}`})),
  ];
  const visible = Math.max(1, height - 4);
  const index = Math.min(picker.index, Math.max(0, entries.length - 1));
  const start = Math.max(0, Math.min(index - Math.floor(visible / 2), entries.length - visible));
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold color={color('accent')} wrap="truncate">
        {truncate(picker.title, width)}
      </Text>
      <Box>
        <Text>filter: </Text>
        <TextField value={picker.filter} cursor={[...picker.filter].length} focused placeholder="type to filter by email" width={Math.max(10, width - 30)} />
        <Text color={color('muted')}>{`  ${matches.length} of ${users.length}`}</Text>
      </Box>
      {entries.slice(start, start + visible).map((e, i) => (
        <Text key={e.key || 'none'} inverse={start + i === index} wrap="truncate">
          {truncate(` ${e.label}`, width)}
        </Text>
      ))}
      {entries.length === 0 ? <Text color={color('warning')}>{`No user matches "${picker.filter}" (Backspace edits the filter).`}</Text> : null}
      <Text color={color('muted')}>{`type to filter · ${displayKey('up')}/${displayKey('down')} move · Enter pick · Esc back`}</Text>
    </Box>
  );
}
