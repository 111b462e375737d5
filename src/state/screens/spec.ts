// What a screen does: its actions, keyed by the keymap's action names. A key on a list or a detail
// that the generic list handling does not take (moving, filtering, sorting, marking, copying,
// exporting) runs the screen's action of that name, if it has one; the help, the status-bar hints
// and read-only refusals read the same table, so a screen's keys are exactly its actions. Adding an
// action to a screen: a binding in the keymap table and an entry in the `actions` of that screen's
// screen.ts, with its words in that screen's `keyHelp` when the table's are not true of every
// screen (docs/architecture.md, "Adding an action"). An action named like one the lists share
// would never run; test/state/dispatch.test.ts checks that no screen has one.
import type {Action} from '../input/keymap.js';
import type {ConsoleClient, ConsoleContext} from '../core/context.js';
import type {ScreenDisplay} from './display.js';
import type {DialogLine} from '../core/modals.js';
import type {UndoItems} from '../undo/undo-log.js';

/** Where an action's key is pressed. */
export type ActionPlace = 'list' | 'detail';

interface ActionBase {
  /** What it does, in the admin's words ("deleting devices"): read-only refusals and hints say it. */
  verb: string;
  /** Where its key works; on lists and details when omitted. */
  where?: readonly ActionPlace[];
}

/**
 * An action on one item: the row under the cursor on a list, the item a detail shows. Made with
 * `withItem`: it runs only with an item, so `run` and `disabledReason` get a `T`; with none under
 * the cursor, the list says so ("No device under the cursor") and neither is called. (The same
 * idea as lazygit's `withItem` and `singleItemSelected`, pkg/gui/controllers/list_controller_trait.go.)
 */
export interface ItemAction<T> extends ActionBase {
  readonly needs: 'item';
  /** Why it cannot run on this item now, said instead of running (null: it can). */
  disabledReason?: (ctx: ConsoleContext, item: T) => string | null;
  run(ctx: ConsoleContext, item: T, where: ActionPlace): void;
  /**
   * With rows marked on the list, what it does to all of them instead of the row under the cursor
   * (`K` on marked devices), as `d` does: `run` gets the marked items as the last poll has them,
   * in the list's order; `hint` offers it in the status bar beside `d delete`. Without it, marks
   * do not change what the key does.
   */
  marked?: {hint: string; run(ctx: ConsoleContext, items: readonly T[]): void};
}

/** An action on the list itself (`n`, `S`, `I`, `X`): it runs whether or not a row is under the cursor. Made with `onList`. */
export interface ListAction extends ActionBase {
  readonly needs: 'nothing';
  /** Why it cannot run now, said instead of running (null: it can). */
  disabledReason?: (ctx: ConsoleContext) => string | null;
  run(ctx: ConsoleContext, where: ActionPlace): void;
}

export type ScreenAction<T> = ItemAction<T> | ListAction;

/** An action that needs the item under the cursor and gets it, never null. */
export function withItem<T>(action: Omit<ItemAction<T>, 'needs'>): ItemAction<T> {
  return {...action, needs: 'item'};
}

/** An action on the list as a whole. */
export function onList(action: Omit<ListAction, 'needs'>): ListAction {
  return {...action, needs: 'nothing'};
}

/**
 * A screen's delete: one path for the item under the cursor and for every marked one
 * (src/state/lists/delete.ts), after one question. What one delete is (its request, the item's
 * label, what `u` keeps) is said here once; the list asks and sends.
 */
export interface DeleteAction<T> extends ActionBase {
  /** One item's request (a 404 counts as already gone). */
  remove(client: ConsoleClient, id: string): Promise<unknown>;
  /** One item as the question, the report and `u` have it, in one call. */
  one(ctx: ConsoleContext, item: T): OneDelete;
  /** The question before deleting the marked items: "Delete 12 devices of 7 users?". */
  question(items: readonly T[]): string;
  /** The ids that exist now (one list request): settles deletes whose outcome a broken connection left unknown. */
  present(client: ConsoleClient): Promise<ReadonlySet<string>>;
  /** What the question about marked items must say first, if anything (the console's own user among them). */
  warning?(ctx: ConsoleContext, items: readonly T[]): DialogLine | null;
}

/** What deleting one item is, in words and in what `u` keeps. */
export interface OneDelete {
  /** The item in the question and in the report: "laptop (ann@example.com)". */
  label: string;
  /** The question before deleting it alone: "Delete device laptop of ann@example.com?". */
  title: string;
  /** What that question says under its title. */
  lines: DialogLine[];
  /** The status line once it is deleted: "Deleted device laptop". */
  done: string;
  /** What deleting it removes, as the server has it now, for `u` to take back (src/state/undo/). */
  kept: UndoItems;
}

export type ScreenActions<T> = Partial<Record<Exclude<Action, 'delete'>, ScreenAction<T>>> & {delete?: DeleteAction<T>};

/** A screen's own words for its keys, by place and action. */
export type KeyHelp = Partial<Record<ActionPlace, Partial<Record<Action, string>>>>;

export interface ScreenSpec<T> extends ScreenDisplay<T> {
  actions: ScreenActions<T>;
  /**
   * What its keys do on this screen that the key table does not say (src/state/input/key-help.ts
   * puts the help rows together): the whole help of a key only some screens have (`R`: "promote to
   * admin / demote to unprivileged"), or what a key every screen has does here besides (↑ in a
   * detail: "the previous of their devices").
   */
  keyHelp?: KeyHelp;
}

/** The screen's action bound to `action` where the key was pressed, if it has one there. */
export function actionAt<T>(spec: ScreenSpec<T>, action: Action, where: ActionPlace): ScreenAction<T> | DeleteAction<T> | undefined {
  const found = spec.actions[action as keyof ScreenActions<T>] as ScreenAction<T> | DeleteAction<T> | undefined;
  if (!found || (found.where && !found.where.includes(where))) return undefined;
  return found;
}
