// One-line prompts (a file path, a new API token): Enter hands the value to the prompt's accept.
import {topModal} from '../core/state.js';
import type {ConsoleContext} from '../core/context.js';
import type {Action} from '../input/keymap.js';
import type {PromptModal} from '../core/modals.js';
import {pasteTooLong, PROMPT_LIMIT, typedTooLong} from '../input/limits.js';
import {editText, oneLineOf, pasteRefused, type LineEdit} from '../input/textedit.js';

export function promptAction(c: ConsoleContext, action: Action): void {
  const m = topModal(c.state);
  if (m?.kind !== 'prompt') return;
  if (action === 'cancel') c.removeModal(m);
  else if (action === 'accept') void m.accept(m.value);
}

/** An edited line as a prompt stores it. */
function lineOf(edited: LineEdit): Required<Omit<LineEdit, 'overLimit'>> {
  return {value: edited.value, cursor: edited.cursor, undo: edited.undo ?? [], typing: edited.typing ?? false};
}

/** A key typed or an edit in the prompt's line; false when the key is neither. */
export function typeIntoPrompt(c: ConsoleContext, m: PromptModal, name: string, input: string): boolean {
  const edited = editText(m, name, input, {limit: PROMPT_LIMIT});
  if (!edited) return false;
  if (edited.overLimit) c.message({tone: 'warning', fades: true, text: typedTooLong(m.label, PROMPT_LIMIT)});
  else c.replaceModal(m, {...m, ...lineOf(edited)});
  return true;
}

/** A paste into the prompt's line, as one line. */
export function pasteIntoPrompt(c: ConsoleContext, m: PromptModal, text: string): void {
  const oneLine = oneLineOf(text);
  const edited = editText(m, 'paste', oneLine, {limit: PROMPT_LIMIT});
  if (edited?.overLimit) c.message({tone: 'warning', fades: true, kind: 'paste-refused', text: pasteTooLong(m.label, PROMPT_LIMIT, oneLine)});
  else if (edited) c.replaceModal(m, {...m, ...lineOf(edited)});
  else c.message({tone: 'warning', fades: true, kind: 'paste-refused', text: pasteRefused(m.label, oneLine, 'text')});
}
