// Where a key press is resolved, and what the status bar offers there. The scope stack is the
// innermost modal alone, else help › filter › configuration/detail/list › global; a binding is
// available when its handler does something on this screen (the list's shared handling or the
// screen's own action) and, for a write, when the console is not read-only.
import {topModal} from '../core/state.js';
import type {ConsoleState, ListScreenId} from '../core/state.js';
import type {Modal} from '../core/modals.js';
import {behaviourOf} from '../interactions/modal-behaviour.js';
import {listActionVerb, listKeyAvailable} from '../lists/actions.js';
import {SCREEN_SPECS} from '../screens/index.js';
import {UNDO_WRITE} from '../undo/undo-actions.js';
import {displayKey, hintsFor, keyFor, type Action, type Binding, type Scope} from './keymap.js';

/** Where the keys go in a state: worked out once per state, however many questions a key asks of it. */
export interface Route {
  /** The scopes a key is looked up in, innermost first. */
  readonly stack: readonly Scope[];
  /** The innermost modal, whose behaviour types, pastes and acts. */
  readonly modal: Modal | null;
  /** Whether printable keys here are text (a field, a filter, a picker, a prompt), not commands. */
  readonly takesText: boolean;
}

// A key asks where it goes several times (to type, to find its binding, to run it, to name a
// refused write, to tell whether the place changed), and a read's text run asks first; states are
// immutable, so the last one's answer is kept for the next question about the same state.
let lastRoute: {state: ConsoleState; route: Route} | null = null;

export function routeOf(state: ConsoleState): Route {
  if (lastRoute?.state === state) return lastRoute.route;
  const modal = topModal(state);
  const stack = stackOf(state, modal);
  const takesText = state.help.open ? state.help.searching : modal ? behaviourOf(modal).takesText(modal) : state.command !== null || stack[0] === 'filter';
  const route = {stack, modal, takesText};
  lastRoute = {state, route};
  return route;
}

function stackOf(state: ConsoleState, m: Modal | null): Scope[] {
  // The help opens over anything, a form included; over a modal only its own keys work.
  if (state.help.open) return state.help.searching ? ['helpSearch'] : m ? ['help'] : ['help', 'global'];
  if (m) return [behaviourOf(m).scope];
  if (state.command) return ['command'];
  if (state.screen === 'configuration') return ['configuration', 'global'];
  const st = state.lists[state.screen];
  if (st.filtering) return ['filter'];
  if (st.sortPicking) return ['sortPick'];
  if (st.detailId) return ['detail', 'global'];
  return ['list', 'global'];
}

/** The scopes a key is looked up in, innermost first. */
export function scopes(state: ConsoleState): readonly Scope[] {
  return routeOf(state).stack;
}

/** Whether printable keys here are text (a field, a filter, a picker, a prompt), not commands. */
export function acceptsText(state: ConsoleState): boolean {
  return routeOf(state).takesText;
}

/** Whether a binding does something here: its handler exists, and writes are allowed. */
export function available(b: Binding, state: ConsoleState, readOnly: boolean): boolean {
  if (b.writes && readOnly) return false;
  if (state.screen === 'configuration' || (b.scope !== 'list' && b.scope !== 'detail')) return true;
  return listKeyAvailable(SCREEN_SPECS[state.screen], b.action, b.scope);
}

/** What a refused write would have done, in the admin's words. */
export function writeName(b: Binding, state: ConsoleState): string {
  if (b.action === 'undo') return UNDO_WRITE;
  if (state.screen === 'configuration') return 'changing the configuration';
  if (routeOf(state).modal) return 'saving';
  if (b.scope === 'list' || b.scope === 'detail') return listActionVerb(SCREEN_SPECS[state.screen], b.action, b.scope) ?? 'writing';
  return 'writing';
}

/** What acts on a list's marked rows, as the hints offer it: `d delete · `, then the screen's own (`K new keys · `). */
function onMarked(screen: ListScreenId): string[] {
  const own = Object.entries(SCREEN_SPECS[screen].actions).flatMap(([action, a]) =>
    a && 'needs' in a && a.needs === 'item' && a.marked ? [`${displayKey(keyFor('list', action as Action) ?? action)} ${a.marked.hint} · `] : [],
  );
  return ['d delete · ', ...own];
}

/** The status bar's key hints; while rows are marked, what acts on them comes first. */
export function hints(state: ConsoleState, readOnly: boolean): string {
  if (!state.snapshot && topModal(state) === null && !state.help.open) return hintsFor(['global'], (b) => available(b, state, readOnly));
  const {stack: here, modal: m} = routeOf(state);
  // Typing a search in the JSON view: its letters are text, so only the keys that end it are offered.
  if (m?.kind === 'raw' && m.searching) return 'Enter keep  Esc clear';
  // A report's keys depend on its phase: y applies only a preview; Esc stops a running job.
  if (m?.kind === 'report' && m.phase !== 'preview') {
    const esc = m.phase === 'finished' ? 'Esc close' : m.phase === 'running' ? 'Esc stop' : 'stopping…';
    return `${esc}  ${displayKey('up')}/${displayKey('down')} scroll`;
  }
  const text = hintsFor(here, (b) => available(b, state, readOnly) && !(m?.kind === 'report' && b.action === 'confirm' && !m.confirm));
  if (here[0] !== 'list' || state.screen === 'configuration' || state.marks[state.screen].size === 0) return text;
  // Read-only mode refuses the writes on them, so they are not offered for the marked rows either.
  return `${state.marks[state.screen].size} marked: ${readOnly ? '' : onMarked(state.screen).join('')}Esc unmark  ${text}`;
}
