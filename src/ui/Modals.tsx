// Dialogs, the user picker and the device-creation result screen. Display only; the App
// owns their state and keys.
import React from 'react';
import {Box} from 'ink';
import {Text} from './SafeText.js';
import type {User} from '../api/index.js';
import {renderQr} from '../wireguard/index.js';
import {TextField} from './TextField.js';
import {color} from './theme.js';
import {truncate} from './text.js';

export function ConfirmDialog({text, detail, width}: {text: string; detail?: string; width: number}): React.JSX.Element {
  const inner = Math.min(width - 4, Math.max(40, text.length + 4));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={color('warning')} paddingX={1} width={Math.min(width, inner + 4)}>
      <Text bold wrap="wrap">{text}</Text>
      {detail ? <Text color={color('muted')} wrap="wrap">{detail}</Text> : null}
      <Text color={color('muted')}>y confirm · n / Esc cancel (default)</Text>
    </Box>
  );
}

export interface PickerState {
  filter: string;
  index: number;
}

export function filterUsers(users: readonly User[], filter: string): User[] {
  const f = filter.toLowerCase();
  const matched = f === '' ? [...users] : users.filter((u) => u.email.toLowerCase().includes(f));
  return matched.sort((a, b) => a.email.localeCompare(b.email));
}

export function UserPicker({title, users, state, allowNone, width, height}: {
  title: string; users: readonly User[]; state: PickerState; allowNone: boolean; width: number; height: number;
}): React.JSX.Element {
  const matches = filterUsers(users, state.filter);
  const entries: Array<{key: string; label: string}> = [
    ...(allowNone && state.filter === '' ? [{key: '', label: '(everyone: not bound to a user)'}] : []),
    ...matches.map((u) => ({key: u.id, label: `${u.email}  ${u.role}`})),
  ];
  const visible = Math.max(1, height - 4);
  const index = Math.min(state.index, Math.max(0, entries.length - 1));
  const start = Math.max(0, Math.min(index - Math.floor(visible / 2), entries.length - visible));
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold color={color('accent')}>{title}</Text>
      <Box>
        <Text>filter: </Text>
        <TextField value={state.filter} cursor={[...state.filter].length} focused placeholder="type to filter by email" width={Math.max(10, width - 30)} />
        <Text color={color('muted')}>{`  ${matches.length} of ${users.length}`}</Text>
      </Box>
      {entries.slice(start, start + visible).map((e, i) => (
        <Text key={e.key || 'none'} inverse={start + i === index} wrap="truncate">{truncate(` ${e.label}`, width)}</Text>
      ))}
      {entries.length === 0 ? <Text color={color('muted')}>No user matches.</Text> : null}
      <Text color={color('muted')}>type to filter · ↑/↓ move · Enter pick · Esc back</Text>
    </Box>
  );
}

export function pickerEntries(users: readonly User[], state: PickerState, allowNone: boolean): string[] {
  // "everyone" is offered until the admin starts typing a name.
  return [...(allowNone && state.filter === '' ? [''] : []), ...filterUsers(users, state.filter).map((u) => u.id)];
}

export interface ResultState {
  deviceName: string;
  ownerEmail: string;
  config: string;
  warnings: string[];
  view: 'config' | 'qr';
  /** The file path prompt, when open. */
  path: string | null;
  pathCursor: number;
  confirmOverwrite: boolean;
  confirmLeave: boolean;
  saved: string | null;
}

export function DeviceResult({state, width, height}: {state: ResultState; width: number; height: number}): React.JSX.Element {
  const header = (
    <>
      <Text bold color={color('ok')}>{`Device added: ${state.deviceName} (${state.ownerEmail})`}</Text>
      <Text color={color('warning')} wrap="truncate">NOTE: this configuration WILL NOT be viewable again: it holds the private key, which exists only in this session.</Text>
    </>
  );
  const footer: React.JSX.Element[] = [];
  for (const w of state.warnings) footer.push(<Text key={w} color={color('warning')} wrap="truncate">{`! ${w}`}</Text>);
  if (state.path !== null) {
    footer.push(
      <Box key="path">
        <Text bold>Write to file: </Text>
        <TextField value={state.path} cursor={state.pathCursor} focused={!state.confirmOverwrite} width={Math.max(10, width - 16)} />
      </Box>,
      <Text key="path-help" color={color('muted')}>{state.confirmOverwrite ? 'The file exists. Overwrite it? y / n' : 'Enter writes (mode 0600, never overwrites without asking) · Esc cancels'}</Text>,
    );
  } else if (state.confirmLeave) {
    footer.push(<Text key="leave" bold color={color('warning')}>Leave? The private key is not stored anywhere and cannot be shown again. y leave · n stay</Text>);
  } else {
    footer.push(<Text key="keys" color={color('muted')}>{`w write file · c copy config (OSC 52) · Q ${state.view === 'qr' ? 'config text' : 'QR code'} · Esc done${state.saved ? ` · saved to ${state.saved}` : ''}`}</Text>);
  }
  const bodyHeight = Math.max(1, height - 2 - footer.length);
  let body: React.JSX.Element;
  if (state.view === 'qr') {
    const qr = renderQr(state.config, {maxRows: bodyHeight, maxCols: width});
    body = qr.ok
      ? <Box flexDirection="column">{qr.lines.map((line, i) => <Text key={i} color="white" backgroundColor="black">{line}</Text>)}</Box>
      : <Text color={color('warning')} wrap="wrap">{`The QR code needs a terminal of at least ${qr.needCols}×${qr.needRows + 4} (this one is ${width}×${height + 5}). Enlarge the window, or write the file (w) / copy the config (c) instead.`}</Text>;
  } else {
    const lines = state.config.split('\n');
    body = (
      <Box flexDirection="column">
        {lines.slice(0, bodyHeight).map((line, i) => <Text key={i} wrap="truncate">{line === '' ? ' ' : truncate(line, width)}</Text>)}
      </Box>
    );
  }
  return (
    <Box flexDirection="column" width={width} height={height}>
      {header}
      <Box height={bodyHeight} flexDirection="column">{body}</Box>
      {footer}
    </Box>
  );
}
