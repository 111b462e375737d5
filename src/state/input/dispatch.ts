// A key press or a paste, from its name to the handler that acts on it (docs/architecture.md, "From
// a key press to a new frame"). Where text goes, printable keys are typed; otherwise the keymap
// finds the binding in the scope stack, read-only mode refuses writes once, here, and the scope's
// handler runs. The innermost modal's behaviour (typing, pasting, its actions) comes from the
// modal registry (src/state/interactions/modal-behaviour.ts). The handlers take the ConsoleContext
// and nothing else.
import type {ConsoleContext} from '../core/context.js';
import type {ConsoleState} from '../core/state.js';
import {topModal} from '../core/state.js';
import type {Modal} from '../core/modals.js';
import {behaviourOf} from '../interactions/modal-behaviour.js';
import {filterAction, listAction} from '../lists/actions.js';
import {pasteIntoFilter, typeIntoFilter} from '../lists/filter-text.js';
import {pickSortColumn, sortPickAction} from '../lists/sort-letters.js';
import {configurationResource} from '../screens/configuration/screen.js';
import {globalAction} from './global.js';
import {helpAction, helpSearchAction, openHelp, typeIntoHelpSearch} from './help.js';
import {commandAction, pasteIntoCommand, typeIntoCommand} from '../commands/command-bar.js';
import {bindingFor, displayKey, type Action, type Scope} from './keymap.js';
import {onlyElsewhere, onTheList} from './key-help.js';
import {available, routeOf, writeName, type Route} from './scopes.js';
import {refusedInReadOnly} from './read-only.js';
import {isEditKey, isTypedKey, oneLineOf, pasteRefused} from './textedit.js';

type Handler = (c: ConsoleContext, action: Action) => void;

/** The handler of each scope that is not a modal's (a modal's is its behaviour's `act`). */
const HANDLERS: Record<Exclude<Scope, Modal['kind']>, Handler> = {
  help: helpAction,
  helpSearch: helpSearchAction,
  command: commandAction,
  filter: filterAction,
  sortPick: sortPickAction,
  configuration: (c, action) => configurationResource.run(c, action),
  detail: (c, action) => listAction(c, 'detail', action),
  list: (c, action) => listAction(c, 'list', action),
  global: globalAction,
};

/** The handler of a binding's scope: the innermost modal's when it is that modal's scope. */
function handlerOf(route: Route, scope: Scope): Handler {
  if (route.modal && behaviourOf(route.modal).scope === scope) return behaviourOf(route.modal).act;
  return HANDLERS[scope as Exclude<Scope, Modal['kind']>];
}

/** Says that a key does nothing here, until the keys are elsewhere (or the message fades). */
function doesNothingHere(c: ConsoleContext, text: string): void {
  c.message({tone: 'info', text, place: true});
}

/** Where the keys go: the screen, the innermost scope, the item a detail shows. */
function placeOf(s: ConsoleState): string {
  const detail = s.screen === 'configuration' ? '' : (s.lists[s.screen].detailId ?? '');
  return `${s.screen} ${routeOf(s).stack[0] ?? ''} ${detail} ${s.modals.length}`;
}

/**
 * One key press, by normalised name (`j`, `enter`, `ctrl+s`) and its raw input. False when it did
 * nothing where it landed (refused, unbound, "does nothing here"): the rest of its read is then
 * not run (Controller.key).
 */
export function keyPress(c: ConsoleContext, name: string, input: string): boolean {
  const before = c.state;
  const taken = dispatchKey(c, name, input);
  const after = c.state;
  // A message about a place ("does nothing here") goes once the keys are elsewhere.
  if (after.message?.place && after !== before && placeOf(after) !== placeOf(before)) c.message(null);
  return taken;
}

function dispatchKey(c: ConsoleContext, name: string, input: string): boolean {
  if (name === 'ctrl+c') {
    c.io.exit();
    return true;
  }
  // Job control works wherever the keys are, a form included, as in any terminal program.
  if (name === 'ctrl+z') {
    globalAction(c, 'suspend');
    return true;
  }
  // F1 opens the help wherever it is not open yet, a form or a dialog included (where `?` may be
  // text, or the dialog's keys are all there is).
  if (name === 'f1' && !c.state.help.open && !c.layout.tooSmall) {
    openHelp(c);
    return true;
  }
  // The screen says "terminal too small" and shows nothing a key could act on: `d` `y` typed
  // blind must not delete a row no one sees. Only quitting from where nothing is unsaved works.
  if (c.layout.tooSmall) {
    if (name === 'q' && topModal(c.state) === null) c.io.exit();
    return name === 'q';
  }
  // A modal busy with its work (a form's save in flight) lets only its cancel through.
  const route = routeOf(c.state);
  const top = route.modal;
  if (!c.state.help.open && top && behaviourOf(top).busy?.(c, top, name, input, bindingFor([behaviourOf(top).scope], name)?.action === 'cancel')) return false;
  // Where text goes, a printable key is text even if a binding uses it elsewhere (Space toggles
  // a yes/no field, but types a space into a text field), and a line-editing key edits (← moves
  // the caret in a text field; on a choice field it picks the previous value).
  if ((isTypedKey(name, input) || isEditKey(name)) && route.takesText && typeInto(c, route, name, input)) return true;
  const stack = route.stack;
  const inner = bindingFor(stack.slice(0, 1), name);
  if (!inner && typeInto(c, route, name, input)) return true;
  const binding = inner ?? bindingFor(stack.slice(1), name);
  if (!binding) {
    // Esc then a key, arriving together (or within the escape delay), read as Alt with that key:
    // where nothing binds that Alt key, it is what was typed (`Esc q` left a detail and quit).
    if (name.startsWith('alt+') && input !== '') {
      dispatchKey(c, 'esc', '');
      return dispatchKey(c, name.slice('alt+'.length), input);
    }
    return unbound(c, route, name, input);
  }
  if (!available({...binding, writes: false}, c.state, c.settings.readOnly)) {
    // A key that does something on another screen says so instead of doing nothing.
    doesNothingHere(c, `${displayKey(name)} does nothing here (${onlyElsewhere(binding)})`);
    return false;
  }
  if (refusedInReadOnly(c, binding.writes ? writeName(binding, c.state) : null)) return false;
  handlerOf(route, binding.scope)(c, binding.action);
  return true;
}

/** A paste refused earlier is not the story any more once a later one went in. */
function clearRefusal(c: ConsoleContext): void {
  if (c.state.message?.kind === 'paste-refused') c.message(null);
}

/** A bracketed paste: one insertion where text goes; in a list it opens the filter with it. */
export function paste(c: ConsoleContext, text: string): void {
  const before = c.state;
  pasteInto(c, text);
  // Whatever took the paste changed the state; a refusal only set a message.
  if (c.state !== before && c.state.message === before.message) clearRefusal(c);
}

function pasteInto(c: ConsoleContext, text: string): void {
  // Nothing to paste into on the "terminal too small" screen (which says keys and pastes wait).
  if (c.layout.tooSmall) return;
  if (c.state.help.open) {
    const line = text.replace(/[\r\n\t]+/g, ' ').trim();
    if (!c.state.help.searching) c.message({tone: 'warning', fades: true, kind: 'paste-refused', text: 'Paste ignored: the help is open (/ searches it)'});
    else if (!typeIntoHelpSearch(c, 'paste', line))
      c.message({tone: 'warning', fades: true, kind: 'paste-refused', text: pasteRefused('the help search', line, 'text')});
    return;
  }
  const m = topModal(c.state);
  if (m) {
    behaviourOf(m).paste(c, m, text);
    return;
  }
  if (c.state.command) {
    const oneLine = oneLineOf(text);
    // Said in the bar, which covers the status line while it is open.
    if (!pasteIntoCommand(c, oneLine)) c.set((s) => (s.command ? {...s, command: {...s.command, error: pasteRefused('the command bar', oneLine, 'text')}} : s));
    return;
  }
  const list = c.activeList();
  if (list && !list.state.detailId) {
    pasteIntoFilter(c, list, text);
    return;
  }
  c.message({tone: 'warning', fades: true, kind: 'paste-refused', text: 'Paste ignored: nothing here takes text'});
}

/** Text entry where the innermost scope has no binding for the key. True when handled. */
function typeInto(c: ConsoleContext, route: Route, name: string, input: string): boolean {
  const s = c.state;
  if (s.help.open) return s.help.searching && typeIntoHelpSearch(c, name, input);
  const m = route.modal;
  if (m) return behaviourOf(m).type(c, m, name, input);
  if (s.command) return typeIntoCommand(c, name, input);
  const list = c.activeList();
  if (!list) return false;
  if (list.state.sortPicking) {
    if (!isTypedKey(name, input)) return false;
    pickSortColumn(c, list, input);
    return true;
  }
  return list.state.filtering && typeIntoFilter(c, list, name, input);
}

/** A key nothing took (false), but for `?` and a form's `q`. Printable keys on a form field that takes no text say why. */
function unbound(c: ConsoleContext, route: Route, name: string, input: string): boolean {
  // The help may be open over a form: a key it does not take is not the form's.
  if (c.state.help.open) return false;
  // `?` where nothing takes it (a dialog, a report, a form's yes/no field) is the help, as F1 is.
  if (name === '?') {
    openHelp(c);
    return true;
  }
  const m = route.modal;
  if (m === null) {
    elsewhereOnly(c, route, name);
    return false;
  }
  return behaviourOf(m).unbound?.(c, m, name, input) ?? false;
}

/**
 * A list's key pressed in a detail or on Configuration says so: silence there reads as "the key
 * took", and what is typed next (the text meant for `/`) runs as commands.
 */
function elsewhereOnly(c: ConsoleContext, route: Route, name: string): void {
  const here = route.stack[0];
  if (here !== 'detail' && here !== 'configuration') return;
  const elsewhere = bindingFor(here === 'detail' ? ['list'] : ['list', 'detail'], name);
  if (!elsewhere) return;
  doesNothingHere(c, `${displayKey(name)} does nothing here (${onTheList(elsewhere, c.activeList()?.spec.id ?? null)})`);
}
