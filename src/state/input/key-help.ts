// The words of each key: the key table's (src/state/input/keymap.ts) with what each screen says of
// its keys (`keyHelp` in its spec, src/state/screens/spec.ts). The `?` help, the README's key table,
// the man page and a key's "does nothing here" are all put together here, from data: no shared code
// names a screen, and none reads a help text back.
import {BINDINGS, displayKey, SCOPE_TITLES, type Binding, type Scope} from './keymap.js';
import {EDIT_KEYS} from './textedit.js';
import {COMMANDS} from '../commands/table.js';
import {SCREENS, type ListScreenId} from '../core/state.js';
import {SCREEN_SPECS} from '../screens/index.js';
import {actionAt} from '../screens/spec.js';
import {listKeyAvailable} from '../lists/actions.js';

/** Screens that say the same words of a key. */
interface Said {
  screens: ListScreenId[];
  words: string;
}

/** What the screens say of a list or detail key, in the screens' order; those with the same words together. */
function saidByScreens(b: Binding): Said[] {
  if (b.scope !== 'list' && b.scope !== 'detail') return [];
  const said: Said[] = [];
  for (const spec of Object.values(SCREEN_SPECS)) {
    const words = spec.keyHelp?.[b.scope]?.[b.action];
    if (words === undefined) continue;
    const same = said.find((s) => s.words === words);
    if (same) same.screens.push(spec.id);
    else said.push({screens: [spec.id], words});
  }
  return said;
}

/**
 * A key's help row: the table's words, then what screens add ("scroll up (users: the previous of
 * their devices)"); for a key only some screens have, their words alone ("users: promote to
 * admin / demote to unprivileged").
 */
export function keyHelp(b: Binding): string {
  const said = saidByScreens(b)
    .map((s) => `${s.screens.join(' and ')}: ${s.words}`)
    .join('; ');
  if (b.help === undefined) return said;
  return said === '' ? b.help : `${b.help} (${said})`;
}

function screenTitle(id: ListScreenId): string {
  return SCREENS.find((s) => s.id === id)?.title ?? id;
}

/**
 * Why a list or detail key does nothing on this screen: for a key of some screens only, which
 * ("Users only: promote to admin / demote to unprivileged"); for one every list has, what it does.
 */
export function onlyElsewhere(b: Binding): string {
  if (b.help !== undefined) return keyHelp(b);
  return saidByScreens(b)
    .map((s) => `${s.screens.map(screenTitle).join(' and ')} only: ${s.words}`)
    .join('; ');
}

/**
 * A list's key pressed in a detail of `screen`, or on Configuration (`screen` null): where it
 * works ("filter is on the list; Esc goes back to it", "sort by a column is on the lists: 1–3 and
 * 5"), or, when this screen's list has no such key either, which screens do.
 */
export function onTheList(b: Binding, screen: ListScreenId | null): string {
  if (screen === null) return b.help === undefined ? onlyElsewhere(b) : `${b.name ?? b.help} is on the lists: 1–3 and 5`;
  const spec = SCREEN_SPECS[screen];
  if (!listKeyAvailable(spec, b.action, 'list')) return onlyElsewhere(b);
  return `${actionAt(spec, b.action, 'list')?.verb ?? b.name ?? b.help} is on the list; Esc goes back to it`;
}

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
    rows: COMMANDS.map((x) => ({keys: `:${x.name}${x.args ? ` ${x.args}` : ''}`, help: `${x.help} (also ${x.aliases.map((a) => `:${a}`).join(' ')})`})),
  };
  // The reference order: each scope, the line editor after the forms, the commands after the bar.
  const reference: HelpSection[] = [];
  for (const [scope, section] of byScope) {
    reference.push(section);
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
