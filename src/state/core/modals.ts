// The modals of the console: forms, pickers, dialogs, the new-device result, prompts and reports.
// They stack in ConsoleState.modals, innermost last; the innermost one is the only key scope
// (docs/architecture.md, "Modals and the one dialog").
import type {FormState} from '../interactions/form.js';
import type {Tone} from './tone.js';

/** Set when a modal is opened; modals are found by it, since updates replace the objects. */
export interface ModalBase {
  key?: number;
  /** The terminal read whose keys opened it (src/ui/keys.ts); 0 when it was not opened by a key. */
  openedInRead?: number;
}

export interface DialogLine {
  text: string;
  tone?: Tone;
  bold?: boolean;
}

/** One explicit choice of a dialog; its key comes from the keymap's dialog scope. */
export interface DialogChoice {
  action: 'confirm' | 'reapply' | 'reload' | 'cancel';
  label: string;
  /**
   * Runs while the dialog shows busy (its I/O: a delete sent). What it resolves to, if anything,
   * is what the answer changes, applied with the dialog's closing as one change of the store.
   * Omitted on cancel: closing is all it does.
   */
  run?: () => void | Promise<void | (() => void)>;
}

export interface FormModal extends ModalBase {
  kind: 'form';
  title: string;
  notes: readonly string[];
  form: FormState;
  /** Sends the form. Throwing an ApiError keeps the form open with the errors mapped onto it. */
  save: (form: FormState) => Promise<void>;
  /** Server error paths → form fields (0.7.36 reports a duplicate device name under `user_id`). */
  errorAliases?: Record<string, {field: string; note?: string}>;
  /** Maps a configuration 422 onto this form (nested provider paths). */
  mapErrors?: (fieldErrors: Record<string, string[]>) => Record<string, string[]>;
  /** Picker fields offer "everyone" (rules) besides the users. */
  pickerAllowsNone?: boolean;
}

export interface PickerModal extends ModalBase {
  kind: 'picker';
  title: string;
  /** The form field the pick goes into. */
  field: string;
  filter: string;
  index: number;
  allowNone: boolean;
}

export interface DialogModal extends ModalBase {
  kind: 'dialog';
  title: string;
  lines: readonly DialogLine[];
  choices: readonly DialogChoice[];
  /** Set while the chosen action runs (e.g. "Saving…"); keys wait. */
  busy?: string | null;
}

export interface ResultModal extends ModalBase {
  kind: 'result';
  deviceId: string;
  deviceName: string;
  ownerEmail: string;
  /** The client config with the private key, or null when the server's values were refused. */
  config: string | null;
  refused: string | null;
  warnings: readonly string[];
  view: 'config' | 'qr';
  saved: string | null;
  /**
   * A new key for a device that was there (`K`), not a new device: the words say so, and leaving
   * it is not a write of its own (`u` takes the new key back).
   */
  newKey?: boolean;
}

export interface PromptModal extends ModalBase {
  kind: 'prompt';
  label: string;
  help: string;
  /** Lines above the field, when the prompt stands on its own (not under the device result). */
  lines?: readonly DialogLine[];
  /** A secret (a token): shown as dots. */
  mask?: boolean;
  value: string;
  cursor: number;
  /** The line editor's undo steps (src/state/input/textedit.ts). */
  undo?: readonly {value: string; cursor: number}[];
  typing?: boolean;
  accept: (value: string) => void | Promise<void>;
}

/**
 * A long report with a progress bar: the preview of an import, a running bulk job, and the
 * summary it ends with. Scrolls; Esc cancels a preview, stops a running job, closes a summary.
 */
export interface ReportModal extends ModalBase {
  kind: 'report';
  title: string;
  lines: readonly DialogLine[];
  scroll: number;
  phase: 'preview' | 'running' | 'stopping' | 'finished';
  progress: {finished: number; total: number; failed: number; unknown: number} | null;
  /** The `y` of a preview (e.g. "import 12 users"). */
  confirm?: {label: string; run: () => void};
  /** Esc while running: start nothing new, finish what is in flight. */
  stop?: () => void;
}

/**
 * An item as the server sent it (`y`, as k9s shows a resource's YAML): its JSON, pretty-printed,
 * secrets masked until `v`, the lines holding a search's text when one is typed (`/`).
 */
export interface RawModal extends ModalBase {
  kind: 'raw';
  title: string;
  /** The JSON lines, made once when opened: masked, and with the secrets. */
  masked: readonly string[];
  revealed: readonly string[];
  reveal: boolean;
  /** Whether any line differs when revealed (`v` says so when nothing is secret). */
  secret: boolean;
  search: string;
  searching: boolean;
  /** The lines shown: those holding the search's text (all without one), of the masked or revealed set. */
  shown: readonly string[];
  scroll: number;
}

export type Modal = FormModal | PickerModal | DialogModal | ResultModal | PromptModal | ReportModal | RawModal;
