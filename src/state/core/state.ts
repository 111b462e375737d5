// The console's state: one plain object held by one store outside React, changed synchronously.
// Several keys can arrive in one input event; each must see what the previous one did, so key
// handling reads and writes this store directly, never a value captured by a render.
// See docs/architecture.md.
import type {Modal} from './modals.js';
import type {ListUiState} from '../lists/view-state.js';
import type {PollStatus} from '../data/poller.js';
import type {Snapshot} from '../data/snapshot.js';
import type {CommandLine} from '../commands/command-line.js';
import type {Scope} from '../input/keymap.js';

export type ScreenId = 'devices' | 'users' | 'rules' | 'configuration' | 'activity';
export type ListScreenId = Exclude<ScreenId, 'configuration'>;

export const SCREENS: ReadonlyArray<{id: ScreenId; title: string}> = [
  {id: 'devices', title: 'Devices'},
  {id: 'users', title: 'Users'},
  {id: 'rules', title: 'Rules'},
  {id: 'configuration', title: 'Configuration'},
  {id: 'activity', title: 'Activity'},
];

export interface StatusMessage {
  text: string;
  tone: 'info' | 'ok' | 'error' | 'warning';
  /**
   * About the place the key was pressed ("n does nothing here"): cleared as soon as the keys are
   * elsewhere (another screen, a detail, a modal), where it would say the opposite of the truth.
   */
  place?: true;
  /**
   * A warning about a moment (a paste refused) fades like info: it is no longer true once the admin
   * has moved on, and while it stays the key hints stay hidden.
   */
  fades?: true;
  /**
   * A write whose answer never came ("it may have been applied"): the data is read again to find
   * out, and if that read fails too, its "Refresh failed" (which the header also shows) does not
   * replace this, the one thing the admin must not miss before saving again.
   */
  outcome?: 'unknown';
  /** What the message is about, where code must tell (never read from its words). */
  kind?: 'refresh-failed' | 'paste-refused';
}

export interface ConsoleState {
  screen: ScreenId;
  lists: Record<ListScreenId, ListUiState>;
  configuration: {entry: string; reveal: boolean};
  help: HelpState;
  /** Forms, pickers, dialogs, the device result and prompts, innermost last. */
  modals: readonly Modal[];
  message: StatusMessage | null;
  snapshot: Snapshot | null;
  poll: PollStatus;
  /** The live clock (ms), ticking each second while live, manual or offline; frozen while paused. */
  clock: number;
  /** Marked ids per list (Space): tied to ids, so they survive refreshes, sorting and filtering. */
  marks: Record<ListScreenId, ReadonlySet<string>>;
  /** `P`: on a wide terminal, the detail of the cursor row beside the list. */
  sidePanel: boolean;
  /** The `:` command bar while it is open (src/state/commands/command-bar.ts). */
  command: CommandLine | null;
  /** The command bar's lines of this session, oldest first. */
  commandHistory: readonly string[];
}

/** The `?` help: it opens on the keys of where it was opened (src/state/input/help.ts). */
export interface HelpState {
  open: boolean;
  scroll: number;
  /** The scopes it was opened from, innermost first: their keys come first, then the others. */
  context: readonly Scope[];
  /** `/` in the help: only the lines holding this text (case-insensitive) are shown. */
  search: string;
  searching: boolean;
  /** The caret in `search`. */
  cursor: number;
}

export const CLOSED_HELP: HelpState = {open: false, scroll: 0, context: [], search: '', searching: false, cursor: 0};

/** The one-line text of an error, for the status bar. */
export function errorText(err: unknown): string {
  // A chunk of the console loaded when first needed (`:export`, the QR code, zod) whose file is
  // gone: the installation was upgraded or removed under a running console. Node's own words
  // name a hashed file; what the admin can do about it is to start the console again.
  if (err instanceof Error && (err as {code?: unknown}).code === 'ERR_MODULE_NOT_FOUND') {
    return 'fz-console changed on disk while it ran (upgraded or removed): a part of it that loads when first needed is gone; quit and start it again';
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * The most of a status message that is kept: the status line shows two lines of it at most, and a
 * server's text has no length of its own (a 422's field error of 120 KB, a proxy's page).
 */
export const MESSAGE_MAX = 2048;

/** A message's text cut to MESSAGE_MAX, saying how much was left out. */
export function boundedMessage(message: StatusMessage): StatusMessage {
  if (message.text.length <= MESSAGE_MAX) return message;
  const high = message.text.charCodeAt(MESSAGE_MAX - 1);
  const keep = high >= 0xd800 && high <= 0xdbff ? MESSAGE_MAX - 1 : MESSAGE_MAX;
  return {...message, text: `${message.text.slice(0, keep)}… (${(message.text.length - keep).toLocaleString('en-US')} more characters not shown)`};
}

/** The innermost modal: the only scope keys go to while one is open. */
export function topModal(state: ConsoleState): Modal | null {
  return state.modals[state.modals.length - 1] ?? null;
}
