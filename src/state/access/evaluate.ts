// Would this packet pass, and which rule decides? Firezone 0.7.36's firewall as its `fz_wall`
// builds it (docs/firezone-0.7.36.md, "Rules and nftables precedence"; the behaviour doc's §11.3):
//
//   forward chain (policy accept):
//     ip saddr @user<U>_ip_devices jump user<U>        one per user, above everything else
//     ip6 saddr @user<U>_ip6_devices jump user<U>
//     the global sets, top to bottom: accept with ports, drop with ports, accept, drop
//   chain user<U>: the same four sets of that user's rules; no match returns to forward
//
// IPv6 sets sit above IPv4 ones, but an address meets only its own family's sets, so the order that
// matters is accept-with-port, drop-with-port, accept, drop; each rule of a deleted user went
// with its chain. A packet is matched by a rule when its destination is in the rule's destination
// (host bits ignored, as nftables normalises `10.0.0.5/24` to `10.0.0.0/24`), and, for a rule with
// ports, its protocol is the rule's and its destination port is in the range. Packets from the
// WireGuard interface only: every rule carries `meta iifname <wg>`.
//
// Pure: no Ink, no HTTP. test/state/access.test.ts holds it to the layout case by case and
// test/netns/access.netns.test.ts to the kernel's own verdicts.
import type {Rule} from '../../api/index.js';
import {cidrContains, parseAddress, parseCidr, type Cidr} from '../../common/cidr.js';

export type Verdict = 'accept' | 'drop';
export type Proto = 'tcp' | 'udp';

/** What a rule decides on, parsed once. */
export interface RuleMatch {
  readonly rule: Rule;
  readonly dest: Cidr;
  /** Null for a port-less rule (every protocol, ICMP included). */
  readonly ports: {proto: Proto; from: number; to: number} | null;
}

/** The four sets of a chain, in the order nftables checks them. */
export const SET_ORDER = ['accept with ports', 'drop with ports', 'accept', 'drop'] as const;
export type SetName = (typeof SET_ORDER)[number];

export function setOf(rule: Pick<Rule, 'action' | 'port_type'>): SetName {
  if (rule.port_type !== null) return rule.action === 'accept' ? 'accept with ports' : 'drop with ports';
  return rule.action === 'accept' ? 'accept' : 'drop';
}

/** `"443"`, `"80 - 90"`, `"80-90"` → the inclusive range; null when unreadable. */
export function parsePortRange(text: string): {from: number; to: number} | null {
  const m = /^\s*(\d{1,5})\s*(?:-\s*(\d{1,5})\s*)?$/.exec(text);
  if (!m) return null;
  const from = Number(m[1]);
  const to = m[2] === undefined ? from : Number(m[2]);
  return from >= 1 && to <= 65535 && from <= to ? {from, to} : null;
}

/** A rule as the evaluation reads it; null when its destination or ports cannot be read (the server would not have stored it). */
export function ruleMatch(rule: Rule): RuleMatch | null {
  const dest = parseCidr(rule.destination.trim());
  if (!dest) return null;
  if (rule.port_type === null) return {rule, dest, ports: null};
  const range = rule.port_range === null ? null : parsePortRange(rule.port_range);
  return range ? {rule, dest, ports: {proto: rule.port_type, ...range}} : null;
}

/** A packet from a device through the tunnel. */
export interface Packet {
  /** The device's tunnel address (its IPv4 or IPv6). */
  readonly source: Cidr;
  readonly dest: Cidr;
  /** Null: a packet with no port (ICMP), which only port-less rules match. */
  readonly proto: Proto | null;
  readonly port: number | null;
}

export function packet(source: string, dest: string, proto: Proto | null = null, port: number | null = null): Packet | null {
  const s = parseAddress(source);
  const d = parseAddress(dest);
  if (!s || !d) return null;
  return {source: s, dest: d, proto, port: proto === null ? null : port};
}

export function matches(m: RuleMatch, p: Packet): boolean {
  if (m.dest.family !== p.dest.family || !cidrContains(m.dest, p.dest)) return false;
  if (m.ports === null) return true;
  return p.proto === m.ports.proto && p.port !== null && p.port >= m.ports.from && p.port <= m.ports.to;
}

/** One set checked on the way, and the rules of it that matched (all of one action). */
export interface Step {
  chain: 'user' | 'global';
  set: SetName;
  matched: readonly Rule[];
}

export interface Evaluation {
  verdict: Verdict;
  /** The rule that decided, or null: no rule matched and the forward chain's policy accepted. */
  decidedBy: Rule | null;
  chain: 'user' | 'global' | 'policy';
  /** Every set checked, in order, up to the one that decided. */
  path: readonly Step[];
  /** Rules that match the packet but were never reached: something before them decided. */
  unreached: readonly Rule[];
}

/** The rules of a server, arranged as its chains: per user (existing users only) and global. */
export class RuleBook {
  readonly global: readonly RuleMatch[];
  readonly byUser: ReadonlyMap<string, readonly RuleMatch[]>;
  /** Rules bound to a user id that no user has: their chain is gone, they decide nothing. */
  readonly orphans: readonly Rule[];
  /** Rules whose destination or ports cannot be read. */
  readonly unreadable: readonly Rule[];

  constructor(rules: readonly Rule[], userIds: ReadonlySet<string>) {
    const global: RuleMatch[] = [];
    const byUser = new Map<string, RuleMatch[]>();
    const orphans: Rule[] = [];
    const unreadable: Rule[] = [];
    for (const rule of rules) {
      const m = ruleMatch(rule);
      if (!m) unreadable.push(rule);
      else if (rule.user_id === null) global.push(m);
      else if (!userIds.has(rule.user_id)) orphans.push(rule);
      else {
        let list = byUser.get(rule.user_id);
        if (!list) byUser.set(rule.user_id, (list = []));
        list.push(m);
      }
    }
    this.global = global;
    this.byUser = byUser;
    this.orphans = orphans;
    this.unreadable = unreadable;
  }

  /**
   * The verdict for a packet from a device of `userId` (null: a source in no user's device set,
   * which only the global rules see).
   */
  evaluate(userId: string | null, p: Packet): Evaluation {
    const path: Step[] = [];
    const unreached: Rule[] = [];
    let decided: {rule: Rule; chain: 'user' | 'global'} | null = null;
    const chains: Array<['user' | 'global', readonly RuleMatch[]]> = [];
    if (userId !== null) chains.push(['user', this.byUser.get(userId) ?? []]);
    chains.push(['global', this.global]);
    for (const [chain, rules] of chains) {
      for (const set of SET_ORDER) {
        const hit = rules.filter((m) => setOf(m.rule) === set && matches(m, p)).map((m) => m.rule);
        if (decided) {
          unreached.push(...hit);
          continue;
        }
        path.push({chain, set, matched: hit});
        if (hit.length > 0) decided = {rule: hit[0]!, chain};
      }
    }
    if (!decided) return {verdict: 'accept', decidedBy: null, chain: 'policy', path, unreached};
    return {verdict: decided.rule.action, decidedBy: decided.rule, chain: decided.chain, path, unreached};
  }
}
