// Shown when no server URL is configured anywhere: open a saved profile, connect (optionally
// saving a profile), or try the demo sandbox.
//
// The state lives in a ref and every key is applied to the latest state synchronously: a token
// typed or pasted right after Tab arrives in the same tick as the Tab, and must land in the token
// field, not in the URL field the last render showed.
import React, {useReducer, useRef} from 'react';
import {Box, useApp} from 'ink';
import {createForm, editFocused, focusFirstError, hasErrors, moveFocus, str, validateForm, type FieldSpec, type FormState} from '../state/interactions/form.js';
import {FormView} from './FormView.js';
import {pasteRefused} from '../state/input/textedit.js';
import {pasteTooLong, typedTooLong} from '../state/input/limits.js';
import {displayKey} from '../state/input/keymap.js';
import {useTerminalSize} from './terminal.js';
import {useTerminalInput} from './keys.js';
import {Text} from './SafeText.js';
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
  /** How long a lone ESC waits for the rest of a sequence (tests: 0). */
  escapeDelayMs?: number;
}

/** The connect form, on the shared form engine (src/state/interactions/form.ts). */
function connectSpecs(): FieldSpec[] {
  return [
    {
      key: 'url',
      label: 'Server URL',
      kind: 'text',
      placeholder: 'e.g. https://vpn.example.com',
      validate: (v) => (String(v).trim() === '' ? ['enter the Firezone server address, e.g. https://vpn.example.com'] : []),
    },
    {
      key: 'token',
      label: 'API token',
      kind: 'secret',
      placeholder: 'paste the token (hidden)',
      help: 'Web UI: Settings → Account → API Tokens (or bin/create-api-token on the server).',
      validate: (v) => (String(v).trim() === '' ? ['paste an API token'] : []),
    },
    {key: 'profile', label: 'Save as profile', kind: 'text', placeholder: 'optional; saved 0600'},
  ];
}

interface FirstRunState {
  mode: 'choose' | 'form';
  form: FormState;
  error: string | null;
  busy: boolean;
  /** Asked before a save would replace a profile of the same name. */
  confirmReplace: boolean;
}

const initial = (): FirstRunState => ({mode: 'choose', form: createForm(connectSpecs(), {}), error: null, busy: false, confirmReplace: false});

export function FirstRun({configPath, profiles = [], onConnect, onProfile, onDemo, escapeDelayMs}: FirstRunProps): React.JSX.Element {
  const {exit} = useApp();
  const size = useTerminalSize();
  const state = useRef<FirstRunState>(initial());
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
    const checked = validateForm(state.current.form);
    if (hasErrors(checked)) {
      set({form: focusFirstError(checked), error: null});
      return;
    }
    const url = str(checked.values, 'url').trim();
    const token = str(checked.values, 'token').trim();
    const profile = str(checked.values, 'profile').trim();
    if (profile !== '' && profiles.includes(profile) && !replaceConfirmed) {
      set({form: checked, confirmReplace: true, error: null});
      return;
    }
    set({form: checked});
    void run(() => onConnect({url, token, ...(profile ? {profile} : {})}));
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
    const lastField = s.form.focus === s.form.specs.length - 1;
    if (name === 'esc') set({mode: 'choose', error: null});
    else if (name === 'tab' || name === 'down') set({form: moveFocus(s.form, 1)});
    else if (name === 'shift+tab' || name === 'up') set({form: moveFocus(s.form, -1)});
    else if (name === 'ctrl+s' || (name === 'enter' && lastField)) submit(false);
    else if (name === 'enter') set({form: moveFocus(s.form, 1)});
    else {
      const edited = editFocused(s.form, name, input);
      if (edited && 'form' in edited) set({form: edited.form});
      else if (edited) set({error: typedTooLong(edited.label, edited.overLimit)});
    }
  };

  useTerminalInput((events) => {
    for (const event of events) {
      if (event.type === 'paste') {
        // A pasted token arrives whole (bracketed paste); a trailing line break is not part of it.
        const s = state.current;
        if (s.mode === 'form' && !s.busy) {
          const text = event.text.replace(/^[\r\n]+|[\r\n]+$/g, '');
          const edited = editFocused(s.form, 'paste', text);
          const spec = s.form.specs[s.form.focus];
          if (edited && 'form' in edited) set({form: edited.form, error: null});
          else if (edited) set({error: pasteTooLong(edited.label, edited.overLimit, text)});
          else set({error: pasteRefused(spec?.label ?? 'this field', text, spec?.kind)});
        }
      } else if (event.type === 'text') {
        // A typed run goes into a field whole; on the menu each character is a choice.
        if (state.current.mode === 'form') handleKey(event.text, event.text);
        else for (const ch of event.text) handleKey(ch, ch);
      } else if (event.type === 'key') {
        handleKey(event.input, event.name);
      }
    }
  }, escapeDelayMs);

  const s = state.current;
  if (s.mode === 'choose') {
    return (
      <Box flexDirection="column" padding={1}>
        <Text bold color={color('accent')}>
          Welcome to fz-console
        </Text>
        <Text>{`No Firezone server is chosen (no --url, FZ_URL, --profile or default profile in ${configPath}).`}</Text>
        <Text> </Text>
        {profiles.slice(0, 9).map((p, i) => (
          <Text key={p}>
            {`  ${i + 1}  open the saved profile `}
            <Text bold>{p}</Text>
          </Text>
        ))}
        <Text>
          {' '}
          <Text bold>c</Text> connect to a Firezone 0.7 server (URL and API token)
        </Text>
        <Text>
          {' '}
          <Text bold>d</Text> try the demo: an embedded sandbox server with sample data
        </Text>
        <Text>
          {' '}
          <Text bold>q</Text> quit
        </Text>
        <Text> </Text>
        {s.error ? <Text color={color('danger')}>{s.error}</Text> : null}
        <Text color={color('muted')}>
          {s.busy ? 'Connecting…' : 'Tip: set FZ_URL and FZ_API_TOKEN (or FZ_API_TOKEN_FILE), or a defaultProfile, to skip this screen.'}
        </Text>
      </Box>
    );
  }

  return (
    <Box flexDirection="column" padding={1}>
      <FormView title="Connect to a Firezone server" form={s.form} width={Math.max(40, size.columns - 2)} height={9} />
      {s.error ? (
        <Text color={color('danger')} wrap="wrap">
          {s.error}
        </Text>
      ) : null}
      {s.confirmReplace ? (
        <Text
          bold
          color={color('warning')}
        >{`A profile named "${str(s.form.values, 'profile').trim()}" exists. Replace it? y replace · any other key returns to the form`}</Text>
      ) : (
        <Text color={color('muted')}>
          {s.busy ? 'Checking the connection…' : `Tab/${displayKey('up')}/${displayKey('down')} move · Enter next · Ctrl-S connect · Esc back`}
        </Text>
      )}
    </Box>
  );
}
