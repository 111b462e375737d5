// How the console feeds and reads the change tracking of src/state/tracking/tracker.ts: the console's own
// writes noted for "by you" (by wrapping the client, so no write path can forget it), the rows of
// recently deleted items kept on their list for a few seconds, marked, and the stale-devices view.
import type {ConsoleClient} from '../core/context.js';
import type {ActivityTracker} from './tracker.js';
import type {LocalWrite} from './local-writes.js';
import type {MarkedType} from './highlights.js';
import type {User} from '../../api/index.js';
import type {DeviceRow, Snapshot, UserRow} from '../data/snapshot.js';
import {staleDevices} from '../data/stale.js';
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

const TYPE_OF = {devices: 'device', users: 'user', rules: 'rule'} as const satisfies Record<string, MarkedType>;

/**
 * A list's items with the rows deleted in the last few seconds appended (marked × by the table
 * until they fade). The same array is returned while nothing changes, so the list view (filter and
 * sort of up to 50k rows) is not rebuilt on every render.
 */
const NONE: ReadonlySet<string> = new Set();

export class GhostRows {
  private readonly userRows = new WeakMap<User, UserRow>();
  private cache = new Map<string, {items: readonly unknown[]; ghostKey: string; result: readonly unknown[]; ids: ReadonlySet<string>}>();
  private readonly shown = new Map<string, number>();
  private readonly shownIds = new Map<string, ReadonlySet<string>>();

  private userRow(user: User): UserRow {
    let row = this.userRows.get(user);
    if (!row) this.userRows.set(user, (row = {user, devices: 0, rules: 0}));
    return row;
  }

  items(screen: keyof typeof TYPE_OF, items: readonly unknown[], tracker: ActivityTracker, now: number, getId: (item: unknown) => string): readonly unknown[] {
    // The tracker keeps users as User objects; the Users list shows UserRows (counts of what went with them: none now).
    const removed = tracker.highlights.removed(TYPE_OF[screen], now);
    const ghosts = screen === 'users' ? removed.map((user) => this.userRow(user as User)) : removed;
    if (ghosts.length === 0) {
      this.cache.delete(screen);
      this.shown.set(screen, 0);
      this.shownIds.set(screen, NONE);
      return items;
    }
    const ghostKey = ghosts.map(getId).join('\u0000');
    const cached = this.cache.get(screen);
    if (cached && cached.items === items && cached.ghostKey === ghostKey) {
      this.shown.set(screen, cached.result.length - items.length);
      this.shownIds.set(screen, cached.ids);
      return cached.result;
    }
    // A ghost the server lists again (a delete undone) is not shown twice.
    const present = new Set(items.map(getId));
    const shownGhosts = ghosts.filter((g) => !present.has(getId(g)));
    const result = [...items, ...shownGhosts];
    const ids = new Set(shownGhosts.map(getId));
    this.cache.set(screen, {items, ghostKey, result, ids});
    this.shown.set(screen, result.length - items.length);
    this.shownIds.set(screen, ids);
    return result;
  }

  /** The ids of the deleted rows the last `items` of a screen appended: shown, marked ×, but nothing to act on. */
  ids(screen: keyof typeof TYPE_OF): ReadonlySet<string> {
    return this.shownIds.get(screen) ?? NONE;
  }

  /** How many deleted rows the last `items` of a screen appended: not counted among its items. */
  count(screen: keyof typeof TYPE_OF): number {
    return this.shown.get(screen) ?? 0;
  }
}

/** The stale devices' rows, oldest first, recomputed per snapshot and per minute of the clock. */
export class StaleRows {
  private cache: {snapshot: Snapshot; minute: number; days: number; rows: readonly DeviceRow[]} | null = null;

  rows(snapshot: Snapshot, now: number, days: number): readonly DeviceRow[] {
    const minute = Math.floor(now / 60_000);
    const c = this.cache;
    if (c && c.snapshot === snapshot && c.minute === minute && c.days === days) return c.rows;
    const rows = staleDevices(snapshot, now, days).map((s) => s.row);
    this.cache = {snapshot, minute, days, rows};
    return rows;
  }
}
