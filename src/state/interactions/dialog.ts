// The one dialog: explicit choices, each bound to a key of the keymap's dialog scope; the chosen
// action runs with the dialog busy, and an error lands in the status bar.
import {errorText} from '../core/state.js';
import {topModal} from '../core/state.js';
import {type DialogModal} from '../core/modals.js';
import type {ConsoleContext} from '../core/context.js';
import type {Action} from '../input/keymap.js';

export function dialogAction(c: ConsoleContext, action: Action): void {
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
