// The one dialog: explicit choices, each bound to a key of the keymap's dialog scope; the chosen
// action runs with the dialog busy, and an error lands in the status bar.
import {errorText, topModal, type ListScreenId} from '../core/state.js';
import type {DialogLine, DialogModal, Modal} from '../core/modals.js';
import type {ConsoleContext} from '../core/context.js';
import type {Action} from '../input/keymap.js';
import {countOf, type UndoItems} from '../undo/undo-log.js';
import {outcomeUnknown} from './jobs.js';

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
  if (typedAhead(c, m)) return;
  const run = choice.run;
  const busy: DialogModal = {...m, busy: 'Working…'};
  c.replaceModal(m, busy);
  void (async () => {
    // What the answer changes is one change of the store, the dialog's closing with it.
    try {
      const finish = await run();
      c.batch(() => {
        c.removeModal(busy);
        if (finish) finish();
      });
    } catch (err) {
      c.batch(() => {
        c.removeModal(busy);
        c.message({tone: 'error', text: errorText(err)});
      });
    }
  })();
}

/** The question before deleting one item: `y` sends the delete, leaves the item's detail and refreshes. */
/** Said where a delete would be promised to `u`, for a token whose user is not an admin. */
export const UNDO_NOT_HERE = "This cannot be undone here: this token's user is not an admin, and 0.7.36 lets only admins create what u would bring back";

export function confirmDelete(
  c: ConsoleContext,
  question: {
    title: string;
    lines?: readonly DialogLine[];
    screen: ListScreenId;
    send: () => Promise<unknown>;
    done: string;
    /** What the delete removes, as the server had it: `u` can take it back (src/state/undo/). */
    kept?: {label: string; items: UndoItems};
  },
): void {
  // 0.7.36 lets only admins create: with a token that is not an admin's (it cannot list users),
  // `u` could not bring anything back, and the question says so instead of promising it.
  const final = c.snapshot.hidden.has('users');
  c.openDialog({
    title: question.title,
    lines: [...(question.lines ?? []), ...(final ? [{text: UNDO_NOT_HERE, tone: 'warning' as const}] : [])],
    choices: [
      {
        action: 'confirm',
        label: 'delete',
        run: async () => {
          const kept = !final && question.kept && countOf(question.kept.items) > 0 ? question.kept : null;
          try {
            await question.send();
          } catch (err) {
            if (!outcomeUnknown(err)) throw err;
            // No answer (timed out, connection broken): the delete may have been applied, and then
            // what it removed must still be there for `u`. The next poll shows which; restoring an
            // item that was not deleted is refused by the server (its key is taken) and said so.
            return () => {
              c.leaveDetail(question.screen);
              c.refresh();
              if (kept) c.undo.add(`${kept.label} (no answer came: deleted, if the list no longer shows it)`, kept.items, Date.now());
              c.message({
                tone: 'warning',
                outcome: 'unknown',
                text: `No answer to the delete: ${errorText(err)}. It may have been applied: the list shows whether once it is read again${kept ? ' (if it was, u takes it back)' : ''}`,
              });
            };
          }
          return () => {
            c.leaveDetail(question.screen);
            c.afterWrite(kept ? `${question.done} (u takes it back)` : question.done);
            // After afterWrite, which notes every write: this one is the delete `u` takes back.
            if (kept) c.undo.add(kept.label, kept.items, Date.now());
          };
        },
      },
      {action: 'cancel', label: 'cancel'},
    ],
  });
}

/**
 * Type-ahead never answers a question: a key that came in the same terminal read as the key that
 * opened the dialog (a fast `dy`, or the tail of a paste that carried its own end marker) was typed
 * before the admin saw the question. Nor does a key that came with others in one read: `hello yes`
 * pasted where the terminal does not bracket pastes (or a slow link that merges keys), or a colour
 * code and a key (`ESC[31m y`) — only a read that is one key press answers. Says so, and the
 * dialog waits for a key typed alone.
 */
export function typedAhead(c: ConsoleContext, m: Modal): boolean {
  const read = c.inputRead;
  if (read.number === 0) return false;
  if (m.openedInRead === read.number) {
    c.message({tone: 'warning', text: 'Not done: that key came in with the keys that opened this question (typed ahead or pasted); press it again to answer'});
    return true;
  }
  if (read.presses === 1) return false;
  c.message({
    tone: 'warning',
    text: 'Not done: that key came with other keys in one read (pasted, or typed ahead over a slow link); press it again, alone, to answer',
  });
  return true;
}
