// The configuration panel's logic: one form per section, provider edits as operations (so an
// edit can be re-applied on top of a configuration that changed on the server), the diff shown
// before saving, and the lost-update check.
import type {Configuration, ConfigurationUpdate} from '../../../api/index.js';
import {bool, str, type FieldSpec, type Values} from '../../interactions/form.js';
import {SESSION_PRESETS} from '../../data/format.js';
import {glyphs} from '../../core/glyphs.js';
import {
  formatListInput,
  parseInteger,
  parseList,
  validateAllowedIpsNamed,
  validateDnsListNamed,
  validateEndpoint,
  validateKeepalive,
  validateMtu,
  validateSessionDuration,
} from '../../data/validators.js';

export type Section = 'defaults' | 'security';

// ---- cursor entries of the Configuration screen ----------------------------------------------

/** What the cursor on the Configuration screen can stand on. */
export type ConfigEntry = {kind: 'defaults'} | {kind: 'security'} | {kind: 'oidc' | 'saml'; id: string} | {kind: 'oidc-add'} | {kind: 'saml-add'};

/**
 * A string key for an entry, for comparing cursor positions. The kind never contains `:` and the
 * id is everything after the first one, so a provider id with colons (Firezone allows `corp:legacy`
 * next to `corp`) stays distinct.
 */
export function entryKey(entry: ConfigEntry): string {
  return entry.kind === 'oidc' || entry.kind === 'saml' ? `${entry.kind}:${entry.id}` : entry.kind;
}

export function parseEntryKey(key: string): ConfigEntry {
  const sep = key.indexOf(':');
  if (sep >= 0) {
    const kind = key.slice(0, sep);
    if (kind === 'oidc' || kind === 'saml') return {kind, id: key.slice(sep + 1)};
  }
  if (key === 'security' || key === 'oidc-add' || key === 'saml-add') return {kind: key};
  return {kind: 'defaults'};
}

// ---- section forms ---------------------------------------------------------------------------

export function defaultsSpecs(): FieldSpec[] {
  return [
    {
      key: 'default_client_allowed_ips',
      label: 'Allowed IPs',
      kind: 'text',
      long: true,
      placeholder: 'e.g. 0.0.0.0/0, ::/0',
      help: 'Comma-separated IPs/CIDRs routed through the VPN; 0.0.0.0/0, ::/0 sends all traffic.',
      validate: (v) => validateAllowedIpsNamed(parseList(String(v))),
    },
    {
      key: 'default_client_dns',
      label: 'DNS servers',
      kind: 'text',
      long: true,
      placeholder: 'e.g. 1.1.1.1, 1.0.0.1',
      help: 'Comma-separated; blank omits DNS from generated configs.',
      validate: (v) => validateDnsListNamed(parseList(String(v))),
    },
    {
      key: 'default_client_endpoint',
      label: 'Endpoint',
      kind: 'text',
      placeholder: 'e.g. vpn.example.com:51820',
      help: 'IPv4, IPv6 or FQDN (optional :port) devices connect to.',
      validate: (v) => validateEndpoint(String(v)),
    },
    {
      key: 'default_client_mtu',
      label: 'MTU',
      kind: 'text',
      placeholder: 'e.g. 1280',
      help: '576–1500. 1280 is a safe bet for most networks. Blank falls back to the built-in 1280.',
      validate: (v) => validateMtu(String(v)),
    },
    {
      key: 'default_client_persistent_keepalive',
      label: 'Persistent keepalive',
      kind: 'text',
      placeholder: 'e.g. 25',
      help: '0–120 seconds; 0 disables. Blank falls back to the built-in 25.',
      validate: (v) => validateKeepalive(String(v)),
    },
  ];
}

/** The session preset whose seconds are typed (`session_seconds`). */
export const CUSTOM = 'custom';

export function securitySpecs(): FieldSpec[] {
  return [
    {key: 'local_auth_enabled', label: 'Local auth', kind: 'toggle', help: 'Enable or disable authentication with email and password.'},
    {
      key: 'allow_unprivileged_device_management',
      label: 'Unprivileged device management',
      kind: 'toggle',
      help: 'Enable or disable management of devices on unprivileged accounts.',
    },
    {
      key: 'allow_unprivileged_device_configuration',
      label: 'Unprivileged device configuration',
      kind: 'toggle',
      help: 'Enable or disable configuration of device network settings for unprivileged users.',
    },
    {
      key: 'disable_vpn_on_oidc_error',
      label: 'Disable VPN on OIDC error',
      kind: 'toggle',
      help: "Disable a user's VPN connection when their OIDC token refresh fails.",
    },
    {
      key: 'session_preset',
      label: 'VPN session duration',
      kind: 'choice',
      choices: [...SESSION_PRESETS.map((p) => ({value: String(p.seconds), label: p.label})), {value: CUSTOM, label: 'Every N seconds…'}],
      help: () => `Users re-authenticate in the web UI this often to keep their VPN session. ${glyphs().keyLeft}/${glyphs().keyRight} to change.`,
    },
    {
      key: 'session_seconds',
      label: '  seconds',
      kind: 'text',
      placeholder: 'e.g. 3600',
      disabledWhen: (v) => (str(v, 'session_preset') === CUSTOM ? null : 'set by the preset'),
      validate: (v) => validateSessionDuration(String(v)),
    },
  ];
}

export function sectionInitial(section: Section, c: Configuration): Values {
  if (section === 'defaults') {
    return {
      default_client_allowed_ips: formatListInput(c.default_client_allowed_ips),
      default_client_dns: formatListInput(c.default_client_dns),
      default_client_endpoint: c.default_client_endpoint ?? '',
      default_client_mtu: c.default_client_mtu === null ? '' : String(c.default_client_mtu),
      default_client_persistent_keepalive: c.default_client_persistent_keepalive === null ? '' : String(c.default_client_persistent_keepalive),
    };
  }
  const preset = SESSION_PRESETS.find((p) => p.seconds === c.vpn_session_duration);
  return {
    local_auth_enabled: c.local_auth_enabled ?? true,
    allow_unprivileged_device_management: c.allow_unprivileged_device_management ?? true,
    allow_unprivileged_device_configuration: c.allow_unprivileged_device_configuration ?? true,
    disable_vpn_on_oidc_error: c.disable_vpn_on_oidc_error ?? false,
    session_preset: preset ? String(preset.seconds) : CUSTOM,
    session_seconds: String(c.vpn_session_duration),
  };
}

/** The update for one section: only fields whose value differs from what the form opened with. */
export function sectionUpdate(section: Section, values: Values, initial: Values): ConfigurationUpdate {
  const update: ConfigurationUpdate = {};
  const changed = (key: string) => values[key] !== initial[key];
  if (section === 'defaults') {
    if (changed('default_client_allowed_ips')) update.default_client_allowed_ips = parseList(str(values, 'default_client_allowed_ips'));
    if (changed('default_client_dns')) update.default_client_dns = parseList(str(values, 'default_client_dns'));
    if (changed('default_client_endpoint')) update.default_client_endpoint = str(values, 'default_client_endpoint').trim() || null;
    if (changed('default_client_mtu')) update.default_client_mtu = parseInteger(str(values, 'default_client_mtu'));
    if (changed('default_client_persistent_keepalive')) {
      update.default_client_persistent_keepalive = parseInteger(str(values, 'default_client_persistent_keepalive'));
    }
    return update;
  }
  for (const key of [
    'local_auth_enabled',
    'allow_unprivileged_device_management',
    'allow_unprivileged_device_configuration',
    'disable_vpn_on_oidc_error',
  ] as const) {
    if (changed(key)) update[key] = bool(values, key);
  }
  const seconds = (v: Values) => (str(v, 'session_preset') === CUSTOM ? parseInteger(str(v, 'session_seconds')) : Number(str(v, 'session_preset')));
  const next = seconds(values);
  if (next !== null && next !== seconds(initial)) update.vpn_session_duration = next;
  return update;
}
