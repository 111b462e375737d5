// The help's text, as sections of rows (`keys  what they do`): the keymap table's bindings with the
// screens' words (src/state/input/key-help.ts), the line editor's keys (src/state/input/textedit.ts)
// and the command bar's commands (src/state/commands/registry.ts). The `?` help (src/ui/HelpOverlay.tsx),
// the README's key table and the man page's KEYS section are made from it. On its own, not in the
// keymap: the commands carry their behaviour, and the screens' words come from the screen specs;
// both reach the keymap through the console's state, so the keymap cannot import them without a cycle.
import {COMMAND_LIST, commandUsage} from '../commands/registry.js';
import {keyHelp} from './key-help.js';
import {BINDINGS, displayKey, SCOPE_TITLES, type Scope} from './keymap.js';
import {EDIT_KEYS} from './textedit.js';

export interface HelpSection {
  title: string;
  rows: Array<{keys: string; help: string}>;
  /** A section of the place the help was opened from (listed first). */
  here?: boolean;
}

/** Scopes whose keys type text: the line editor's keys belong with theirs. */
const TEXT_SCOPES: readonly Scope[] = ['form', 'filter', 'prompt', 'command', 'picker', 'helpSearch'];

/**
 * The help text as rows of `keys  description`, grouped by scope. Opened somewhere (`context`,
 * innermost scope first), that place's keys come first (with the line editor's where text is
 * typed, the commands in the command bar), then the keys that work everywhere, then the rest; with
 * no context, the keymap's order, the line editor's keys after the forms' and the commands after
 * the command bar's (the README's table).
 */
export function helpSections(context: readonly Scope[] = []): HelpSection[] {
  const byScope = new Map<Scope, HelpSection>();
  for (const scope of Object.keys(SCOPE_TITLES) as Scope[]) {
    byScope.set(scope, {
      title: SCOPE_TITLES[scope],
      rows: BINDINGS.filter((b) => b.scope === scope).map((b) => ({keys: b.keys.map(displayKey).join(' '), help: keyHelp(b)})),
    });
  }
  const editing: HelpSection = {title: LINE_EDITOR_TITLE, rows: EDIT_KEYS.map((k) => ({keys: k.keys.map(displayKey).join(' '), help: k.help}))};
  const commands: HelpSection = {
    title: COMMANDS_TITLE,
    rows: COMMAND_LIST.map((x) => ({keys: commandUsage(x), help: x.aliases.length ? `${x.help} (also ${x.aliases.map((a) => `:${a}`).join(' ')})` : x.help})),
  };
  // The reference order: each scope, the mouse after the keys of everywhere, the line editor after the forms, the commands after the bar.
  const reference: HelpSection[] = [];
  for (const [scope, section] of byScope) {
    reference.push(section);
    if (scope === 'global') reference.push(MOUSE);
    if (scope === 'form') reference.push(editing);
    if (scope === 'command') reference.push(commands);
  }
  const here = context.filter((scope) => scope !== 'global');
  if (here.length === 0) return reference;
  const first: HelpSection[] = here.map((scope) => ({...byScope.get(scope)!, here: true}));
  if (here.some((scope) => TEXT_SCOPES.includes(scope))) first.push({...editing, here: true});
  if (here.includes('command')) first.push({...commands, here: true});
  const everywhere = byScope.get('global')!;
  const taken = new Set([...first.map((x) => x.title), everywhere.title]);
  return [...first, everywhere, ...reference.filter((x) => !taken.has(x.title))];
}

export const MOUSE_TITLE = 'The mouse';

/**
 * What the mouse does (src/state/input/mouse.ts), and how to have the terminal's own back: while
 * the console has the mouse, a plain drag is the console's, so the help says how text is selected.
 */
const MOUSE: HelpSection = {
  title: MOUSE_TITLE,
  rows: [
    {
      keys: 'click',
      help: "on a tab: that screen; on a list row, a Configuration entry or a user's device line: the cursor there; on a form field: focus it (a click never writes, nor answers a dialog)",
    },
    {keys: 'double-click', help: 'there: what Enter does (a row’s details, edit the entry, open the device)'},
    {keys: 'wheel', help: 'scroll lists, details, the help, reports and the JSON view, three rows a notch'},
    {
      keys: 'Shift-drag',
      help: 'select text, as the terminal does without the mouse (Shift with the middle button pastes); --no-mouse, or "mouse": false in the profile, leaves the mouse to the terminal',
    },
  ],
};

export const LINE_EDITOR_TITLE = 'Text fields, filters and prompts';

export const COMMANDS_TITLE = 'Commands (type after :)';

/** The README's key table, generated; a test keeps the README in step. */
export function keymapMarkdown(): string {
  const lines = ['| where | keys | action |', '|---|---|---|'];
  for (const section of helpSections()) {
    for (const row of section.rows) {
      lines.push(
        `| ${section.title} | ${row.keys
          .split(' ')
          .map((k) => `\`${k === '|' ? '\\|' : k}\``)
          .join(' ')} | ${row.help} |`,
      );
    }
  }
  return lines.join('\n');
}
