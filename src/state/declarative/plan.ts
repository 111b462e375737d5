// What applying a document would do (docs/server-as-a-file.md, "The plan"): the file checked first
// (every problem with its line, before any request), then compared with the server as 0.7.36 will
// store it, so that what the server normalises is never a change.
import type {ConfigurationUpdate, Device, OidcProviderWrite, Rule, SamlProviderWrite, User} from '../../api/index.js';
import {parseCidr} from '../../common/cidr.js';
import type {ConfigurationDoc, DeviceDoc, FileProblem, LineOf, RuleDoc, ServerDocument, UserDoc} from './document.js';
import type {ServerState} from './export.js';
import {canonicalCidr, cidrSet, dnsSet, emailKey, overlappingPairs, portBounds, ruleKey, sameList, type RuleShape} from './normalise.js';

export type StepKind = 'user' | 'device' | 'rule' | 'configuration';

export interface FieldChange {
  field: string;
  old: string;
  new: string;
}

interface StepBase {
  kind: StepKind;
  /** `user bob@example.com`, `device laptop of alice@example.com`, `rule accept 10.0.0.0/8`. */
  label: string;
  /** The entry's line in the file; 0 for what is only on the server. */
  line: number;
  fields: FieldChange[];
}

export type Step =
  | (StepBase & {op: 'create'; kind: 'user'; user: UserDoc})
  | (StepBase & {op: 'update'; kind: 'user'; user: UserDoc; server: User})
  | (StepBase & {op: 'delete'; kind: 'user'; server: User})
  | (StepBase & {op: 'create'; kind: 'device'; device: DeviceDoc})
  | (StepBase & {op: 'update'; kind: 'device'; device: DeviceDoc; server: Device})
  | (StepBase & {op: 'replace'; kind: 'device'; device: DeviceDoc; server: Device; owner: string})
  | (StepBase & {op: 'delete'; kind: 'device'; server: Device; owner: string | null})
  | (StepBase & {op: 'create'; kind: 'rule'; rule: RuleDoc})
  | (StepBase & {op: 'delete'; kind: 'rule'; server: Rule; user: string | null})
  | (StepBase & {op: 'update'; kind: 'configuration'; body: ConfigurationUpdate});

export interface Plan {
  steps: Step[];
  /** On the server and not in the file, kept (without --prune, or the token's own user). */
  kept: string[];
  problems: FileProblem[];
}

export interface PlanOptions {
  prune: boolean;
  /** The token's user: never deleted by --prune (0.7.36 cannot delete the only admin, and it would end this session). */
  selfUserId: string | null;
}

const show = (v: unknown): string => {
  if (v === undefined) return 'default';
  if (v === null) return 'none';
  if (Array.isArray(v)) return v.length === 0 ? '[]' : v.join(', ');
  return String(v);
};

const deviceLabel = (name: string, owner: string) => `device ${name} of ${owner}`;

export function ruleShape(r: RuleDoc): RuleShape {
  const ports = r.port_type === undefined || r.port_type === null ? null : r.port_type;
  return {
    action: r.action,
    destination: r.destination,
    port_type: ports,
    port_range: ports === null ? null : (r.port_range ?? null),
    user: r.user ? emailKey(r.user) : null,
  };
}

function serverRuleShape(r: Rule, emailOf: Map<string, string>): RuleShape {
  const user = r.user_id === null ? null : emailKey(emailOf.get(r.user_id) ?? r.user_id);
  return {action: r.action, destination: r.destination, port_type: r.port_type, port_range: r.port_type === null ? null : r.port_range, user};
}

/** The file's own mistakes, each at its line: nothing is sent while there is one. */
function checkDocument(doc: ServerDocument, lineOf: LineOf, serverRules: RuleShape[], options: {prune: boolean}): FileProblem[] {
  const problems: FileProblem[] = [];
  const users = new Map<string, number>();
  doc.users.forEach((u, i) => {
    const line = lineOf(['users', i]);
    if (!u.email.includes('@')) problems.push({line, message: `user ${u.email}: email: is invalid email address`});
    const first = users.get(emailKey(u.email));
    if (first !== undefined) problems.push({line, message: `user ${u.email} is already in the file (line ${first})`});
    else users.set(emailKey(u.email), line);
  });
  const devices = new Map<string, number>();
  const keys = new Map<string, number>();
  doc.devices.forEach((d, i) => {
    const line = lineOf(['devices', i]);
    const label = deviceLabel(d.name, d.owner);
    if (!users.has(emailKey(d.owner))) problems.push({line, message: `${label}: owner ${d.owner} is not among the file's users`});
    if (d.name.trim() === '') problems.push({line, message: `${label}: name: can't be blank`});
    const id = `${emailKey(d.owner)}\u0000${d.name.trim()}`;
    const first = devices.get(id);
    if (first !== undefined) problems.push({line, message: `${label} is already in the file (line ${first})`});
    else devices.set(id, line);
    const keyFirst = keys.get(d.public_key);
    if (keyFirst !== undefined) problems.push({line, message: `${label}: public_key is already used at line ${keyFirst}`});
    else keys.set(d.public_key, line);
    for (const field of ['ipv4', 'ipv6'] as const) {
      const v = d[field];
      if (typeof v === 'string' && (parseCidr(v.trim()) === null || v.includes('/'))) problems.push({line, message: `${label}: ${field}: is invalid`});
    }
    for (const v of d.allowed_ips ?? []) if (parseCidr(v.trim()) === null) problems.push({line, message: `${label}: allowed_ips: ${v} is invalid`});
  });
  const rules: Array<{shape: RuleShape; line: number; key: string; server: boolean}> = [];
  const firstLine = new Map<string, number>();
  const duplicate = new Set<number>();
  doc.rules.forEach((r, i) => {
    const line = lineOf(['rules', i]);
    const shape = ruleShape(r);
    const key = ruleKey(shape);
    const label = `rule ${key}`;
    if (r.user && !users.has(emailKey(r.user))) problems.push({line, message: `${label}: user ${r.user} is not among the file's users`});
    if (parseCidr(r.destination.trim()) === null) problems.push({line, message: `${label}: destination: is invalid`});
    const hasRange = r.port_range !== undefined && r.port_range !== null && r.port_range.trim() !== '';
    if (shape.port_type === null && hasRange) problems.push({line, message: `${label}: port_type: can't be blank (a port_range needs it)`});
    if (shape.port_type !== null && !hasRange) problems.push({line, message: `${label}: port_range: can't be blank (a port_type needs it)`});
    if (shape.port_type !== null && hasRange) {
      const b = portBounds(r.port_range!);
      if (b === null) problems.push({line, message: `${label}: port_range: bad format`});
      else if (b.from > b.to) problems.push({line, message: `${label}: port_range: lower value cannot be higher than upper value`});
      else if (b.from < 1 || b.to > 65534) problems.push({line, message: `${label}: port_range: port is not within valid range (1-65534)`});
    }
    const same = firstLine.get(key);
    if (same !== undefined) {
      problems.push({line, message: `${label} is already in the file (line ${same})`});
      duplicate.add(line);
    } else firstLine.set(key, line);
    rules.push({shape, line, key, server: false});
  });
  // A rule kept on the server (not in the file, no --prune) still counts for the overlap constraints.
  if (!options.prune) for (const kept of serverRules) if (!firstLine.has(ruleKey(kept))) rules.push({shape: kept, line: 0, key: ruleKey(kept), server: true});
  const reported = new Set<number>(duplicate);
  for (const [a, b] of overlappingPairs(rules, (r) => r.shape)) {
    if (a.server && b.server) continue;
    if (a.server || b.server) {
      const [mine, theirs] = a.server ? [b, a] : [a, b];
      if (reported.has(mine.line)) continue;
      reported.add(mine.line);
      problems.push({
        line: mine.line,
        message: `rule ${mine.key} overlaps rule ${theirs.key}, which is on the server and not in the file (remove it from the server, or apply with --prune)`,
      });
      continue;
    }
    if (a.key === b.key) continue;
    const [earlier, later] = a.line < b.line ? [a, b] : [b, a];
    if (reported.has(later.line)) continue;
    reported.add(later.line);
    problems.push({
      line: later.line,
      message: `rule ${later.key} overlaps the rule at line ${earlier.line} (0.7.36 refuses it: destination overlaps with an existing rule)`,
    });
  }
  return problems;
}

/** The checks that need only the file (run before any request): duplicates, owners, rules that overlap each other, field forms. */
export function checkFile(doc: ServerDocument, lineOf: LineOf): FileProblem[] {
  return checkDocument(doc, lineOf, [], {prune: true}).sort((a, b) => a.line - b.line);
}

/** A device's settings, file against server: absent in the file is the server's default. */
function settingChanges(doc: DeviceDoc, d: Device): FieldChange[] {
  const out: FieldChange[] = [];
  const compare = <T>(field: string, mine: T | undefined, usesDefault: boolean, theirs: T, same: (a: T, b: T) => boolean) => {
    if (mine === undefined) {
      if (!usesDefault) out.push({field, old: show(theirs), new: 'default'});
    } else if (usesDefault) out.push({field, old: 'default', new: show(mine)});
    else if (!same(mine, theirs)) out.push({field, old: show(theirs), new: show(mine)});
  };
  compare('allowed_ips', doc.allowed_ips, d.use_default_allowed_ips, d.allowed_ips, (a, b) => sameList(cidrSet(a), cidrSet(b)));
  compare('dns', doc.dns, d.use_default_dns, d.dns, (a, b) => sameList(dnsSet(a), dnsSet(b)));
  compare('endpoint', doc.endpoint, d.use_default_endpoint, d.endpoint, (a, b) => (a?.trim() ?? null) === (b?.trim() ?? null));
  compare('mtu', doc.mtu, d.use_default_mtu, d.mtu, (a, b) => a === b);
  compare('persistent_keepalive', doc.persistent_keepalive, d.use_default_persistent_keepalive, d.persistent_keepalive, (a, b) => a === b);
  return out;
}

function deviceDiff(doc: DeviceDoc, d: Device, serverOwner: string): {update: FieldChange[]; replace: FieldChange[]} {
  const update: FieldChange[] = [];
  const replace: FieldChange[] = [];
  if (doc.name.trim() !== d.name) update.push({field: 'name', old: d.name, new: doc.name.trim()});
  const description = (doc.description ?? '').trim();
  if (description !== (d.description ?? '')) update.push({field: 'description', old: show(d.description), new: show(description || null)});
  if (emailKey(doc.owner) !== emailKey(serverOwner)) replace.push({field: 'owner', old: serverOwner, new: doc.owner});
  if (doc.public_key !== d.public_key) replace.push({field: 'public_key', old: d.public_key, new: doc.public_key});
  if (doc.preshared_key !== undefined && doc.preshared_key !== d.preshared_key) replace.push({field: 'preshared_key', old: '(secret)', new: '(secret)'});
  for (const field of ['ipv4', 'ipv6'] as const) {
    const mine = doc[field];
    if (mine !== undefined && (mine === null ? null : canonicalCidr(mine)) !== (d[field] === null ? null : canonicalCidr(d[field]!)))
      replace.push({field, old: show(d[field]), new: show(mine)});
  }
  replace.push(...settingChanges(doc, d));
  return {update, replace};
}

type Oidc = OidcProviderWrite;
type Saml = SamlProviderWrite;

/** The configuration's changes, and the PATCH body that makes them (provider lists whole, secrets kept from the server where the file has none). */
function configurationChanges(
  doc: ConfigurationDoc,
  state: ServerState,
  line: number,
  problems: FileProblem[],
): {fields: FieldChange[]; body: ConfigurationUpdate} {
  const c = state.configuration;
  const fields: FieldChange[] = [];
  const body: ConfigurationUpdate = {};
  const scalar = <K extends keyof ConfigurationDoc & keyof typeof c & keyof ConfigurationUpdate>(key: K, norm: (v: unknown) => unknown = (v) => v) => {
    const mine = doc[key];
    if (mine === undefined || norm(mine) === norm(c[key])) return;
    if (mine === null && (typeof c[key] === 'boolean' || key === 'vpn_session_duration')) {
      problems.push({line, message: `configuration: ${key}: 0.7.36 cannot be set to null through the API`});
      return;
    }
    fields.push({field: key, old: show(c[key]), new: show(mine)});
    (body as Record<string, unknown>)[key] = mine;
  };
  const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);
  scalar('allow_unprivileged_device_configuration');
  scalar('allow_unprivileged_device_management');
  scalar('disable_vpn_on_oidc_error');
  scalar('local_auth_enabled');
  scalar('default_client_endpoint', trimmed);
  scalar('default_client_mtu');
  scalar('default_client_persistent_keepalive');
  scalar('vpn_session_duration');
  const list = (key: 'default_client_allowed_ips' | 'default_client_dns', set: (l: readonly string[] | null) => string[]) => {
    const mine = doc[key];
    if (mine === undefined || sameList(set(mine), set(c[key]))) return;
    fields.push({field: key, old: show(c[key]), new: show(mine)});
    body[key] = mine ?? [];
  };
  list('default_client_allowed_ips', cidrSet);
  list('default_client_dns', dnsSet);
  if (doc.openid_connect_providers !== undefined) {
    const theirs = new Map(c.openid_connect_providers.map((p) => [p.id, p]));
    const mine: Oidc[] = doc.openid_connect_providers.map((p, i) => {
      const secret = p.client_secret ?? theirs.get(p.id)?.client_secret;
      if (secret === undefined)
        problems.push({
          line,
          message: `configuration: openid_connect_providers[${i}] (${p.id}): client_secret is needed for a provider the server does not have`,
        });
      return {...p, client_secret: secret ?? '', redirect_uri: p.redirect_uri ?? null};
    });
    const server: Oidc[] = c.openid_connect_providers.map((p) => ({...p}));
    if (JSON.stringify(mine.map(sortedKeys)) !== JSON.stringify(server.map(sortedKeys))) {
      fields.push({field: 'openid_connect_providers', old: providerIds(server, mine), new: providerIds(mine, server)});
      body.openid_connect_providers = mine;
    }
  }
  if (doc.saml_identity_providers !== undefined) {
    const mine: Saml[] = doc.saml_identity_providers.map((p) => ({...p, base_url: p.base_url ?? null}));
    const server: Saml[] = c.saml_identity_providers.map((p) => ({...p}));
    if (JSON.stringify(mine.map(sortedKeys)) !== JSON.stringify(server.map(sortedKeys))) {
      fields.push({field: 'saml_identity_providers', old: providerIds(server, mine), new: providerIds(mine, server)});
      body.saml_identity_providers = mine;
    }
  }
  return {fields, body};
}

function sortedKeys(o: object): Array<[string, unknown]> {
  return Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1));
}

/** A provider list as its ids, each one that differs from the other side's of the same id marked `*`. */
function providerIds(list: Array<{id: string}>, other: Array<{id: string}>): string {
  if (list.length === 0) return '[]';
  const otherById = new Map(other.map((p) => [p.id, JSON.stringify(sortedKeys(p))]));
  return list.map((p) => (otherById.has(p.id) && otherById.get(p.id) !== JSON.stringify(sortedKeys(p)) ? `${p.id}*` : p.id)).join(', ');
}

/** The plan: problems first (when there is one, no steps are made from the file). */
export function makePlan(doc: ServerDocument, lineOf: LineOf, state: ServerState, options: PlanOptions): Plan {
  const emailOf = new Map(state.users.map((u) => [u.id, u.email]));
  const serverRules = state.rules.map((r) => ({rule: r, shape: serverRuleShape(r, emailOf)}));
  const problems = checkDocument(
    doc,
    lineOf,
    serverRules.map((r) => r.shape),
    options,
  );
  const steps: Step[] = [];
  const kept: string[] = [];

  // Users by email, without case.
  const usersByEmail = new Map(state.users.map((u) => [emailKey(u.email), u]));
  const fileUsers = new Set<string>();
  doc.users.forEach((u, i) => {
    const line = lineOf(['users', i]);
    const server = usersByEmail.get(emailKey(u.email));
    fileUsers.add(emailKey(u.email));
    if (!server) steps.push({op: 'create', kind: 'user', label: `user ${u.email} (${u.role})`, line, fields: [], user: u});
    else if (server.role !== u.role)
      steps.push({op: 'update', kind: 'user', label: `user ${server.email}`, line, fields: [{field: 'role', old: server.role, new: u.role}], user: u, server});
  });

  // Devices by owner and name; a device renamed in the file is found by its public key.
  const byName = new Map<string, Device>();
  const byKey = new Map<string, Device>();
  for (const d of state.devices) {
    byName.set(`${emailKey(emailOf.get(d.user_id) ?? d.user_id)}\u0000${d.name}`, d);
    byKey.set(d.public_key, d);
  }
  const matched = new Set<Device>();
  const pending: Array<{doc: DeviceDoc; line: number}> = [];
  doc.devices.forEach((d, i) => {
    const line = lineOf(['devices', i]);
    const server = byName.get(`${emailKey(d.owner)}\u0000${d.name.trim()}`);
    if (server) {
      matched.add(server);
      deviceStep(d, server, line);
    } else pending.push({doc: d, line});
  });
  for (const {doc: d, line} of pending) {
    const server = byKey.get(d.public_key);
    if (server && !matched.has(server)) {
      matched.add(server);
      deviceStep(d, server, line);
    } else steps.push({op: 'create', kind: 'device', label: deviceLabel(d.name, d.owner), line, fields: [], device: d});
  }
  function deviceStep(d: DeviceDoc, server: Device, line: number): void {
    const owner = emailOf.get(server.user_id) ?? server.user_id;
    const {update, replace} = deviceDiff(d, server, owner);
    const label = deviceLabel(server.name, owner);
    if (replace.length > 0) steps.push({op: 'replace', kind: 'device', label, line, fields: [...update, ...replace], device: d, server, owner});
    else if (update.length > 0) steps.push({op: 'update', kind: 'device', label, line, fields: update, device: d, server});
  }

  // Rules by their fields: a rule changed in the file is the old one deleted and the new one created.
  const fileRules = new Map<string, number>();
  doc.rules.forEach((r) => {
    const key = ruleKey(ruleShape(r));
    fileRules.set(key, (fileRules.get(key) ?? 0) + 1);
  });
  const onServer = new Map<string, number>();
  for (const {rule, shape} of serverRules) {
    const key = ruleKey(shape);
    const wanted = fileRules.get(key) ?? 0;
    const seen = onServer.get(key) ?? 0;
    onServer.set(key, seen + 1);
    if (seen < wanted) continue;
    const user = rule.user_id === null ? null : (emailOf.get(rule.user_id) ?? null);
    if (options.prune) steps.push({op: 'delete', kind: 'rule', label: `rule ${key}`, line: 0, fields: [], server: rule, user});
    else kept.push(`rule ${key}`);
  }
  doc.rules.forEach((r, i) => {
    const key = ruleKey(ruleShape(r));
    const present = onServer.get(key) ?? 0;
    if (present > 0) onServer.set(key, present - 1);
    else steps.push({op: 'create', kind: 'rule', label: `rule ${key}`, line: lineOf(['rules', i]), fields: [], rule: r});
  });

  for (const d of state.devices) {
    if (matched.has(d)) continue;
    const owner = emailOf.get(d.user_id) ?? null;
    const label = deviceLabel(d.name, owner ?? d.user_id);
    if (options.prune) steps.push({op: 'delete', kind: 'device', label, line: 0, fields: [], server: d, owner});
    else kept.push(label);
  }
  for (const u of state.users) {
    if (fileUsers.has(emailKey(u.email))) continue;
    if (!options.prune) kept.push(`user ${u.email}`);
    else if (u.id === options.selfUserId) kept.push(`user ${u.email} (the token's own user: never deleted)`);
    else steps.push({op: 'delete', kind: 'user', label: `user ${u.email}`, line: 0, fields: [], server: u});
  }

  if (doc.configuration !== undefined) {
    const line = lineOf(['configuration']);
    const {fields, body} = configurationChanges(doc.configuration, state, line, problems);
    if (fields.length > 0) steps.push({op: 'update', kind: 'configuration', label: 'configuration', line, fields, body});
  }
  problems.sort((a, b) => a.line - b.line);
  return {steps: problems.length > 0 ? [] : steps, kept, problems};
}
