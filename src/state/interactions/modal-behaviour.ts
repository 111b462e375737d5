// The modals' behaviour in one record (docs/architecture.md, "Modals and the one dialog"): for
// each kind, the key scope it opens, whether printable keys are text there, how it takes a typed
// key and a paste, and the handler of its scope's actions. The scopes, the dispatch and the paste
// read this record instead of switching on the kind, so a new kind that is not here is a type error.
import type {ConsoleContext} from '../core/context.js';
import type {Modal} from '../core/modals.js';
import type {Action, Scope} from '../input/keymap.js';
import {resultAction} from './device-result.js';
import {dialogAction} from './dialog.js';
import {formAction} from './form-actions.js';
import {formBusy, formTakesText, formUnbound, pasteIntoForm, typeIntoForm} from './form-text.js';
import {pasteIntoPicker, pickerAction, typeIntoPicker} from './picker-actions.js';
import {pasteIntoPrompt, promptAction, typeIntoPrompt} from './prompt.js';
import {reportAction} from './report.js';
import {pasteIntoRaw, rawAction, typeIntoRaw} from './raw-view.js';

export interface ModalBehaviour<M extends Modal> {
  /** The keymap scope its keys are looked up in while it is the innermost modal. */
  readonly scope: Scope & M['kind'];
  /** Whether printable keys are text here (typed into it, not looked up as keys). */
  takesText(m: M): boolean;
  /** A key typed or a line-editing key; true when it was taken as text. */
  type(c: ConsoleContext, m: M, name: string, input: string): boolean;
  /** A bracketed paste: inserted, or refused with the reason. */
  paste(c: ConsoleContext, m: M, text: string): void;
  /** The handler of its scope's actions. */
  act(c: ConsoleContext, action: Action): void;
  /** Keys wait while it is busy (a save in flight): true when the key was refused, and said so. `cancels`: the key is the scope's cancel. */
  busy?(c: ConsoleContext, m: M, name: string, input: string, cancels: boolean): boolean;
  /** A key its scope does not bind: true when it still did something. */
  unbound?(c: ConsoleContext, m: M, name: string, input: string): boolean;
}

/** A modal that takes no text: keys only, and a paste is said to go nowhere. */
function keysOnly<M extends Modal>(scope: Scope & M['kind'], act: (c: ConsoleContext, action: Action) => void): ModalBehaviour<M> {
  return {
    scope,
    takesText: () => false,
    type: () => false,
    paste: (c) => c.message({tone: 'warning', fades: true, kind: 'paste-refused', text: 'Paste ignored: nothing here takes text'}),
    act,
  };
}

export const MODALS: {readonly [K in Modal['kind']]: ModalBehaviour<Extract<Modal, {kind: K}>>} = {
  form: {scope: 'form', takesText: formTakesText, type: typeIntoForm, paste: pasteIntoForm, act: formAction, busy: formBusy, unbound: formUnbound},
  picker: {scope: 'picker', takesText: () => true, type: typeIntoPicker, paste: pasteIntoPicker, act: pickerAction},
  prompt: {scope: 'prompt', takesText: () => true, type: typeIntoPrompt, paste: pasteIntoPrompt, act: promptAction},
  dialog: keysOnly('dialog', dialogAction),
  result: keysOnly('result', resultAction),
  report: keysOnly('report', reportAction),
  raw: {scope: 'raw', takesText: (m) => m.searching, type: typeIntoRaw, paste: pasteIntoRaw, act: rawAction},
};

/** The behaviour of this modal's kind. */
export function behaviourOf<M extends Modal>(m: M): ModalBehaviour<M> {
  // The record is keyed by kind, so the entry for m.kind is the behaviour of M; TypeScript cannot
  // correlate the two through the union on its own.
  return MODALS[m.kind] as unknown as ModalBehaviour<M>;
}
