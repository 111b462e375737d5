// Users: columns, detail (with the user's devices and rules), and create / edit / role / delete.
import type {User} from '../../../api/index.js';
import type {Tone} from '../../core/tone.js';
import {createForm} from '../../interactions/form.js';
import {formatAge, formatDate, formatRate, formatSessionDuration, formatWhen, parseTime} from '../../data/format.js';
import {userCreateBody, userFormSpecs, userUpdateBody} from './forms.js';
import {deviceState, vpnStatus, VPN_STATUS_HELP, type Snapshot, type UserRow} from '../../data/snapshot.js';
import {openDeviceCreate, stateGlyph, STATE_TONE} from '../devices/screen.js';
import {ruleSummary} from '../rules/screen.js';
import type {ConsoleContext} from '../../core/context.js';
import {plural} from '../../data/format.js';
import type {DetailLine} from '../display.js';
import type {DialogLine} from '../../core/modals.js';
import {onList, withItem, type ScreenSpec} from '../spec.js';
import type {UndoItems} from '../../undo/undo-log.js';
import {traceFrom, TRACE_HELP} from '../trace.js';
import {openImport} from './import-action.js';
import {userFilters} from './filters.js';
import {rateNow, trafficOf} from './traffic.js';
import {USER_EXPORT} from './export.js';
import {userEditorDocument} from './editor.js';
import {editInEditor} from '../../interactions/external-edit.js';

const VPN_TONE: Record<string, Tone> = {ENABLED: 'ok', DISABLED: 'danger', EXPIRED: 'warning'};

function sessionDuration(s: Snapshot): number {
  return s.configuration?.vpn_session_duration ?? 0;
}

/** Whether `user` is the one this console's API token acts for (the token's `sub` claim). */
function isTokenUser(ctx: ConsoleContext, userId: string): boolean {
  return ctx.client.tokenUserId?.() === userId;
}

// 0.7.36 deletes a user's API tokens with the user, and re-reads a token's permissions from its
// user on every request (docs/firezone-0.7.36.md, "API tokens" and "Authentication and the three
// 401 shapes"): either locks this
// console out, so the question says so before anything else.
function deletesOwnToken(who: string): DialogLine {
  return {
    text: `${who} the user of this console's API token: deleting them deletes the token too, and this console is locked out at its next request (a new token from another admin is then needed).`,
    tone: 'danger',
    bold: true,
  };
}
const ROLE_HELP = 'promote to admin / demote to unprivileged';

/**
 * Promote or demote, after asking. The user of this console's API token is refused at once: 0.7.36
 * refuses anyone's change of their own role ("You cannot change your own role"), so a question
 * would only lead to that answer.
 */
function askRole(ctx: ConsoleContext, user: User): void {
  const role = user.role === 'admin' ? 'unprivileged' : 'admin';
  if (isTokenUser(ctx, user.id)) {
    ctx.message({
      tone: 'warning',
      text: `${user.email} is the user of this console's API token: Firezone 0.7.36 refuses a change of one's own role (another admin can make it)`,
    });
    return;
  }
  ctx.openDialog({
    title: role === 'admin' ? `Promote ${user.email} to admin?` : `Demote ${user.email} to unprivileged?`,
    lines: [{text: role === 'admin' ? 'This will give admin permissions to the user.' : 'This will remove admin permissions from the user.', tone: 'muted'}],
    choices: [
      {
        action: 'confirm',
        label: role === 'admin' ? 'promote' : 'demote',
        run: async () => {
          await ctx.client.updateUser(user.id, {role});
          ctx.afterWrite(`User updated successfully: ${user.email} is now ${role}`);
        },
      },
      {action: 'cancel', label: 'cancel'},
    ],
  });
}

// One row per deleted user, the same object on every frame (the list view is memoised by its items).
const deletedRows = new WeakMap<User, UserRow>();

function deletedRow(user: User): UserRow {
  let row = deletedRows.get(user);
  if (!row) deletedRows.set(user, (row = {user, devices: 0, rules: 0}));
  return row;
}

export const users: ScreenSpec<UserRow> = {
  id: 'users',
  noun: 'user',
  // The tracker keeps a deleted user as the API's User: the list shows it as a row of its own (the
  // counts of what went with them: none now).
  source: {from: 'poll', items: (s) => s.userRows, deleted: {type: 'user', row: (removed) => deletedRow(removed as User)}},
  getId: (r) => r.user.id,
  defaultSort: {key: 'email', desc: false},
  filters: (s) => userFilters(s),
  columns: (s, clock) => {
    const now = s.fetchedAt;
    const duration = sessionDuration(s);
    return [
      {
        key: 'email',
        header: 'EMAIL',
        priority: 1,
        width: {min: 30, max: 44, flex: 3},
        cell: (r) => r.user.email,
        sortValue: (r) => r.user.email.toLowerCase(),
        searchText: (r) => r.user.email,
      },
      {key: 'role', header: 'ROLE', priority: 2, width: 12, cell: (r) => r.user.role, sortValue: (r) => r.user.role, searchText: (r) => r.user.role},
      {
        key: 'devices',
        header: 'DEVICES',
        priority: 3,
        width: 7,
        align: 'right',
        cell: (r) => String(r.devices),
        sortValue: (r) => r.devices,
        defaultDesc: true,
      },
      {
        // Who is on the VPN now, and who moves the most traffic (their devices together).
        key: 'online',
        header: 'ONLINE',
        priority: 3,
        width: 7,
        align: 'right',
        cell: (r) => (r.devices === 0 ? '–' : `${trafficOf(s, r.user.id).online}/${r.devices}`),
        sortValue: (r) => trafficOf(s, r.user.id).online,
        defaultDesc: true,
      },
      {
        key: 'rate',
        header: 'RATE',
        priority: 4,
        width: 13,
        align: 'right',
        cell: (r) => formatRate(rateNow(trafficOf(s, r.user.id), clock())),
        sortValue: (r) => trafficOf(s, r.user.id).rate,
        defaultDesc: true,
      },
      {
        key: 'vpn',
        header: 'VPN',
        priority: 2,
        width: 8,
        cell: (r) => vpnStatus(r.user, duration, clock()),
        tone: (r) => VPN_TONE[vpnStatus(r.user, duration, clock())],
        sortValue: (r) => vpnStatus(r.user, duration, now),
        searchText: (r) => vpnStatus(r.user, duration, now),
      },
      {
        key: 'signin',
        header: 'LAST SIGN-IN',
        priority: 4,
        width: {min: 12, max: 24, flex: 1},
        cell: (r) =>
          r.user.last_signed_in_at === null
            ? 'never'
            : `${formatAge(parseTime(r.user.last_signed_in_at), clock())} ago${r.user.last_signed_in_method ? ` (${r.user.last_signed_in_method})` : ''}`,
        sortValue: (r) => parseTime(r.user.last_signed_in_at),
        defaultDesc: true,
        searchText: (r) => r.user.last_signed_in_method ?? '',
      },
      {key: 'rules', header: 'RULES', priority: 5, width: 5, align: 'right', cell: (r) => String(r.rules), sortValue: (r) => r.rules, defaultDesc: true},
      {
        key: 'created',
        header: 'CREATED',
        priority: 6,
        width: 10,
        cell: (r) => formatDate(parseTime(r.user.inserted_at) ?? 0),
        sortValue: (r) => r.user.inserted_at,
        defaultDesc: true,
      },
    ];
  },
  title: (r) => r.user.email,
  detail: (r, {snapshot, now}) => {
    const u = r.user;
    const duration = sessionDuration(snapshot);
    const status = vpnStatus(u, duration, now);
    const devices = snapshot.devices.filter((d) => d.userId === u.id);
    const rules = snapshot.rules.filter((rule) => rule.user_id === u.id);
    const lines: DetailLine[] = [
      {heading: true, value: 'User'},
      {label: 'Email', value: u.email},
      {label: 'Role', value: u.role},
      {label: 'VPN connection', value: `${status} — ${VPN_STATUS_HELP[status]}`, tone: VPN_TONE[status]},
      {
        label: 'Disabled',
        value: u.disabled_at
          ? `${formatWhen(parseTime(u.disabled_at), now)} (cannot be changed through the API; use the Firezone web UI)`
          : 'No (enabling/disabling is not possible through the API)',
      },
      {label: 'Last signed in', value: formatWhen(parseTime(u.last_signed_in_at), now)},
      {label: 'Sign-in method', value: u.last_signed_in_method ?? 'None'},
      {label: 'Session expiry', value: formatSessionDuration(duration)},
      {label: 'Created', value: formatWhen(parseTime(u.inserted_at), now)},
      {label: 'Updated', value: formatWhen(parseTime(u.updated_at), now)},
      {label: 'ID', value: u.id},
      {heading: true, value: `Devices (${devices.length})`},
    ];
    if (devices.length === 0) lines.push({value: 'No devices.'});
    for (const d of devices) {
      // As of the poll, as on the Devices list.
      const state = deviceState(d, snapshot.fetchedAt);
      lines.push({
        value: `${stateGlyph(state)} ${d.name}  ${d.ipv4 ?? ''}  handshake ${formatAge(d.handshakeAt, now)}`,
        tone: STATE_TONE[state],
        entry: `device:${d.id}`,
      });
    }
    lines.push({heading: true, value: `Rules (${rules.length})`});
    if (rules.length === 0) lines.push({value: 'No rules scoped to this user.'});
    for (const rule of rules) lines.push({value: ruleSummary(rule)});
    return lines;
  },
  copyValue: (r) => ({label: 'email', value: r.user.email}),
  raw: (r) => r.user,
  export: USER_EXPORT,
  actions: {
    trace: traceFrom((row) => row.user.email),
    new: onList({verb: 'creating users', where: ['list'], run: (ctx) => openUserCreate(ctx)}),
    newDevice: withItem({verb: 'creating devices', where: ['detail'], run: (ctx, row) => openDeviceCreate(ctx, row.user.id)}),
    edit: withItem({verb: 'editing users', run: (ctx, row) => openUserEdit(ctx, row)}),
    editor: withItem({verb: 'editing users', run: (ctx, row) => editInEditor(ctx, userEditorDocument(ctx, row))}),
    role: withItem({verb: 'changing roles', run: (ctx, row) => askRole(ctx, row.user)}),
    delete: {
      verb: 'deleting users',
      remove: (client, id) => client.deleteUser(id),
      present: async (client) => new Set((await client.listUsers()).data.map((x) => x.id)),
      one: (ctx, r) => ({
        label: r.user.email,
        title: `Delete user ${r.user.email}? This also deletes ${plural(r.devices, 'device')} and ${plural(r.rules, 'rule')}.`,
        lines: [
          ...(isTokenUser(ctx, r.user.id) ? [deletesOwnToken('This is')] : []),
          {text: 'Their active VPN sessions drop at once.', tone: 'muted'},
          // Said before, as README promises: `u` brings the user back, but not this.
          {text: 'u can bring them back, but not their password: its hash never leaves the server.', tone: 'muted'},
        ],
        done: `User deleted successfully: ${r.user.email}`,
        kept: userWithTheirs(ctx, r.user),
      }),
      warning: (ctx, rows) => {
        const own = rows.find((r) => isTokenUser(ctx, r.user.id));
        return own ? deletesOwnToken(`${own.user.email} is`) : null;
      },
      question: (rows) =>
        `Delete ${plural(rows.length, 'user')}? This also deletes ${plural(
          rows.reduce((n, r) => n + r.devices, 0),
          'device',
        )} and ${plural(
          rows.reduce((n, r) => n + r.rules, 0),
          'rule',
        )}.`,
    },
    import: onList({verb: 'importing users', where: ['list'], run: (ctx) => openImport(ctx)}),
  },
  keyHelp: {
    list: {
      role: ROLE_HELP,
      import: 'onboard users and devices from a CSV/TSV file (preview first)',
      trace: TRACE_HELP.list,
    },
    // The detail's lines include the user's devices, with a cursor over them.
    detail: {
      up: 'the previous of their devices',
      down: 'the next of their devices',
      open: 'open the device under the cursor',
      edit: 'email/password',
      role: ROLE_HELP,
      newDevice: 'new device for this user',
      trace: TRACE_HELP.detail,
    },
  },
};

function openUserCreate(ctx: ConsoleContext): void {
  ctx.openForm({
    title: 'Add user',
    notes: [],
    form: createForm(userFormSpecs('create'), {role: 'unprivileged'}),
    save: async (form) => {
      const created = (await ctx.client.createUser(userCreateBody(form.values))).data;
      ctx.close();
      ctx.afterWrite(`User created successfully: ${created.email} (${created.role})`, {screen: 'users', id: created.id});
    },
  });
}

function openUserEdit(ctx: ConsoleContext, row: UserRow): void {
  ctx.openForm({
    title: `Edit ${row.user.email}`,
    notes: ['Change the email or enter a new password below.'],
    form: createForm(userFormSpecs('edit'), {email: row.user.email}),
    save: async (form) => {
      const body = userUpdateBody(form.values, row.user);
      if (Object.keys(body).length === 0) {
        ctx.close();
        ctx.message({tone: 'info', text: 'Nothing changed'});
        return;
      }
      await ctx.client.updateUser(row.user.id, body);
      ctx.close();
      ctx.afterWrite('User updated successfully.');
    },
  });
}

/** A user, and what 0.7.36 deletes with them: their devices and rules, for `u` to bring back too. */
function userWithTheirs(ctx: ConsoleContext, u: UserRow['user']): UndoItems {
  return {
    users: [u],
    devices: ctx.snapshot.devices.filter((r) => r.userId === u.id).map((r) => r.toDevice()),
    rules: ctx.snapshot.rules.filter((r) => r.user_id === u.id),
  };
}
