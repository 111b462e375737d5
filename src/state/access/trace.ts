// `:trace WHO DEST`: the explainer's answer as lines of a panel. WHO is a user's email, a device's
// name or a device's tunnel address; DEST is `ADDRESS` or `ADDRESS:PORT/tcp|udp` (IPv6 in
// brackets with a port: `[fd00::1]:53/udp`). The verdict comes from RuleBook (evaluate.ts);
// here are the question's parsing, the port ranges an answer depends on, and the words.
import type {Device, Rule, User} from '../../api/index.js';
import {cidrContains, parseAddress, parseCidr, type Cidr} from '../../common/cidr.js';
import type {DialogLine} from '../core/modals.js';
import {RuleBook, setOf, type Evaluation, type Packet, type Proto} from './evaluate.js';

/**
 * What the explainer reads of a device (the Devices list's rows carry no full Device), and the
 * AllowedIPs of its client config (its own, or the configuration's default when it uses that;
 * null or absent: not known): a client sends into the tunnel only what they hold.
 */
export type TraceDevice = Pick<Device, 'name' | 'user_id' | 'ipv4' | 'ipv6'> & {readonly allowedIps?: readonly string[] | null};

const parsedLists = new WeakMap<readonly string[], ReadonlyArray<Cidr | null>>();

/**
 * Whether the device's client sends traffic for `dest` into the tunnel: true when an AllowedIPs
 * entry holds it, false when none does, null when that is not known (no list, or an entry that
 * cannot be read). Lists are shared between devices (interned), so each is parsed once.
 */
export function routesInto(device: TraceDevice, dest: Cidr): boolean | null {
  const list = device.allowedIps;
  if (!list) return null;
  let parsed = parsedLists.get(list);
  if (!parsed) {
    parsed = list.map((entry) => parseCidr(entry.trim()));
    parsedLists.set(list, parsed);
  }
  if (parsed.some((c) => c !== null && cidrContains(c, dest))) return true;
  return parsed.includes(null) ? null : false;
}

export interface TraceData {
  readonly users: readonly User[];
  readonly devices: readonly TraceDevice[];
  readonly rules: readonly Rule[];
  /**
   * Users whose VPN session has expired (the configuration's session duration since their last
   * sign-in): 0.7.36 takes their devices off WireGuard as it does a disabled user's (its peer
   * list holds only active users' devices), until they sign in again.
   */
  readonly expired?: ReadonlySet<string>;
}

/** Why a user's devices are off WireGuard, whatever the rules say; null when they are on it. */
export function offWireGuard(user: User, data: TraceData): 'disabled' | 'expired' | null {
  if (user.disabled_at) return 'disabled';
  return data.expired?.has(user.id) ? 'expired' : null;
}

/** A user off WireGuard, in words: "ann@example.com is disabled", "…'s VPN session has expired". */
function offWords(user: User, off: 'disabled' | 'expired'): string {
  return off === 'disabled' ? `${user.email} is disabled` : `${user.email}'s VPN session has expired`;
}

export interface Destination {
  address: string;
  cidr: Cidr;
  proto: Proto | null;
  port: number | null;
}

/** `10.2.3.4`, `10.2.3.4:53/udp`, `[fd00::1]:443/tcp`, `fd00::1`; or why not. */
export function parseDestination(text: string): Destination | string {
  const t = text.trim();
  let m = /^\[([^\]]+)\]:(\d{1,5})\/(tcp|udp)$/i.exec(t) ?? /^([^:/\s]+):(\d{1,5})\/(tcp|udp)$/i.exec(t);
  let address: string;
  let port: number | null = null;
  let proto: Proto | null = null;
  if (m) {
    address = m[1]!;
    port = Number(m[2]);
    proto = m[3]!.toLowerCase() as Proto;
    if (port < 1 || port > 65535) return `port ${m[2]} is not a port (1–65535)`;
  } else {
    m = /^\[([^\]]+)\]$/.exec(t);
    address = m ? m[1]! : t;
    if (/:\d+$/.test(address) && parseAddress(address) === null) return `"${t}": a port needs its protocol, e.g. ${address}/tcp`;
  }
  const cidr = parseAddress(address);
  if (!cidr) return `"${address}" is not an IP address (DEST is ADDRESS or ADDRESS:PORT/tcp|udp)`;
  return {address, cidr, proto, port};
}

/** Who sends: the user, and the devices whose addresses are the sources. */
export interface Sender {
  user: User | null;
  devices: readonly TraceDevice[];
  /** How WHO was read: "user ann@example.com", "device laptop of ann@example.com". */
  described: string;
}

export function findSender(data: TraceData, who: string): Sender | string {
  const w = who.trim();
  const lower = w.toLowerCase();
  const user = data.users.find((u) => u.email.toLowerCase() === lower);
  if (user) return {user, devices: data.devices.filter((d) => d.user_id === user.id), described: `user ${user.email}`};
  const owner = (d: TraceDevice) => data.users.find((u) => u.id === d.user_id) ?? null;
  const byAddress = data.devices.filter((d) => d.ipv4 === w || d.ipv6 === w);
  const named = data.devices.filter((d) => d.name.toLowerCase() === lower);
  const found = byAddress.length > 0 ? byAddress : named;
  if (found.length > 1) return `${found.length} devices are named ${w}: give the device's tunnel address or the user's email`;
  const device = found[0];
  if (!device) return `no user, device or tunnel address "${w}" (WHO is an email, a device name or a device's IPv4/IPv6)`;
  const u = owner(device);
  return {user: u, devices: [device], described: `device ${device.name} of ${u?.email ?? `a user that no longer exists (${device.user_id})`}`};
}

/** A rule in one line: action, destination, protocol and ports, scope. */
export function describeRule(rule: Rule, emailOf: (id: string) => string | null): string {
  const ports = rule.port_type === null ? 'all ports' : `${rule.port_type} ${rule.port_range ?? ''}`.trim();
  const scope = rule.user_id === null ? 'global' : (emailOf(rule.user_id) ?? `deleted user ${rule.user_id}`);
  return `${rule.action.toUpperCase()} ${rule.destination} ${ports} · ${scope}`;
}

interface Segment {
  proto: Proto | null;
  from: number;
  to: number;
  evaluation: Evaluation;
}

/**
 * With no port asked for: the port ranges the answer depends on. Every rule with ports that
 * matches the address splits its protocol's ports at its range's ends; one port per piece is
 * asked, and neighbouring pieces with the same answer are joined. A packet with no port (ICMP)
 * is asked too. One answer for all means the port does not matter.
 */
function bySegments(book: RuleBook, userId: string | null, source: Cidr, dest: Cidr): Segment[] {
  const out: Segment[] = [];
  const relevant = [...(userId === null ? [] : (book.byUser.get(userId) ?? [])), ...book.global];
  for (const proto of ['tcp', 'udp'] as const) {
    const cuts = new Set<number>([1, 65536]);
    for (const m of relevant) {
      if (m.ports && m.ports.proto === proto && m.dest.family === dest.family) {
        cuts.add(m.ports.from);
        cuts.add(m.ports.to + 1);
      }
    }
    const points = [...cuts].sort((a, b) => a - b);
    for (let i = 0; i + 1 < points.length; i++) {
      const from = points[i]!;
      const to = points[i + 1]! - 1;
      const evaluation = book.evaluate(userId, {source, dest, proto, port: from});
      const last = out[out.length - 1];
      if (last && last.proto === proto && last.to + 1 === from && same(last.evaluation, evaluation)) last.to = to;
      else out.push({proto, from, to, evaluation});
    }
  }
  out.push({proto: null, from: 0, to: 0, evaluation: book.evaluate(userId, {source, dest, proto: null, port: null})});
  return out;
}

const same = (a: Evaluation, b: Evaluation) => a.verdict === b.verdict && a.decidedBy === b.decidedBy;

export interface TraceResult {
  /** 'depends' when the port decides (no port was asked for). */
  verdict: 'accept' | 'drop' | 'depends';
  lines: DialogLine[];
}

/** The whole answer, or why the question cannot be answered. */
export function trace(data: TraceData, who: string, dest: string): TraceResult | string {
  const d = parseDestination(dest);
  if (typeof d === 'string') return d;
  const sender = findSender(data, who);
  if (typeof sender === 'string') return sender;
  const emailOf = (id: string) => data.users.find((u) => u.id === id)?.email ?? null;
  const rule = (r: Rule) => describeRule(r, emailOf);
  const family = d.cidr.family;
  const sources = sender.devices.flatMap((dev) => {
    const a = family === 4 ? dev.ipv4 : dev.ipv6;
    const parsed = a ? parseAddress(a) : null;
    return parsed ? [{device: dev, address: a!, cidr: parsed}] : [];
  });
  if (sender.devices.length === 0) return `${sender.described} has no devices: there is no traffic of theirs to trace`;
  if (sources.length === 0) return `${sender.described}: no device has an IPv${family} address, so none sends to ${d.address}`;
  // Devices whose client config keeps DEST out of the tunnel send it elsewhere, whatever the rules.
  const outside = sources.filter((s) => routesInto(s.device, d.cidr) === false);
  const book = new RuleBook(data.rules, new Set(data.users.map((u) => u.id)));
  // A device belongs to one user, and every device of a user jumps to the same chain: one source stands for all.
  const source = sources[0]!.cidr;
  const userId = sender.user?.id ?? null;
  const lines: DialogLine[] = [];
  const asked = d.proto === null ? d.address : `${d.address} ${d.proto} ${d.port}`;
  const from =
    sources.length === 1
      ? `${sender.described} (${sources[0]!.address})`
      : `${sender.described}: ${sources.length} devices (${sources.map((s) => s.address).join(', ')})`;
  let verdict: TraceResult['verdict'];
  let shown: Evaluation;
  if (d.proto !== null) {
    shown = book.evaluate(userId, {source, dest: d.cidr, proto: d.proto, port: d.port} satisfies Packet);
    verdict = shown.verdict;
    lines.push({text: `Verdict: ${verdict.toUpperCase()}`, bold: true, tone: verdict === 'accept' ? 'ok' : 'danger'});
    lines.push({text: decided(shown, rule)});
  } else {
    const segments = bySegments(book, userId, source, d.cidr);
    const first = segments[0]!.evaluation;
    shown = first;
    if (segments.every((s) => same(s.evaluation, first))) {
      verdict = first.verdict;
      lines.push({text: `Verdict: ${verdict.toUpperCase()}`, bold: true, tone: verdict === 'accept' ? 'ok' : 'danger'});
      lines.push({text: `${decided(first, rule)} (whatever the protocol and port)`});
    } else {
      verdict = 'depends';
      lines.push({text: 'Verdict: depends on the port', bold: true, tone: 'warning'});
      for (const s of segments) {
        const where =
          s.proto === null
            ? 'no port (ICMP and others)'
            : s.from === 1 && s.to === 65535
              ? `${s.proto} any port`
              : s.from === s.to
                ? `${s.proto} ${s.from}`
                : `${s.proto} ${s.from}–${s.to}`;
        lines.push({text: `  ${where}: ${s.evaluation.verdict.toUpperCase()} — ${decided(s.evaluation, rule)}`});
      }
      // The path below is the one of the first piece; each port is asked exactly with ADDRESS:PORT/PROTO.
    }
  }
  // The firewall's answer is moot for a disabled user: the verdict says that no traffic passes, the
  // rules' answer only in brackets, and the line under it why (not only among the caveats).
  const off = sender.user ? offWireGuard(sender.user, data) : null;
  if (!off && outside.length === sources.length) {
    const rules = verdict === 'depends' ? 'depend on the port' : `${verdict.toUpperCase()}`;
    const which = sources.length === 1 ? 'its client config does not route' : "none of their devices' client configs routes";
    lines[0] = {text: `Verdict: not through the tunnel: ${which} ${d.address} into WireGuard (the rules alone: ${rules})`, bold: true, tone: 'warning'};
    lines.splice(1, 0, {
      text: `AllowedIPs ${allowedText(outside)}: the client sends ${d.address} outside the tunnel, so the firewall never sees it; below is what the rules would decide if it did`,
      tone: 'warning',
    });
  }
  if (sender.user && off) {
    const rules = verdict === 'depends' ? 'depend on the port' : `${verdict.toUpperCase()}`;
    lines[0] = {text: `Verdict: no traffic passes: ${offWords(sender.user, off)} (the rules alone: ${rules})`, bold: true, tone: 'danger'};
    lines.splice(1, 0, {
      text: `Their devices are off WireGuard, so no traffic of theirs reaches the firewall; below is what the rules would decide once they are ${off === 'disabled' ? 'enabled' : 'signed in'} again`,
      tone: 'danger',
    });
  }
  lines.push({text: ''});
  lines.push({text: `From ${from} to ${asked}`, tone: 'muted'});
  if (verdict !== 'depends') {
    lines.push({text: 'Path, in the order the firewall checks:', bold: true});
    const owner = sender.user?.email ?? 'no user';
    for (const step of shown.path) {
      const chain = step.chain === 'user' ? `${owner}'s rules` : 'global rules';
      const what =
        step.matched.length === 0
          ? 'no match'
          : `${step.matched.map(rule).join('; ')}${shown.decidedBy && step.matched.includes(shown.decidedBy) ? '  ← decides' : ''}`;
      lines.push({text: `  ${chain} · ${step.set}: ${what}`});
    }
    if (shown.chain === 'policy') lines.push({text: "  forward chain's policy: accept  ← decides"});
    if (shown.unreached.length > 0) {
      lines.push({text: 'Matched, but never reached (something above decided first):', bold: true});
      for (const r of shown.unreached) lines.push({text: `  ${rule(r)}`, tone: 'muted'});
    }
  }
  const caveats = caveatsFor(sender, off, shown, data.rules, d.proto !== null || verdict === 'depends');
  if (outside.length > 0 && outside.length < sources.length) {
    const names = outside.map((s) => s.device.name).join(', ');
    caveats.unshift(
      `${outside.length} of ${sources.length} devices (${names}) keep ${d.address} out of the tunnel (AllowedIPs ${allowedText(outside)}): their traffic to it never reaches the firewall`,
    );
  }
  if (caveats.length > 0) {
    lines.push({text: ''});
    lines.push({text: 'Caveats (Firezone 0.7.36):', bold: true});
    for (const c of caveats) lines.push({text: `  ${c}`, tone: 'warning'});
  }
  return {verdict, lines};
}

/** The AllowedIPs of these devices, each distinct list once. */
function allowedText(sources: ReadonlyArray<{device: TraceDevice}>): string {
  return [...new Set(sources.map((s) => (s.device.allowedIps ?? []).join(', ')))].join('; ');
}

function decided(e: Evaluation, rule: (r: Rule) => string): string {
  if (e.decidedBy === null) return "no rule matches: the forward chain's policy accepts";
  const level = e.chain === 'user' ? "the user's own rules are checked first" : "the global rules, after the user's own";
  return `decided by ${rule(e.decidedBy)} (${setOf(e.decidedBy)}; ${level})`;
}

function caveatsFor(sender: Sender, off: 'disabled' | 'expired' | null, shown: Evaluation, rules: readonly Rule[], ports: boolean): string[] {
  const out: string[] = [];
  if (sender.user && off) {
    const until = off === 'expired' ? ' until they sign in again' : '';
    out.push(`${offWords(sender.user, off)}: 0.7.36 removes their devices from WireGuard${until}, so none of their traffic reaches the firewall at all`);
  }
  if (sender.user === null) out.push("the device's user no longer exists: its device set and chain went with it; only the global rules would apply");
  const involved = new Set<Rule>([...shown.path.flatMap((s) => s.matched), ...shown.unreached]);
  const edited = [...involved].filter((r) => r.updated_at !== r.inserted_at);
  if (edited.length > 0) {
    out.push(
      `${edited.length === 1 ? 'a rule here was' : `${edited.length} rules here were`} edited after being created: 0.7.36 applies an edit only after a restart (no update trigger), so until then the firewall may hold the old rule`,
    );
  }
  if (ports && rules.some((r) => r.port_type !== null))
    out.push('rules with ports need a kernel newer than 5.6.8 on the server (0.7.36 ignores ports otherwise)');
  return out;
}
