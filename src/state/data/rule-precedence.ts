// Firezone 0.7.36's nftables precedence of rules (docs/firezone-0.7.36.md): per-user before global,
// then accept-with-port, drop-with-port, accept, drop.
import type {Rule} from '../../api/index.js';

// ---- rules ---------------------------------------------------------------------------------

/**
 * Precedence of a rule in 0.7.36's nftables layout (docs/firezone-0.7.36.md, "Rules and nftables precedence"): per-user chains are
 * jumped to before the global sets; inside a chain accept sets come before drop sets and
 * port (layer4) sets before port-less ones; IPv6 sets sit above IPv4 but never overlap.
 * Lower rank = evaluated first.
 */
export function ruleRank(rule: Pick<Rule, 'user_id' | 'action' | 'port_type'>): number {
  const scope = rule.user_id === null ? 1 : 0;
  const ports = rule.port_type === null ? 1 : 0;
  const action = rule.action === 'accept' ? 0 : 1;
  return scope * 4 + ports * 2 + action;
}

export function explainRank(rule: Pick<Rule, 'user_id' | 'action' | 'port_type'>): string {
  const scope = rule.user_id === null ? 'global rule, checked after every per-user rule' : 'per-user rule, checked before global rules';
  const ports = rule.port_type === null ? 'port-less' : 'port-specific (checked before port-less)';
  // Within one kind only: a port-specific drop is checked before a port-less accept.
  const action = rule.action === 'accept' ? 'accept, checked before a drop of the same kind' : 'drop, checked after an accept of the same kind';
  return `${scope}; ${ports}; ${action}`;
}

// localeCompare() without arguments is this collator's compare, built again on every call.
const collator = new Intl.Collator();

export function sortRulesByPrecedence(rules: readonly Rule[], emailOf: (id: string) => string): Rule[] {
  return [...rules].sort(
    (a, b) =>
      ruleRank(a) - ruleRank(b) ||
      (a.user_id === null || b.user_id === null ? 0 : collator.compare(emailOf(a.user_id), emailOf(b.user_id))) ||
      collator.compare(a.destination, b.destination) ||
      collator.compare(a.inserted_at, b.inserted_at),
  );
}
