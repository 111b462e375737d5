// What keys do in a form: move between fields, toggle and choose, save (a 422 lands on the fields,
// every value kept), cancel a hung save, and ask before discarding changes. The dispatch
// (src/state/input/dispatch.ts) routes a key here when a form is the innermost modal.
import {ApiError} from '../../api/index.js';
import {errorText} from '../core/state.js';
import {topModal} from '../core/state.js';
import {type FormModal} from '../core/modals.js';
import type {ConsoleContext} from '../core/context.js';
import {applyServerErrors, cycleChoice, focusedSpec, focusFirstError, hasErrors, isDirty, moveFocus, toggle, validateForm, type FormState} from './form.js';
import type {Action} from '../input/keymap.js';
import {openPicker} from './picker-actions.js';
import {outcomeUnknown} from './jobs.js';
import {dropFormErrorMessage, formErrorMessage, showForm} from './form-errors.js';

export function askClose(c: ConsoleContext, m: FormModal, why: 'discard' | 'quit'): void {
  if (!isDirty(m.form)) {
    if (why === 'quit') c.io.exit();
    else {
      c.removeModal(m);
      dropFormErrorMessage(c);
    }
    return;
  }
  c.openDialog({
    title: why === 'quit' ? 'Discard your changes and quit?' : 'Discard your changes?',
    lines: [{text: `${m.title} has unsaved changes.`, tone: 'muted'}],
    choices: [
      {
        action: 'confirm',
        label: why === 'quit' ? 'discard and quit' : 'discard',
        run: () => {
          if (why === 'quit') {
            c.io.exit();
            return;
          }
          c.removeModal(m);
          c.message({tone: 'info', text: 'Changes discarded'});
        },
      },
      {action: 'cancel', label: 'back to the form'},
    ],
  });
}

export function formAction(c: ConsoleContext, action: Action): void {
  const m = topModal(c.state);
  if (m?.kind !== 'form') return;
  // Every other key is refused before it gets here while a save is in flight (keyPress).
  if (m.form.submitting) {
    if (action === 'cancel') cancelSave(c, m);
    return;
  }
  const spec = focusedSpec(m.form);
  const update = (form: FormState) => showForm(c, m, form);
  switch (action) {
    case 'nextField':
      return update(moveFocus(m.form, 1));
    case 'prevField':
      return update(moveFocus(m.form, -1));
    case 'toggle':
      return update(toggle(m.form));
    case 'choiceNext':
      return update(cycleChoice(m.form, 1));
    case 'choicePrev':
      return update(cycleChoice(m.form, -1));
    case 'pick':
      if (spec?.kind === 'picker') openPicker(c, m, spec.key, '');
      else update(moveFocus(m.form, 1));
      return;
    case 'cancel':
      return askClose(c, m, 'discard');
    case 'save':
      void save(c, m);
      return;
    default:
  }
}

/**
 * Esc during a hung save: abort the request, keep the form and everything typed, say that the
 * outcome is unknown, and re-read the data so the admin can see whether it was applied.
 */
export function cancelSave(c: ConsoleContext, m: FormModal): void {
  const aborted = c.client.cancelWrites?.() ?? 0;
  c.replaceModal(m, {...m, form: {...m.form, submitting: false}});
  c.message({
    tone: 'warning',
    text: aborted > 0 ? 'Save cancelled; the outcome is unknown (the server may have applied it): re-reading the data' : 'Save cancelled',
  });
  c.refresh();
}

export async function save(c: ConsoleContext, m: FormModal): Promise<void> {
  const checked = validateForm(m.form);
  if (hasErrors(checked)) {
    const focused = focusFirstError(checked);
    c.replaceModal(m, {...m, form: focused});
    c.message(formErrorMessage(focused, 'Fix the form: '));
    return;
  }
  const sending: FormModal = {...m, form: {...checked, submitting: true}};
  c.replaceModal(m, sending);
  const saving = {tone: 'info', text: 'Saving…'} as const;
  c.message(saving);
  try {
    await m.save(checked);
    // A save that only opened a question (the configuration's review of the diff) sent nothing:
    // "Saving…" would be untrue under it.
    if (c.state.message === saving) c.message(null);
    const still = c.current(sending);
    if (still) c.replaceModal(still, {...still, form: {...still.form, submitting: false}});
  } catch (err) {
    formFailed(c, sending, err);
  }
}

/** The form saved again after its token was replaced, if it is still open and on top. */
async function saveAgain(c: ConsoleContext, form: FormModal): Promise<void> {
  const now = c.current(form);
  if (!now || topModal(c.state) !== now || now.form.submitting) return;
  await save(c, now);
}

/**
 * A failed save: a 422 lands on the form's fields (every value kept), anything else in the status
 * bar. A save without an answer (timed out, connection broken) may have been applied: said so, and
 * the data read again, as for a delete without an answer (src/state/interactions/dialog.ts).
 */
export function formFailed(c: ConsoleContext, form: FormModal, err: unknown): void {
  if (err instanceof ApiError && err.kind === 'cancelled') return;
  const still = c.current(form);
  if (err instanceof ApiError && err.isAuthFailure && still) {
    // Polls hold while a form is open, so nothing else finds out that the token went (rotated,
    // expired): ask for a new one like a poll would, and save again with it, the form as it is.
    const retry = {what: 'the form is saved again, as it is (nothing typed is lost)', run: () => void saveAgain(c, still)};
    c.replaceModal(still, {...still, form: {...still.form, submitting: false}});
    if (c.tokenRejected(err, retry)) return;
  }
  if (outcomeUnknown(err)) {
    if (still) c.replaceModal(still, {...still, form: {...still.form, submitting: false}});
    c.message({
      tone: 'warning',
      outcome: 'unknown',
      text: `No answer to the save: ${errorText(err)}. It may have been applied: the data is read again; look at the list before saving again (a create saved twice may be made twice)`,
    });
    c.refresh();
    return;
  }
  if (err instanceof ApiError && err.kind === 'validation' && still) {
    const fieldErrors = still.mapErrors ? still.mapErrors(err.fieldErrors) : err.fieldErrors;
    const mapped = applyServerErrors({...still.form, submitting: false}, fieldErrors, still.errorAliases ?? {});
    c.replaceModal(still, {...still, form: mapped});
    c.message(formErrorMessage(mapped, '') ?? {tone: 'error', text: errorText(err)});
    return;
  }
  if (still) c.replaceModal(still, {...still, form: {...still.form, submitting: false}});
  c.message({tone: 'error', text: errorText(err)});
}
