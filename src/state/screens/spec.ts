// What a screen does: its actions, keyed by the keymap's action names. A key on a list or a detail
// that the generic list handling does not take (moving, filtering, sorting, marking, copying,
// exporting) runs the screen's action of that name, if it has one; the help, the status-bar hints
// and read-only refusals read the same table, so a screen's keys are exactly its actions. Adding an
// action to a screen: a binding in the keymap table and an entry in the `actions` of that screen's
// screen.ts (docs/architecture.md, "Adding an action"). An action named like one the lists share
// would never run; test/state/dispatch.test.ts checks that no screen has one.
import type {Action} from '../input/keymap.js';
import type {ConsoleClient, ConsoleContext} from '../core/context.js';
import type {ScreenDisplay} from './display.js';
import type {DialogLine} from '../core/modals.js';
import type {UndoItems} from '../undo/undo-log.js';

/** Where an action's key is pressed. */
export type ActionPlace = 'list' | 'detail';

export interface ScreenAction<T> {
  /** What it does, in the admin's words ("deleting devices"): read-only refusals and hints say it. */
  verb: string;
  /** Where its key works; on lists and details when omitted. */
  where?: readonly ActionPlace[];
  /** It acts on the row under the cursor (on a list) or the detail's item; without one, it does nothing. Default true. */
  needsItem?: boolean;
  /** Why it cannot run now, said instead of running (null: it can). */
  disabledReason?: (ctx: ConsoleContext, item: T | null) => string | null;
  run(ctx: ConsoleContext, item: T | null, where: ActionPlace): void;
}

/** A delete, with what bulk delete needs to do it to every marked item. */
export interface DeleteAction<T> extends ScreenAction<T> {
  /** One item's request (a 404 counts as already gone). */
  remove(client: ConsoleClient, id: string): Promise<unknown>;
  /** The item in the question and in the report: "laptop (ann@example.com)". */
  label(item: T): string;
  /** The question before deleting the marked items: "Delete 12 devices of 7 users?". */
  question(items: readonly T[]): string;
  /** The ids that exist now (one list request): settles deletes whose outcome a broken connection left unknown. */
  present(client: ConsoleClient): Promise<ReadonlySet<string>>;
  /** What deleting the item removes, as the server has it now, for `u` to take back (src/state/undo/). */
  kept?(ctx: ConsoleContext, item: T): UndoItems;
  /** What the question must say first about these items, if anything (the console's own user among them). */
  warning?(ctx: ConsoleContext, items: readonly T[]): DialogLine | null;
}

export type ScreenActions<T> = Partial<Record<Exclude<Action, 'delete'>, ScreenAction<T>>> & {delete?: DeleteAction<T>};

export interface ScreenSpec<T> extends ScreenDisplay<T> {
  actions: ScreenActions<T>;
}

/** The screen's action bound to `action` where the key was pressed, if it has one there. */
export function actionAt<T>(spec: ScreenSpec<T>, action: Action, where: ActionPlace): ScreenAction<T> | undefined {
  const found = spec.actions[action as keyof ScreenActions<T>] as ScreenAction<T> | undefined;
  if (!found || (found.where && !found.where.includes(where))) return undefined;
  return found;
}
