// One-line prompts (a file path, a new API token): Enter hands the value to the prompt's accept.
import {topModal} from '../core/state.js';
import type {ConsoleContext} from '../core/context.js';
import type {Action} from '../input/keymap.js';

export function promptAction(c: ConsoleContext, action: Action): void {
  const m = topModal(c.state);
  if (m?.kind !== 'prompt') return;
  if (action === 'cancel') c.removeModal(m);
  else if (action === 'accept') void m.accept(m.value);
}
