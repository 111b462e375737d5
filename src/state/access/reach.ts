// `:reach DEST`: for every user, whether traffic from their devices to DEST passes and which rule
// decides, grouped by outcome. Every user without rules of their own meets only the global rules,
// so the answer for all of them is worked out once: 2,000 users cost one evaluation each only
// for the few that have rules.
import type {Rule, User} from '../../api/index.js';
import {cidrContains, parseAddress} from '../../common/cidr.js';
import type {DialogLine} from '../core/modals.js';
import {RuleBook, type Evaluation} from './evaluate.js';
import {describeRule, offWireGuard, parseDestination, routesInto, type TraceData} from './trace.js';

/** Users named per outcome; the rest are counted. */
export const NAMED_PER_GROUP = 12;

interface Group {
  verdict: 'accept' | 'drop';
  decidedBy: Rule | null;
  users: User[];
}

export function reach(data: TraceData, dest: string): {lines: DialogLine[]} | string {
  const d = parseDestination(dest);
  if (typeof d === 'string') return d;
  const book = new RuleBook(data.rules, new Set(data.users.map((u) => u.id)));
  const family = d.cidr.family;
  // One source address per user, of DEST's family: every device of a user jumps to the same chain.
  // Only devices whose client config sends DEST into the tunnel count (AllowedIPs; not known counts).
  const sourceOf = new Map<string, string>();
  const outsideOnly = new Set<string>();
  for (const dev of data.devices) {
    const a = family === 4 ? dev.ipv4 : dev.ipv6;
    if (!a || sourceOf.has(dev.user_id)) continue;
    if (routesInto(dev, d.cidr) === false) {
      outsideOnly.add(dev.user_id);
      continue;
    }
    sourceOf.set(dev.user_id, a);
    outsideOnly.delete(dev.user_id);
  }
  const groups = new Map<string, Group>();
  const silent: User[] = [];
  const outside: User[] = [];
  // Off WireGuard (0.7.36 removes a disabled user's devices, and those of a user whose VPN session
  // has expired): whatever the rules say, they send nothing.
  const disabled: User[] = [];
  const expired: User[] = [];
  let globalOnly: Evaluation | null = null;
  for (const user of data.users) {
    const source = sourceOf.get(user.id);
    const parsed = source ? parseAddress(source) : null;
    const off = parsed ? offWireGuard(user, data) : null;
    if (off) {
      (off === 'disabled' ? disabled : expired).push(user);
      continue;
    }
    if (!parsed) {
      (outsideOnly.has(user.id) ? outside : silent).push(user);
      continue;
    }
    const ask = () => book.evaluate(user.id, {source: parsed, dest: d.cidr, proto: d.proto, port: d.port});
    const e = book.byUser.has(user.id) ? ask() : (globalOnly ??= ask());
    const key = `${e.verdict} ${e.decidedBy?.id ?? 'policy'}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = {verdict: e.verdict, decidedBy: e.decidedBy, users: []}));
    g.users.push(user);
  }
  const emailOf = (id: string) => data.users.find((u) => u.id === id)?.email ?? null;
  const reaching = data.users.length - silent.length - outside.length - disabled.length - expired.length;
  const asked =
    d.proto === null ? `${d.address} (traffic without a port: ICMP and others; ADDRESS:PORT/tcp|udp asks for a port)` : `${d.address} ${d.proto} ${d.port}`;
  const totalOf = (verdict: 'accept' | 'drop') => [...groups.values()].reduce((n, g) => n + (g.verdict === verdict ? g.users.length : 0), 0);
  // The head answers the question asked (how many can reach it), then how the rest is made up: a
  // count of users who merely send there read as "can reach".
  const lines: DialogLine[] = [
    {
      text: `Who can reach ${asked}: ${totalOf('accept')} of ${data.users.length} users (of the ${reaching} with a device that sends there, the rules accept ${totalOf('accept')} and drop ${totalOf('drop')})`,
      bold: true,
    },
  ];
  // Asked without a port, the answer is for port-less traffic only: where rules with ports match
  // the address, TCP or UDP to those ports may be answered otherwise ("0 of 300" read alone says
  // nobody reaches a host everyone reaches on TCP 443). Said under the head, with the question to ask.
  if (d.proto === null) {
    const withPorts = [...book.global, ...[...book.byUser.values()].flat()].filter(
      (m) => m.ports !== null && m.dest.family === family && cidrContains(m.dest, d.cidr),
    );
    if (withPorts.length > 0) {
      const first = withPorts[0]!;
      const n = withPorts.length;
      const address = family === 6 ? `[${d.address}]` : d.address;
      lines.push({
        text: `${n} rule${n === 1 ? '' : 's'} with ports match${n === 1 ? 'es' : ''} ${d.address} (such as ${describeRule(first.rule, emailOf)}): TCP or UDP to ${n === 1 ? 'its ports' : 'their ports'} may be answered otherwise; ask for a port, e.g. :reach ${address}:${first.ports!.from}/${first.ports!.proto}`,
        tone: 'warning',
      });
    }
  }
  for (const verdict of ['accept', 'drop'] as const) {
    const mine = [...groups.values()].filter((g) => g.verdict === verdict).sort((a, b) => b.users.length - a.users.length);
    const total = totalOf(verdict);
    lines.push({text: ''});
    lines.push({text: `${verdict.toUpperCase()}: ${total} user${total === 1 ? '' : 's'}`, bold: true, tone: verdict === 'accept' ? 'ok' : 'danger'});
    for (const g of mine) {
      const by = g.decidedBy ? `by ${describeRule(g.decidedBy, emailOf)}` : "no rule matches: the forward chain's policy accepts";
      lines.push({text: `  ${by} — ${g.users.length} user${g.users.length === 1 ? '' : 's'}`});
      const named = g.users.slice(0, NAMED_PER_GROUP).map((u) => u.email);
      const more = g.users.length > NAMED_PER_GROUP ? [`… and ${g.users.length - NAMED_PER_GROUP} more`] : [];
      lines.push({text: `    ${[...named, ...more].join(', ')}`, tone: 'muted'});
    }
  }
  // The groups outside the rules' answer are named like the others (the first few, then a count).
  const named = (group: readonly User[]): DialogLine => ({
    text: `    ${group
      .slice(0, NAMED_PER_GROUP)
      .map((u) => u.email)
      .join(', ')}${group.length > NAMED_PER_GROUP ? `, … and ${group.length - NAMED_PER_GROUP} more` : ''}`,
    tone: 'muted',
  });
  if (disabled.length > 0) {
    lines.push({text: ''});
    lines.push({text: `Disabled, so off WireGuard (no traffic, whatever the rules): ${disabled.length} user${disabled.length === 1 ? '' : 's'}`, bold: true});
    lines.push(named(disabled));
  }
  if (expired.length > 0) {
    lines.push({text: ''});
    lines.push({
      text: `VPN session expired, so off WireGuard until they sign in again (no traffic, whatever the rules): ${expired.length} user${expired.length === 1 ? '' : 's'}`,
      bold: true,
    });
    lines.push(named(expired));
  }
  if (outside.length > 0) {
    lines.push({text: ''});
    lines.push({
      text: `No device routes ${d.address} into the tunnel (their client configs' AllowedIPs leave it out): ${outside.length} user${outside.length === 1 ? '' : 's'}`,
      bold: true,
    });
    lines.push(named(outside));
  }
  if (silent.length > 0) {
    lines.push({text: ''});
    lines.push({text: `No device with an IPv${family} address (no traffic to trace): ${silent.length} user${silent.length === 1 ? '' : 's'}`, bold: true});
    lines.push(named(silent));
  }
  return {lines};
}
