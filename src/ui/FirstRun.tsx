// Shown when no server URL is configured anywhere: open a saved profile, connect (optionally
// saving a profile), or try the demo sandbox.
//
// The state lives in a ref and every key is applied to the latest state synchronously: a token
// typed or pasted right after Tab arrives in the same tick as the Tab, and must land in the token
// field, not in the URL field the last render showed.
import React, {useReducer, useRef} from 'react';
import {Box, useApp, useInput} from 'ink';
import {editText} from '../state/textedit.js';
import {keyName, splitChunk} from './keys.js';
import {Text} from './SafeText.js';
import {TextField} from './TextField.js';
import {color} from './theme.js';

export interface FirstRunProps {
  configPath: string;
  /** Names of the profiles already in the config file (none is the default, or the screen would not show). */
  profiles?: readonly string[];
  /** Validates and (if a profile name is given) saves; resolves to an error message or null. */
  onConnect: (result: {url: string; token: string; profile?: string}) => Promise<string | null>;
  /** Opens an existing profile; resolves to an error message or null. */
  onProfile?: (name: string) => Promise<string | null>;
  onDemo: () => void;
}

type Field = 'url' | 'token' | 'profile';
const FIELDS: Field[] = ['url', 'token', 'profile'];

interface FirstRunState {
  mode: 'choose' | 'form';
  field: Field;
  values: Record<Field, string>;
  cursor: number;
  error: string | null;
  busy: boolean;
  /** Asked before a save would replace a profile of the same name. */
  confirmReplace: boolean;
}

const INITIAL: FirstRunState = {mode: 'choose', field: 'url', values: {url: '', token: '', profile: ''}, cursor: 0, error: null, busy: false,
  confirmReplace: false};

export function FirstRun({configPath, profiles = [], onConnect, onProfile, onDemo}: FirstRunProps): React.JSX.Element {
  const {exit} = useApp();
  const state = useRef<FirstRunState>(INITIAL);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const set = (patch: Partial<FirstRunState>) => {
    state.current = {...state.current, ...patch};
    rerender();
  };

  const run = async (task: () => Promise<string | null>) => {
    set({busy: true, error: null});
    const message = await task();
    set({busy: false, error: message});
  };

  const submit = (replaceConfirmed: boolean) => {
    const {values} = state.current;
    if (values.url.trim() === '') {
      set({error: 'URL: enter the Firezone server address, e.g. https://vpn.example.com', field: 'url', cursor: [...values.url].length});
      return;
    }
    if (values.token.trim() === '') {
      set({error: 'Token: paste an API token (Settings → Account → API Tokens in the Firezone web UI, or bin/create-api-token)', field: 'token',
        cursor: [...values.token].length});
      return;
    }
    const profile = values.profile.trim();
    if (profile !== '' && profiles.includes(profile) && !replaceConfirmed) {
      set({confirmReplace: true, error: null});
      return;
    }
    void run(() => onConnect({url: values.url.trim(), token: values.token.trim(), ...(profile ? {profile} : {})}));
  };

  const handleKey = (input: string, name: string) => {
    const s = state.current;
    if (s.busy) return;
    if (name === 'ctrl+c') {
      exit();
      return;
    }
    if (s.mode === 'choose') {
      const index = /^[1-9]$/.test(name) ? Number(name) - 1 : -1;
      if (index >= 0 && index < profiles.length && onProfile) void run(() => onProfile(profiles[index]!));
      else if (name === 'c' || name === 'enter') set({mode: 'form', error: null});
      else if (name === 'd') onDemo();
      else if (name === 'q' || name === 'esc') exit();
      return;
    }
    if (s.confirmReplace) {
      set({confirmReplace: false});
      if (name === 'y') submit(true);
      return;
    }
    const focus = (field: Field) => set({field, cursor: [...state.current.values[field]].length});
    const step = (delta: number) => FIELDS[(FIELDS.indexOf(s.field) + delta + FIELDS.length) % FIELDS.length]!;
    if (name === 'esc') set({mode: 'choose', error: null});
    else if (name === 'tab' || name === 'down') focus(step(1));
    else if (name === 'shift+tab' || name === 'up') focus(step(-1));
    else if (name === 'ctrl+s' || (name === 'enter' && s.field === 'profile')) submit(false);
    else if (name === 'enter') focus(step(1));
    else {
      const edited = editText({value: s.values[s.field], cursor: s.cursor}, name, input);
      if (edited) set({values: {...s.values, [s.field]: edited.value}, cursor: edited.cursor});
    }
  };

  useInput((input, key) => {
    const name = keyName(input, key);
    // Several keys in one event (fast typing, a paste after Tab): each applies in order.
    if (input.length > 1 && name === input) for (const k of splitChunk(input)) handleKey(k.input, k.name);
    else handleKey(input, name);
  });

  const s = state.current;
  if (s.mode === 'choose') {
    return (
      <Box flexDirection="column" padding={1}>
        <Text bold color={color('accent')}>Welcome to fz-console</Text>
        <Text>{`No Firezone server is chosen (no --url, FZ_URL, --profile or default profile in ${configPath}).`}</Text>
        <Text> </Text>
        {profiles.slice(0, 9).map((p, i) => (
          <Text key={p}>{`  ${i + 1}  open the saved profile `}<Text bold>{p}</Text></Text>
        ))}
        <Text>  <Text bold>c</Text>  connect to a Firezone 0.7 server (URL and API token)</Text>
        <Text>  <Text bold>d</Text>  try the demo: an embedded sandbox server with sample data</Text>
        <Text>  <Text bold>q</Text>  quit</Text>
        <Text> </Text>
        {s.error ? <Text color={color('danger')}>{s.error}</Text> : null}
        <Text color={color('muted')}>{s.busy ? 'Connecting…' : 'Tip: set FZ_URL and FZ_API_TOKEN (or FZ_API_TOKEN_FILE), or a defaultProfile, to skip this screen.'}</Text>
      </Box>
    );
  }

  const fieldRow = (name: Field, label: string, placeholder: string, mask = false) => (
    <Box>
      <Text bold={s.field === name}>{`${s.field === name ? '› ' : '  '}${label.padEnd(14)}`}</Text>
      <TextField value={s.values[name]} cursor={s.cursor} focused={s.field === name && !s.busy} placeholder={placeholder} mask={mask} width={60} />
    </Box>
  );
  return (
    <Box flexDirection="column" padding={1}>
      <Text bold color={color('accent')}>Connect to a Firezone server</Text>
      <Text> </Text>
      {fieldRow('url', 'Server URL', 'https://vpn.example.com')}
      {fieldRow('token', 'API token', 'paste the token (hidden)', true)}
      {fieldRow('profile', 'Save as', 'profile name (optional; saved 0600)')}
      <Text> </Text>
      {s.error ? <Text color={color('danger')}>{s.error}</Text> : null}
      {s.confirmReplace
        ? <Text bold color={color('warning')}>{`A profile named "${s.values.profile.trim()}" exists. Replace it? y replace · any other key returns to the form`}</Text>
        : <Text color={color('muted')}>{s.busy ? 'Checking the connection…' : 'Tab/↑/↓ move · Enter next · Ctrl-S connect · Esc back'}</Text>}
      <Text color={color('muted')}>Get a token in the web UI: Settings → Account → API Tokens (or bin/create-api-token on the server).</Text>
    </Box>
  );
}
