// Rules that can decide no packet (issue #26): a rule shadowed in its own chain by one checked
// before it that covers everything it matches, and a rule bound to a user who no longer exists
// (its chain went with the user). Within a chain the order is accept with ports, drop with ports,
// accept, drop (evaluate.ts), so what can be shadowed is a drop under an accept of the same kind:
// alice's port-less drop of 10.2.3.0/24 under her accept of 10.2.0.0/16, or a drop of tcp 80 under
// an accept of tcp 1–1024 for the same addresses; in the global chain the same. One covering rule
// is looked for, not several that cover it together, and only within a chain: a global rule
// that every user's own rules happen to decide first is not called shadowed (a new user would
// still reach it).
import type {Rule} from '../../api/index.js';
import {cidrContains} from '../../common/cidr.js';
import {RuleBook, SET_ORDER, setOf, type RuleMatch} from './evaluate.js';

export type NeverDecides = {kind: 'shadowed'; by: Rule} | {kind: 'deleted user'};

function covers(q: RuleMatch, r: RuleMatch): boolean {
  if (q.dest.family !== r.dest.family || !cidrContains(q.dest, r.dest)) return false;
  if (r.ports === null) return q.ports === null;
  return q.ports !== null && q.ports.proto === r.ports.proto && q.ports.from <= r.ports.from && q.ports.to >= r.ports.to;
}

function shadowedIn(chain: readonly RuleMatch[], out: Map<string, NeverDecides>): void {
  for (const r of chain) {
    const at = SET_ORDER.indexOf(setOf(r.rule));
    const by = chain.find((q) => q !== r && SET_ORDER.indexOf(setOf(q.rule)) < at && covers(q, r));
    if (by) out.set(r.rule.id, {kind: 'shadowed', by: by.rule});
  }
}

/** By rule id: why the rule never decides. Rules not in the map can decide something. */
export function rulesThatNeverDecide(rules: readonly Rule[], userIds: ReadonlySet<string>): Map<string, NeverDecides> {
  const book = new RuleBook(rules, userIds);
  const out = new Map<string, NeverDecides>();
  for (const rule of book.orphans) out.set(rule.id, {kind: 'deleted user'});
  for (const chain of book.byUser.values()) shadowedIn(chain, out);
  shadowedIn(book.global, out);
  return out;
}

const cache = new WeakMap<readonly Rule[], {users: ReadonlyMap<string, unknown>; result: Map<string, NeverDecides>}>();

/** `rulesThatNeverDecide` of a snapshot, made once per poll's rules (the list, its detail, its info line and its filter all ask). */
export function neverDecideIn(snapshot: {rules: readonly Rule[]; usersById: ReadonlyMap<string, unknown>}): Map<string, NeverDecides> {
  const hit = cache.get(snapshot.rules);
  if (hit && hit.users === snapshot.usersById) return hit.result;
  const result = rulesThatNeverDecide(snapshot.rules, new Set(snapshot.usersById.keys()));
  cache.set(snapshot.rules, {users: snapshot.usersById, result});
  return result;
}
