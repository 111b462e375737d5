// The user picker of a form (owner, rule scope): opened from a picker field, typing filters it.
import {topModal} from '../core/state.js';
import {type FormModal} from '../core/modals.js';
import type {ConsoleContext} from '../core/context.js';
import {moveFocus, setValue} from './form.js';
import {showForm} from './form-errors.js';
import type {Action} from '../input/keymap.js';
import {pickerEntries} from './picker.js';
import type {PickerModal} from '../core/modals.js';
import {pasteTooLong, SEARCH_LIMIT, typedTooLong} from '../input/limits.js';
import {editText, isTypedKey, oneLineOf, pasteRefused} from '../input/textedit.js';

/** Keys that edit the picker's filter, besides the letters typed: it is a few letters of a name, edited at its end. */
const FILTER_EDIT_KEYS = new Set(['backspace', 'ctrl+w', 'ctrl+u', 'alt+backspace']);

/** A letter typed (or an edit) in the picker's filter; false when the key is neither. */
export function typeIntoPicker(c: ConsoleContext, m: PickerModal, name: string, input: string): boolean {
  if (!isTypedKey(name, input) && !FILTER_EDIT_KEYS.has(name)) return false;
  const edited = editText({value: m.filter, cursor: [...m.filter].length}, name, input, {limit: SEARCH_LIMIT});
  if (edited?.overLimit) c.message({tone: 'warning', fades: true, text: typedTooLong('The picker', SEARCH_LIMIT)});
  else if (edited) c.replaceModal(m, {...m, filter: edited.value, index: 0});
  return true;
}

/** A paste into the picker's filter, as one line. */
export function pasteIntoPicker(c: ConsoleContext, m: PickerModal, text: string): void {
  const oneLine = oneLineOf(text);
  const edited = editText({value: m.filter, cursor: [...m.filter].length}, 'paste', oneLine, {limit: SEARCH_LIMIT});
  if (edited?.overLimit) c.message({tone: 'warning', fades: true, kind: 'paste-refused', text: pasteTooLong('the picker', SEARCH_LIMIT, oneLine)});
  else if (edited) c.replaceModal(m, {...m, filter: edited.value, index: 0});
  else c.message({tone: 'warning', fades: true, kind: 'paste-refused', text: pasteRefused('the picker', oneLine, 'text')});
}

export function openPicker(c: ConsoleContext, form: FormModal, field: string, filter: string): void {
  c.push({kind: 'picker', title: `${form.title} › pick a user`, field, filter, index: 0, allowNone: form.pickerAllowsNone === true});
}

export function pickerAction(c: ConsoleContext, action: Action): void {
  const m = topModal(c.state);
  if (m?.kind !== 'picker') return;
  const entries = pickerEntries(c.state.snapshot?.users ?? [], m.filter, m.allowNone);
  if (action === 'up') c.replaceModal(m, {...m, index: Math.max(0, m.index - 1)});
  else if (action === 'down') c.replaceModal(m, {...m, index: Math.min(Math.max(0, entries.length - 1), m.index + 1)});
  else if (action === 'cancel') c.removeModal(m);
  else if (action === 'pick') {
    const chosen = entries[Math.min(m.index, entries.length - 1)];
    if (chosen === undefined) {
      c.message({tone: 'warning', text: `No user matches "${m.filter}"`});
      return;
    }
    c.removeModal(m);
    const form = topModal(c.state);
    if (form?.kind === 'form') {
      // On to the next field, but not round to the first one from the last.
      const picked = setValue(form.form, m.field, chosen);
      const next = moveFocus(picked, 1);
      showForm(c, form, next.focus > picked.focus ? next : picked);
    }
  }
}
