// `:trace WHO DEST` and `:reach DEST`: the access explainer (src/state/access/) asked from the
// command bar, its answer in a report. A malformed question opens the bar again with the text and
// why, so it is fixed rather than typed again.
import {reach} from '../access/reach.js';
import {trace, type TraceData, type TraceDevice} from '../access/trace.js';
import type {ConsoleContext} from '../core/context.js';
import {vpnStatus, type DeviceRow, type Snapshot} from '../data/snapshot.js';
import {readsOnly, startingWith, type Command} from './command.js';
import {openCommandBar} from './open.js';

/** `:trace WHO DEST`: the access explainer's answer in a panel (src/state/access/trace.ts). */
function runTrace(c: ConsoleContext, arg: string): void {
  const snapshot = c.state.snapshot;
  const parts = arg.split(/\s+/).filter(Boolean);
  if (parts.length !== 2) {
    openCommandBar(c, `trace ${arg}${parts.length === 1 ? ' ' : ''}`);
    c.set((s) => (s.command ? {...s, command: {...s.command, error: ':trace takes WHO and DEST, e.g. :trace ann@example.com 10.2.3.4:53/udp'}} : s));
    return;
  }
  if (!snapshot) {
    c.message({tone: 'info', text: 'No data yet: trace once the first poll has answered'});
    return;
  }
  const [who, dest] = parts as [string, string];
  const blind = unknownToToken(snapshot);
  if (blind) {
    c.message({tone: 'warning', text: `:trace cannot answer: ${blind}`});
    return;
  }
  const result = trace(traceData(snapshot, c.state.clock), who, dest);
  if (typeof result === 'string') {
    openCommandBar(c, `trace ${who} ${dest}`);
    c.set((s) => (s.command ? {...s, command: {...s.command, error: result}} : s));
    return;
  }
  c.push({kind: 'report', title: `Trace: ${who} → ${dest}`, phase: 'finished', progress: null, scroll: 0, lines: result.lines});
}

/** The explainer's view of the rows: five fields each, not a materialised Device; AllowedIPs as its client config has them. */
function traceDevices(rows: readonly DeviceRow[], defaultAllowed: readonly string[] | null): TraceDevice[] {
  return rows.map((r) => {
    const s = r.settings;
    return {name: r.name, user_id: r.userId, ipv4: r.ipv4, ipv6: r.ipv6, allowedIps: s.use_default_allowed_ips ? defaultAllowed : s.allowed_ips};
  });
}

/**
 * Why the explainer cannot answer from this poll: a token that may not list the rules or the
 * users would have it answer from none ("ACCEPT: no rule matches"; every device's user "no longer
 * exists"). Null when it can.
 */
function unknownToToken(snapshot: Snapshot): string | null {
  const missing = (['rules', 'users'] as const).filter((list) => snapshot.hidden.has(list));
  return missing.length === 0 ? null : `this token cannot list ${missing.join(' or ')} (its user is not an admin)`;
}

/** What `:trace` and `:reach` read of a poll: its lists, and whose VPN session has expired by now (the Users screen's EXPIRED). */
function traceData(snapshot: Snapshot, now: number): TraceData {
  const duration = snapshot.configuration?.vpn_session_duration ?? 0;
  const expired = new Set(snapshot.users.filter((u) => vpnStatus(u, duration, now) === 'EXPIRED').map((u) => u.id));
  return {
    users: snapshot.users,
    devices: traceDevices(snapshot.devices, snapshot.configuration?.default_client_allowed_ips ?? null),
    rules: snapshot.rules,
    expired,
  };
}

/** `:reach DEST`: every user's answer, grouped (src/state/access/reach.ts). */
function runReach(c: ConsoleContext, arg: string): void {
  const snapshot = c.state.snapshot;
  if (arg.trim() === '' || /\s/.test(arg.trim())) {
    openCommandBar(c, `reach ${arg.trim()}`);
    c.set((s) => (s.command ? {...s, command: {...s.command, error: ':reach takes one DEST, e.g. :reach 10.2.3.4:443/tcp'}} : s));
    return;
  }
  if (!snapshot) {
    c.message({tone: 'info', text: 'No data yet: ask once the first poll has answered'});
    return;
  }
  const blind = unknownToToken(snapshot);
  if (blind) {
    c.message({tone: 'warning', text: `:reach cannot answer: ${blind}`});
    return;
  }
  const result = reach(traceData(snapshot, c.state.clock), arg.trim());
  if (typeof result === 'string') {
    openCommandBar(c, `reach ${arg.trim()}`);
    c.set((s) => (s.command ? {...s, command: {...s.command, error: result}} : s));
    return;
  }
  c.push({kind: 'report', title: `Reach: ${arg.trim()}`, phase: 'finished', progress: null, scroll: 0, lines: result.lines});
}

export const traceCommand: Command<'trace'> = {
  name: 'trace',
  aliases: ['tr', 'explain'],
  args: 'WHO DEST',
  help: 'would traffic from WHO (an email, a device name or tunnel address) to DEST (ADDRESS or ADDRESS:PORT/tcp|udp) pass, which rule decides, and the path (Tab completes WHO; t on a user or device fills it in)',
  // WHO: a user's email or a device's name (DEST is an address: nothing to complete).
  complete: (c, typed) => {
    const snapshot = c.state.snapshot;
    if (!snapshot || typed.includes(' ')) return [];
    return startingWith([...snapshot.users.map((u) => u.email), ...snapshot.devices.map((row) => row.name)], typed);
  },
  writes: readsOnly,
  run: runTrace,
};

export const reachCommand: Command<'reach'> = {
  name: 'reach',
  aliases: ['who'],
  args: 'DEST',
  help: 'every user: would traffic from their devices to DEST (ADDRESS or ADDRESS:PORT/tcp|udp) pass, and which rule decides, grouped by outcome',
  writes: readsOnly,
  run: runReach,
};
