// What the status line says about a poll: a failure (with whether it is retried), the connection
// back after failures, data the server sent that did not validate, a list holding an id twice,
// marks on rows that are gone. Pure: the store's sink (Controller.showPoll, showStatus) shows it.
import type {StatusMessage} from '../core/state.js';
import {errorText} from '../core/state.js';
import {listedTwiceText, type ListedTwice} from '../tracking/id-pairing.js';
import type {PollStatus} from './poller.js';
import type {HiddenList, Snapshot} from './snapshot.js';

const HIDDEN_ORDER: readonly HiddenList[] = ['users', 'rules', 'configuration'];

/** "Refresh failed: …" for a failed poll; its kind lets the next good poll say the connection is back. */
export function refreshFailed(status: PollStatus): StatusMessage {
  const stopped = status.retryStopped ? ' (not retried by itself: r tries again)' : '';
  return {tone: 'error', kind: 'refresh-failed', text: `Refresh failed: ${errorText(status.lastError)}${stopped}`};
}

/**
 * The message after a good poll: `before` when there is nothing to say. A list that repeats an id
 * is the server's error (Activity and the highlights skip it): said over any other note.
 */
export function pollMessage(
  before: StatusMessage | null,
  next: Snapshot,
  listedTwice: readonly {twice: ListedTwice; baseline: boolean}[],
  droppedMarks: string | null,
  /** The lists the poll shown before this one could not read (null before the first). */
  hiddenBefore: ReadonlySet<HiddenList> | null = null,
): StatusMessage | null {
  let message = before;
  const hiddenNow = HIDDEN_ORDER.filter((l) => next.hidden.has(l));
  if (hiddenNow.length > 0 && (hiddenBefore === null || HIDDEN_ORDER.some((l) => hiddenBefore.has(l) !== next.hidden.has(l)))) {
    // Said once, when it starts (or changes: a user demoted or made admin meanwhile).
    const names = hiddenNow.map((l) => (l === 'configuration' ? 'the configuration' : l));
    const listed = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}` : names[0]!;
    message = {
      tone: 'info',
      text: `This token's user is not an admin: 0.7.36 lists only its own devices to it; ${listed} ${names.length > 1 ? 'are' : 'is'} not visible`,
    };
  }
  if (next.issues.length > 0) {
    const first = next.issues[0]!;
    const more = next.issues.length > 1 ? ` (+${next.issues.length - 1} more)` : '';
    message = {tone: 'warning', text: `Unexpected data from the server: ${first.path}: ${first.message}${more}; the rest is shown`};
  } else if (before?.kind === 'refresh-failed') {
    message = {tone: 'ok', text: 'Connection restored'};
  }
  if (listedTwice.length > 0) {
    const others = listedTwice.slice(1).map((t) => `/v0/${t.twice.list}`);
    const text = `${listedTwiceText(listedTwice[0]!.twice, listedTwice[0]!.baseline)}${others.length > 0 ? ` (and ${others.join(', ')} too)` : ''}`;
    message = before?.text === text ? before : {tone: 'warning', text};
  }
  if (droppedMarks && message === before) message = {tone: 'warning', text: `${droppedMarks[0]!.toUpperCase()}${droppedMarks.slice(1)}`};
  return message;
}
