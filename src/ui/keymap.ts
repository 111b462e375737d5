// The one keymap table: key handling and the `?` help (and the README's key table) are
// all generated from BINDINGS, so they cannot drift apart.
import type {Key} from 'ink';

export type Scope = 'global' | 'help' | 'list' | 'detail' | 'filter' | 'form' | 'picker' | 'dialog' | 'result';

export type Action =
  | 'screen1' | 'screen2' | 'screen3' | 'screen4' | 'nextScreen' | 'prevScreen'
  | 'help' | 'quit' | 'quitNow' | 'back'
  | 'up' | 'down' | 'pageUp' | 'pageDown' | 'home' | 'end'
  | 'filter' | 'sortNext' | 'sortReverse' | 'open' | 'refresh' | 'pause' | 'copy'
  | 'new' | 'edit' | 'delete' | 'reveal' | 'role'
  | 'filterAccept' | 'filterClear'
  | 'nextField' | 'prevField' | 'toggle' | 'choiceNext' | 'choicePrev' | 'save' | 'pick'
  | 'confirm' | 'cancel' | 'reapply' | 'reload'
  | 'writeFile' | 'copyConfig' | 'qr' | 'done';

export interface Binding {
  scope: Scope;
  action: Action;
  /** Normalised key names, see keyName(). The first is the one shown in hints. */
  keys: string[];
  help: string;
}

export const BINDINGS: readonly Binding[] = [
  {scope: 'global', action: 'screen1', keys: ['1'], help: 'Devices'},
  {scope: 'global', action: 'screen2', keys: ['2'], help: 'Users'},
  {scope: 'global', action: 'screen3', keys: ['3'], help: 'Rules'},
  {scope: 'global', action: 'screen4', keys: ['4'], help: 'Configuration'},
  {scope: 'global', action: 'nextScreen', keys: ['tab'], help: 'next screen'},
  {scope: 'global', action: 'prevScreen', keys: ['shift+tab'], help: 'previous screen'},
  {scope: 'global', action: 'help', keys: ['?'], help: 'this help'},
  {scope: 'global', action: 'quit', keys: ['q'], help: 'quit (asks if a form has unsaved changes)'},
  {scope: 'global', action: 'quitNow', keys: ['ctrl+c'], help: 'quit now'},
  {scope: 'global', action: 'back', keys: ['esc'], help: 'back / close / cancel'},
  {scope: 'global', action: 'refresh', keys: ['r'], help: 'refresh now'},
  {scope: 'global', action: 'pause', keys: ['p'], help: 'pause / resume live updates'},

  {scope: 'help', action: 'down', keys: ['down', 'j'], help: 'scroll the help down'},
  {scope: 'help', action: 'up', keys: ['up', 'k'], help: 'scroll the help up'},
  {scope: 'help', action: 'pageDown', keys: ['pagedown', ' '], help: 'next page of help'},
  {scope: 'help', action: 'pageUp', keys: ['pageup'], help: 'previous page of help'},

  {scope: 'list', action: 'up', keys: ['up', 'k'], help: 'move up'},
  {scope: 'list', action: 'down', keys: ['down', 'j'], help: 'move down'},
  {scope: 'list', action: 'pageUp', keys: ['pageup', 'ctrl+b'], help: 'page up'},
  {scope: 'list', action: 'pageDown', keys: ['pagedown', 'ctrl+f'], help: 'page down'},
  {scope: 'list', action: 'home', keys: ['home', 'g'], help: 'first row'},
  {scope: 'list', action: 'end', keys: ['end', 'G'], help: 'last row'},
  {scope: 'list', action: 'filter', keys: ['/'], help: 'filter (case-insensitive substring; Esc clears)'},
  {scope: 'list', action: 'sortNext', keys: ['o'], help: 'sort by the next column'},
  {scope: 'list', action: 'sortReverse', keys: ['O'], help: 'reverse the sort'},
  {scope: 'list', action: 'open', keys: ['enter'], help: 'details'},
  {scope: 'list', action: 'copy', keys: ['c'], help: "copy the selected item's key value (OSC 52)"},
  {scope: 'list', action: 'new', keys: ['n'], help: 'new user / device / rule'},
  {scope: 'list', action: 'edit', keys: ['e'], help: 'edit the selected item'},
  {scope: 'list', action: 'delete', keys: ['d'], help: 'delete the selected item (asks first)'},

  {scope: 'detail', action: 'up', keys: ['up', 'k'], help: 'scroll up'},
  {scope: 'detail', action: 'down', keys: ['down', 'j'], help: 'scroll down'},
  {scope: 'detail', action: 'reveal', keys: ['v'], help: 'reveal / hide secrets (preshared key, client secret)'},
  {scope: 'detail', action: 'copy', keys: ['c'], help: 'copy the key value (OSC 52)'},
  {scope: 'detail', action: 'edit', keys: ['e', 'enter'], help: 'edit (users: email/password; devices: name/description; configuration: the entry under the cursor)'},
  {scope: 'detail', action: 'delete', keys: ['d'], help: 'delete (asks first; configuration: the provider under the cursor)'},
  {scope: 'detail', action: 'role', keys: ['R'], help: 'users: promote to admin / demote to unprivileged'},
  {scope: 'detail', action: 'new', keys: ['n'], help: 'users: new device for this user; configuration: add a provider'},

  {scope: 'filter', action: 'filterAccept', keys: ['enter'], help: 'keep the filter and return to the list'},
  {scope: 'filter', action: 'filterClear', keys: ['esc'], help: 'clear the filter'},

  {scope: 'form', action: 'nextField', keys: ['tab', 'down'], help: 'next field'},
  {scope: 'form', action: 'prevField', keys: ['shift+tab', 'up'], help: 'previous field'},
  {scope: 'form', action: 'toggle', keys: [' '], help: 'toggle a yes/no field'},
  {scope: 'form', action: 'choicePrev', keys: ['left'], help: 'previous value of a choice'},
  {scope: 'form', action: 'choiceNext', keys: ['right'], help: 'next value of a choice'},
  {scope: 'form', action: 'pick', keys: ['enter'], help: 'open a picker / next field'},
  {scope: 'form', action: 'save', keys: ['ctrl+s'], help: 'save'},
  {scope: 'form', action: 'cancel', keys: ['esc'], help: 'cancel (asks if there are unsaved changes)'},

  {scope: 'picker', action: 'up', keys: ['up'], help: 'move up'},
  {scope: 'picker', action: 'down', keys: ['down'], help: 'move down'},
  {scope: 'picker', action: 'pick', keys: ['enter'], help: 'pick'},
  {scope: 'picker', action: 'cancel', keys: ['esc'], help: 'back to the form (typing filters)'},

  {scope: 'dialog', action: 'confirm', keys: ['y'], help: 'confirm'},
  {scope: 'dialog', action: 'cancel', keys: ['n', 'esc'], help: 'cancel (the default)'},
  {scope: 'dialog', action: 'reapply', keys: ['a'], help: 'configuration changed meanwhile: re-apply your edit on top of it'},
  {scope: 'dialog', action: 'reload', keys: ['r'], help: 'configuration changed meanwhile: reload it and drop your edit'},

  {scope: 'result', action: 'writeFile', keys: ['w'], help: 'write the config to a file (0600)'},
  {scope: 'result', action: 'copyConfig', keys: ['c'], help: 'copy the config (OSC 52)'},
  {scope: 'result', action: 'qr', keys: ['Q'], help: 'QR code / config text'},
  {scope: 'result', action: 'done', keys: ['esc'], help: 'done (warns: the private key is not shown again)'},
];

export const SCOPE_TITLES: Record<Scope, string> = {
  global: 'Everywhere',
  help: 'In this help',
  list: 'Lists',
  detail: 'Detail views',
  filter: 'While typing a filter',
  form: 'Forms',
  picker: 'Pickers (owner, user scope)',
  dialog: 'Dialogs',
  result: 'New device result',
};

/** Normalises Ink's (input, key) pair into one name: `j`, `G`, `enter`, `ctrl+c`, `shift+tab`. */
export function keyName(input: string, key: Key): string {
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.leftArrow) return 'left';
  if (key.rightArrow) return 'right';
  if (key.pageUp) return 'pageup';
  if (key.pageDown) return 'pagedown';
  if ((key as Key & {home?: boolean}).home) return 'home';
  if ((key as Key & {end?: boolean}).end) return 'end';
  if (key.return) return 'enter';
  if (key.escape) return 'esc';
  if (key.tab) return key.shift ? 'shift+tab' : 'tab';
  // Ink 6 reports the usual backspace byte (0x7f) as `delete` (ink-6 notes §2.4).
  if (key.backspace || key.delete) return 'backspace';
  if (key.ctrl && input.length === 1) return `ctrl+${input.toLowerCase()}`;
  return input;
}

/**
 * Splits a multi-character input chunk (fast typing, tmux send-keys, a paste) into keys. Ink 6
 * delivers such a chunk as one event with no key flags set, so "\t\t" would otherwise read as
 * text. Runs of printable characters stay together (a paste into a field is one edit).
 */
export function splitChunk(input: string): Array<{input: string; name: string}> {
  const keys: Array<{input: string; name: string}> = [];
  let run = '';
  const flush = () => {
    if (run !== '') keys.push({input: run, name: run});
    run = '';
  };
  for (const ch of input) {
    const code = ch.charCodeAt(0);
    if (code >= 0x20 && code !== 0x7f) {
      run += ch;
      continue;
    }
    flush();
    if (ch === '\t') keys.push({input: ch, name: 'tab'});
    else if (ch === '\r' || ch === '\n') keys.push({input: ch, name: 'enter'});
    else if (code === 0x7f || code === 0x08) keys.push({input: ch, name: 'backspace'});
    else if (code === 0x1b) keys.push({input: ch, name: 'esc'});
    else keys.push({input: String.fromCharCode(code + 96), name: `ctrl+${String.fromCharCode(code + 96)}`});
  }
  flush();
  return keys;
}

export function actionFor(scopes: readonly Scope[], name: string): Action | undefined {
  for (const scope of scopes) {
    for (const binding of BINDINGS) {
      if (binding.scope === scope && binding.keys.includes(name)) return binding.action;
    }
  }
  return undefined;
}

export function hintFor(scope: Scope, action: Action): string {
  const binding = BINDINGS.find((b) => b.scope === scope && b.action === action);
  return binding ? displayKey(binding.keys[0]!) : '';
}

const DISPLAY: Record<string, string> = {
  up: '↑', down: '↓', left: '←', right: '→', pageup: 'PgUp', pagedown: 'PgDn', home: 'Home', end: 'End',
  enter: 'Enter', esc: 'Esc', tab: 'Tab', 'shift+tab': 'Shift-Tab', 'ctrl+c': 'Ctrl-C', 'ctrl+b': 'Ctrl-B',
  'ctrl+f': 'Ctrl-F', 'ctrl+s': 'Ctrl-S', backspace: 'Backspace', ' ': 'Space',
};

export function displayKey(name: string): string {
  return DISPLAY[name] ?? name;
}

/** The help text as rows of `keys  description`, grouped by scope. */
export function helpSections(): Array<{title: string; rows: Array<{keys: string; help: string}>}> {
  return (Object.keys(SCOPE_TITLES) as Scope[]).map((scope) => ({
    title: SCOPE_TITLES[scope],
    rows: BINDINGS.filter((b) => b.scope === scope).map((b) => ({keys: b.keys.map(displayKey).join(' '), help: b.help})),
  }));
}

/** The README's key table, generated; a test keeps the README in step. */
export function keymapMarkdown(): string {
  const lines = ['| where | keys | action |', '|---|---|---|'];
  for (const section of helpSections()) {
    for (const row of section.rows) {
      lines.push(`| ${section.title} | ${row.keys.split(' ').map((k) => `\`${k === '|' ? '\\|' : k}\``).join(' ')} | ${row.help} |`);
    }
  }
  return lines.join('\n');
}
