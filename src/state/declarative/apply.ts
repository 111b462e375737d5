// Applying a plan (docs/server-as-a-file.md, "Apply"): deletes first, in reverse dependency order
// (rules, devices, users), so that addresses, public keys and rule destinations are free again;
// then users, devices, rules and the configuration. At most four requests in flight; on a failure
// nothing new starts, and the result says exactly what was applied, what failed and what was not
// started. A replaced device is deleted, then created with its addresses, public key and preshared
// key, so the client config made before keeps working.
import {
  ApiError,
  type Configuration,
  type ConfigurationUpdate,
  type Device,
  type DeviceCreate,
  type Rule,
  type RuleWrite,
  type User,
  type UserCreate,
  type UserUpdate,
  type DeviceUpdate,
} from '../../api/index.js';
import {DOCUMENT_VERSION, type DeviceDoc, type ServerDocument} from './document.js';
import {configurationDoc, deviceDoc, ruleDoc, userDoc, type ServerState} from './export.js';
import {emailKey} from './normalise.js';
import type {Plan, Step} from './plan.js';

/** The requests apply sends: FirezoneClient's, every answer validated by its schemas. */
export interface ApplyClient {
  createUser(body: UserCreate): Promise<{data: User}>;
  updateUser(idOrEmail: string, body: UserUpdate): Promise<{data: User}>;
  deleteUser(idOrEmail: string): Promise<void>;
  createDevice(body: DeviceCreate): Promise<{data: Device}>;
  updateDevice(id: string, body: DeviceUpdate): Promise<{data: Device}>;
  deleteDevice(id: string): Promise<void>;
  createRule(body: RuleWrite): Promise<{data: Rule}>;
  deleteRule(id: string): Promise<void>;
  updateConfiguration(body: ConfigurationUpdate): Promise<{data: Configuration}>;
}

export const APPLY_CONCURRENCY = 4;

export interface StepFailure {
  step: Step;
  reason: string;
}

export interface ApplyResult {
  applied: Step[];
  failed: StepFailure[];
  notStarted: Step[];
  /** Replaces whose old device was deleted and whose new one was not created (the backup file holds it). */
  halfReplaced: Step[];
}

/** The server's reason: its field errors when it gave some (`ipv4: has already been taken`). */
export function failureReason(err: unknown): string {
  if (err instanceof ApiError && Object.keys(err.fieldErrors).length > 0) {
    return Object.entries(err.fieldErrors)
      .map(([field, messages]) => `${field}: ${messages.join(', ')}`)
      .join('; ');
  }
  return err instanceof Error ? err.message : String(err);
}

const gone = (err: unknown) => err instanceof ApiError && err.status === 404;

/** The create body of a device as the file says it; `previous` (a replaced device) gives the addresses and preshared key the file leaves out. */
export function deviceCreateBody(d: DeviceDoc, userId: string, previous: Device | null): DeviceCreate {
  const body: DeviceCreate = {user_id: userId, public_key: d.public_key, name: d.name.trim()};
  const description = d.description?.trim();
  if (description) body.description = description;
  const psk = d.preshared_key ?? previous?.preshared_key ?? null;
  if (psk) body.preshared_key = psk;
  const ipv4 = d.ipv4 !== undefined ? d.ipv4 : (previous?.ipv4 ?? null);
  const ipv6 = d.ipv6 !== undefined ? d.ipv6 : (previous?.ipv6 ?? null);
  if (ipv4) body.ipv4 = ipv4.trim();
  if (ipv6) body.ipv6 = ipv6.trim();
  body.use_default_allowed_ips = d.allowed_ips === undefined;
  if (d.allowed_ips !== undefined) body.allowed_ips = d.allowed_ips ?? [];
  body.use_default_dns = d.dns === undefined;
  if (d.dns !== undefined) body.dns = d.dns ?? [];
  body.use_default_endpoint = d.endpoint === undefined;
  if (d.endpoint !== undefined && d.endpoint !== null) body.endpoint = d.endpoint;
  body.use_default_mtu = d.mtu === undefined;
  if (d.mtu !== undefined && d.mtu !== null) body.mtu = d.mtu;
  body.use_default_persistent_keepalive = d.persistent_keepalive === undefined;
  if (d.persistent_keepalive !== undefined && d.persistent_keepalive !== null) body.persistent_keepalive = d.persistent_keepalive;
  return body;
}

/**
 * What applying the plan deletes or replaces, as a document with its secrets (written before the
 * first request): applying it brings them back. Null when nothing is deleted or replaced.
 */
export function backupDocument(plan: Plan, state: ServerState): ServerDocument | null {
  const emailOf = new Map(state.users.map((u) => [u.id, u]));
  const users = new Map<string, User>();
  const devices: ServerDocument['devices'] = [];
  const rules: ServerDocument['rules'] = [];
  const withUser = (id: string | null) => {
    const u = id === null ? undefined : emailOf.get(id);
    if (u) users.set(u.id, u);
    return u?.email ?? null;
  };
  let configuration = false;
  for (const s of plan.steps) {
    if (s.kind === 'user' && s.op === 'delete') users.set(s.server.id, s.server);
    else if (s.kind === 'device' && (s.op === 'delete' || s.op === 'replace')) {
      const owner = withUser(s.server.user_id);
      if (owner !== null) devices.push(deviceDoc(s.server, owner, true));
    } else if (s.kind === 'rule' && s.op === 'delete') {
      const user = withUser(s.server.user_id);
      if (s.server.user_id === null || user !== null) rules.push(ruleDoc(s.server, user));
    } else if (s.kind === 'configuration') configuration = true;
  }
  if (users.size === 0 && devices.length === 0 && rules.length === 0 && !configuration) return null;
  return {
    version: DOCUMENT_VERSION,
    users: [...users.values()].map(userDoc),
    devices,
    rules,
    ...(configuration ? {configuration: configurationDoc(state.configuration, true)} : {}),
  };
}

/**
 * The order of the work. A replaced device is deleted with the deletes (its public key and
 * addresses are then free for whatever the file gives them) and created with the devices.
 */
const PHASES: ReadonlyArray<{pick: (s: Step) => boolean; replaceHalf: 'delete' | 'create' | null}> = [
  {pick: (s) => s.kind === 'rule' && s.op === 'delete', replaceHalf: null},
  {pick: (s) => s.kind === 'device' && (s.op === 'delete' || s.op === 'replace'), replaceHalf: 'delete'},
  {pick: (s) => s.kind === 'user' && s.op === 'delete', replaceHalf: null},
  {pick: (s) => s.kind === 'user', replaceHalf: null},
  {pick: (s) => s.kind === 'device' && s.op !== 'delete', replaceHalf: 'create'},
  {pick: (s) => s.kind === 'rule' && s.op === 'create', replaceHalf: null},
  {pick: (s) => s.kind === 'configuration', replaceHalf: null},
];

/** Runs the plan's steps. `progress` gets one line per finished step. */
export async function applyPlan(
  plan: Plan,
  state: ServerState,
  client: ApplyClient,
  progress: (line: string, done: number, total: number) => void,
  options: {concurrency?: number; stopped?: () => boolean} = {},
): Promise<ApplyResult> {
  const concurrency = options.concurrency ?? APPLY_CONCURRENCY;
  // Esc in the console: like a failure, nothing new starts.
  const go = () => result.failed.length === 0 && !(options.stopped?.() ?? false);
  const userIds = new Map(state.users.map((u) => [emailKey(u.email), u.id]));
  const idOf = (email: string) => {
    const id = userIds.get(emailKey(email));
    if (id === undefined) throw new Error(`user ${email} does not exist on the server`);
    return id;
  };
  const run = async (s: Step, replaceHalf: 'delete' | 'create' | null): Promise<void> => {
    switch (s.kind) {
      case 'user':
        if (s.op === 'create') userIds.set(emailKey(s.user.email), (await client.createUser({email: s.user.email.trim(), role: s.user.role})).data.id);
        else if (s.op === 'update') await client.updateUser(s.server.id, {role: s.user.role});
        else await client.deleteUser(s.server.id).catch((err: unknown) => (gone(err) ? undefined : Promise.reject(err)));
        return;
      case 'device':
        if (s.op === 'create') await client.createDevice(deviceCreateBody(s.device, idOf(s.device.owner), null));
        else if (s.op === 'update') await client.updateDevice(s.server.id, {name: s.device.name.trim(), description: s.device.description?.trim() || null});
        else if (s.op === 'replace') {
          if (replaceHalf === 'delete') await client.deleteDevice(s.server.id).catch((err: unknown) => (gone(err) ? undefined : Promise.reject(err)));
          else await client.createDevice(deviceCreateBody(s.device, idOf(s.device.owner), s.server));
        } else await client.deleteDevice(s.server.id).catch((err: unknown) => (gone(err) ? undefined : Promise.reject(err)));
        return;
      case 'rule':
        if (s.op === 'create') {
          const r = s.rule;
          const ports = r.port_type === undefined || r.port_type === null ? null : r.port_type;
          await client.createRule({
            action: r.action,
            destination: r.destination.trim(),
            port_type: ports,
            port_range: ports === null ? null : (r.port_range ?? null),
            user_id: r.user ? idOf(r.user) : null,
          });
        } else await client.deleteRule(s.server.id).catch((err: unknown) => (gone(err) ? undefined : Promise.reject(err)));
        return;
      case 'configuration':
        await client.updateConfiguration(s.body);
        return;
    }
  };
  const result: ApplyResult = {applied: [], failed: [], notStarted: [], halfReplaced: []};
  const total = plan.steps.length;
  let finished = 0;
  for (const {pick, replaceHalf} of PHASES) {
    const queue = plan.steps.filter(pick);
    if (!go()) {
      // A replace whose old device is gone but whose new one was not created is said as such.
      for (const s of queue) if (!result.halfReplaced.includes(s) && !result.notStarted.includes(s)) result.notStarted.push(s);
      continue;
    }
    const worker = async () => {
      while (queue.length > 0 && go()) {
        const step = queue.shift()!;
        try {
          await run(step, replaceHalf);
          if (step.op === 'replace' && replaceHalf === 'delete') {
            result.halfReplaced.push(step);
            progress(`[${finished}/${total}] deleted ${step.label}, to be created again`, finished, total);
            continue;
          }
          result.halfReplaced = result.halfReplaced.filter((s) => s !== step);
          result.applied.push(step);
          progress(`[${++finished}/${total}] ${step.op}d ${step.label}`, finished, total);
        } catch (err) {
          result.failed.push({step, reason: failureReason(err)});
          progress(`[${++finished}/${total}] FAILED ${step.op} ${step.label}: ${failureReason(err)}`, finished, total);
        }
      }
    };
    await Promise.all(Array.from({length: Math.min(concurrency, queue.length)}, worker));
    for (const s of queue) if (!result.halfReplaced.includes(s)) result.notStarted.push(s);
  }
  return result;
}
