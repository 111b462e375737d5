// A key press or a paste, from its name to the handler that acts on it (docs/architecture.md, "From
// a key press to a new frame"). Where text goes, printable keys are typed; otherwise the keymap
// finds the binding in the scope stack, read-only mode refuses writes once, here, and the scope's
// handler runs. The handlers take the ConsoleContext and nothing else.
import type {ConsoleContext} from '../core/context.js';
import {topModal} from '../core/state.js';
import {dialogAction} from '../interactions/dialog.js';
import {askClose, formAction} from '../interactions/form-actions.js';
import {showForm} from '../interactions/form-errors.js';
import {editFocused, focusedSpec} from '../interactions/form.js';
import {openPicker, pickerAction} from '../interactions/picker-actions.js';
import {promptAction} from '../interactions/prompt.js';
import {reportAction} from '../interactions/report.js';
import {filterAction, listAction} from '../lists/actions.js';
import {pickSortColumn, sortPickAction} from '../lists/sort-letters.js';
import type {FilterEdit} from '../lists/view-state.js';
import {filterFromPaste} from '../lists/search.js';
import {configurationResource} from '../screens/configuration/screen.js';
import {resultAction} from '../interactions/device-result.js';
import {globalAction} from './global.js';
import {helpAction, helpSearchAction, openHelp, typeIntoHelpSearch} from './help.js';
import {commandAction, pasteIntoCommand, typeIntoCommand} from '../commands/command-bar.js';
import {bindingFor, displayKey, type Action, type Scope} from './keymap.js';
import {onlyElsewhere, onTheList} from './key-help.js';
import {acceptsText, available, scopes, typed, writeName} from './scopes.js';
import {editText, isEditKey, pasteRefused, type LineEdit} from './textedit.js';
import {FILTER_LIMIT, FILTER_TERMS_MAX, pasteTooLong, PROMPT_LIMIT, SEARCH_LIMIT, typedTooLong} from './limits.js';
import {tokenizeFilter} from '../lists/filter-query.js';

/** Each scope's handler. */
const HANDLERS: Record<Scope, (c: ConsoleContext, action: Action) => void> = {
  form: formAction,
  picker: pickerAction,
  dialog: dialogAction,
  result: resultAction,
  prompt: promptAction,
  report: reportAction,
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

/** Says that a key does nothing here, until the keys are elsewhere (or the message fades). */
function doesNothingHere(c: ConsoleContext, text: string): void {
  c.message({tone: 'info', text, place: true});
}

/** Where the keys go: the screen, the innermost scope, the item a detail shows. */
function placeOf(c: ConsoleContext): string {
  const s = c.state;
  const detail = s.screen === 'configuration' ? '' : (s.lists[s.screen].detailId ?? '');
  return `${s.screen} ${scopes(s)[0] ?? ''} ${detail} ${s.modals.length}`;
}

/**
 * One key press, by normalised name (`j`, `enter`, `ctrl+s`) and its raw input. False when it did
 * nothing where it landed (refused, unbound, "does nothing here"): the rest of its read is then
 * not run (Controller.key).
 */
export function keyPress(c: ConsoleContext, name: string, input: string): boolean {
  const place = placeOf(c);
  const taken = dispatchKey(c, name, input);
  const shown = c.state.message;
  if (shown?.place && placeOf(c) !== place) c.message(null);
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
  // While a form's save is in flight only Esc acts (it cancels the save). A key typed then would
  // land on a form about to close, or on the screen behind it once it has (`e` or `d` typed after
  // Ctrl-S), so it is not queued; it is refused by name, so that nothing is lost unsaid.
  const top = topModal(c.state);
  if (!c.state.help.open && top?.kind === 'form' && top.form.submitting && bindingFor(['form'], name)?.action !== 'cancel') {
    const key = typed(name, input) ? `"${input}"` : displayKey(name);
    c.message({tone: 'info', text: `Saving… the server has not answered yet: ${key} was not taken (Esc cancels the save)`});
    return false;
  }
  // Where text goes, a printable key is text even if a binding uses it elsewhere (Space toggles
  // a yes/no field, but types a space into a text field), and a line-editing key edits (← moves
  // the caret in a text field; on a choice field it picks the previous value).
  if ((typed(name, input) || isEditKey(name)) && acceptsText(c.state) && typeInto(c, name, input)) return true;
  const stack = scopes(c.state);
  const inner = bindingFor(stack.slice(0, 1), name);
  if (!inner && typeInto(c, name, input)) return true;
  const binding = inner ?? bindingFor(stack.slice(1), name);
  if (!binding) {
    // Esc then a key, arriving together (or within the escape delay), read as Alt with that key:
    // where nothing binds that Alt key, it is what was typed (`Esc q` left a detail and quit).
    if (name.startsWith('alt+') && input !== '') {
      dispatchKey(c, 'esc', '');
      return dispatchKey(c, name.slice('alt+'.length), input);
    }
    return unbound(c, name, input);
  }
  if (!available({...binding, writes: false}, c.state, c.settings.readOnly)) {
    // A key that does something on another screen says so instead of doing nothing.
    doesNothingHere(c, `${displayKey(name)} does nothing here (${onlyElsewhere(binding)})`);
    return false;
  }
  if (binding.writes && c.settings.readOnly) {
    c.message({tone: 'warning', fades: true, text: `Read-only mode: ${writeName(binding, c.state)} is disabled (started with --read-only)`});
    return false;
  }
  HANDLERS[binding.scope](c, binding.action);
  return true;
}

/** A paste refused earlier is not the story any more once a later one went in. */
function clearRefusal(c: ConsoleContext): void {
  if (c.state.message?.text.startsWith('Paste ignored')) c.message(null);
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
    if (!c.state.help.searching) c.message({tone: 'warning', fades: true, text: 'Paste ignored: the help is open (/ searches it)'});
    else if (!typeIntoHelpSearch(c, 'paste', line)) c.message({tone: 'warning', fades: true, text: pasteRefused('the help search', line, 'text')});
    return;
  }
  const m = topModal(c.state);
  // A paste copied from a terminal or a password manager often ends in a line break: it is not
  // part of a one-line value (a trailing space in a client secret would break sign-in).
  const oneLine = text.replace(/^[\r\n]+|[\r\n]+$/g, '').replace(/[\r\n\t]+/g, ' ');
  if (m?.kind === 'form' && m.form.submitting) {
    // The values being saved are not edited under the request (see keyPress).
    c.message({tone: 'warning', fades: true, text: 'Paste ignored: saving… the server has not answered yet; nothing was inserted (Esc cancels the save)'});
    return;
  }
  if (m?.kind === 'form') {
    const spec = focusedSpec(m.form);
    if (spec?.kind === 'picker') {
      openPicker(c, m, spec.key, oneLine.trim());
      return;
    }
    const pasted = spec?.multiline ? text : oneLine;
    const edited = editFocused(m.form, 'paste', pasted);
    if (edited && 'form' in edited) showForm(c, m, edited.form);
    else if (edited) c.message({tone: 'warning', fades: true, text: pasteTooLong(edited.label, edited.overLimit, pasted)});
    else c.message({tone: 'warning', fades: true, text: pasteRefused(spec?.label.trim() ?? 'this field', pasted, spec?.kind)});
    return;
  }
  if (m?.kind === 'picker') {
    const edited = editText({value: m.filter, cursor: [...m.filter].length}, 'paste', oneLine, {limit: SEARCH_LIMIT});
    if (edited?.overLimit) c.message({tone: 'warning', fades: true, text: pasteTooLong('the picker', SEARCH_LIMIT, oneLine)});
    else if (edited) c.replaceModal(m, {...m, filter: edited.value, index: 0});
    else c.message({tone: 'warning', fades: true, text: pasteRefused('the picker', oneLine, 'text')});
    return;
  }
  if (m === null && c.state.command) {
    // Said in the bar, which covers the status line while it is open.
    if (!pasteIntoCommand(c, oneLine)) c.set((s) => (s.command ? {...s, command: {...s.command, error: pasteRefused('the command bar', oneLine, 'text')}} : s));
    return;
  }
  if (m?.kind === 'prompt') {
    const edited = editText(m, 'paste', oneLine, {limit: PROMPT_LIMIT});
    if (edited?.overLimit) c.message({tone: 'warning', fades: true, text: pasteTooLong(m.label, PROMPT_LIMIT, oneLine)});
    else if (edited) c.replaceModal(m, {...m, ...lineOf(edited)});
    else c.message({tone: 'warning', fades: true, text: pasteRefused(m.label, oneLine, 'text')});
    return;
  }
  const list = m === null && !c.state.help.open ? c.activeList() : null;
  if (list && !list.state.detailId) {
    // In the filter it is typed at the caret; on a list it opens the filter with it (a key from `wg show`).
    const st = list.state;
    const line: LineEdit = st.filtering ? {value: st.filter, ...st.filterEdit} : {value: '', cursor: 0};
    // A `peer: KEY` line from `wg show` (alone or in a pasted stanza) filters by the key (the row holds the key, not the label).
    const pasted = filterFromPaste(text);
    if (pasted.keyFrom) c.message({tone: 'info', text: `Filtering by the key of the pasted "${pasted.keyFrom}:" line`});
    const typedText = pasted.keyFrom ? pasted.text : oneLine;
    const edited = editFilter(pasted.keyFrom && st.filtering ? {value: '', cursor: 0} : line, 'paste', st.filtering ? typedText : typedText.trim());
    if (edited === null || typeof edited === 'string') {
      c.message({tone: 'warning', fades: true, text: edited ?? pasteRefused('the filter', oneLine, 'text')});
      return;
    }
    c.updateList(list.spec.id, (s) => ({...s, filtering: true, filter: edited.value, filterEdit: caretOf(edited)}));
    return;
  }
  c.message({tone: 'warning', fades: true, text: 'Paste ignored: nothing here takes text'});
}

/** Text entry where the innermost scope has no binding for the key. True when handled. */
function typeInto(c: ConsoleContext, name: string, input: string): boolean {
  const s = c.state;
  if (s.help.open) return s.help.searching && typeIntoHelpSearch(c, name, input);
  const m = topModal(s);
  if (m?.kind === 'form') {
    const spec = focusedSpec(m.form);
    if (!spec) return false;
    if (spec.kind === 'picker' && typed(name, input)) {
      // Typing on a picker field opens the picker with what was typed as its filter.
      openPicker(c, m, spec.key, input);
      return true;
    }
    const edited = editFocused(m.form, name, input);
    if (edited && 'form' in edited) showForm(c, m, edited.form);
    else if (edited) c.message({tone: 'warning', fades: true, text: typedTooLong(edited.label, edited.overLimit)});
    return edited !== null;
  }
  if (m?.kind === 'picker') {
    // The picker's filter edits at its end (it is a few letters of a name): Backspace, Ctrl-W, Ctrl-U.
    if (!typed(name, input) && !['backspace', 'ctrl+w', 'ctrl+u', 'alt+backspace'].includes(name)) return false;
    const edited = editText({value: m.filter, cursor: [...m.filter].length}, name, input, {limit: SEARCH_LIMIT});
    if (edited?.overLimit) c.message({tone: 'warning', fades: true, text: typedTooLong('The picker', SEARCH_LIMIT)});
    else if (edited) c.replaceModal(m, {...m, filter: edited.value, index: 0});
    return true;
  }
  if (m === null && s.command) return typeIntoCommand(c, name, input);
  if (m?.kind === 'prompt') {
    const edited = editText(m, name, input, {limit: PROMPT_LIMIT});
    if (!edited) return false;
    if (edited.overLimit) c.message({tone: 'warning', fades: true, text: typedTooLong(m.label, PROMPT_LIMIT)});
    else c.replaceModal(m, {...m, ...lineOf(edited)});
    return true;
  }
  if (m === null && s.screen !== 'configuration' && s.lists[s.screen].sortPicking) {
    const list = c.activeList();
    if (!list || !typed(name, input)) return false;
    pickSortColumn(c, list, input);
    return true;
  }
  if (m === null && !s.help.open && s.screen !== 'configuration' && s.lists[s.screen].filtering) {
    const screen = s.screen;
    const st = s.lists[screen];
    if (!typed(name, input) && !isEditKey(name)) return false;
    const edited = editFilter({value: st.filter, ...st.filterEdit}, name, input);
    if (typeof edited === 'string') c.message({tone: 'warning', fades: true, text: edited});
    else if (edited) c.updateList(screen, (x) => ({...x, filter: edited.value, filterEdit: caretOf(edited)}));
    return true;
  }
  return false;
}

/**
 * A key or a paste in the `/` filter, within its limits: the edited line, why it was refused, or
 * null when the key is not an edit. Every refresh runs the filter over the whole list, so a
 * filter of 20,000 terms cost seconds on each; FILTER_TERMS_MAX keeps it to what is typed.
 */
function editFilter(line: LineEdit, name: string, input: string): LineEdit | string | null {
  const edited = editText(line, name, input, {limit: FILTER_LIMIT});
  if (!edited) return null;
  if (edited.overLimit) return name === 'paste' ? pasteTooLong('the filter', FILTER_LIMIT, input) : typedTooLong('The filter', FILTER_LIMIT);
  const terms = tokenizeFilter(edited.value).length;
  if (terms > FILTER_TERMS_MAX && terms > tokenizeFilter(line.value).length) {
    return `${name === 'paste' ? 'Paste ignored: ' : ''}the filter takes at most ${FILTER_TERMS_MAX} terms, and this would make ${terms}; nothing was inserted`;
  }
  return edited;
}

/** An edited line as a prompt stores it. */
function lineOf(edited: LineEdit): Required<Omit<LineEdit, 'overLimit'>> {
  return {value: edited.value, cursor: edited.cursor, undo: edited.undo ?? [], typing: edited.typing ?? false};
}

/** An edited filter's caret and undo steps, as the list's view state stores them beside the text. */
function caretOf(edited: LineEdit): FilterEdit {
  return {cursor: edited.cursor, undo: edited.undo ?? [], typing: edited.typing ?? false};
}

/** A key nothing took (false), but for `?` and a form's `q`. Printable keys on a form field that takes no text say why. */
function unbound(c: ConsoleContext, name: string, input: string): boolean {
  // The help may be open over a form: a key it does not take is not the form's.
  if (c.state.help.open) return false;
  // `?` where nothing takes it (a dialog, a report, a form's yes/no field) is the help, as F1 is.
  if (name === '?') {
    openHelp(c);
    return true;
  }
  const m = topModal(c.state);
  if (m === null) {
    elsewhereOnly(c, name);
    return false;
  }
  if (m.kind !== 'form' || !typed(name, input)) return false;
  if (name === 'q') {
    askClose(c, m, 'quit');
    return true;
  }
  const spec = focusedSpec(m.form);
  const how =
    spec?.kind === 'toggle' ? 'Space toggles it' : spec?.kind === 'choice' ? `${displayKey('left')}/${displayKey('right')} choose a value` : 'it takes no text';
  c.message({tone: 'info', text: `${spec?.label.trim() ?? 'This field'}: ${how}`});
  return false;
}

/**
 * A list's key pressed in a detail or on Configuration says so: silence there reads as "the key
 * took", and what is typed next (the text meant for `/`) runs as commands.
 */
function elsewhereOnly(c: ConsoleContext, name: string): void {
  const here = scopes(c.state)[0];
  if (here !== 'detail' && here !== 'configuration') return;
  const elsewhere = bindingFor(here === 'detail' ? ['list'] : ['list', 'detail'], name);
  if (!elsewhere) return;
  doesNothingHere(c, `${displayKey(name)} does nothing here (${onTheList(elsewhere, c.activeList()?.spec.id ?? null)})`);
}
