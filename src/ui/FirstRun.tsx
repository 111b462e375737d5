// Shown when no server URL is configured anywhere: connect (optionally saving a profile)
// or try the demo sandbox.
import React, {useState} from 'react';
import {Box, useApp, useInput} from 'ink';
import {Text} from './SafeText.js';
import {editText} from '../state/textedit.js';
import {keyName} from './keymap.js';
import {TextField} from './TextField.js';
import {color} from './theme.js';

export interface FirstRunResult {
  kind: 'connect' | 'demo';
  url?: string;
  token?: string;
  profile?: string;
}

export interface FirstRunProps {
  configPath: string;
  /** Validates and (if a profile name is given) saves; resolves to an error message or null. */
  onConnect: (result: Required<Pick<FirstRunResult, 'url' | 'token'>> & {profile?: string}) => Promise<string | null>;
  onDemo: () => void;
}

type Field = 'url' | 'token' | 'profile';
const FIELDS: Field[] = ['url', 'token', 'profile'];

export function FirstRun({configPath, onConnect, onDemo}: FirstRunProps): React.JSX.Element {
  const {exit} = useApp();
  const [mode, setMode] = useState<'choose' | 'form'>('choose');
  const [field, setField] = useState<Field>('url');
  const [values, setValues] = useState<Record<Field, string>>({url: '', token: '', profile: ''});
  const [cursor, setCursor] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (values.url.trim() === '') {
      setError('URL: enter the Firezone server address, e.g. https://vpn.example.com');
      setField('url');
      return;
    }
    if (values.token.trim() === '') {
      setError('Token: paste an API token (Settings → Account → API Tokens in the Firezone web UI, or bin/create-api-token)');
      setField('token');
      return;
    }
    setBusy(true);
    setError(null);
    const profile = values.profile.trim();
    const message = await onConnect({url: values.url.trim(), token: values.token.trim(), ...(profile ? {profile} : {})});
    setBusy(false);
    if (message) setError(message);
  };

  useInput((input, key) => {
    if (busy) return;
    if (key.ctrl && input === 'c') {
      exit();
      return;
    }
    if (mode === 'choose') {
      if (input === 'c' || key.return) setMode('form');
      else if (input === 'd') onDemo();
      else if (input === 'q' || key.escape) exit();
      return;
    }
    const name = keyName(input, key);
    const focusField = (next: Field) => {
      setField(next);
      setCursor([...values[next]].length);
    };
    const step = (delta: number) => FIELDS[(FIELDS.indexOf(field) + delta + FIELDS.length) % FIELDS.length]!;
    if (name === 'esc') {
      setMode('choose');
      setError(null);
    } else if (name === 'tab' || name === 'down') {
      focusField(step(1));
    } else if (name === 'shift+tab' || name === 'up') {
      focusField(step(-1));
    } else if (name === 'ctrl+s' || (name === 'enter' && field === 'profile')) {
      void submit();
    } else if (name === 'enter') {
      focusField(step(1));
    } else {
      const edited = editText({value: values[field], cursor}, name, input);
      if (edited) {
        setValues((old) => ({...old, [field]: edited.value}));
        setCursor(edited.cursor);
      }
    }
  });

  if (mode === 'choose') {
    return (
      <Box flexDirection="column" padding={1}>
        <Text bold color={color('accent')}>Welcome to fz-console</Text>
        <Text>No Firezone server is configured (no --url, FZ_URL or profile in {configPath}).</Text>
        <Text> </Text>
        <Text>  <Text bold>c</Text>  connect to a Firezone 0.7 server (URL and API token)</Text>
        <Text>  <Text bold>d</Text>  try the demo: an embedded sandbox server with sample data</Text>
        <Text>  <Text bold>q</Text>  quit</Text>
        <Text> </Text>
        <Text color={color('muted')}>Tip: set FZ_URL and FZ_API_TOKEN (or FZ_API_TOKEN_FILE) to skip this screen.</Text>
      </Box>
    );
  }

  const fieldRow = (name: Field, label: string, placeholder: string, mask = false) => (
    <Box>
      <Text bold={field === name}>{field === name ? '› ' : '  '}{label.padEnd(14)}</Text>
      <TextField value={values[name]} cursor={cursor} focused={field === name && !busy} placeholder={placeholder} mask={mask} width={60} />
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
      {error ? <Text color={color('danger')}>{error}</Text> : null}
      <Text color={color('muted')}>{busy ? 'Checking the connection…' : 'Tab/↑/↓ move · Enter next · Ctrl-S connect · Esc back'}</Text>
      <Text color={color('muted')}>Get a token in the web UI: Settings → Account → API Tokens (or bin/create-api-token on the server).</Text>
    </Box>
  );
}
