// What keys do in modals: forms (save, 422 mapping, cancel a hung save), the user picker, the one
// dialog, the new-device result and prompts. Functions of the Controller (src/state/controller.ts),
// which routes a key here when a modal is the innermost scope.
import {ApiError} from '../api/index.js';
import {defaultConfigFileName, writeConfigFile} from '../wireguard/index.js';
import {errorText, topModal, type DialogModal, type FormModal, type PromptModal, type ResultModal} from './console.js';
import type {Controller} from './controller.js';
import {
  applyServerErrors,
  cycleChoice,
  focusedSpec,
  focusFirstError,
  hasErrors,
  isDirty,
  moveFocus,
  setValue,
  toggle,
  validateForm,
  type FormState,
} from './form.js';
import type {Action} from './keymap.js';
import {pickerEntries} from './picker.js';

export function askClose(c: Controller, m: FormModal, why: 'discard' | 'quit'): void {
  if (!isDirty(m.form)) {
    if (why === 'quit') c.io.exit();
    else c.removeModal(m);
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

export function formAction(c: Controller, action: Action): void {
  const m = topModal(c.state);
  if (m?.kind !== 'form') return;
  if (m.form.submitting) {
    if (action === 'cancel') cancelSave(c, m);
    else c.message({tone: 'info', text: 'Saving… the server has not answered yet (Esc cancels the save)'});
    return;
  }
  const spec = focusedSpec(m.form);
  const update = (form: FormState) => c.replaceModal(m, {...m, form});
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
export function cancelSave(c: Controller, m: FormModal): void {
  const aborted = c.client.cancelWrites?.() ?? 0;
  c.replaceModal(m, {...m, form: {...m.form, submitting: false}});
  c.message({
    tone: 'warning',
    text: aborted > 0 ? 'Save cancelled; the outcome is unknown (the server may have applied it): re-reading the data' : 'Save cancelled',
  });
  c.refresh();
}

export function labelled(c: Controller, form: FormState, errors: Record<string, string[]>): string {
  return Object.entries(errors)
    .map(([key, messages]) => {
      const label = form.specs.find((s) => s.key === key)?.label.trim() ?? key;
      return `${label}: ${messages.join(', ')}`;
    })
    .join('; ');
}

export async function save(c: Controller, m: FormModal): Promise<void> {
  const checked = validateForm(m.form);
  if (hasErrors(checked)) {
    const focused = focusFirstError(checked);
    c.replaceModal(m, {...m, form: focused});
    c.message({tone: 'error', text: `Fix the form: ${labelled(c, focused, focused.errors)}`});
    return;
  }
  const sending: FormModal = {...m, form: {...checked, submitting: true}};
  c.replaceModal(m, sending);
  c.message({tone: 'info', text: 'Saving…'});
  try {
    await m.save(checked);
    const still = c.current(sending);
    if (still) c.replaceModal(still, {...still, form: {...still.form, submitting: false}});
  } catch (err) {
    formFailed(c, sending, err);
  }
}

/** A failed save: a 422 lands on the form's fields (every value kept), anything else in the status bar. */
export function formFailed(c: Controller, form: FormModal, err: unknown): void {
  if (err instanceof ApiError && err.kind === 'cancelled') return;
  const still = c.current(form);
  if (err instanceof ApiError && err.kind === 'validation' && still) {
    const fieldErrors = still.mapErrors ? still.mapErrors(err.fieldErrors) : err.fieldErrors;
    const mapped = applyServerErrors({...still.form, submitting: false}, fieldErrors, still.errorAliases ?? {});
    c.replaceModal(still, {...still, form: mapped});
    const text = [labelled(c, mapped, mapped.errors), ...mapped.formErrors].filter((t) => t !== '').join('; ');
    c.message({tone: 'error', text: text || errorText(err)});
    return;
  }
  if (still) c.replaceModal(still, {...still, form: {...still.form, submitting: false}});
  c.message({tone: 'error', text: errorText(err)});
}

export function openPicker(c: Controller, form: FormModal, field: string, filter: string): void {
  c.push({kind: 'picker', title: `${form.title} › pick a user`, field, filter, index: 0, allowNone: form.pickerAllowsNone === true});
}

export function pickerAction(c: Controller, action: Action): void {
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
      c.replaceModal(form, {...form, form: next.focus > picked.focus ? next : picked});
    }
  }
}

export function dialogAction(c: Controller, action: Action): void {
  const m = topModal(c.state);
  if (m?.kind !== 'dialog' || m.busy) return;
  const choice = m.choices.find((c) => c.action === action);
  if (!choice) return;
  if (!choice.run) {
    c.removeModal(m);
    if (action === 'cancel') c.message({tone: 'info', text: 'Cancelled'});
    return;
  }
  const run = choice.run;
  const busy: DialogModal = {...m, busy: 'Working…'};
  c.replaceModal(m, busy);
  void (async () => {
    try {
      await run();
      c.removeModal(busy);
    } catch (err) {
      c.removeModal(busy);
      c.message({tone: 'error', text: errorText(err)});
    }
  })();
}

export function resultAction(c: Controller, action: Action): void {
  const m = topModal(c.state);
  if (m?.kind !== 'result') return;
  switch (action) {
    case 'writeFile': {
      if (m.config === null) return;
      const config = m.config;
      const path = defaultConfigFileName(m.deviceName);
      c.push({
        kind: 'prompt',
        label: 'Write to file',
        help: 'Enter writes (mode 0600, never overwrites without asking) · Esc cancels',
        value: path,
        cursor: [...path].length,
        accept: (value) => writeResult(c, m, config, value, false),
      });
      return;
    }
    case 'copyConfig':
      if (m.config !== null) c.copy('the client config', m.config);
      return;
    case 'qr':
      if (m.config !== null) c.replaceModal(m, {...m, view: m.view === 'qr' ? 'config' : 'qr'});
      return;
    case 'done':
      c.openDialog({
        title: 'Leave the new device?',
        lines: [
          {
            text:
              m.config === null
                ? 'The device exists on the server without a usable client config.'
                : m.saved
                  ? `The private key is only in ${m.saved} now: it cannot be shown here again.`
                  : 'The private key is not stored anywhere and cannot be shown again.',
            tone: 'warning',
            bold: true,
          },
        ],
        choices: [
          {
            action: 'confirm',
            label: 'leave',
            run: () => {
              c.removeModal(m);
              c.afterWrite(`Device ${m.deviceName} created`, {screen: 'devices', id: m.deviceId});
            },
          },
          {action: 'cancel', label: 'stay'},
        ],
      });
      return;
    default:
  }
}

export async function writeResult(c: Controller, result: ResultModal, config: string, path: string, overwrite: boolean): Promise<void> {
  const written = await writeConfigFile(path, config, {overwrite});
  const prompt = c.state.modals.find((x): x is PromptModal => x.kind === 'prompt') ?? null;
  if (written.ok) {
    if (prompt) c.removeModal(prompt);
    const current = c.current(result);
    if (current) c.replaceModal(current, {...current, saved: written.path});
    c.message({tone: 'ok', text: `Wrote ${written.path} (mode 0600)`});
  } else if (written.reason === 'exists') {
    c.message({tone: 'warning', text: written.message});
    c.openDialog({
      title: 'The file exists. Overwrite it?',
      lines: [{text: path}],
      choices: [
        {action: 'confirm', label: 'overwrite', run: () => writeResult(c, result, config, path, true)},
        {action: 'cancel', label: 'keep it'},
      ],
    });
  } else {
    c.message({tone: 'error', text: written.message});
  }
}

export function promptAction(c: Controller, action: Action): void {
  const m = topModal(c.state);
  if (m?.kind !== 'prompt') return;
  if (action === 'cancel') c.removeModal(m);
  else if (action === 'accept') void m.accept(m.value);
}
