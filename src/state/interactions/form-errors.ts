// What the status line says about a form's errors, kept true while the admin fixes them: a
// message naming fields that are then edited is said again from the errors still left, and taken
// away once none are (the fields show their own errors as well).
import type {FormModal} from '../core/modals.js';
import type {ConsoleContext} from '../core/context.js';
import type {StatusMessage} from '../core/state.js';
import type {FormState} from './form.js';

/** "Label: message, message; Label: …" for a form's field errors. */
export function labelled(form: FormState, errors: Record<string, string[]>): string {
  return Object.entries(errors)
    .map(([key, messages]) => {
      const label = form.specs.find((s) => s.key === key)?.label.trim() ?? key;
      return `${label}: ${messages.join(', ')}`;
    })
    .join('; ');
}

// The status line's account of a form's errors (from the form's own checks, or the server's 422)
// names fields the admin then fixes: each such message is remembered with its prefix here, and
// showForm says it again from the errors still left, or takes it away once none are.
const formErrorPrefixes = new WeakMap<StatusMessage, string>();

export function formErrorMessage(form: FormState, prefix: string): StatusMessage | null {
  const text = [labelled(form, form.errors), ...form.formErrors].filter((t) => t !== '').join('; ');
  if (text === '') return null;
  const message: StatusMessage = {tone: 'error', text: `${prefix}${text}`};
  formErrorPrefixes.set(message, prefix);
  return message;
}

/** Shows a form after an edit; a status message about its errors is brought up to date with it. */
export function showForm(c: ConsoleContext, m: FormModal, form: FormState): void {
  c.replaceModal(m, {...m, form});
  const shown = c.state.message;
  const prefix = shown ? formErrorPrefixes.get(shown) : undefined;
  if (prefix === undefined) return;
  const next = formErrorMessage(form, prefix);
  if (next?.text !== shown!.text) c.message(next);
}

/** A form closed without saving: a status message about its errors has nothing left to describe. */
export function dropFormErrorMessage(c: ConsoleContext): void {
  const shown = c.state.message;
  if (shown && formErrorPrefixes.has(shown)) c.message(null);
}
