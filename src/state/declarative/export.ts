// The server as a document (docs/server-as-a-file.md, "The document"): identities that do not
// depend on server ids (users by email, devices by owner and name, rules by their fields), in an
// order that depends only on those identities, so that exporting twice gives the same bytes.
import {toOidcWrite, toSamlWrite, type Configuration, type Device, type Rule, type User} from '../../api/index.js';
import {DOCUMENT_VERSION, type ConfigurationDoc, type DeviceDoc, type OidcDoc, type RuleDoc, type ServerDocument, type UserDoc} from './document.js';
import {canonicalCidr, canonicalPortRange, emailKey} from './normalise.js';

/**
 * Address and DNS lists in a stable order: the plan compares them as sets (docs/server-as-a-file.md,
 * "What is never a change"), so the file writes them sorted and two servers that differ only in a
 * list's order export the same bytes.
 */
function sortedList(list: string[] | null, key: (s: string) => string): string[] | null {
  return list === null ? null : [...list].sort((a, b) => byText(key(a), key(b)) || byText(a, b));
}
const cidrList = (list: string[] | null) => sortedList(list, canonicalCidr);
const dnsList = (list: string[] | null) => sortedList(list, (s) => s.trim());

/** Everything the document describes, as the API gives it. */
export interface ServerState {
  users: User[];
  devices: Device[];
  rules: Rule[];
  configuration: Configuration;
}

/** Plain code-unit order: the same on every machine and locale. */
export const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function userDoc(u: User): UserDoc {
  return {email: u.email, role: u.role};
}

/** A device as the document writes it: a setting the device takes from the server's defaults is left out. */
export function deviceDoc(d: Device, owner: string, withSecrets: boolean): DeviceDoc {
  const doc: DeviceDoc = {owner, name: d.name, description: d.description, public_key: d.public_key};
  if (withSecrets && d.preshared_key !== null) doc.preshared_key = d.preshared_key;
  doc.ipv4 = d.ipv4;
  doc.ipv6 = d.ipv6;
  if (!d.use_default_allowed_ips) doc.allowed_ips = cidrList(d.allowed_ips);
  if (!d.use_default_dns) doc.dns = dnsList(d.dns);
  if (!d.use_default_endpoint) doc.endpoint = d.endpoint;
  if (!d.use_default_mtu) doc.mtu = d.mtu;
  if (!d.use_default_persistent_keepalive) doc.persistent_keepalive = d.persistent_keepalive;
  return doc;
}

export function ruleDoc(r: Rule, userEmail: string | null): RuleDoc {
  const doc: RuleDoc = {action: r.action, destination: r.destination};
  if (r.port_type !== null) {
    doc.port_type = r.port_type;
    doc.port_range = canonicalPortRange(r.port_range);
  }
  if (userEmail !== null) doc.user = userEmail;
  return doc;
}

/** A provider as `E` and the forms send it; an OIDC secret only when asked for. */
function oidcDoc(p: Configuration['openid_connect_providers'][number], withSecrets: boolean): OidcDoc {
  const {client_secret: secret, ...rest} = toOidcWrite(p);
  return withSecrets ? {...rest, client_secret: secret} : rest;
}

/** The configuration's editable fields (the logo is not: 0.7.36 reads its file on the server's disk). Providers keep the server's order. */
export function configurationDoc(c: Configuration, withSecrets: boolean): ConfigurationDoc {
  return {
    allow_unprivileged_device_configuration: c.allow_unprivileged_device_configuration,
    allow_unprivileged_device_management: c.allow_unprivileged_device_management,
    default_client_allowed_ips: cidrList(c.default_client_allowed_ips),
    default_client_dns: dnsList(c.default_client_dns),
    default_client_endpoint: c.default_client_endpoint,
    default_client_mtu: c.default_client_mtu,
    default_client_persistent_keepalive: c.default_client_persistent_keepalive,
    disable_vpn_on_oidc_error: c.disable_vpn_on_oidc_error,
    local_auth_enabled: c.local_auth_enabled,
    vpn_session_duration: c.vpn_session_duration,
    openid_connect_providers: c.openid_connect_providers.map((p) => oidcDoc(p, withSecrets)),
    saml_identity_providers: c.saml_identity_providers.map(toSamlWrite),
  };
}

const ruleSortKey = (r: RuleDoc) =>
  [r.user === undefined || r.user === null ? '' : emailKey(r.user), r.destination, r.action, r.port_type ?? '', r.port_range ?? ''].join('\u0000');

/** The whole server as one document. A device or rule whose user the list does not hold (deleted meanwhile) is left out. */
export function exportDocument(state: ServerState, options: {withSecrets: boolean}): ServerDocument {
  const emailOf = new Map(state.users.map((u) => [u.id, u.email]));
  const users = state.users.map(userDoc).sort((a, b) => byText(emailKey(a.email), emailKey(b.email)));
  const devices: DeviceDoc[] = [];
  for (const d of state.devices) {
    const owner = emailOf.get(d.user_id);
    if (owner !== undefined) devices.push(deviceDoc(d, owner, options.withSecrets));
  }
  devices.sort((a, b) => byText(emailKey(a.owner), emailKey(b.owner)) || byText(a.name, b.name) || byText(a.public_key, b.public_key));
  const rules: RuleDoc[] = [];
  for (const r of state.rules) {
    const user = r.user_id === null ? null : (emailOf.get(r.user_id) ?? undefined);
    if (user !== undefined) rules.push(ruleDoc(r, user));
  }
  rules.sort((a, b) => byText(ruleSortKey(a), ruleSortKey(b)));
  return {version: DOCUMENT_VERSION, users, devices, rules, configuration: configurationDoc(state.configuration, options.withSecrets)};
}

/** The server's state, read through the client (every response validated by its schemas). */
export async function readServerState(client: {
  listUsers(): Promise<{data: User[]}>;
  listDevices(): Promise<{data: Device[]}>;
  listRules(): Promise<{data: Rule[]}>;
  getConfiguration(): Promise<{data: Configuration}>;
}): Promise<ServerState> {
  const [users, devices, rules, configuration] = await Promise.all([client.listUsers(), client.listDevices(), client.listRules(), client.getConfiguration()]);
  return {users: users.data, devices: devices.data, rules: rules.data, configuration: configuration.data};
}
