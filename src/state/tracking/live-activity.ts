// How the console feeds and reads the change tracking of src/state/tracking/tracker.ts: the console's own
// writes noted for "by you" (by wrapping the client, so no write path can forget it), and the rows
// of recently deleted items kept on their list for a few seconds, marked.
import type {ConsoleClient} from '../core/context.js';
import type {ActivityTracker} from './tracker.js';
import type {LocalWrite} from './local-writes.js';
import type {MarkedType} from './highlights.js';
import {outcomeUnknown} from '../interactions/jobs.js';

/**
 * The client with every successful write noted in the tracker. Reads, setToken and cancelWrites go
 * straight through, bound to the real client (a prototype-chained wrapper would set the token on
 * the wrapper instead).
 */
export function notingWrites(client: ConsoleClient, tracker: ActivityTracker): ConsoleClient {
  const note = (write: LocalWrite) => tracker.noteLocalWrite(write);
  /** A create: its id is known only from the answer. */
  const created =
    <A extends unknown[], R extends {data: {id: string}}>(fn: (...args: A) => Promise<R>, type: LocalWrite['type']) =>
    async (...args: A): Promise<R> => {
      const result = await fn(...args);
      note({type, id: result.data.id, action: 'created'});
      return result;
    };
  /**
   * An update or delete: noted before it is sent, so a poll whose answer overtakes the write's own
   * cannot report it as someone else's; forgotten when it fails, but not when no answer came (a
   * timeout, a broken connection: it may have been applied, and the poll that shows it is this
   * console's doing; a note never shown lapses, LOCAL_WRITE_TTL_MS).
   */
  const byId =
    <A extends unknown[], R>(fn: (id: string, ...rest: A) => Promise<R>, type: LocalWrite['type'], action: LocalWrite['action']) =>
    async (id: string, ...rest: A): Promise<R> => {
      const write: LocalWrite = {type, id, action};
      note(write);
      try {
        return await fn(id, ...rest);
      } catch (err) {
        if (!outcomeUnknown(err)) tracker.forgetLocalWrite(write);
        throw err;
      }
    };
  const configuration =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const write: LocalWrite = {type: 'configuration', id: 'configuration', action: 'updated'};
      note(write);
      try {
        return await fn(...args);
      } catch (err) {
        if (!outcomeUnknown(err)) tracker.forgetLocalWrite(write);
        throw err;
      }
    };
  const wrapped: ConsoleClient = {
    listDevices: client.listDevices.bind(client),
    pollDevices: client.pollDevices.bind(client),
    getDevice: client.getDevice.bind(client),
    listUsers: client.listUsers.bind(client),
    listRules: client.listRules.bind(client),
    getConfiguration: client.getConfiguration.bind(client),
    updateConfiguration: configuration(client.updateConfiguration.bind(client)),
    createDevice: created(client.createDevice.bind(client), 'device'),
    updateDevice: byId(client.updateDevice.bind(client), 'device', 'updated'),
    deleteDevice: byId(client.deleteDevice.bind(client), 'device', 'deleted'),
    createUser: created(client.createUser.bind(client), 'user'),
    updateUser: byId(client.updateUser.bind(client), 'user', 'updated'),
    deleteUser: byId(client.deleteUser.bind(client), 'user', 'deleted'),
    createRule: created(client.createRule.bind(client), 'rule'),
    updateRule: byId(client.updateRule.bind(client), 'rule', 'updated'),
    deleteRule: byId(client.deleteRule.bind(client), 'rule', 'deleted'),
  };
  if (client.setToken) wrapped.setToken = client.setToken.bind(client);
  if (client.cancelWrites) wrapped.cancelWrites = client.cancelWrites.bind(client);
  if (client.tokenUserId) wrapped.tokenUserId = client.tokenUserId.bind(client);
  return wrapped;
}

/**
 * A list's items with the rows deleted in the last few seconds appended (marked × by the table
 * until they fade). The same array is returned while nothing changes, so the list view (filter and
 * sort of up to 50k rows) is not rebuilt on every render.
 */
const NONE: ReadonlySet<string> = new Set();

/** What a list keeps of its deleted rows: their type in the tracker, and the row a removed object is shown as. */
export interface DeletedRows {
  type: MarkedType;
  row?(removed: unknown): unknown;
}

export class GhostRows {
  private cache = new Map<string, {items: readonly unknown[]; ghostKey: string; result: readonly unknown[]; ids: ReadonlySet<string>}>();
  private readonly shown = new Map<string, number>();
  private readonly shownIds = new Map<string, ReadonlySet<string>>();

  /** `list` names the list (its ids and count are kept by it); `deleted` says what of the tracker's it shows. */
  items(
    list: string,
    deleted: DeletedRows,
    items: readonly unknown[],
    tracker: ActivityTracker,
    now: number,
    getId: (item: unknown) => string,
  ): readonly unknown[] {
    const removed = tracker.highlights.removed(deleted.type, now);
    const toRow = deleted.row;
    const ghosts = toRow ? removed.map((x) => toRow(x)) : removed;
    if (ghosts.length === 0) {
      this.cache.delete(list);
      this.shown.set(list, 0);
      this.shownIds.set(list, NONE);
      return items;
    }
    const ghostKey = ghosts.map(getId).join('\u0000');
    const cached = this.cache.get(list);
    if (cached && cached.items === items && cached.ghostKey === ghostKey) {
      this.shown.set(list, cached.result.length - items.length);
      this.shownIds.set(list, cached.ids);
      return cached.result;
    }
    // A ghost the server lists again (a delete undone) is not shown twice.
    const present = new Set(items.map(getId));
    const shownGhosts = ghosts.filter((g) => !present.has(getId(g)));
    const result = [...items, ...shownGhosts];
    const ids = new Set(shownGhosts.map(getId));
    this.cache.set(list, {items, ghostKey, result, ids});
    this.shown.set(list, result.length - items.length);
    this.shownIds.set(list, ids);
    return result;
  }

  /** The ids of the deleted rows the last `items` of a list appended: shown, marked ×, but nothing to act on. */
  ids(list: string): ReadonlySet<string> {
    return this.shownIds.get(list) ?? NONE;
  }

  /** How many deleted rows the last `items` of a list appended: not counted among its items. */
  count(list: string): number {
    return this.shown.get(list) ?? 0;
  }
}
