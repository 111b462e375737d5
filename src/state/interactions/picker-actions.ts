// The user picker of a form (owner, rule scope): opened from a picker field, typing filters it.
import {topModal} from '../core/state.js';
import {type FormModal} from '../core/modals.js';
import type {ConsoleContext} from '../core/context.js';
import {moveFocus, setValue} from './form.js';
import {showForm} from './form-errors.js';
import type {Action} from '../input/keymap.js';
import {pickerEntries} from './picker.js';

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
