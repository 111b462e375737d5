// What the mouse does (docs/terminal-notes.md, "Mouse reports"): a click on a tab goes to that screen, on a list row
// puts the cursor there, a double-click opens the row's detail (on a Configuration entry or a
// user's device line the same: the cursor, then Enter), on a form field focuses it; the
// wheel scrolls lists, details, the help, reports and the JSON view. Each is a key's handler run as
// that key would run it (keyPress, or the list's and the form's own moves), where that key would
// run: a click only moves, focuses or opens, never writes and never answers a dialog, and what a
// click lands on is what the last frame drew there (src/state/input/mouse-hit.ts). Shift-drag stays
// the terminal's text selection (most terminals keep Shift for it while an application has the mouse).
import type {ConsoleContext} from '../core/context.js';
import {SCREENS} from '../core/state.js';
import type {MouseEvent} from './decoder.js';
import {keyPress} from './dispatch.js';
import {keyFor, type Action, type Scope} from './keymap.js';
import {entryAt, fieldAt, isDoubleClick, rowAt, tabAt, WHEEL_LINES, type Press} from './mouse-hit.js';
import {routeOf} from './scopes.js';
import {moveCursorTo} from '../lists/actions.js';
import {focusField} from '../interactions/form.js';
import {showForm} from '../interactions/form-errors.js';

/** Where the wheel scrolls: as ↑ and ↓ do there (a form's ↓ is the next field, the command bar's its history: not there). */
const WHEEL_SCOPES: ReadonlySet<Scope> = new Set<Scope>(['list', 'filter', 'detail', 'configuration', 'help', 'report', 'raw', 'picker']);

/** The last press of the left button that may begin a double-click (one console's). */
export interface ClickMemory {
  last: Press | null;
}

/** One mouse event of a read, at `now` (milliseconds). Only presses act: a release, a drag and a move do nothing. */
export function mouseInput(c: ConsoleContext, event: MouseEvent, now: number, memory: ClickMemory): void {
  // "Terminal too small" shows nothing to click; nor does anything act before a press.
  if (c.layout.tooSmall || event.action !== 'press') return;
  if (event.button !== 'left') {
    // Anything between two clicks makes them two clicks (as a key does: KeyReads).
    memory.last = null;
    if (event.button === 'wheelUp' || event.button === 'wheelDown') wheel(c, event.button === 'wheelDown' ? 'down' : 'up');
    return;
  }
  const press: Press = {col: event.col, row: event.row, at: now};
  const double = isDoubleClick(memory.last, press);
  // A third press starts over: it is a click again, not a second double-click.
  memory.last = double ? null : press;
  click(c, press, double);
}

function wheel(c: ConsoleContext, key: 'up' | 'down'): void {
  const here = routeOf(c.state).stack[0];
  if (here === undefined || !WHEEL_SCOPES.has(here)) return;
  for (let i = 0; i < WHEEL_LINES; i++) keyPress(c, key, '');
}

function click(c: ConsoleContext, press: Press, double: boolean): void {
  const route = routeOf(c.state);
  const drawn = c.layout.drawn;
  const tab = tabAt(drawn.tabs, press.col, press.row);
  if (tab !== null) {
    // Where the screen's number key goes to it: not in a modal, the command bar or a filter being typed.
    if (!route.stack.includes('global') || route.takesText) return;
    const key = keyFor('global', `screen${SCREENS.findIndex((s) => s.id === tab) + 1}` as Action);
    if (key) keyPress(c, key, key);
    return;
  }
  const here = route.stack[0];
  if (here === 'list') {
    const list = c.activeList();
    const index = list && drawn.table?.screen === list.spec.id ? rowAt(drawn.table, press.col, press.row) : null;
    if (list === null || index === null) return;
    // The first press put the cursor on the row; the second opens it, as Enter does.
    if (double) keyPress(c, keyFor('list', 'open') ?? 'enter', '\r');
    else moveCursorTo(c, list, index);
    return;
  }
  if (here === 'configuration' || here === 'detail') {
    // The Configuration's entries, a user's devices in their detail: the cursor goes to the line,
    // and a double-click acts as Enter there (edits the entry, opens the device).
    const list = here === 'detail' ? c.activeList() : null;
    const owner = here === 'configuration' ? 'configuration' : list?.spec.id;
    const entry = drawn.entries?.owner === owner ? entryAt(drawn.entries, press.col, press.row) : null;
    if (entry === null) return;
    if (double) {
      const key = keyFor(here, here === 'configuration' ? 'edit' : 'open') ?? 'enter';
      keyPress(c, key, key === 'enter' ? '\r' : key);
    } else if (list) c.updateList(list.spec.id, (st) => ({...st, detailEntry: entry}));
    else c.set((s) => ({...s, configuration: {...s.configuration, entry}}));
    return;
  }
  if (here === 'form' && route.modal?.kind === 'form') {
    const m = route.modal;
    // The fields drawn are this form's (not the one under a picker or a dialog), and it is not saving.
    if (drawn.form?.modal !== m.key || m.form.submitting) return;
    const field = fieldAt(drawn.form, press.col, press.row);
    if (field === null) return;
    const form = focusField(m.form, field);
    if (form !== m.form) showForm(c, m, form);
  }
}
