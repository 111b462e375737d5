// What handlers may use of the console: the narrow interface every key handler, resource action
// and interaction depends on instead of the Controller. The Controller (the composition root)
// implements it; nothing here imports a handler (docs/architecture.md, "The console context").
import type {ApiError, Configuration, FirezoneClient} from '../../api/index.js';
import type {Snapshot} from '../data/snapshot.js';
import type {ListView} from '../lists/list-view.js';
import type {ListUiState} from '../lists/view-state.js';
import type {ScreenColumn, ScreenDisplay} from '../screens/display.js';
import type {AppendFailure} from '../tracking/activity-log.js';
import type {ActivityEvent} from '../tracking/events.js';
import type {DialogModal, FormModal, Modal, ResultModal} from './modals.js';
import type {DrawnGeometry} from './drawn.js';
import type {ConsoleState, ListScreenId, StatusMessage} from './state.js';
import type {UndoLog} from '../undo/undo-log.js';
import type {ConsoleSettings} from './settings.js';

export type {ConsoleSettings};

/** A write to send again once a rejected token is replaced. */
export interface TokenRetry {
  run: () => void;
  /** For the prompt: "the form is saved again, …". */
  what: string;
}

/** What the console needs of the API client (tests may pass a wrapper). */

/** One read of the terminal, as the keys in it are handled (src/ui/keys.ts). */
export interface InputRead {
  readonly number: number;
  readonly presses: number;
}
export type ConsoleClient = Pick<
  FirezoneClient,
  | 'listDevices'
  | 'pollDevices'
  | 'getDevice'
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
  /** The id of the user the token acts for, when the token says (deleting or demoting them locks the console out). */
  tokenUserId?: () => string | null;
  /** Aborts the writes in flight (Esc during a save); returns how many. */
  cancelWrites?: () => number;
};

/** A profile of the config file, as `:profile` lists it. */
export interface ProfileEntry {
  name: string;
  url: string;
}

/** `:profile`: the other profiles of the config file, and switching to one without a restart. */
export interface ProfileSwitcher {
  /** The profile the console is connected with; null when it came from flags, the environment or --demo. */
  readonly current: string | null;
  /** The profiles the last `list()` found (Tab completes them). */
  readonly known: readonly ProfileEntry[];
  /** Reads the config file again. Rejects with why it could not. */
  list(): Promise<ProfileEntry[]>;
  /**
   * Connects with the profile (its token file or command, as at start) and checks the server
   * answers; then the console starts over on it (nothing of this server's screen goes along).
   * Resolves to why not, and the console stays where it is. `stay` is asked once the other
   * server has answered, just before the switch: a reason to stay (a form opened meanwhile) keeps
   * the console where it is and is the answer.
   */
  switchTo(name: string, stay?: () => string | null): Promise<string | null>;
}

export interface ConsoleIO {
  /** The console's own sequences (the OSC 52 of a copy) straight to the terminal. */
  writeRaw(data: string): void;
  exit(): void;
  /** Ctrl-Z: stop to the shell with the terminal restored; absent where there is no job control. */
  suspend?: () => void;
  /**
   * `E`: hands the terminal to the admin's editor on a private file holding `text`, takes it back
   * when the editor exits and gives the file's text then (src/config/external-editor.ts), or why
   * there is none. Absent where the console has no terminal of its own.
   */
  editText?: (request: {stem: string; text: string}) => Promise<{ok: true; text: string} | {ok: false; reason: string}>;
  /** Re-reads the token where it came from (a profile's tokenFile or tokenCommand); null when it cannot. */
  reloadToken?: () => Promise<string | null>;
  /** `:profile`; absent where there is nothing to switch with (tests, the first-run screen). */
  profiles?: ProfileSwitcher;
  /**
   * `--activity-log` (src/state/tracking/activity-log.ts): appends each batch of events, whole or
   * not at all (null when written); `takeStartNote` says, once, what opening the file mended.
   */
  activityLog?: {append(events: readonly ActivityEvent[]): AppendFailure | null; takeStartNote?(): string | null};
}

/** A list screen as the body draws it and its handlers act on it: derived once per (items, filter, sort). */
export interface ListDerived {
  spec: ScreenDisplay<unknown>;
  state: ListUiState;
  columns: ScreenColumn<unknown>[];
  view: ListView<unknown>;
  selection: {id: string | null; index: number};
  detailItem: unknown;
  /** Items on the list before the filter (the stale view counts only stale devices), not counting `deleted`. */
  total: number;
  /** Rows deleted a moment ago, still shown (marked ×) until they fade. */
  deleted: number;
  /** Their ids: the cursor does not stay on one, and nothing acts on one (src/state/lists/actions.ts). */
  ghosts: ReadonlySet<string>;
  /** Why a term of the `/` filter was left out (`unknown filter key "foo" — …`), or null: the list says it under the rows. */
  filterError: string | null;
}

/** What the UI measured of the last frame that handlers need to page and clamp (src/state/core/layout.ts). */
export interface LayoutReadings {
  /** Rows of the body area (lists page by it). */
  bodyHeight(): number;
  /** How far the open help can scroll: its lines less the rows that show them. */
  readonly helpMaxScroll: number;
  /** How many lines of the open report fit (they wrap): a report's page. */
  readonly reportPage: number;
  /** The line the open report's last page starts at (End goes there; scrolling stops there); unknown before it is drawn. */
  readonly reportLastPage: number;
  /** Columns of the terminal. */
  readonly width: number;
  /** The terminal is under MIN_COLUMNS × MIN_ROWS: the screen says so and shows nothing to act on. */
  readonly tooSmall: boolean;
  /** Where the last frame drew the tabs, the list's rows and the form's fields (for the mouse). */
  readonly drawn: DrawnGeometry;
}

/**
 * The console as a handler sees it. Key handlers, resource actions and interactions take this, never
 * the Controller, so each can be read (and tested) on its own; see docs/architecture.md, "The
 * console context".
 */
export interface ConsoleContext {
  readonly state: ConsoleState;
  /** The last poll's data; throws before the first one (handlers that need it run only on a list or detail). */
  readonly snapshot: Snapshot;
  readonly client: ConsoleClient;
  readonly settings: ConsoleSettings;
  readonly io: ConsoleIO;
  readonly layout: LayoutReadings;
  /** The deletes of this session that `u` and `:undo` can take back (src/state/undo/). */
  readonly undo: UndoLog;
  /**
   * The terminal read the key being handled came in: its number (0: not from the terminal) and how
   * many key presses, pastes and unknown sequences it carried (1: the key alone, as typed).
   */
  readonly inputRead: InputRead;
  /** Changes the state synchronously (every key sees what the previous one did). */
  set(change: (s: ConsoleState) => ConsoleState): void;
  /** What `work` changes is one change of the store: its subscribers (the render) hear of it once. */
  batch(work: () => void): void;
  /** The status line; info and success fade after a few seconds, warnings and errors stay. */
  message(message: StatusMessage | null): void;

  /** Opens a modal on top; returns it with its key, to find it again after the stack changed. */
  push<M extends Modal>(modal: M): M;
  /** Replaces the modal with `old`'s key wherever it is in the stack; a modal that is gone stays gone. */
  replaceModal(old: Modal, next: Modal): void;
  removeModal(modal: Modal): void;
  /** The modal as it is now (the stack may have changed while a request was in flight), or null when it is gone. */
  current<M extends Modal>(modal: M): M | null;
  /** Closes the innermost modal. */
  close(): void;
  openForm(modal: Omit<FormModal, 'kind'>): void;
  openDialog(modal: Omit<DialogModal, 'kind'>): void;
  openResult(modal: Omit<ResultModal, 'kind'>): void;

  /** Copies to the clipboard with OSC 52, control characters shown as escapes (line breaks kept with `lines`); says so in the status line. */
  copy(label: string, value: string, options?: {lines?: boolean}): void;
  /**
   * Polls now; after a write, once more when a poll is in flight (it may have read the server
   * before the write). `ifIdle` (the `r` key): a poll in flight serves.
   */
  refresh(options?: {ifIdle?: boolean}): void;
  /** `p`: pauses or resumes live updates; returns whether they are paused now (null before they started). */
  togglePause(): boolean | null;
  /**
   * A configuration save that succeeded: `saved` is the server's answer, `base` the record the
   * update was built on. The record is shown at once, not taken back by a poll that began before
   * it, and Activity credits this console with the change from `base` to `saved` only.
   */
  configurationSaved(saved: Configuration, base: Configuration): void;
  /** After a successful write: the message, a refresh, and (for a new item) the cursor on it. */
  afterWrite(text: string, select?: {screen: ListScreenId; id: string}): void;
  /**
   * A write the server answered with a rejected token (401): the token is re-read or asked for
   * as after a poll (src/state/interactions/token-prompt.ts), then `retry.run` sends it again with
   * the new one (`retry.what` says so in the prompt). False when no new token can be set (the
   * client cannot take one): the caller says the error.
   */
  tokenRejected(err: ApiError, retry: TokenRetry): boolean;

  /** Opens a detail; `from` is the screen whose detail led here, where Esc returns. */
  openDetail(screen: ListScreenId, id: string, from?: ListScreenId | null): void;
  /** Leaves a detail (whose item was deleted, or on Esc). */
  leaveDetail(screen: ListScreenId): void;
  /** A list screen as shown: columns, filtered and sorted view, selection, open detail. */
  list(screen: ListScreenId): ListDerived | null;
  /** The list of the screen on top, or null on Configuration. */
  activeList(): ListDerived | null;
  updateList(screen: ListScreenId, change: (st: ListUiState) => ListUiState): void;
}
