// What each screen shows: its columns (by priority), search text, sort keys, detail lines
// and the value `c` copies. Thin: all data comes derived from the state layer.
import type {Configuration, Rule, User} from '../api/index.js';
import {
  formatAge, formatBytes, formatDate, formatKeepalive, formatList, formatRate, formatSessionDuration, formatWhen, parseTime,
} from '../state/format.js';
import {entryKey} from '../state/configuration.js';
import type {ColumnSpec} from '../state/list.js';
import {
  currentRate, deviceState, explainRank, ruleRank, vpnStatus, VPN_STATUS_HELP, type DeviceRow, type Snapshot,
} from '../state/resources.js';
import type {TableColumn} from './table/Table.js';
import {color, type ColorName} from './theme.js';

export type ScreenId = 'devices' | 'users' | 'rules' | 'configuration';

export const SCREENS: ReadonlyArray<{id: ScreenId; title: string}> = [
  {id: 'devices', title: 'Devices'},
  {id: 'users', title: 'Users'},
  {id: 'rules', title: 'Rules'},
  {id: 'configuration', title: 'Configuration'},
];

export type ScreenColumn<T> = TableColumn<T> & ColumnSpec<T>;

export interface DetailLine {
  label?: string;
  value: string;
  tone?: ColorName;
  /** Section headings. */
  heading?: boolean;
  /** Configuration screen: the editable entry this line stands for (cursor target). */
  entry?: string;
}

export interface DetailContext {
  snapshot: Snapshot;
  now: number;
  reveal: boolean;
}

export interface ListScreenSpec<T> {
  id: Exclude<ScreenId, 'configuration'>;
  noun: string;
  items(snapshot: Snapshot): readonly T[];
  getId(item: T): string;
  columns(snapshot: Snapshot): ScreenColumn<T>[];
  defaultSort: {key: string; desc: boolean} | null;
  title(item: T, snapshot: Snapshot): string;
  detail(item: T, ctx: DetailContext): DetailLine[];
  copyValue(item: T): {label: string; value: string} | null;
}

const STATE_GLYPH = {online: '●', idle: '○', never: '·'} as const;
const STATE_TONE = {online: 'online', idle: 'idle', never: 'never'} as const;

function sinceDefault<T>(value: T, useDefault: boolean, format: (v: T) => string): string {
  return `${format(value)}${useDefault ? '  (default)' : ''}`;
}

export const devicesScreen: ListScreenSpec<DeviceRow> = {
  id: 'devices',
  noun: 'device',
  items: (s) => s.devices,
  getId: (row) => row.id,
  defaultSort: null,
  columns: (s) => {
    const now = s.fetchedAt;
    return [
      {key: 'state', header: ' ', priority: 1, width: 1, cell: (r) => STATE_GLYPH[deviceState(r, now)],
        color: (r) => color(STATE_TONE[deviceState(r, now)]), sortValue: (r) => r.handshakeAt === null ? null : -r.handshakeAt,
        searchText: () => ''},
      {key: 'name', header: 'NAME', priority: 1, width: {min: 12, max: 32, flex: 2}, cell: (r) => r.device.name,
        sortValue: (r) => r.device.name.toLowerCase(), searchText: (r) => r.device.name},
      {key: 'owner', header: 'OWNER', priority: 2, width: {min: 14, max: 34, flex: 2}, cell: (r) => r.ownerEmail,
        sortValue: (r) => r.ownerEmail.toLowerCase(), searchText: (r) => r.ownerEmail},
      {key: 'ipv4', header: 'IPV4', priority: 3, width: 15, cell: (r) => r.device.ipv4 ?? '',
        sortValue: (r) => ipSortKey(r.device.ipv4), searchText: (r) => r.device.ipv4 ?? ''},
      {key: 'handshake', header: 'HANDSHAKE', priority: 4, width: 9, align: 'right', cell: (r) => formatAge(r.handshakeAt, now),
        sortValue: (r) => r.handshakeAt === null ? null : -r.handshakeAt},
      {key: 'rx', header: 'RX', priority: 5, width: 11, align: 'right', cell: (r) => formatBytes(r.device.rx_bytes),
        sortValue: (r) => r.device.rx_bytes === null ? null : -r.device.rx_bytes},
      {key: 'tx', header: 'TX', priority: 5, width: 11, align: 'right', cell: (r) => formatBytes(r.device.tx_bytes),
        sortValue: (r) => r.device.tx_bytes === null ? null : -r.device.tx_bytes},
      {key: 'rxRate', header: 'RX/S', priority: 6, width: 12, align: 'right', cell: (r) => formatRate(currentRate(r, 'rx', now)),
        sortValue: (r) => negOrNull(currentRate(r, 'rx', now))},
      {key: 'txRate', header: 'TX/S', priority: 6, width: 12, align: 'right', cell: (r) => formatRate(currentRate(r, 'tx', now)),
        sortValue: (r) => negOrNull(currentRate(r, 'tx', now))},
      {key: 'remote', header: 'REMOTE IP', priority: 7, width: {min: 15, max: 39, flex: 1}, cell: (r) => r.device.remote_ip ?? '',
        sortValue: (r) => r.device.remote_ip, searchText: (r) => r.device.remote_ip ?? ''},
      {key: 'ipv6', header: 'IPV6', priority: 8, width: {min: 16, max: 39, flex: 1}, cell: (r) => r.device.ipv6 ?? '',
        sortValue: (r) => r.device.ipv6, searchText: (r) => r.device.ipv6 ?? ''},
      {key: 'created', header: 'CREATED', priority: 9, width: 10, cell: (r) => formatDate(r.createdAt),
        sortValue: (r) => -r.createdAt},
    ];
  },
  title: (r) => `${r.device.name} (${r.ownerEmail})`,
  detail: (r, {snapshot, now, reveal}) => {
    const d = r.device;
    const state = deviceState(r, now);
    const owner = snapshot.usersById.get(d.user_id);
    return [
      {heading: true, value: 'Device'},
      {label: 'Name', value: d.name},
      {label: 'Description', value: d.description || 'None'},
      {label: 'Owner', value: owner ? `${owner.email} (${owner.role})` : d.user_id},
      {label: 'State', value: state === 'online' ? '● online (handshake within 3 minutes)' : state === 'idle' ? '○ idle' : '· never connected',
        tone: STATE_TONE[state]},
      {label: 'Latest handshake', value: formatWhen(r.handshakeAt, now)},
      {label: 'Remote IP', value: d.remote_ip ?? 'None'},
      {label: 'Received', value: `${formatBytes(d.rx_bytes)}   ${formatRate(currentRate(r, 'rx', now))}`},
      {label: 'Sent', value: `${formatBytes(d.tx_bytes)}   ${formatRate(currentRate(r, 'tx', now))}`},
      {heading: true, value: 'Tunnel'},
      {label: 'Tunnel IPv4', value: d.ipv4 ?? 'None'},
      {label: 'Tunnel IPv6', value: d.ipv6 ?? 'None'},
      {label: 'Public key', value: d.public_key},
      {label: 'Preshared key', value: reveal ? d.preshared_key ?? 'None' : d.preshared_key ? '•••••••••••• (v reveals)' : 'None'},
      {label: 'Server public key', value: d.server_public_key ?? 'None (the server has no WireGuard key yet)'},
      {heading: true, value: 'Client settings (effective values)'},
      {label: 'Allowed IPs', value: sinceDefault(d.allowed_ips, d.use_default_allowed_ips, formatList)},
      {label: 'DNS servers', value: sinceDefault(d.dns, d.use_default_dns, formatList)},
      {label: 'Endpoint', value: sinceDefault(d.endpoint, d.use_default_endpoint, (v) => v || 'None')},
      {label: 'MTU', value: sinceDefault(d.mtu, d.use_default_mtu, (v) => v === null ? 'None' : String(v))},
      {label: 'Persistent keepalive', value: sinceDefault(d.persistent_keepalive, d.use_default_persistent_keepalive, formatKeepalive)},
      {heading: true, value: 'Record'},
      {label: 'ID', value: d.id},
      {label: 'Created', value: formatWhen(r.createdAt, now)},
      {label: 'Updated', value: formatWhen(parseTime(d.updated_at), now)},
    ];
  },
  copyValue: (r) => ({label: 'public key', value: r.device.public_key}),
};

export interface UserRow {
  readonly user: User;
  readonly devices: number;
  readonly rules: number;
}

const userRowCache = new WeakMap<User, {devices: number; rules: number; row: UserRow}>();

function userRows(s: Snapshot): UserRow[] {
  return s.users.map((user) => {
    const devices = s.deviceCountByUser.get(user.id) ?? 0;
    const rules = s.ruleCountByUser.get(user.id) ?? 0;
    const cached = userRowCache.get(user);
    if (cached && cached.devices === devices && cached.rules === rules) return cached.row;
    const row = {user, devices, rules};
    userRowCache.set(user, {devices, rules, row});
    return row;
  });
}

const usersMemo = new WeakMap<Snapshot, UserRow[]>();

const VPN_TONE = {ENABLED: 'ok', DISABLED: 'danger', EXPIRED: 'warning'} as const;

export const usersScreen: ListScreenSpec<UserRow> = {
  id: 'users',
  noun: 'user',
  items: (s) => {
    let rows = usersMemo.get(s);
    if (!rows) {
      rows = userRows(s);
      usersMemo.set(s, rows);
    }
    return rows;
  },
  getId: (r) => r.user.id,
  defaultSort: {key: 'email', desc: false},
  columns: (s) => {
    const now = s.fetchedAt;
    const duration = s.configuration?.vpn_session_duration ?? 0;
    return [
      {key: 'email', header: 'EMAIL', priority: 1, width: {min: 20, max: 44, flex: 3}, cell: (r) => r.user.email,
        sortValue: (r) => r.user.email.toLowerCase(), searchText: (r) => r.user.email},
      {key: 'role', header: 'ROLE', priority: 2, width: 12, cell: (r) => r.user.role, sortValue: (r) => r.user.role,
        searchText: (r) => r.user.role},
      {key: 'devices', header: 'DEVICES', priority: 3, width: 7, align: 'right', cell: (r) => String(r.devices),
        sortValue: (r) => -r.devices},
      {key: 'vpn', header: 'VPN', priority: 2, width: 8, cell: (r) => vpnStatus(r.user, duration, now),
        color: (r) => color(VPN_TONE[vpnStatus(r.user, duration, now)]), sortValue: (r) => vpnStatus(r.user, duration, now),
        searchText: (r) => vpnStatus(r.user, duration, now)},
      {key: 'signin', header: 'LAST SIGN-IN', priority: 4, width: {min: 12, max: 24, flex: 1},
        cell: (r) => r.user.last_signed_in_at === null ? 'never'
          : `${formatAge(parseTime(r.user.last_signed_in_at), now)} ago${r.user.last_signed_in_method ? ` (${r.user.last_signed_in_method})` : ''}`,
        sortValue: (r) => negOrNull(parseTime(r.user.last_signed_in_at)),
        searchText: (r) => r.user.last_signed_in_method ?? ''},
      {key: 'rules', header: 'RULES', priority: 5, width: 5, align: 'right', cell: (r) => String(r.rules),
        sortValue: (r) => -r.rules},
      {key: 'created', header: 'CREATED', priority: 6, width: 10, cell: (r) => formatDate(parseTime(r.user.inserted_at) ?? 0),
        sortValue: (r) => r.user.inserted_at},
    ];
  },
  title: (r) => r.user.email,
  detail: (r, {snapshot, now}) => {
    const u = r.user;
    const duration = snapshot.configuration?.vpn_session_duration ?? 0;
    const status = vpnStatus(u, duration, now);
    const devices = snapshot.devices.filter((d) => d.device.user_id === u.id);
    const rules = snapshot.rules.filter((rule) => rule.user_id === u.id);
    const lines: DetailLine[] = [
      {heading: true, value: 'User'},
      {label: 'Email', value: u.email},
      {label: 'Role', value: u.role},
      {label: 'VPN connection', value: `${status} — ${VPN_STATUS_HELP[status]}`, tone: VPN_TONE[status]},
      {label: 'Disabled', value: u.disabled_at
        ? `${formatWhen(parseTime(u.disabled_at), now)} (cannot be changed through the API; use the Firezone web UI)`
        : 'No (enabling/disabling is not possible through the API)'},
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
      const state = deviceState(d, now);
      lines.push({value: `${STATE_GLYPH[state]} ${d.device.name}  ${d.device.ipv4 ?? ''}  handshake ${formatAge(d.handshakeAt, now)}`,
        tone: STATE_TONE[state]});
    }
    lines.push({heading: true, value: `Rules (${rules.length})`});
    if (rules.length === 0) lines.push({value: 'No rules scoped to this user.'});
    for (const rule of rules) lines.push({value: ruleSummary(rule)});
    return lines;
  },
  copyValue: (r) => ({label: 'email', value: r.user.email}),
};

export function ruleSummary(rule: Rule): string {
  const ports = rule.port_type === null ? 'all ports' : `${rule.port_type.toUpperCase()} ${rule.port_range ?? ''}`.trim();
  return `${rule.action.toUpperCase()} ${rule.destination} ${ports}`;
}

const rulesMemo = new WeakMap<Snapshot, Rule[]>();

export const rulesScreen: ListScreenSpec<Rule> = {
  id: 'rules',
  noun: 'rule',
  items: (s) => {
    let rules = rulesMemo.get(s);
    if (!rules) {
      const emailOf = (id: string) => s.usersById.get(id)?.email ?? id;
      rules = [...s.rules].sort((a, b) => ruleRank(a) - ruleRank(b)
        || (a.user_id === null || b.user_id === null ? 0 : emailOf(a.user_id).localeCompare(emailOf(b.user_id)))
        || a.destination.localeCompare(b.destination));
      rulesMemo.set(s, rules);
    }
    return rules;
  },
  getId: (r) => r.id,
  defaultSort: null,
  columns: (s) => {
    const emailOf = (id: string | null) => id === null ? 'everyone' : s.usersById.get(id)?.email ?? id;
    return [
      {key: 'precedence', header: '#', priority: 1, width: 3, align: 'right', cell: (r) => String(ruleRank(r) + 1),
        sortValue: (r) => ruleRank(r)},
      {key: 'action', header: 'ACTION', priority: 1, width: 6, cell: (r) => r.action.toUpperCase(),
        color: (r) => color(r.action === 'accept' ? 'ok' : 'danger'), sortValue: (r) => r.action, searchText: (r) => r.action},
      {key: 'destination', header: 'DESTINATION', priority: 1, width: {min: 18, max: 43, flex: 2}, cell: (r) => r.destination,
        sortValue: (r) => r.destination, searchText: (r) => r.destination},
      {key: 'ports', header: 'PROTOCOL/PORTS', priority: 2, width: 16,
        cell: (r) => r.port_type === null ? 'all' : `${r.port_type} ${r.port_range ?? ''}`,
        sortValue: (r) => r.port_type === null ? null : `${r.port_type} ${r.port_range ?? ''}`,
        searchText: (r) => `${r.port_type ?? ''} ${r.port_range ?? ''}`},
      {key: 'scope', header: 'SCOPE', priority: 2, width: {min: 12, max: 40, flex: 2}, cell: (r) => emailOf(r.user_id),
        sortValue: (r) => emailOf(r.user_id), searchText: (r) => emailOf(r.user_id)},
      {key: 'created', header: 'CREATED', priority: 3, width: 10, cell: (r) => formatDate(parseTime(r.inserted_at) ?? 0),
        sortValue: (r) => r.inserted_at},
    ];
  },
  title: (r) => ruleSummary(r),
  detail: (r, {snapshot, now}) => {
    const owner = r.user_id === null ? null : snapshot.usersById.get(r.user_id);
    return [
      {heading: true, value: 'Rule'},
      {label: 'Action', value: r.action.toUpperCase(), tone: r.action === 'accept' ? 'ok' : 'danger'},
      {label: 'Destination', value: r.destination},
      {label: 'Protocol', value: r.port_type ?? 'all protocols'},
      {label: 'Port range', value: r.port_range ?? 'all ports'},
      {label: 'Scope', value: r.user_id === null ? 'everyone (global rule)' : owner?.email ?? r.user_id},
      {label: 'Precedence', value: `${ruleRank(r) + 1} of 8 levels — ${explainRank(r)}`},
      {label: 'Created', value: formatWhen(parseTime(r.inserted_at), now)},
      {label: 'Updated', value: formatWhen(parseTime(r.updated_at), now)},
      {label: 'ID', value: r.id},
    ];
  },
  copyValue: (r) => ({label: 'destination', value: r.destination}),
};

export function configurationLines(c: Configuration | null, now: number, reveal: boolean): DetailLine[] {
  if (c === null) return [{value: 'The configuration has not been loaded yet.'}];
  const bool = (v: boolean | null) => v === null ? 'not set (server default applies)' : v ? 'on' : 'off';
  const orDefault = (v: string | number | null, builtIn: string) => v === null || v === '' ? `not set (built-in default ${builtIn})` : String(v);
  const lines: DetailLine[] = [
    {heading: true, value: 'Client defaults  (Enter edits)', entry: 'defaults'},
    {label: 'Allowed IPs', value: formatList(c.default_client_allowed_ips)},
    {label: 'DNS servers', value: formatList(c.default_client_dns)},
    {label: 'Endpoint', value: orDefault(c.default_client_endpoint, "<server host>:51820")},
    {label: 'MTU', value: orDefault(c.default_client_mtu, '1280')},
    {label: 'Persistent keepalive', value: c.default_client_persistent_keepalive === null
      ? 'not set (built-in default 25)' : formatKeepalive(c.default_client_persistent_keepalive)},
    {heading: true, value: 'Security  (Enter edits)', entry: 'security'},
    {label: 'Local auth', value: bool(c.local_auth_enabled)},
    {label: 'Unprivileged device management', value: bool(c.allow_unprivileged_device_management)},
    {label: 'Unprivileged device configuration', value: bool(c.allow_unprivileged_device_configuration)},
    {label: 'Disable VPN on OIDC error', value: bool(c.disable_vpn_on_oidc_error)},
    {label: 'VPN session duration', value: `${formatSessionDuration(c.vpn_session_duration)} (${c.vpn_session_duration} s)`},
    {heading: true, value: `OpenID Connect providers (${c.openid_connect_providers.length})`},
  ];
  for (const p of c.openid_connect_providers) {
    lines.push({label: p.id, value: `${p.label} · client ${p.client_id} · scope "${p.scope}" · auto-create ${p.auto_create_users ? 'yes' : 'no'}`, entry: entryKey({kind: 'oidc', id: p.id})});
    lines.push({label: '  discovery', value: p.discovery_document_uri});
    lines.push({label: '  client secret', value: reveal ? p.client_secret : '•••••••••••• (v reveals)'});
    if (p.redirect_uri) lines.push({label: '  redirect URI', value: p.redirect_uri});
  }
  lines.push({value: '+ add an OpenID Connect provider', entry: 'oidc-add', tone: 'muted'});
  lines.push({heading: true, value: `SAML identity providers (${c.saml_identity_providers.length})`});
  for (const p of c.saml_identity_providers) {
    const entityId = /entityID="([^"]*)"/.exec(p.metadata)?.[1] ?? 'unknown entity';
    lines.push({label: p.id, value: `${p.label} · base URL ${p.base_url ?? 'default'} · auto-create ${p.auto_create_users ? 'yes' : 'no'}`, entry: entryKey({kind: 'saml', id: p.id})});
    lines.push({label: '  metadata', value: `${entityId} (${p.metadata.length} bytes of XML)`});
    lines.push({label: '  signing', value: `requests ${p.sign_requests ? 'signed' : 'unsigned'}, metadata ${p.sign_metadata ? 'signed' : 'unsigned'}, assertions ${p.signed_assertion_in_resp ? 'required signed' : 'may be unsigned'}, envelopes ${p.signed_envelopes_in_resp ? 'required signed' : 'may be unsigned'}`});
    if (reveal) lines.push({label: '  metadata XML', value: p.metadata.replace(/\s+/g, ' ')});
  }
  lines.push({value: '+ add a SAML identity provider', entry: 'saml-add', tone: 'muted'});
  lines.push({heading: true, value: 'Logo (read-only)'});
  const logo = c.logo;
  lines.push({value: !logo || (!logo.url && !logo.data) ? 'Default' : logo.url ? `URL ${logo.url}` : `Uploaded image (${logo.type ?? 'unknown type'})`});
  lines.push({heading: true, value: 'Record'});
  lines.push({label: 'Updated', value: formatWhen(parseTime(c.updated_at), now)});
  return lines;
}

function negOrNull(n: number | null): number | null {
  return n === null ? null : -n;
}

/** Sorts dotted quads numerically: `10.3.2.10` after `10.3.2.9`. */
function ipSortKey(ip: string | null): string | null {
  if (ip === null) return null;
  const parts = ip.split('.');
  if (parts.length !== 4) return ip;
  return parts.map((p) => p.padStart(3, '0')).join('.');
}
