// The console's state: one plain object held by one store outside React, changed synchronously.
// Several keys can arrive in one input event; each must see what the previous one did, so key
// handling reads and writes this store directly, never a value captured by a render.
// See docs/architecture.md.
import type {FirezoneClient} from '../api/index.js';
import type {FormState} from './form.js';
import type {ListUiState} from './view.js';
import type {PollStatus} from './poller.js';
import type {Snapshot} from './resources.js';

export type ScreenId = 'devices' | 'users' | 'rules' | 'configuration' | 'activity';
export type ListScreenId = Exclude<ScreenId, 'configuration'>;

export const SCREENS: ReadonlyArray<{id: ScreenId; title: string}> = [
  {id: 'devices', title: 'Devices'},
  {id: 'users', title: 'Users'},
  {id: 'rules', title: 'Rules'},
  {id: 'configuration', title: 'Configuration'},
  {id: 'activity', title: 'Activity'},
];

/** Colour roles; the UI maps them to colours (and to nothing under NO_COLOR). */
export type Tone = 'online' | 'idle' | 'never' | 'accent' | 'danger' | 'warning' | 'ok' | 'muted' | 'badge';

export interface StatusMessage {
  text: string;
  tone: 'info' | 'ok' | 'error' | 'warning';
}

/** Set when a modal is opened; modals are found by it, since updates replace the objects. */
export interface ModalBase {
  key?: number;
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
  /** Runs after the dialog is closed. Omitted on cancel: closing is all it does. */
  run?: () => void | Promise<void>;
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
  progress: {finished: number; total: number; failed: number} | null;
  /** The `y` of a preview (e.g. "import 12 users"). */
  confirm?: {label: string; run: () => void};
  /** Esc while running: start nothing new, finish what is in flight. */
  stop?: () => void;
}

export type Modal = FormModal | PickerModal | DialogModal | ResultModal | PromptModal | ReportModal;

export interface ConsoleState {
  screen: ScreenId;
  lists: Record<ListScreenId, ListUiState>;
  configuration: {entry: string; reveal: boolean};
  help: {open: boolean; scroll: number};
  /** Forms, pickers, dialogs, the device result and prompts, innermost last. */
  modals: readonly Modal[];
  message: StatusMessage | null;
  snapshot: Snapshot | null;
  poll: PollStatus;
  /** The live clock (ms), ticking each second while live, manual or offline; frozen while paused. */
  clock: number;
  /** Marked ids per list (Space): tied to ids, so they survive refreshes, sorting and filtering. */
  marks: Record<ListScreenId, ReadonlySet<string>>;
  /** The Devices list shows only stale devices, oldest first (`S`). */
  staleView: boolean;
}

/** A synchronous store: `update` applies at once and notifies subscribers (React re-renders). */
export class Store<S> {
  private state: S;
  private readonly listeners = new Set<() => void>();

  constructor(initial: S) {
    this.state = initial;
  }

  readonly get = (): S => this.state;

  update(change: (state: S) => S): void {
    const next = change(this.state);
    if (next === this.state) return;
    this.state = next;
    for (const listener of this.listeners) listener();
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

export function topModal(state: ConsoleState): Modal | null {
  return state.modals[state.modals.length - 1] ?? null;
}

/** What the console needs of the API client (tests may pass a wrapper). */
export type ConsoleClient = Pick<
  FirezoneClient,
  | 'listDevices'
  | 'listUsers'
  | 'listRules'
  | 'getConfiguration'
  | 'updateConfiguration'
  | 'createDevice'
  | 'updateDevice'
  | 'deleteDevice'
  | 'createUser'
  | 'updateUser'
  | 'deleteUser'
  | 'createRule'
  | 'updateRule'
  | 'deleteRule'
> & {
  /** Replaces a rejected token for the requests from now on. */
  setToken?: (token: string) => void;
  /** Aborts the writes in flight (Esc during a save); returns how many. */
  cancelWrites?: () => number;
};

export interface ConsoleSettings {
  label: string;
  refreshSeconds: number;
  readOnly: boolean;
  insecure: boolean;
  /** Plain http:// to a host that is not loopback: the token crosses the network in clear. */
  plainHttp?: boolean;
  demo: boolean;
  /** Devices whose last handshake is older than this many days are stale (`--stale-days`). */
  staleDays?: number;
  /** Where `--activity-log` appends the events, for the status line. */
  activityLogPath?: string | null;
}

/** The one-line text of an error, for the status bar. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
