// Devices: columns, detail, and the create / edit / delete actions (keys generated here, only
// the public key sent; the result screen shows the client config once).
import {generateDeviceName} from '../../../common/names.js';
import {generateKeyPair} from '../../../wireguard/index.js';
import {openNewConfig} from '../../interactions/device-result.js';
import {createRefusal} from '../../interactions/config-check.js';
import type {Tone} from '../../core/tone.js';
import {glyphs} from '../../core/glyphs.js';
import {createForm, str} from '../../interactions/form.js';
import {formatAge, formatBytes, formatDate, formatKeepalive, formatList, formatRate, formatWhen, parseTime, plural} from '../../data/format.js';
import {
  DEVICE_EDIT_NOTE,
  DEVICE_ERROR_ALIASES,
  deviceCreateBody,
  deviceEditInitial,
  deviceEditSpecs,
  deviceFormInitial,
  deviceFormSpecs,
  deviceUpdateBody,
} from './forms.js';
import {deviceEditorDocument} from './editor.js';
import {editInEditor} from '../../interactions/external-edit.js';
import {currentRate, deviceState, stateCounts, statesAsOf, type DeviceRow, type DeviceState} from '../../data/snapshot.js';
import type {TrafficHistory} from '../../tracking/traffic-history.js';
import {sparkline} from '../../tracking/sparkline.js';
import type {ConsoleContext} from '../../core/context.js';
import type {DetailLine} from '../display.js';
import {onList, withItem, type ScreenSpec} from '../spec.js';
import {traceFrom, TRACE_HELP} from '../trace.js';
import {exportList} from '../../lists/export-action.js';
import {STALE_VIEW} from './stale.js';
import {toggleOwnView} from '../../lists/own-view.js';
import {deviceFilters, totalRate} from './filters.js';
import {DEVICE_EXPORT} from './export.js';
import {askNewKey, newKeyRefusal} from './new-key.js';
import {askNewKeys} from './new-key-bulk.js';

/** " (as of 3m ago)" after a state read from a poll that is a while ago; nothing while it is recent. */
function asOfSuffix(fetchedAt: number, now: number): string {
  const asOf = statesAsOf(fetchedAt, now);
  return asOf ? ` (${asOf})` : '';
}

/** The state column's symbol: ● ○ · (or * o - on plain terminals). */
export function stateGlyph(state: DeviceState): string {
  return glyphs()[state];
}
export const STATE_TONE: Record<DeviceState, Tone> = {online: 'online', idle: 'idle', never: 'never'};

function sinceDefault<T>(value: T, useDefault: boolean, format: (v: T) => string): string {
  return `${format(value)}${useDefault ? '  (default)' : ''}`;
}

/** The owner picker's value is a user id; the form shows the email. */
function emailOf(ctx: ConsoleContext, id: string): string {
  return ctx.snapshot.usersById.get(id)?.email ?? id;
}

/** Device creation, from the Devices list (with an owner picker) or from a user's detail. */
export function openDeviceCreate(ctx: ConsoleContext, ownerId: string | null): void {
  const specs = deviceFormSpecs(ctx.snapshot.configuration, ownerId === null).map((s) =>
    s.key === 'owner' ? {...s, display: (v: string | boolean) => emailOf(ctx, String(v))} : s,
  );
  ctx.openForm({
    title: ownerId ? `Add device for ${emailOf(ctx, ownerId)}` : 'Add device',
    notes: ['The WireGuard key pair is generated here; only the public key is sent to the server.'],
    form: createForm(specs, deviceFormInitial(generateDeviceName(Math.random), ownerId)),
    errorAliases: DEVICE_ERROR_ALIASES,
    save: async (form) => {
      const owner = ownerId ?? str(form.values, 'owner');
      const keys = generateKeyPair();
      const body = deviceCreateBody(form.values, owner, keys.publicKey);
      // Before the create: its private key is shown once, with the config made from it.
      const refusal = createRefusal(body, ctx.snapshot.configuration);
      if (refusal !== null) throw new Error(`Not created: ${refusal}`);
      const device = (await ctx.client.createDevice(body)).data;
      const ownerEmail = emailOf(ctx, owner);
      ctx.close();
      const refused = openNewConfig(ctx, device, keys.privateKey, ownerEmail);
      ctx.message(
        refused
          ? {tone: 'error', text: `Device ${device.name} was created, but its client config was refused: the server sent a value that is not of its kind`}
          : {tone: 'ok', text: `Device added! ${device.name} (${device.ipv4 ?? device.ipv6 ?? 'no address'}) for ${ownerEmail}`},
      );
    },
  });
}

/** Sparkline width in the detail at most: two minutes of polls at 1 s. */
const SPARK_WIDTH = 40;
/** Narrower than this a sparkline says nothing: the peak alone is shown. */
const SPARK_MIN = 8;

/** rx/s and tx/s over the session, on one scale so the two lines compare. */
function trafficLines(r: DeviceRow, history: TrafficHistory | undefined, now: number): DetailLine[] {
  if (!history) return [];
  const rx = history.series(r.id, 'rx');
  const tx = history.series(r.id, 'tx');
  if (rx.length === 0 && tx.length === 0)
    return [{label: 'Traffic history', value: 'none yet (starts with the first poll that shows this device moving traffic)', tone: 'muted'}];
  let max = 0;
  for (const v of [...rx, ...tx]) if (v !== null && v > max) max = v;
  // The history stores rates in a compact, rounded form and records a poll a moment after it is
  // shown: the peak takes the rate on screen too, so it never reads below "now".
  const peak = (series: (number | null)[], which: 'rx' | 'tx') => formatRate(Math.max(0, currentRate(r, which, now) ?? 0, ...series.map((v) => v ?? 0)));
  const polls = Math.max(rx.length, tx.length);
  // The sparklines take the room the peaks leave, both the same width so they compare: at 80
  // columns `peak 1024.0 KiB/s` after a 40-cell sparkline wrapped onto a row of its own.
  const rxPeak = `peak ${peak(rx, 'rx')}`;
  const txPeak = `peak ${peak(tx, 'tx')}`;
  const room = Math.max(rxPeak.length, txPeak.length) + 2;
  const fit = (series: (number | null)[], peakText: string) => (width: number) => {
    const cells = Math.min(SPARK_WIDTH, width - room);
    return cells >= SPARK_MIN ? `${sparkline(series, cells, {max})}  ${peakText}` : peakText;
  };
  const rxLine = fit(rx, rxPeak);
  const txLine = fit(tx, txPeak);
  return [
    {label: 'rx/s history', value: rxLine(SPARK_WIDTH + room), fit: rxLine, tone: 'accent'},
    {label: 'tx/s history', value: txLine(SPARK_WIDTH + room), fit: txLine, tone: 'accent'},
    {label: '', value: `the last ${polls} poll${polls === 1 ? '' : 's'}, oldest left; one scale for both`, tone: 'muted'},
  ];
}

// The sort keys read from the row alone are the same functions for every snapshot's columns:
// column-order.ts finds an order by the rows array and the function, so after a poll that changed
// nothing (the same rows array, snapshot.ts) the list is not read and ordered again. The rates
// read the snapshot's time, so theirs are made per snapshot.
const SORT_BY = {
  nameKey: (r: DeviceRow) => r.nameKey,
  ownerKey: (r: DeviceRow) => r.ownerKey,
  ipv4Key: (r: DeviceRow) => r.ipv4Key,
  handshakeAt: (r: DeviceRow) => r.handshakeAt,
  rxBytes: (r: DeviceRow) => r.rxBytes,
  txBytes: (r: DeviceRow) => r.txBytes,
  remoteKey: (r: DeviceRow) => r.remoteKey,
  ipv6Key: (r: DeviceRow) => r.ipv6Key,
  createdAt: (r: DeviceRow) => r.createdAt,
};

// One line of the help at 160 columns each: the Lists section must leave room for what follows it.
const NEW_KEY_HELP = 'a new key pair and preshared key made here (asks first; name, addresses and settings are kept; the new config is shown once)';
const OWNER_HELP = "the device's owner: their detail on Users, with their devices (Esc comes back)";

export const devices: ScreenSpec<DeviceRow> = {
  id: 'devices',
  noun: 'device',
  source: {from: 'poll', items: (s) => s.devices, deleted: {type: 'device'}},
  getId: (row) => row.id,
  defaultSort: null,
  revealable: true,
  filters: (_s, settings) => deviceFilters(settings),
  // How many are connected: of all devices, whatever the filter shows, at the poll's time (as the
  // rows' glyphs) and said to be as of then once that is a while ago.
  summary: (s, now) => {
    const c = stateCounts(s.devices, s.fetchedAt);
    const asOf = statesAsOf(s.fetchedAt, now);
    return `${asOf ? `${asOf}: ` : ''}${c.online} online · ${c.idle} idle · ${c.never} never connected`;
  },
  ownView: STALE_VIEW,
  indexAhead: true,
  // Priorities say what a narrow terminal keeps: who, then whether it moves traffic now (RX/S,
  // TX/S: at 80 columns they stay, IPv4 next), then handshake and the totals.
  columns: (s, clock) => {
    const now = s.fetchedAt;
    return [
      {
        key: 'state',
        header: ' ',
        priority: 1,
        width: 1,
        // At the poll's time, not the clock's: a poll says which devices had a handshake within 3
        // minutes then; minutes later without a poll (offline, paused) nobody knows they went idle.
        cell: (r) => stateGlyph(deviceState(r, now)),
        // Not a sort column of its own: HANDSHAKE sorts by the same thing, with a title.
        tone: (r) => STATE_TONE[deviceState(r, now)],
      },
      {
        key: 'name',
        header: 'NAME',
        priority: 1,
        width: {min: 12, max: 32, flex: 2},
        cell: (r) => r.name,
        // The filter also finds a device by its description and public key (as `wg show` prints it).
        sortValue: SORT_BY.nameKey,
        sortValueFromRowOnly: true,
        searchText: (r) => `${r.name}\u0000${r.description ?? ''}\u0000${r.publicKey}`,
      },
      {
        key: 'owner',
        header: 'OWNER',
        priority: 2,
        width: {min: 14, max: 34, flex: 2},
        cell: (r) => r.ownerEmail,
        cut: 'email',
        sortValue: SORT_BY.ownerKey,
        sortValueFromRowOnly: true,
        searchText: (r) => r.ownerEmail,
      },
      {
        key: 'ipv4',
        header: 'IPV4',
        priority: 4,
        width: 15,
        cell: (r) => r.ipv4 ?? '',
        sortValue: SORT_BY.ipv4Key,
        sortValueFromRowOnly: true,
        searchText: (r) => r.ipv4 ?? '',
      },
      {
        key: 'handshake',
        header: 'HANDSHAKE',
        priority: 5,
        width: 9,
        align: 'right',
        cell: (r) => formatAge(r.handshakeAt, clock()),
        sortValue: SORT_BY.handshakeAt,
        sortValueFromRowOnly: true,
        defaultDesc: true,
      },
      {
        key: 'rx',
        header: 'RX',
        priority: 6,
        width: 11,
        align: 'right',
        cell: (r) => formatBytes(r.rxBytes),
        sortValue: SORT_BY.rxBytes,
        sortValueFromRowOnly: true,
        defaultDesc: true,
      },
      {
        key: 'tx',
        header: 'TX',
        priority: 6,
        width: 11,
        align: 'right',
        cell: (r) => formatBytes(r.txBytes),
        sortValue: SORT_BY.txBytes,
        sortValueFromRowOnly: true,
        defaultDesc: true,
      },
      {
        key: 'rxRate',
        header: 'RX/S',
        priority: 3,
        // The widest rate ("1023.9 KiB/s") is 12 cells; the 13th keeps its ↑/↓ inside the cell,
        // not against the next column's text.
        width: 13,
        align: 'right',
        cell: (r) => formatRate(currentRate(r, 'rx', clock())),
        sortValue: (r) => currentRate(r, 'rx', now),
        defaultDesc: true,
      },
      {
        key: 'txRate',
        header: 'TX/S',
        priority: 3,
        // The widest rate ("1023.9 KiB/s") is 12 cells; the 13th keeps its ↑/↓ inside the cell,
        // not against the next column's text.
        width: 13,
        align: 'right',
        cell: (r) => formatRate(currentRate(r, 'tx', clock())),
        sortValue: (r) => currentRate(r, 'tx', now),
        defaultDesc: true,
      },
      {
        // Who moves the most traffic: received and sent together (the top row by RX/S alone may
        // move less than the second). From ~130 columns (after the totals); sorting by it (s a)
        // and the `rate>` filter term work at any width.
        key: 'rate',
        header: 'RATE',
        priority: 7,
        width: 13,
        align: 'right',
        cell: (r) => formatRate(totalRate(r, clock())),
        sortValue: (r) => totalRate(r, now),
        defaultDesc: true,
      },
      {
        key: 'remote',
        header: 'REMOTE IP',
        priority: 8,
        width: {min: 15, max: 39, flex: 1},
        cell: (r) => r.remoteIp ?? '',
        sortValue: SORT_BY.remoteKey,
        sortValueFromRowOnly: true,
        searchText: (r) => r.remoteIp ?? '',
      },
      {
        key: 'ipv6',
        header: 'IPV6',
        priority: 9,
        width: {min: 16, max: 39, flex: 1},
        cell: (r) => r.ipv6 ?? '',
        sortValue: SORT_BY.ipv6Key,
        sortValueFromRowOnly: true,
        searchText: (r) => r.ipv6 ?? '',
      },
      {
        key: 'created',
        header: 'CREATED',
        priority: 10,
        width: 10,
        cell: (r) => formatDate(r.createdAt),
        sortValue: SORT_BY.createdAt,
        sortValueFromRowOnly: true,
        defaultDesc: true,
      },
    ];
  },
  title: (r) => `${r.name} (${r.ownerEmail})`,
  detail: (r, {snapshot, now, reveal, history}) => {
    const d = r.toDevice();
    // As of the poll (see the state column); the info line says how old that is.
    const state = deviceState(r, snapshot.fetchedAt);
    const owner = snapshot.usersById.get(d.user_id);
    return [
      {heading: true, value: 'Device'},
      {label: 'Name', value: d.name},
      {label: 'Description', value: d.description || 'None'},
      {label: 'Owner', value: owner ? `${owner.email} (${owner.role})` : d.user_id},
      {
        label: 'State',
        value: `${stateGlyph(state)} ${state === 'online' ? 'online (handshake within 3 minutes)' : state === 'idle' ? 'idle' : 'never connected'}${asOfSuffix(snapshot.fetchedAt, now)}`,
        tone: STATE_TONE[state],
      },
      {label: 'Latest handshake', value: formatWhen(r.handshakeAt, now)},
      {label: 'Remote IP', value: d.remote_ip ?? 'None'},
      {label: 'Received', value: `${formatBytes(d.rx_bytes)}   ${formatRate(currentRate(r, 'rx', now))}`},
      {label: 'Sent', value: `${formatBytes(d.tx_bytes)}   ${formatRate(currentRate(r, 'tx', now))}`},
      ...trafficLines(r, history, now),
      {heading: true, value: 'Tunnel'},
      {label: 'Tunnel IPv4', value: d.ipv4 ?? 'None'},
      {label: 'Tunnel IPv6', value: d.ipv6 ?? 'None'},
      {label: 'Public key', value: d.public_key},
      {label: 'Preshared key', value: reveal ? (d.preshared_key ?? 'None') : d.preshared_key ? '•••••••••••• (v reveals)' : 'None'},
      {label: 'Server public key', value: d.server_public_key ?? 'None (the server has no WireGuard key yet)'},
      {heading: true, value: 'Client settings (effective values)'},
      {label: 'Allowed IPs', value: sinceDefault(d.allowed_ips, d.use_default_allowed_ips, formatList)},
      {label: 'DNS servers', value: sinceDefault(d.dns, d.use_default_dns, formatList)},
      {label: 'Endpoint', value: sinceDefault(d.endpoint, d.use_default_endpoint, (v) => v || 'None')},
      {label: 'MTU', value: sinceDefault(d.mtu, d.use_default_mtu, (v) => (v === null ? 'None' : String(v)))},
      {label: 'Persistent keepalive', value: sinceDefault(d.persistent_keepalive, d.use_default_persistent_keepalive, formatKeepalive)},
      {heading: true, value: 'Record'},
      {label: 'ID', value: d.id},
      {label: 'Created', value: formatWhen(r.createdAt, now)},
      {label: 'Updated', value: formatWhen(parseTime(d.updated_at), now)},
    ];
  },
  copyValue: (r) => ({label: 'public key', value: r.publicKey}),
  raw: (r) => r.toDevice(),
  export: DEVICE_EXPORT,
  actions: {
    // By the tunnel address: names repeat across users, addresses do not.
    trace: traceFrom((row) => row.ipv4 ?? row.ipv6 ?? row.name),
    new: onList({
      verb: 'creating devices',
      where: ['list'],
      disabledReason: (ctx) => {
        if (ctx.snapshot.users.length > 0) return null;
        // A token of a non-admin sees no users at all (0.7.36 answers 403 to /v0/users).
        return ctx.snapshot.hidden.has('users')
          ? 'Cannot add a device: this token cannot list users (its user is not an admin), so there is no owner to pick'
          : 'No users yet: a device belongs to a user, so add one first (2, then n)';
      },
      run: (ctx) => openDeviceCreate(ctx, null),
    }),
    edit: withItem({verb: 'editing devices', run: (ctx, row) => openDeviceEdit(ctx, row)}),
    editor: withItem({verb: 'editing devices', run: (ctx, row) => editInEditor(ctx, deviceEditorDocument(ctx, row))}),
    // From a device to its owner, as k9s goes from a pod to its node; Esc comes back here.
    owner: withItem({
      verb: 'showing the owner',
      disabledReason: (ctx, row) =>
        ctx.snapshot.usersById.has(row.userId)
          ? null
          : ctx.snapshot.hidden.has('users')
            ? `The owner's detail is on the Users list, which this token cannot see (its user is not an admin); the owner is ${row.ownerEmail}`
            : `The owner (${row.ownerEmail}) is not on the Users list (deleted since the last poll?)`,
      run: (ctx, row) => ctx.openDetail('users', row.userId, 'devices'),
    }),
    delete: {
      verb: 'deleting devices',
      remove: (client, id) => client.deleteDevice(id),
      present: async (client) => new Set((await client.listDevices()).data.map((x) => x.id)),
      one: (_ctx, r) => ({
        label: `${r.name} (${r.ownerEmail})`,
        title: `Delete device ${r.name} of ${r.ownerEmail}?`,
        lines: [{text: 'This immediately disconnects the device and removes all its data.', tone: 'muted'}],
        done: `Deleted device ${r.name}`,
        kept: {users: [], devices: [r.toDevice()], rules: []},
      }),
      question: (rows) => `Delete ${plural(rows.length, 'device')} of ${plural(new Set(rows.map((r) => r.userId)).size, 'user')}?`,
    },
    // A new key pair and preshared key, made here (0.7.36 cannot change a key in place: new-key.ts).
    newKey: withItem({
      verb: 'making new keys',
      disabledReason: (ctx) => newKeyRefusal(ctx),
      run: (ctx, row) => askNewKey(ctx, row),
      marked: {hint: 'new keys', run: (ctx, rows) => askNewKeys(ctx, rows)},
    }),
    stale: onList({verb: 'showing stale devices', where: ['list'], run: (ctx) => toggleOwnView(ctx, 'devices')}),
    exportSecrets: onList({verb: 'exporting preshared keys', where: ['list'], run: (ctx) => exportList(ctx, true)}),
  },
  keyHelp: {
    list: {
      stale: 'only stale devices (no handshake for --stale-days, default 30, or never connected in that time), oldest first; again: all',
      trace: TRACE_HELP.list,
      exportSecrets: 'export including preshared keys (asks first; the file is 0600)',
      owner: OWNER_HELP,
      newKey: 'new key pair and preshared key made here (asks; name, addresses, settings kept); on marked ones: a 0600 file each, 0700 folder',
    },
    detail: {edit: 'name/description', trace: TRACE_HELP.detail, owner: OWNER_HELP, newKey: NEW_KEY_HELP},
  },
};

function openDeviceEdit(ctx: ConsoleContext, row: DeviceRow): void {
  ctx.openForm({
    title: `Edit device ${row.name} (${row.ownerEmail})`,
    notes: [DEVICE_EDIT_NOTE],
    form: createForm(deviceEditSpecs(), deviceEditInitial(row.toDevice())),
    errorAliases: DEVICE_ERROR_ALIASES,
    save: async (form) => {
      const body = deviceUpdateBody(form.values, form.initial);
      if (body.name === undefined && body.description === undefined) {
        ctx.close();
        ctx.message({tone: 'info', text: 'Nothing changed'});
        return;
      }
      const saved = (await ctx.client.updateDevice(row.id, body)).data;
      ctx.close();
      // By the name the server answered with: another admin may have renamed it meanwhile.
      ctx.afterWrite(`Device updated: ${saved.name}`);
    },
  });
}
