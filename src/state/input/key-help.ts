// The words of each key: the key table's (src/state/input/keymap.ts) with what each screen says of
// its keys (`keyHelp` in its spec, src/state/screens/spec.ts). The help's rows (help-sections.ts:
// the `?` help, the README's key table, the man page) and a key's "does nothing here" are put
// together here, from data: no shared code names a screen, and none reads a help text back.
import type {Binding} from './keymap.js';
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
