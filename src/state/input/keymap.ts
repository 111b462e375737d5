// The one keymap table. Key handling (src/state/input/dispatch.ts), the status-bar hints, the `?`
// help and the README's key table are all generated from BINDINGS, so they cannot drift apart
// (the help's sections, with the line editor's keys and the commands: src/state/input/help-sections.ts).
// What a key does on one screen only is said by that screen's spec (`keyHelp`, put together in
// src/state/input/key-help.ts): nothing here names a screen.
// Plain data: key names are the normalised ones of src/ui/keys.ts (`j`, `G`, `enter`, `ctrl+s`).

import {glyphs} from '../core/glyphs.js';

/** Where a key press is resolved, innermost first: see `scopes()` in src/state/input/scopes.ts. */
export type Scope =
  | 'global'
  | 'command'
  | 'help'
  | 'helpSearch'
  | 'list'
  | 'sortPick'
  | 'detail'
  | 'configuration'
  | 'filter'
  | 'form'
  | 'picker'
  | 'dialog'
  | 'result'
  | 'prompt'
  | 'report'
  | 'raw';

export type Action =
  | 'screen1'
  | 'screen2'
  | 'screen3'
  | 'screen4'
  | 'screen5'
  | 'nextScreen'
  | 'prevScreen'
  | 'help'
  | 'command'
  | 'complete'
  | 'quit'
  | 'quitNow'
  | 'suspend'
  | 'back'
  | 'up'
  | 'down'
  | 'pageUp'
  | 'pageDown'
  | 'home'
  | 'end'
  | 'filter'
  | 'sortBy'
  | 'sortNext'
  | 'sortPrev'
  | 'sortReverse'
  | 'open'
  | 'refresh'
  | 'pause'
  | 'copy'
  | 'new'
  | 'newDevice'
  | 'edit'
  | 'editor'
  | 'delete'
  | 'reveal'
  | 'role'
  | 'newKey'
  | 'mark'
  | 'markAll'
  | 'import'
  | 'export'
  | 'exportSecrets'
  | 'stale'
  | 'sidePanel'
  | 'trace'
  | 'owner'
  | 'raw'
  | 'undo'
  | 'filterAccept'
  | 'filterClear'
  | 'nextField'
  | 'prevField'
  | 'toggle'
  | 'choiceNext'
  | 'choicePrev'
  | 'save'
  | 'pick'
  | 'cancel'
  | 'writeFile'
  | 'copyConfig'
  | 'qr'
  | 'done'
  | 'accept'
  | 'confirm'
  | 'reapply'
  | 'reload';

export interface Binding {
  scope: Scope;
  action: Action;
  /** Normalised key names. The first is the one shown in hints. */
  keys: string[];
  /**
   * The help text (also the README's), true on every screen the key works on; a screen's own words
   * follow it (`keyHelp` in its spec: "scroll up (users: the previous of their devices)"). Omitted
   * for a key only some screens have: their words alone are its help ("users: promote to admin…").
   */
  help?: string;
  /** A few words for what the key does, where a message names it ("s does nothing here (sort by a column is on the list…)"); the help when omitted. */
  name?: string;
  /** A short label for the status bar; bindings without one are listed in help only. */
  hint?: string;
  /** Sends a write to the server: refused in read-only mode, and its hint is hidden there. */
  writes?: boolean;
}

// Stryker disable ObjectLiteral: an emptied binding throws while this module loads, which vitest
// reports as a file that failed to load and Stryker 9 as a survivor. The table's content is held by
// the README table test and the hand-written list of write keys (test/ui/keymap.test.ts).
export const BINDINGS: readonly Binding[] = [
  {scope: 'global', action: 'screen1', keys: ['1'], help: 'Devices'},
  {scope: 'global', action: 'screen2', keys: ['2'], help: 'Users'},
  {scope: 'global', action: 'screen3', keys: ['3'], help: 'Rules'},
  {scope: 'global', action: 'screen4', keys: ['4'], help: 'Configuration'},
  {scope: 'global', action: 'screen5', keys: ['5'], help: 'Activity: what changed between polls and what you did'},
  {scope: 'global', action: 'nextScreen', keys: ['tab'], help: 'next screen'},
  {scope: 'global', action: 'prevScreen', keys: ['shift+tab'], help: 'previous screen'},
  {
    scope: 'global',
    action: 'help',
    keys: ['?', 'f1'],
    help: 'this help, on the keys of where you are (F1 also in forms and dialogs, where ? may be text)',
    hint: 'help',
  },
  {
    scope: 'global',
    action: 'command',
    keys: [':'],
    help: 'the command bar: go to a screen, a user or a device by name (the commands are listed below)',
    hint: 'command',
  },
  {scope: 'global', action: 'quit', keys: ['q', 'f10'], help: 'quit (asks if a form has unsaved changes)'},
  {scope: 'global', action: 'quitNow', keys: ['ctrl+c'], help: 'quit now'},
  {scope: 'global', action: 'suspend', keys: ['ctrl+z'], help: 'suspend to the shell, the terminal restored (fg comes back)'},
  {scope: 'global', action: 'back', keys: ['esc'], help: 'back / close / cancel; on a list: clear the filter, then the marks'},
  {scope: 'global', action: 'refresh', keys: ['r', 'f5'], help: 'refresh now'},
  {
    scope: 'global',
    action: 'undo',
    keys: ['u'],
    help: 'take back the last delete of this session (devices with their keys and addresses, users with their devices and rules) or new key (K: the old key comes back); :undo lists them',
    writes: true,
  },
  {scope: 'global', action: 'pause', keys: ['p'], help: 'pause / resume live updates', hint: 'pause'},

  {scope: 'command', action: 'accept', keys: ['enter'], help: 'run the command (an unknown one is said, and the text kept)', hint: 'run'},
  {
    scope: 'command',
    action: 'complete',
    keys: ['tab'],
    help: 'complete the command or its argument (several: their common part, and the list)',
    hint: 'complete',
  },
  {scope: 'command', action: 'up', keys: ['up'], help: 'the previous command of this session', hint: 'history'},
  {scope: 'command', action: 'down', keys: ['down'], help: 'the next command of this session'},
  {scope: 'command', action: 'cancel', keys: ['esc'], help: 'close the command bar', hint: 'close'},

  {scope: 'help', action: 'down', keys: ['down', 'j'], help: 'scroll the help down'},
  {scope: 'help', action: 'up', keys: ['up', 'k'], help: 'scroll the help up'},
  {scope: 'help', action: 'pageDown', keys: ['pagedown', ' '], help: 'next page of help'},
  {scope: 'help', action: 'pageUp', keys: ['pageup'], help: 'previous page of help'},
  {scope: 'help', action: 'home', keys: ['home', 'g'], help: 'top of the help'},
  {scope: 'help', action: 'end', keys: ['end', 'G'], help: 'end of the help'},
  {scope: 'help', action: 'filter', keys: ['/', 'f3'], help: 'search the help (only the lines holding the text are shown)', hint: 'search'},
  {scope: 'help', action: 'back', keys: ['esc', '?', 'f1'], help: 'close the help (Esc: clear the search first)', hint: 'close'},

  {scope: 'helpSearch', action: 'filterAccept', keys: ['enter'], help: 'keep the search and scroll the lines found', hint: 'keep'},
  {scope: 'helpSearch', action: 'filterClear', keys: ['esc'], help: 'clear the search', hint: 'clear'},

  {scope: 'list', action: 'up', keys: ['up', 'k'], help: 'move up'},
  {scope: 'list', action: 'down', keys: ['down', 'j'], help: 'move down'},
  {scope: 'list', action: 'pageUp', keys: ['pageup', 'ctrl+b'], help: 'page up'},
  {scope: 'list', action: 'pageDown', keys: ['pagedown', 'ctrl+f'], help: 'page down'},
  {scope: 'list', action: 'home', keys: ['home', 'g'], help: 'first row'},
  {scope: 'list', action: 'end', keys: ['end', 'G'], help: 'last row'},
  {
    scope: 'list',
    action: 'filter',
    keys: ['/', 'f3'],
    hint: 'filter',
    name: 'filter',
    help: 'filter: words (all must match, case-insensitive), field terms such as state:online, owner:ann, rx>1GiB, handshake>30d, !term to negate (README, "Filtering lists"); Esc clears',
  },
  {
    scope: 'list',
    action: 'sortBy',
    keys: ['s'],
    name: 'sort by a column',
    help: 'sort by a column: s, then the letter underlined in its title (the sorted column again: the other way; ▲ ascending, ▼ descending; traffic and times start ▼); s 0: the list in its own order',
    hint: 'sort',
  },
  {scope: 'list', action: 'sortNext', keys: ['>', 'o'], help: 'sort by the next column'},
  {scope: 'list', action: 'sortPrev', keys: ['<'], help: 'sort by the previous column'},
  {scope: 'list', action: 'sortReverse', keys: ['O'], help: 'reverse the sort'},
  {scope: 'list', action: 'open', keys: ['enter'], help: 'details', hint: 'details'},
  {scope: 'list', action: 'copy', keys: ['c'], name: "copy the selected item's key value", help: "copy the selected item's key value (OSC 52)"},
  {scope: 'list', action: 'new', keys: ['n'], help: 'new user / device / rule', hint: 'new', writes: true},
  {scope: 'list', action: 'edit', keys: ['e'], help: 'edit the selected item', writes: true},
  {scope: 'list', action: 'delete', keys: ['d'], help: 'delete the selected item, or every marked one (asks once; progress, Esc stops)', writes: true},
  {scope: 'list', action: 'role', keys: ['R'], writes: true},
  {scope: 'list', action: 'newKey', keys: ['K'], writes: true},
  {
    scope: 'list',
    action: 'mark',
    keys: [' '],
    name: 'mark / unmark the row',
    help: 'mark / unmark the row (marks stay through refreshes, sorting and filtering)',
    hint: 'mark',
  },
  {scope: 'list', action: 'markAll', keys: ['*'], name: 'mark every row the filter shows', help: 'mark every row the filter shows (again: unmark them)'},
  {scope: 'list', action: 'import', keys: ['I'], writes: true},
  {
    scope: 'list',
    action: 'export',
    keys: ['x'],
    name: 'export the list as shown',
    help: 'export the list as shown (filtered, sorted) to CSV, or JSON for a .json path; no secrets',
  },
  {scope: 'list', action: 'stale', keys: ['S']},
  {
    scope: 'list',
    action: 'sidePanel',
    keys: ['P'],
    name: 'the detail of the row under the cursor beside the list, following the cursor and the refreshes',
    help: 'the detail of the row under the cursor beside the list, following the cursor and the refreshes (from 160 columns); again: hide it',
  },
  {scope: 'list', action: 'trace', keys: ['t']},
  {scope: 'list', action: 'owner', keys: ['U']},
  {scope: 'list', action: 'raw', keys: ['y'], help: 'the item as the server sent it: JSON, secrets masked until v, / searches'},
  {
    scope: 'list',
    action: 'editor',
    keys: ['E'],
    help: 'edit in $VISUAL or $EDITOR (else vi): the editable fields as JSON; the changes are shown before anything is sent',
    name: 'edit in $EDITOR',
    writes: true,
  },
  {scope: 'list', action: 'exportSecrets', keys: ['X']},

  {scope: 'detail', action: 'up', keys: ['up', 'k'], help: 'scroll up'},
  {scope: 'detail', action: 'down', keys: ['down', 'j'], help: 'scroll down'},
  {scope: 'detail', action: 'open', keys: ['enter']},
  {scope: 'detail', action: 'edit', keys: ['e'], help: 'edit', hint: 'edit', writes: true},
  {scope: 'detail', action: 'role', keys: ['R'], hint: 'role', writes: true},
  {scope: 'detail', action: 'newKey', keys: ['K'], writes: true},
  {scope: 'detail', action: 'newDevice', keys: ['n'], hint: 'device', writes: true},
  {scope: 'detail', action: 'delete', keys: ['d'], help: 'delete (asks first)', hint: 'delete', writes: true},
  {scope: 'detail', action: 'trace', keys: ['t']},
  {scope: 'detail', action: 'owner', keys: ['U']},
  {scope: 'detail', action: 'raw', keys: ['y'], help: 'the item as the server sent it: JSON, secrets masked until v, / searches'},
  {
    scope: 'detail',
    action: 'editor',
    keys: ['E'],
    help: 'edit in $VISUAL or $EDITOR (else vi): the editable fields as JSON; the changes are shown before anything is sent',
    name: 'edit in $EDITOR',
    writes: true,
  },
  {scope: 'detail', action: 'reveal', keys: ['v'], help: 'reveal / hide secrets (preshared key)', hint: 'reveal'},
  {scope: 'detail', action: 'copy', keys: ['c'], help: 'copy the key value (OSC 52)', hint: 'copy'},
  {scope: 'detail', action: 'back', keys: ['esc'], help: 'back to the list', hint: 'back'},

  {scope: 'configuration', action: 'up', keys: ['up', 'k'], help: 'previous entry', hint: 'move'},
  {scope: 'configuration', action: 'down', keys: ['down', 'j'], help: 'next entry'},
  {scope: 'configuration', action: 'home', keys: ['home', 'g'], help: 'first entry'},
  {scope: 'configuration', action: 'end', keys: ['end', 'G'], help: 'last entry'},
  {scope: 'configuration', action: 'pageDown', keys: ['pagedown', 'ctrl+f'], help: 'entries a page further down'},
  {scope: 'configuration', action: 'pageUp', keys: ['pageup', 'ctrl+b'], help: 'entries a page further up'},
  {scope: 'configuration', action: 'edit', keys: ['enter', 'e'], help: 'edit the entry under the cursor', hint: 'edit', writes: true},
  {scope: 'configuration', action: 'new', keys: ['n'], help: 'add a provider of the kind under the cursor', hint: 'add provider', writes: true},
  {scope: 'configuration', action: 'delete', keys: ['d'], help: 'delete the provider under the cursor (asks first)', hint: 'delete provider', writes: true},
  {scope: 'configuration', action: 'reveal', keys: ['v'], help: 'reveal / hide secrets (client secrets, SAML metadata)', hint: 'reveal'},
  {scope: 'configuration', action: 'raw', keys: ['y'], help: 'the configuration as the server sent it: JSON, secrets masked until v, / searches'},
  {
    scope: 'configuration',
    action: 'editor',
    keys: ['E'],
    help: 'edit the whole configuration and its providers in $VISUAL or $EDITOR (else vi) as JSON; the changes are shown before anything is sent',
    name: 'edit in $EDITOR',
    writes: true,
  },

  {scope: 'sortPick', action: 'cancel', keys: ['esc'], help: 'keep the sort as it was (a column letter sorts by that column)', hint: 'cancel'},

  {scope: 'filter', action: 'filterAccept', keys: ['enter'], help: 'keep the filter and return to the list', hint: 'keep'},
  {scope: 'filter', action: 'filterClear', keys: ['esc'], help: 'clear the filter', hint: 'clear'},
  {scope: 'filter', action: 'up', keys: ['up'], help: 'move up in the matches'},
  {scope: 'filter', action: 'down', keys: ['down'], help: 'move down in the matches'},

  {scope: 'form', action: 'nextField', keys: ['tab', 'down'], help: 'next field', hint: 'next'},
  {scope: 'form', action: 'prevField', keys: ['shift+tab', 'up'], help: 'previous field'},
  {scope: 'form', action: 'toggle', keys: [' '], help: 'toggle a yes/no field'},
  {scope: 'form', action: 'choicePrev', keys: ['left'], help: 'previous value of a choice'},
  {scope: 'form', action: 'choiceNext', keys: ['right'], help: 'next value of a choice'},
  {scope: 'form', action: 'pick', keys: ['enter'], help: 'open a picker (typing on a picker field opens it too) / next field'},
  {scope: 'form', action: 'save', keys: ['ctrl+s'], help: 'save', hint: 'save', writes: true},
  {scope: 'form', action: 'cancel', keys: ['esc'], help: 'cancel (asks if there are unsaved changes)', hint: 'cancel'},

  {scope: 'picker', action: 'up', keys: ['up'], help: 'move up'},
  {scope: 'picker', action: 'down', keys: ['down'], help: 'move down'},
  {scope: 'picker', action: 'pick', keys: ['enter'], help: 'pick', hint: 'pick'},
  {scope: 'picker', action: 'cancel', keys: ['esc'], help: 'back to the form (typing filters)', hint: 'back'},

  {scope: 'dialog', action: 'confirm', keys: ['y'], help: 'confirm (the dialog says what: delete, save, discard, leave, overwrite)'},
  {scope: 'dialog', action: 'cancel', keys: ['n', 'esc'], help: 'cancel (the default)'},
  {scope: 'dialog', action: 'reapply', keys: ['a'], help: 'configuration changed meanwhile: re-apply your edit on top of it'},
  {scope: 'dialog', action: 'reload', keys: ['r'], help: 'configuration changed meanwhile: reload it and drop your edit'},

  {scope: 'result', action: 'writeFile', keys: ['w'], help: 'write the config to a file (0600)', hint: 'file'},
  {scope: 'result', action: 'copyConfig', keys: ['c'], help: 'copy the config (OSC 52)', hint: 'copy'},
  {scope: 'result', action: 'qr', keys: ['Q'], help: 'QR code / config text', hint: 'QR'},
  {scope: 'result', action: 'done', keys: ['esc'], help: 'done (warns: the private key is not shown again)', hint: 'done'},

  {scope: 'prompt', action: 'accept', keys: ['enter'], help: 'accept (e.g. write the file)', hint: 'accept'},
  {scope: 'prompt', action: 'cancel', keys: ['esc'], help: 'cancel', hint: 'cancel'},

  {scope: 'report', action: 'confirm', keys: ['y'], help: 'preview: apply it (the report says what)', hint: 'apply'},
  {scope: 'report', action: 'cancel', keys: ['esc'], help: 'preview: cancel · running: stop (what is in flight finishes) · done: close', hint: 'close'},
  {scope: 'report', action: 'down', keys: ['down', 'j'], help: 'scroll down'},
  {scope: 'report', action: 'up', keys: ['up', 'k'], help: 'scroll up'},
  {scope: 'report', action: 'pageDown', keys: ['pagedown', ' '], help: 'next page'},
  {scope: 'report', action: 'pageUp', keys: ['pageup'], help: 'previous page'},
  {scope: 'report', action: 'home', keys: ['home', 'g'], help: 'top'},
  {scope: 'report', action: 'end', keys: ['end', 'G'], help: 'bottom'},

  {scope: 'raw', action: 'down', keys: ['down', 'j'], help: 'scroll down'},
  {scope: 'raw', action: 'up', keys: ['up', 'k'], help: 'scroll up'},
  {scope: 'raw', action: 'pageDown', keys: ['pagedown', ' '], help: 'next page'},
  {scope: 'raw', action: 'pageUp', keys: ['pageup'], help: 'previous page'},
  {scope: 'raw', action: 'home', keys: ['home', 'g'], help: 'top'},
  {scope: 'raw', action: 'end', keys: ['end', 'G'], help: 'bottom'},
  {scope: 'raw', action: 'filter', keys: ['/', 'f3'], help: 'search: only the lines holding the text (Enter keeps it, Esc clears it)', hint: 'search'},
  {scope: 'raw', action: 'filterAccept', keys: ['enter'], help: 'keep the search and scroll the lines found'},
  {scope: 'raw', action: 'reveal', keys: ['v'], help: 'reveal / hide secrets (preshared key, client secret)', hint: 'reveal'},
  {scope: 'raw', action: 'copy', keys: ['c'], help: 'copy the JSON as shown (OSC 52; secrets only when revealed)', hint: 'copy'},
  {scope: 'raw', action: 'back', keys: ['esc'], help: 'clear the search, else close', hint: 'close'},
];
// Stryker restore ObjectLiteral

export const SCOPE_TITLES: Record<Scope, string> = {
  global: 'Everywhere',
  command: 'Command bar (:)',
  help: 'In this help',
  helpSearch: 'While searching the help',
  list: 'Lists',
  detail: 'Detail views',
  configuration: 'Configuration',
  filter: 'While typing a filter',
  sortPick: 'After s (sort by a column)',
  form: 'Forms',
  picker: 'Pickers (owner, user scope)',
  dialog: 'Dialogs',
  result: 'New device result',
  prompt: 'Prompts (file path)',
  report: 'Reports (import preview, bulk progress and summary)',
  raw: 'The JSON view (y)',
};

const index = new Map<string, Binding>();
for (const b of BINDINGS) for (const k of b.keys) if (!index.has(`${b.scope} ${k}`)) index.set(`${b.scope} ${k}`, b);

/** The first binding of `name` in `scopes`, searched in order. */
export function bindingFor(scopes: readonly Scope[], name: string): Binding | undefined {
  for (const scope of scopes) {
    const b = index.get(`${scope} ${name}`);
    if (b) return b;
  }
  return undefined;
}

/** The key that triggers `action` in `scope` (the first listed), for tests and hints. */
export function keyFor(scope: Scope, action: Action): string | undefined {
  return BINDINGS.find((b) => b.scope === scope && b.action === action)?.keys[0];
}

/** The arrow keys by the glyph set: ↑, or `Up` on a plain terminal (where `^` and `v` would read as keys). */
const ARROWS: Record<string, () => string> = {
  up: () => glyphs().keyUp,
  down: () => glyphs().keyDown,
  left: () => glyphs().keyLeft,
  right: () => glyphs().keyRight,
};

const DISPLAY: Record<string, string> = {
  pageup: 'PgUp',
  pagedown: 'PgDn',
  home: 'Home',
  end: 'End',
  enter: 'Enter',
  esc: 'Esc',
  tab: 'Tab',
  'shift+tab': 'Shift-Tab',
  backspace: 'Backspace',
  delete: 'Del',
  ' ': 'Space',
};

/** A key as the help shows it: `ctrl+w` → `Ctrl-W`, `alt+left` → `Alt-←`. */
export function displayKey(name: string): string {
  const arrow = ARROWS[name];
  if (arrow) return arrow();
  const fixed = DISPLAY[name];
  if (fixed) return fixed;
  // Function keys as htop labels them: F1, F3, F5, F10.
  if (/^f[0-9]{1,2}$/.test(name)) return name.toUpperCase();
  const chord = /^(ctrl|alt)\+(.+)$/.exec(name);
  if (chord) return `${chord[1] === 'ctrl' ? 'Ctrl' : 'Alt'}-${chord[2]!.length === 1 ? chord[2]!.toUpperCase() : displayKey(chord[2]!)}`;
  return name;
}

/**
 * The status-bar hints for the active scopes: bindings with a hint, in scope order, that
 * `available` allows (read-only mode hides writes; screens without an action hide it).
 */
export function hintsFor(scopes: readonly Scope[], available: (b: Binding) => boolean): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const scope of scopes) {
    for (const b of BINDINGS) {
      if (b.scope !== scope || b.hint === undefined || seen.has(b.action) || !available(b)) continue;
      seen.add(b.action);
      parts.push(`${displayKey(b.keys[0]!)} ${b.hint}`);
    }
  }
  return parts.join('  ');
}
