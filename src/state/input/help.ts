// The `?` help (F1 too, also in forms and dialogs, where `?` may be text): it opens on the keys of
// where it was opened, then the others (help-sections.ts `helpSections`); `/` searches its lines; one
// column, scrolled. The UI measures how far it can scroll (LayoutReadings.helpMaxScroll).
import type {ConsoleContext} from '../core/context.js';
import {CLOSED_HELP} from '../core/state.js';
import type {Action} from './keymap.js';
import {scopes} from './scopes.js';
import {editText} from './textedit.js';
import {pasteTooLong, SEARCH_LIMIT, typedTooLong} from './limits.js';

/** Opens the help on the keys of the place the console is at now. */
export function openHelp(c: ConsoleContext): void {
  const context = c.state.help.open ? c.state.help.context : scopes(c.state);
  c.set((s) => ({...s, command: null, help: {...CLOSED_HELP, open: true, context}}));
}

export function closeHelp(c: ConsoleContext): void {
  c.set((s) => ({...s, help: CLOSED_HELP}));
}

export function helpAction(c: ConsoleContext, action: Action): void {
  const page = Math.max(1, c.layout.bodyHeight() - 2);
  const help = c.state.help;
  const scrollTo = (n: number) => c.set((s) => ({...s, help: {...s.help, scroll: Math.max(0, Math.min(c.layout.helpMaxScroll, n))}}));
  if (action === 'back') {
    // Esc lets go of a search first, as on a list.
    if (help.search !== '') c.set((s) => ({...s, help: {...s.help, search: '', cursor: 0, scroll: 0}}));
    else closeHelp(c);
  } else if (action === 'filter') c.set((s) => ({...s, help: {...s.help, searching: true, cursor: [...s.help.search].length}}));
  else if (action === 'down') scrollTo(help.scroll + 1);
  else if (action === 'up') scrollTo(help.scroll - 1);
  else if (action === 'pageDown') scrollTo(help.scroll + page);
  else if (action === 'pageUp') scrollTo(help.scroll - page);
  else if (action === 'home') scrollTo(0);
  else if (action === 'end') scrollTo(c.layout.helpMaxScroll);
}

/** Keys while the search is typed: Enter keeps it, Esc clears it. */
export function helpSearchAction(c: ConsoleContext, action: Action): void {
  if (action === 'filterAccept') c.set((s) => ({...s, help: {...s.help, searching: false}}));
  else if (action === 'filterClear') c.set((s) => ({...s, help: {...s.help, searching: false, search: '', cursor: 0, scroll: 0}}));
}

/** Text typed or pasted into the search; false when the key is not text or an edit. */
export function typeIntoHelpSearch(c: ConsoleContext, name: string, input: string): boolean {
  const help = c.state.help;
  const edited = editText({value: help.search, cursor: help.cursor}, name, input, {limit: SEARCH_LIMIT});
  if (!edited) return false;
  if (edited.overLimit) {
    c.message({
      tone: 'warning',
      fades: true,
      text: name === 'paste' ? pasteTooLong('the help search', SEARCH_LIMIT, input) : typedTooLong('The help search', SEARCH_LIMIT),
    });
    return true;
  }
  c.set((s) => ({...s, help: {...s.help, search: edited.value, cursor: edited.cursor, scroll: 0}}));
  return true;
}
