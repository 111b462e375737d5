// What a form does with text: a key typed or pasted into the focused field, within the field's
// limit (src/state/input/limits.ts); typing on a picker field opens the picker; keys while a save
// is in flight are refused by name. The modal registry (modal-behaviour.ts) routes here.
import type {ConsoleContext} from '../core/context.js';
import type {FormModal} from '../core/modals.js';
import {displayKey} from '../input/keymap.js';
import {pasteTooLong, typedTooLong} from '../input/limits.js';
import {isTypedKey, oneLineOf, pasteRefused} from '../input/textedit.js';
import {askClose} from './form-actions.js';
import {showForm} from './form-errors.js';
import {editFocused, focusedSpec} from './form.js';
import {openPicker} from './picker-actions.js';

/** Printable keys are text on a text, secret or picker field. */
export function formTakesText(m: FormModal): boolean {
  const kind = focusedSpec(m.form)?.kind;
  return kind === 'text' || kind === 'secret' || kind === 'picker';
}

/**
 * While a save is in flight only Esc acts (it cancels the save). A key typed then would land on a
 * form about to close, or on the screen behind it once it has (`e` or `d` typed after Ctrl-S), so
 * it is not queued; it is refused by name, so that nothing is lost unsaid. True when refused.
 */
export function formBusy(c: ConsoleContext, m: FormModal, name: string, input: string, cancels: boolean): boolean {
  if (!m.form.submitting || cancels) return false;
  const key = isTypedKey(name, input) ? `"${input}"` : displayKey(name);
  c.message({tone: 'info', text: `Saving… the server has not answered yet: ${key} was not taken (Esc cancels the save)`});
  return true;
}

/** A key typed (or a line-editing key) in the focused field; false when it is not text there. */
export function typeIntoForm(c: ConsoleContext, m: FormModal, name: string, input: string): boolean {
  const spec = focusedSpec(m.form);
  if (!spec) return false;
  if (spec.kind === 'picker' && isTypedKey(name, input)) {
    // Typing on a picker field opens the picker with what was typed as its filter.
    openPicker(c, m, spec.key, input);
    return true;
  }
  const edited = editFocused(m.form, name, input);
  if (edited && 'form' in edited) showForm(c, m, edited.form);
  else if (edited) c.message({tone: 'warning', fades: true, text: typedTooLong(edited.label, edited.overLimit)});
  return edited !== null;
}

/** A bracketed paste into the focused field: one insertion, or refused with the reason. */
export function pasteIntoForm(c: ConsoleContext, m: FormModal, text: string): void {
  if (m.form.submitting) {
    // The values being saved are not edited under the request (see formBusy).
    c.message({
      tone: 'warning',
      fades: true,
      kind: 'paste-refused',
      text: 'Paste ignored: saving… the server has not answered yet; nothing was inserted (Esc cancels the save)',
    });
    return;
  }
  const spec = focusedSpec(m.form);
  const oneLine = oneLineOf(text);
  if (spec?.kind === 'picker') {
    openPicker(c, m, spec.key, oneLine.trim());
    return;
  }
  const pasted = spec?.multiline ? text : oneLine;
  const edited = editFocused(m.form, 'paste', pasted);
  if (edited && 'form' in edited) showForm(c, m, edited.form);
  else if (edited) c.message({tone: 'warning', fades: true, kind: 'paste-refused', text: pasteTooLong(edited.label, edited.overLimit, pasted)});
  else c.message({tone: 'warning', fades: true, kind: 'paste-refused', text: pasteRefused(spec?.label.trim() ?? 'this field', pasted, spec?.kind)});
}

/** A key the form's scope does not bind: `q` asks before quitting; a letter on a yes/no or choice field says how it is set. */
export function formUnbound(c: ConsoleContext, m: FormModal, name: string, input: string): boolean {
  if (!isTypedKey(name, input)) return false;
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
