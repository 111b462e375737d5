// /v0/rules as 0.7.36 implements it (docs/firezone-0.7.36.md, "Rules: fields and port ranges" and
// "Rules: overlap constraints"; Rules.Rule.Changeset and the migration's CHECK, EXCLUDE and FOREIGN KEY
// constraints).

import {Changeset, castEnum, cast, type CastResult} from '../changeset.js';
import {dumpUuid, isUuidShaped, newId, now, queryUuid, requireAdmin, type SandboxCore, type Subject} from '../core.js';
import {Crash, Invalid, NotFound} from '../errors.js';
import {castInet, inetOverlaps, inetStorable, readForm, type Inet} from '../inet.js';
import {isParamsMap} from '../json.js';
import {castPortRange, portRangeWithinValidValues} from '../portrange.js';
import type {RuleEcho} from '../render.js';
import type {PortType, RuleAction, RuleRow, Store} from '../store.js';

const OVERLAP_MESSAGE = 'destination overlaps with an existing rule';

export function findRule(core: SandboxCore, subject: Subject, id: string): RuleRow {
  requireAdmin(subject);
  if (!isUuidShaped(id)) throw new NotFound();
  const rule = core.store.rules.get(queryUuid(id));
  if (!rule) throw new NotFound();
  return rule;
}

export function listRules(core: SandboxCore, subject: Subject): RuleRow[] {
  requireAdmin(subject);
  return [...core.store.rules.values()];
}

interface Candidate {
  id: string | null;
  action: RuleAction;
  destination: Inet;
  portType: PortType | null;
  portLower: number | null;
  portUpper: number | null;
  userId: string | null;
}

/** The four exclusion constraints (docs/firezone-0.7.36.md, "Rules: overlap constraints"): same partition, equal action, overlapping destination (and ports). */
export function overlapsExisting(store: Store, rule: Candidate): boolean {
  for (const other of store.rules.values()) {
    if (other.id === rule.id) continue;
    if ((other.userId === null) !== (rule.userId === null) || (other.portRange === null) !== (rule.portLower === null)) continue;
    if (other.userId !== rule.userId || other.action !== rule.action) continue;
    if (rule.portLower !== null) {
      if (other.portType !== rule.portType) continue;
      if (other.portUpper! < rule.portLower || rule.portUpper! < other.portLower!) continue;
    }
    if (inetOverlaps(other.destination, rule.destination)) return true;
  }
  return false;
}

const castDestination = (value: unknown): CastResult => {
  if (typeof value !== 'string') return cast.invalid();
  const inet = castInet(value);
  return inet ? cast.ok(inet) : cast.invalid();
};

// Ecto :binary_id accepts any binary at cast time; it only fails when dumped.
const castBinaryId = (value: unknown): CastResult => (typeof value === 'string' ? cast.ok(value) : cast.invalid());

interface SavedRule {
  rule: RuleRow;
  echo: RuleEcho;
}

function save(core: SandboxCore, existing: RuleRow | null, params: Record<string, unknown>): SavedRule {
  const {store} = core;
  const cs = new Changeset(
    {
      action: existing?.action ?? 'drop',
      destination: existing?.destination ?? null,
      port_type: existing?.portType ?? null,
      port_range: existing?.portRange ?? null,
      user_id: existing?.userId ?? null,
    },
    params,
  );
  let deferredCrash: string | null = null;
  let bounds: {lower: number; upper: number} | null = existing?.portLower != null ? {lower: existing.portLower, upper: existing.portUpper!} : null;
  cs.cast('action', castEnum(['drop', 'accept']), 'drop');
  cs.cast('destination', castDestination);
  cs.cast('port_type', castEnum(['tcp', 'udp']));
  cs.cast('port_range', (value) => {
    const result = castPortRange(value);
    if (result.kind === 'crash') {
      if (Array.isArray(value)) {
        deferredCrash = result.reason;
        return cast.ok(JSON.stringify(value));
      }
      throw new Crash(`FunctionClauseError: ${result.reason}`);
    }
    if (result.kind === 'error') return cast.invalid(result.message);
    bounds = {lower: result.lower, upper: result.upper};
    return cast.ok(result.value);
  });
  cs.cast('user_id', castBinaryId);
  cs.validateRequired(['action', 'destination']);
  if (cs.get('port_range') !== null || cs.get('port_type') !== null) cs.validateRequired(['port_range', 'port_type']);
  if (!cs.valid) throw new Invalid(cs.errorsJson());
  if (cs.changes.size === 0 && existing) return {rule: existing, echo: {}};

  // Dumping and Postgres, in order: casts that fail to dump, CHECK, EXCLUDE, FOREIGN KEY.
  if (deferredCrash) throw new Crash(deferredCrash);
  const rawUserId = cs.get('user_id') as string | null;
  const userId = rawUserId === null ? null : dumpUuid(rawUserId);
  if (rawUserId !== null && userId === null) throw new Crash(`Ecto.ChangeError: user_id ${JSON.stringify(rawUserId)} is not a UUID`);
  const destination = cs.get('destination') as Inet;
  if (!inetStorable(destination)) throw new Crash('Postgrex.Error: invalid inet netmask');
  const portRange = cs.get('port_range') as string | null;
  const portType = cs.get('port_type') as PortType | null;
  const activeBounds = portRange === null ? null : bounds;
  if (activeBounds && !portRangeWithinValidValues(activeBounds.lower, activeBounds.upper)) throw new Invalid({port_range: ['port is not within valid range']});
  if ((portRange === null) !== (portType === null)) throw new Invalid({port_type: ['port_type must be specified with port_range']});
  const action = cs.get('action') as RuleAction;
  const stored = readForm(destination);
  const candidate: Candidate = {
    id: existing?.id ?? null,
    action,
    destination: stored,
    portType,
    portLower: activeBounds?.lower ?? null,
    portUpper: activeBounds?.upper ?? null,
    userId,
  };
  if (overlapsExisting(store, candidate)) throw new Invalid({destination: [OVERLAP_MESSAGE]});
  if (userId !== null && !store.users.has(userId)) throw new Invalid({user: ['does not exist']});

  const at = now();
  const rule: RuleRow = existing ?? {
    id: newId(),
    action,
    destination: stored,
    portType: null,
    portRange: null,
    portLower: null,
    portUpper: null,
    userId: null,
    insertedAt: at,
    updatedAt: at,
  };
  rule.action = action;
  rule.destination = stored;
  rule.portType = portType;
  rule.portRange = portRange;
  rule.portLower = candidate.portLower;
  rule.portUpper = candidate.portUpper;
  rule.userId = userId;
  rule.updatedAt = at;
  if (!existing) store.rules.set(rule.id, rule);
  const echo: RuleEcho = {};
  if (cs.hasChange('destination')) echo.destination = destination;
  if (cs.hasChange('user_id')) echo.userId = rawUserId;
  return {rule, echo};
}

export function createRule(core: SandboxCore, subject: Subject, wrapper: unknown): SavedRule {
  requireAdmin(subject);
  if (!isParamsMap(wrapper)) throw new Crash('Ecto.CastError: expected params to be a map');
  return save(core, null, wrapper);
}

export function updateRule(core: SandboxCore, subject: Subject, id: string, wrapper: unknown): SavedRule {
  const rule = findRule(core, subject, id);
  if (!isParamsMap(wrapper)) throw new Crash('Ecto.CastError: expected params to be a map');
  return save(core, rule, wrapper);
}

export function deleteRule(core: SandboxCore, subject: Subject, id: string): void {
  const rule = findRule(core, subject, id);
  core.store.rules.delete(rule.id);
}
