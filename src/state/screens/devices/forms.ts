// The create/edit forms for users, devices and rules: their fields in the design's order,
// client-side checks, and the request bodies built from their values.
import type {Configuration, Device, DeviceCreate, DeviceUpdate} from '../../../api/index.js';
import {bool, str, type FieldSpec, type Values} from '../../interactions/form.js';
import {formatKeepalive, formatList} from '../../data/format.js';
import {
  parseInteger,
  parseList,
  validateAllowedIpsNamed,
  validateDescription,
  validateDeviceName,
  validateDnsListNamed,
  validateEndpoint,
  validateKeepalive,
  validateMtu,
  validateTunnelAddress,
} from '../../data/validators.js';

// ---- devices ---------------------------------------------------------------------------------

type DefaultKey = 'allowed_ips' | 'dns' | 'endpoint' | 'mtu' | 'persistent_keepalive';

interface DefaultPair {
  key: DefaultKey;
  toggleLabel: string;
  label: string;
  placeholder: string;
  defaultText: (c: Configuration | null) => string;
  validate: (text: string) => string[];
  /** A list (allowed IPs, DNS servers): holds as much as one paste. */
  long?: boolean;
}

const DEFAULT_PAIRS: readonly DefaultPair[] = [
  {
    key: 'allowed_ips',
    toggleLabel: 'Use default Allowed IPs',
    label: 'Allowed IPs',
    placeholder: 'e.g. 0.0.0.0/0, ::/0',
    defaultText: (c) => formatList(c?.default_client_allowed_ips ?? null),
    long: true,
    validate: (t) => validateAllowedIpsNamed(parseList(t)),
  },
  {
    key: 'dns',
    toggleLabel: 'Use default DNS servers',
    label: 'DNS servers',
    placeholder: 'e.g. 1.1.1.1, 1.0.0.1',
    defaultText: (c) => formatList(c?.default_client_dns ?? null),
    long: true,
    validate: (t) => validateDnsListNamed(parseList(t)),
  },
  {
    key: 'endpoint',
    toggleLabel: 'Use default endpoint',
    label: 'Server endpoint',
    placeholder: 'e.g. vpn.example.com:51820',
    defaultText: (c) => c?.default_client_endpoint || 'None',
    validate: (t) => (t.trim() === '' ? ["can't be blank"] : validateEndpoint(t)),
  },
  {
    key: 'mtu',
    toggleLabel: 'Use default MTU',
    label: 'Interface MTU',
    placeholder: 'e.g. 1280',
    defaultText: (c) => String(c?.default_client_mtu ?? '1280 (built-in)'),
    validate: (t) => validateMtu(t),
  },
  {
    key: 'persistent_keepalive',
    toggleLabel: 'Use default keepalive',
    label: 'Persistent keepalive',
    placeholder: 'e.g. 25',
    defaultText: (c) =>
      c?.default_client_persistent_keepalive === null || c === null ? '25 (built-in)' : formatKeepalive(c.default_client_persistent_keepalive),
    validate: (t) => validateKeepalive(t),
  },
];

export function deviceFormSpecs(configuration: Configuration | null, ownerPicker: boolean): FieldSpec[] {
  const specs: FieldSpec[] = [];
  if (ownerPicker) {
    specs.push({
      key: 'owner',
      label: 'Owner',
      kind: 'picker',
      help: 'Enter opens the user picker (type to filter).',
      validate: (v) => (String(v) === '' ? ["can't be blank"] : []),
    });
  }
  specs.push(
    {
      key: 'name',
      label: 'Name',
      kind: 'text',
      maxLength: 255,
      validate: (v) => validateDeviceName(String(v)),
      help: 'Pre-filled like Firezone does; at most 15 characters keeps it a valid interface name.',
    },
    {key: 'description', label: 'Description', kind: 'text', maxLength: 2048, placeholder: 'optional', validate: (v) => validateDescription(String(v))},
  );
  for (const pair of DEFAULT_PAIRS) {
    const toggleKey = `use_default_${pair.key}`;
    specs.push(
      {key: toggleKey, label: pair.toggleLabel, kind: 'toggle', help: () => `Default: ${pair.defaultText(configuration)}`},
      {
        key: pair.key,
        label: `  ${pair.label}`,
        kind: 'text',
        long: pair.long,
        placeholder: pair.placeholder,
        disabledWhen: (v) => (bool(v, toggleKey) ? `default: ${pair.defaultText(configuration)}` : null),
        validate: (v) => pair.validate(String(v)),
      },
    );
  }
  specs.push(
    {key: 'ipv4', label: 'Tunnel IPv4', kind: 'text', placeholder: 'blank: let Firezone assign one', validate: (v) => validateTunnelAddress(String(v), 4)},
    {key: 'ipv6', label: 'Tunnel IPv6', kind: 'text', placeholder: 'blank: let Firezone assign one', validate: (v) => validateTunnelAddress(String(v), 6)},
  );
  return specs;
}

export function deviceFormInitial(name: string, ownerId: string | null): Values {
  const values: Values = {owner: ownerId ?? '', name, description: '', ipv4: '', ipv6: ''};
  for (const pair of DEFAULT_PAIRS) {
    values[`use_default_${pair.key}`] = true;
    values[pair.key] = '';
  }
  return values;
}

export function deviceCreateBody(values: Values, userId: string, publicKey: string): DeviceCreate {
  const body: DeviceCreate = {user_id: userId, public_key: publicKey, name: str(values, 'name').trim()};
  const description = str(values, 'description').trim();
  if (description !== '') body.description = description;
  for (const pair of DEFAULT_PAIRS) {
    const useDefault = bool(values, `use_default_${pair.key}`);
    const text = str(values, pair.key).trim();
    switch (pair.key) {
      case 'allowed_ips':
        body.use_default_allowed_ips = useDefault;
        if (!useDefault) body.allowed_ips = parseList(text);
        break;
      case 'dns':
        body.use_default_dns = useDefault;
        if (!useDefault) body.dns = parseList(text);
        break;
      case 'endpoint':
        body.use_default_endpoint = useDefault;
        if (!useDefault) body.endpoint = text;
        break;
      case 'mtu': {
        body.use_default_mtu = useDefault;
        const n = parseInteger(text);
        if (!useDefault && n !== null) body.mtu = n;
        break;
      }
      case 'persistent_keepalive': {
        body.use_default_persistent_keepalive = useDefault;
        const n = parseInteger(text);
        if (!useDefault && n !== null) body.persistent_keepalive = n;
        break;
      }
    }
  }
  const ipv4 = str(values, 'ipv4').trim();
  const ipv6 = str(values, 'ipv6').trim();
  if (ipv4 !== '') body.ipv4 = ipv4;
  if (ipv6 !== '') body.ipv6 = ipv6;
  return body;
}

/** 0.7.36 reports a duplicate device name under `user_id` (docs/firezone-0.7.36.md, "Devices: create"); show it on the name. */
export const DEVICE_ERROR_ALIASES = {
  user_id: {field: 'name', note: 'this user already has a device with this name'},
};

export function deviceEditSpecs(): FieldSpec[] {
  return [
    {key: 'name', label: 'Name', kind: 'text', maxLength: 255, validate: (v) => validateDeviceName(String(v))},
    {key: 'description', label: 'Description', kind: 'text', maxLength: 2048, placeholder: 'optional', validate: (v) => validateDescription(String(v))},
  ];
}

export const DEVICE_EDIT_NOTE =
  'Firezone 0.7 applies only name and description to an existing device; addresses, keys and client settings are fixed at creation.';

/**
 * Only what the admin changed: the form holds the row as the last poll showed it, and a field sent
 * unchanged would put back a change made since (by another admin, or by this console's own save
 * whose refresh has not landed yet). Empty: nothing to send.
 */
export function deviceUpdateBody(values: Values, initial: Values): DeviceUpdate {
  const body: DeviceUpdate = {};
  for (const field of ['name', 'description'] as const) {
    const value = str(values, field).trim();
    if (value !== str(initial, field).trim()) body[field] = value;
  }
  return body;
}

export function deviceEditInitial(device: Device): Values {
  return {name: device.name, description: device.description ?? ''};
}
