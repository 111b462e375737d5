// The access explainer (src/state/access/): the eight kinds of case of 0.7.36's layout, the
// panel's words, the rules that never decide, and a property test against a plain model: the
// first matching rule in precedence order (rule-precedence.ts's ranks) decides, else accept.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import type {Rule} from '../../src/api/index.js';
import {packet, parsePortRange, RuleBook} from '../../src/state/access/evaluate.js';
import {neverDecideIn, rulesThatNeverDecide} from '../../src/state/access/never-decide.js';
import {parseDestination, routesInto, trace} from '../../src/state/access/trace.js';
import {parseAddress} from '../../src/common/cidr.js';
import {NAMED_PER_GROUP, reach} from '../../src/state/access/reach.js';
import {ruleRank} from '../../src/state/data/rule-precedence.js';
import {device, iso, rule, user} from '../fixtures/data.js';

const alice = user({id: 'u-a', email: 'alice@example.com'});
const bob = user({id: 'u-b', email: 'bob@example.com'});
const users = [alice, bob];
const devices = [
  device({id: 'd-a', user_id: 'u-a', name: 'alice-laptop', ipv4: '10.3.2.2', ipv6: 'fd00::3:2:2'}),
  device({id: 'd-a2', user_id: 'u-a', name: 'alice-phone', ipv4: '10.3.2.3', ipv6: 'fd00::3:2:3'}),
  device({id: 'd-b', user_id: 'u-b', name: 'bob-laptop', ipv4: '10.3.2.9', ipv6: 'fd00::3:2:9'}),
];
let n = 0;
const r = (over: Partial<Rule>) => rule({id: `r-${++n}`, ...over});

const verdictOf = (rules: Rule[], who: string, dest: string) => {
  const t = trace({users, devices, rules}, who, dest);
  if (typeof t === 'string') throw new Error(t);
  return t;
};

describe('the eight kinds of case', () => {
  it("1. a user's port drop beats the same user's port-less accept", () => {
    const accept = r({action: 'accept', destination: '10.2.0.0/16', user_id: 'u-a'});
    const drop = r({action: 'drop', destination: '10.2.3.0/24', port_type: 'tcp', port_range: '22', user_id: 'u-a'});
    const t = verdictOf([accept, drop], 'alice@example.com', '10.2.3.4:22/tcp');
    expect(t.verdict).toBe('drop');
    expect(t.lines[0]!.text).toBe('Verdict: DROP');
    expect(t.lines[1]!.text).toBe("decided by DROP 10.2.3.0/24 tcp 22 · alice@example.com (drop with ports; the user's own rules are checked first)");
    expect(t.lines.map((l) => l.text)).toContain('  ACCEPT 10.2.0.0/16 all ports · alice@example.com');
    expect(verdictOf([accept, drop], 'alice@example.com', '10.2.3.4:443/tcp').verdict).toBe('accept');
  });

  it("2. a user's drop beats a global accept", () => {
    const rules = [r({action: 'accept', destination: '0.0.0.0/0'}), r({action: 'drop', destination: '10.9.0.0/16', user_id: 'u-a'})];
    expect(verdictOf(rules, 'alice@example.com', '10.9.1.1').verdict).toBe('drop');
    expect(verdictOf(rules, 'bob@example.com', '10.9.1.1').verdict).toBe('accept');
  });

  it('3. a global port accept beats a global port-less drop', () => {
    const rules = [r({action: 'drop', destination: '10.0.0.0/8'}), r({action: 'accept', destination: '10.1.1.1/32', port_type: 'udp', port_range: '53'})];
    expect(verdictOf(rules, 'bob-laptop', '10.1.1.1:53/udp').lines[0]!.text).toBe('Verdict: ACCEPT');
    expect(verdictOf(rules, 'bob-laptop', '10.1.1.1:53/tcp').lines[0]!.text).toBe('Verdict: DROP');
  });

  it('4. a global drop; 5. no rule: the policy accepts', () => {
    const rules = [r({action: 'drop', destination: '192.168.0.0/16'})];
    const dropped = verdictOf(rules, '10.3.2.9', '192.168.1.1:80/tcp');
    expect(dropped.lines[1]!.text).toBe("decided by DROP 192.168.0.0/16 all ports · global (drop; the global rules, after the user's own)");
    const open = verdictOf(rules, '10.3.2.9', '8.8.8.8:53/udp');
    expect(open.lines.slice(0, 2).map((l) => l.text)).toEqual(['Verdict: ACCEPT', "no rule matches: the forward chain's policy accepts"]);
    expect(open.lines.map((l) => l.text)).toContain("  forward chain's policy: accept  ← decides");
  });

  it("6. another user's rules do not apply", () => {
    const rules = [r({action: 'drop', destination: '10.5.0.0/16', user_id: 'u-b'})];
    expect(verdictOf(rules, 'alice@example.com', '10.5.0.1').verdict).toBe('accept');
    expect(verdictOf(rules, 'bob@example.com', '10.5.0.1').verdict).toBe('drop');
  });

  it('7. a shadowed drop: matched but never reached, and listed as never deciding', () => {
    const accept = r({action: 'accept', destination: '10.2.0.0/16', user_id: 'u-a'});
    const drop = r({action: 'drop', destination: '10.2.3.0/24', user_id: 'u-a'});
    const t = verdictOf([accept, drop], 'alice@example.com', '10.2.3.4');
    expect(t.verdict).toBe('accept');
    const text = t.lines.map((l) => l.text);
    expect(text).toContain('Matched, but never reached (something above decided first):');
    expect(text).toContain('  DROP 10.2.3.0/24 all ports · alice@example.com');
    expect(rulesThatNeverDecide([accept, drop], new Set(['u-a', 'u-b'])).get(drop.id)).toEqual({kind: 'shadowed', by: accept});
    expect(rulesThatNeverDecide([accept, drop], new Set(['u-a', 'u-b'])).has(accept.id)).toBe(false);
  });

  it('8. a rule of a deleted user decides nothing', () => {
    const orphan = r({action: 'drop', destination: '0.0.0.0/0', user_id: 'u-gone'});
    const ghost = device({id: 'd-g', user_id: 'u-gone', name: 'ghost', ipv4: '10.3.2.50'});
    const t = trace({users, devices: [...devices, ghost], rules: [orphan]}, 'ghost', '1.1.1.1');
    if (typeof t === 'string') throw new Error(t);
    expect(t.verdict).toBe('accept');
    expect(t.lines.map((l) => l.text).join('\n')).toContain("the device's user no longer exists");
    expect(rulesThatNeverDecide([orphan], new Set(['u-a', 'u-b'])).get(orphan.id)).toEqual({kind: 'deleted user'});
  });
});

describe('the panel', () => {
  it('without a port, when the answer depends on it, each port range is said', () => {
    const rules = [r({action: 'drop', destination: '10.0.0.0/8'}), r({action: 'accept', destination: '10.1.1.1', port_type: 'tcp', port_range: '443'})];
    const t = verdictOf(rules, 'alice@example.com', '10.1.1.1');
    expect(t.verdict).toBe('depends');
    expect(t.lines.map((l) => l.text).slice(0, 6)).toEqual([
      'Verdict: depends on the port',
      "  tcp 1–442: DROP — decided by DROP 10.0.0.0/8 all ports · global (drop; the global rules, after the user's own)",
      "  tcp 443: ACCEPT — decided by ACCEPT 10.1.1.1 tcp 443 · global (accept with ports; the global rules, after the user's own)",
      "  tcp 444–65535: DROP — decided by DROP 10.0.0.0/8 all ports · global (drop; the global rules, after the user's own)",
      "  udp any port: DROP — decided by DROP 10.0.0.0/8 all ports · global (drop; the global rules, after the user's own)",
      "  no port (ICMP and others): DROP — decided by DROP 10.0.0.0/8 all ports · global (drop; the global rules, after the user's own)",
    ]);
    // One answer whatever the port: said once.
    const plain = verdictOf([r({action: 'drop', destination: '10.0.0.0/8'})], 'alice@example.com', '10.1.1.1');
    expect(plain.lines[1]!.text).toMatch(/\(whatever the protocol and port\)$/);
  });

  it('a user covers their devices; who has none, or none of the family, is said', () => {
    const t = verdictOf([], 'alice@example.com', '1.1.1.1');
    expect(t.lines.map((l) => l.text)).toContain('From user alice@example.com: 2 devices (10.3.2.2, 10.3.2.3) to 1.1.1.1');
    const carol = user({id: 'u-c', email: 'carol@example.com'});
    expect(trace({users: [...users, carol], devices, rules: []}, 'carol@example.com', '1.1.1.1')).toBe(
      'user carol@example.com has no devices: there is no traffic of theirs to trace',
    );
    const v4only = device({id: 'd-4', user_id: 'u-c', name: 'v4only', ipv4: '10.3.2.77', ipv6: null});
    expect(trace({users: [...users, carol], devices: [...devices, v4only], rules: []}, 'v4only', 'fd00::1')).toBe(
      'device v4only of carol@example.com: no device has an IPv6 address, so none sends to fd00::1',
    );
  });

  it('caveats: a disabled user, an edited rule, ports need a recent kernel', () => {
    const disabled = {...alice, disabled_at: iso(0)};
    const edited = r({action: 'drop', destination: '10.0.0.0/8', port_type: 'tcp', port_range: '22', updated_at: iso(5000)});
    const t = trace({users: [disabled, bob], devices, rules: [edited]}, 'alice@example.com', '10.1.1.1:22/tcp');
    if (typeof t === 'string') throw new Error(t);
    const text = t.lines.map((l) => l.text).join('\n');
    expect(text).toContain('alice@example.com is disabled: 0.7.36 removes their devices from WireGuard');
    // …and in the verdict itself, the rules' answer only in brackets, with why right under it.
    expect(t.lines.slice(0, 3)).toEqual([
      {text: 'Verdict: no traffic passes: alice@example.com is disabled (the rules alone: DROP)', bold: true, tone: 'danger'},
      {
        text: 'Their devices are off WireGuard, so no traffic of theirs reaches the firewall; below is what the rules would decide once they are enabled again',
        tone: 'danger',
      },
      {text: "decided by DROP 10.0.0.0/8 tcp 22 · global (drop with ports; the global rules, after the user's own)"},
    ]);
    // Without a port, where the port decides: said so in the brackets.
    const open = trace({users: [disabled, bob], devices, rules: [edited]}, 'alice@example.com', '10.1.1.1');
    if (typeof open === 'string') throw new Error(open);
    expect(open.lines[0]!.text).toBe('Verdict: no traffic passes: alice@example.com is disabled (the rules alone: depend on the port)');
    // An enabled user's verdict is the rules' own.
    const enabled = trace({users: [alice, bob], devices, rules: [edited]}, 'alice@example.com', '10.1.1.1:22/tcp');
    if (typeof enabled === 'string') throw new Error(enabled);
    expect(enabled.lines[0]!.text).toBe('Verdict: DROP');
    expect(text).toContain('edited after being created: 0.7.36 applies an edit only after a restart');
    expect(text).toContain('rules with ports need a kernel newer than 5.6.8');
  });

  it('a user whose VPN session has expired is off WireGuard as a disabled one is: no traffic passes, and why', () => {
    const edited = r({action: 'accept', destination: '10.0.0.0/8'});
    const t = trace({users: [alice, bob], devices, rules: [edited], expired: new Set(['u-a'])}, 'alice@example.com', '10.1.1.1:22/tcp');
    if (typeof t === 'string') throw new Error(t);
    expect(t.lines.slice(0, 2)).toEqual([
      {
        text: "Verdict: no traffic passes: alice@example.com's VPN session has expired (the rules alone: ACCEPT)",
        bold: true,
        tone: 'danger',
      },
      {
        text: 'Their devices are off WireGuard, so no traffic of theirs reaches the firewall; below is what the rules would decide once they are signed in again',
        tone: 'danger',
      },
    ]);
    expect(t.lines.map((l) => l.text)).toContain(
      "  alice@example.com's VPN session has expired: 0.7.36 removes their devices from WireGuard until they sign in again, so none of their traffic reaches the firewall at all",
    );
    // Someone else's expiry changes nothing for alice.
    const other = trace({users: [alice, bob], devices, rules: [edited], expired: new Set(['u-b'])}, 'alice@example.com', '10.1.1.1:22/tcp');
    if (typeof other === 'string') throw new Error(other);
    expect(other.lines[0]!.text).toBe('Verdict: ACCEPT');
    // Disabled and expired: disabled is what an admin must undo first.
    const both = trace(
      {users: [{...alice, disabled_at: iso(0)}, bob], devices, rules: [edited], expired: new Set(['u-a'])},
      'alice@example.com',
      '10.1.1.1:22/tcp',
    );
    if (typeof both === 'string') throw new Error(both);
    expect(both.lines[0]!.text).toBe('Verdict: no traffic passes: alice@example.com is disabled (the rules alone: ACCEPT)');
  });

  it('a device whose client config keeps DEST out of the tunnel (AllowedIPs) sends it elsewhere: said in the verdict, or as a caveat for some devices', () => {
    const split = ['10.0.0.0/8', '192.168.10.0/24'];
    const own = [
      {...devices[0]!, allowedIps: split},
      {...devices[1]!, allowedIps: split},
      {...devices[2]!, allowedIps: ['0.0.0.0/0', '::/0']},
    ];
    const rules = [r({action: 'accept', destination: '8.8.4.0/24'})];
    const t = trace({users, devices: own, rules}, 'alice@example.com', '8.8.4.4');
    if (typeof t === 'string') throw new Error(t);
    expect(t.lines.slice(0, 2)).toEqual([
      {
        text: "Verdict: not through the tunnel: none of their devices' client configs routes 8.8.4.4 into WireGuard (the rules alone: ACCEPT)",
        bold: true,
        tone: 'warning',
      },
      {
        text: 'AllowedIPs 10.0.0.0/8, 192.168.10.0/24: the client sends 8.8.4.4 outside the tunnel, so the firewall never sees it; below is what the rules would decide if it did',
        tone: 'warning',
      },
    ]);
    // One device: said of it.
    const bobs = trace({users, devices: [own[0]!, own[1]!, {...own[2]!, allowedIps: split}], rules}, 'bob@example.com', '8.8.4.4:53/udp');
    if (typeof bobs === 'string') throw new Error(bobs);
    expect(bobs.lines[0]!.text).toBe('Verdict: not through the tunnel: its client config does not route 8.8.4.4 into WireGuard (the rules alone: ACCEPT)');
    // Inside the lists: the rules' answer, as before.
    const inside = trace({users, devices: own, rules}, 'alice@example.com', '10.1.1.1');
    if (typeof inside === 'string') throw new Error(inside);
    expect(inside.lines[0]!.text).toBe('Verdict: ACCEPT');
    // One device of two: a caveat names it.
    const mixed = trace({users, devices: [own[0]!, {...own[1]!, allowedIps: ['0.0.0.0/0']}, own[2]!], rules}, 'alice@example.com', '8.8.4.4');
    if (typeof mixed === 'string') throw new Error(mixed);
    expect(mixed.lines[0]!.text).toBe('Verdict: ACCEPT');
    expect(mixed.lines.map((l) => l.text)).toContain(
      '  1 of 2 devices (alice-laptop) keep 8.8.4.4 out of the tunnel (AllowedIPs 10.0.0.0/8, 192.168.10.0/24): their traffic to it never reaches the firewall',
    );
    // Not known (no list, or an entry that cannot be read): the rules' answer, nothing claimed.
    expect(routesInto({...devices[0]!, allowedIps: null}, parseAddress('8.8.4.4')!)).toBeNull();
    expect(routesInto({...devices[0]!, allowedIps: ['10.0.0.0/8', 'nonsense']}, parseAddress('8.8.4.4')!)).toBeNull();
    expect(routesInto({...devices[0]!, allowedIps: ['10.0.0.0/8', 'nonsense']}, parseAddress('10.2.3.4')!)).toBe(true);
    expect(routesInto({...devices[0]!, allowedIps: [' 8.8.4.0/24 ']}, parseAddress('8.8.4.4')!)).toBe(true);
    expect(routesInto({...devices[0]!, allowedIps: ['::/0']}, parseAddress('8.8.4.4')!)).toBe(false);
    // :reach counts them apart: they send nothing there through the tunnel.
    const reached = reach({users, devices: own, rules}, '8.8.4.4');
    if (typeof reached === 'string') throw new Error(reached);
    const text = reached.lines.map((l) => l.text);
    expect(text[0]).toMatch(/: 1 of 2 users \(of the 1 with a device that sends there, the rules accept 1 and drop 0\)$/);
    expect(text).toContain("No device routes 8.8.4.4 into the tunnel (their client configs' AllowedIPs leave it out): 1 user");
    expect(text[text.indexOf("No device routes 8.8.4.4 into the tunnel (their client configs' AllowedIPs leave it out): 1 user") + 1]).toBe(
      '    alice@example.com',
    );
    // A user with one device routing there is counted with it.
    const either = reach({users, devices: [own[0]!, {...own[1]!, allowedIps: ['0.0.0.0/0']}, own[2]!], rules}, '8.8.4.4');
    if (typeof either === 'string') throw new Error(either);
    expect(either.lines[0]!.text).toMatch(/: 2 of 2 users/);
  });

  it('reads DEST and WHO, and says what is wrong with them', () => {
    expect(parseDestination('10.2.3.4:53/UDP')).toMatchObject({address: '10.2.3.4', proto: 'udp', port: 53});
    expect(parseDestination('[fd00::1]:443/tcp')).toMatchObject({address: 'fd00::1', proto: 'tcp', port: 443});
    expect(parseDestination('fd00::1')).toMatchObject({address: 'fd00::1', proto: null, port: null});
    expect(parseDestination('10.2.3.4:53')).toBe('"10.2.3.4:53": a port needs its protocol, e.g. 10.2.3.4:53/tcp');
    expect(parseDestination('10.2.3.4:0/tcp')).toBe('port 0 is not a port (1–65535)');
    expect(parseDestination('example.com')).toBe('"example.com" is not an IP address (DEST is ADDRESS or ADDRESS:PORT/tcp|udp)');
    expect(trace({users, devices, rules: []}, 'nobody', '1.1.1.1')).toBe(
      'no user, device or tunnel address "nobody" (WHO is an email, a device name or a device\'s IPv4/IPv6)',
    );
    expect(parsePortRange('80 - 90')).toEqual({from: 80, to: 90});
    expect(parsePortRange('90-80')).toBeNull();
  });
});

describe('against a plain model (property)', () => {
  // The model: the rules of the sender's user that exist and the global ones, sorted by
  // ruleRank; the first whose destination holds the address (and ports the packet) decides.
  const ip = (a: number, b: number) => `10.${a}.${b}.7`;
  const arbRule = fc.record({
    action: fc.constantFrom('accept' as const, 'drop' as const),
    a: fc.integer({min: 0, max: 3}),
    b: fc.integer({min: 0, max: 3}),
    prefix: fc.constantFrom(8, 16, 24, 32),
    ports: fc.option(
      fc.record({proto: fc.constantFrom('tcp' as const, 'udp' as const), from: fc.integer({min: 1, max: 100}), len: fc.integer({min: 0, max: 50})}),
      {nil: null},
    ),
    user: fc.constantFrom(null, 'u-a', 'u-b', 'u-gone'),
  });
  const arbPacket = fc.record({
    from: fc.constantFrom('u-a', 'u-b'),
    a: fc.integer({min: 0, max: 3}),
    b: fc.integer({min: 0, max: 3}),
    proto: fc.constantFrom('tcp' as const, 'udp' as const, null),
    port: fc.integer({min: 1, max: 160}),
  });

  it('the verdict and deciding rule are the first match in precedence order', () => {
    fc.assert(
      fc.property(fc.array(arbRule, {maxLength: 12}), arbPacket, (specs, p) => {
        const rules = specs.map((s, i) =>
          rule({
            id: `r${i}`,
            action: s.action,
            destination: `${ip(s.a, s.b)}/${s.prefix}`,
            port_type: s.ports?.proto ?? null,
            port_range: s.ports ? `${s.ports.from} - ${s.ports.from + s.ports.len}` : null,
            user_id: s.user,
          }),
        );
        const book = new RuleBook(rules, new Set(['u-a', 'u-b']));
        const pk = packet(p.from === 'u-a' ? '10.3.2.2' : '10.3.2.9', ip(p.a, p.b), p.proto, p.proto ? p.port : null)!;
        const got = book.evaluate(p.from, pk);
        const inNet = (s: (typeof specs)[number]) => {
          const mask = s.prefix === 8 ? 1 : s.prefix === 16 ? 2 : s.prefix === 24 ? 3 : 4;
          const a = [10, s.a, s.b, 7];
          const b = [10, p.a, p.b, 7];
          return a.slice(0, mask).every((x, i) => x === b[i]);
        };
        const candidates = specs
          .map((s, i) => ({s, rule: rules[i]!}))
          .filter(({s}) => s.user === null || s.user === p.from)
          .filter(({s}) => inNet(s) && (s.ports === null || (s.ports.proto === p.proto && p.port >= s.ports.from && p.port <= s.ports.from + s.ports.len)))
          .sort((x, y) => ruleRank(x.rule) - ruleRank(y.rule));
        const first = candidates[0]?.rule ?? null;
        expect(got.verdict).toBe(first?.action ?? 'accept');
        // Rules of one set may both match (an accept of tcp and of udp cannot; two ranges can): the action is what counts.
        if (first) expect(ruleRank(got.decidedBy!)).toBe(ruleRank(first));
        else expect(got.decidedBy).toBeNull();
      }),
      {numRuns: 500},
    );
  });

  it('a rule said never to decide decides no packet', () => {
    fc.assert(
      fc.property(fc.array(arbRule, {maxLength: 10}), fc.array(arbPacket, {minLength: 20, maxLength: 20}), (specs, packets) => {
        const rules = specs.map((s, i) =>
          rule({
            id: `r${i}`,
            action: s.action,
            destination: `${ip(s.a, s.b)}/${s.prefix}`,
            port_type: s.ports?.proto ?? null,
            port_range: s.ports ? `${s.ports.from} - ${s.ports.from + s.ports.len}` : null,
            user_id: s.user,
          }),
        );
        const ids = new Set(['u-a', 'u-b']);
        const never = rulesThatNeverDecide(rules, ids);
        const book = new RuleBook(rules, ids);
        for (const p of packets) {
          const got = book.evaluate(p.from, packet(p.from === 'u-a' ? '10.3.2.2' : '10.3.2.9', ip(p.a, p.b), p.proto, p.proto ? p.port : null)!);
          if (got.decidedBy) expect(never.has(got.decidedBy.id)).toBe(false);
        }
      }),
      {numRuns: 300},
    );
  });
});

describe(':reach', () => {
  it('every user with a device, grouped by verdict and deciding rule; users without a device of the family counted', () => {
    const carol = user({id: 'u-c', email: 'carol@example.com'});
    const dave = user({id: 'u-d', email: 'dave@example.com', disabled_at: iso(0)});
    const daveDevice = device({id: 'd-d', user_id: 'u-d', name: 'dave-laptop', ipv4: '10.3.2.20', ipv6: null});
    const rules = [r({action: 'drop', destination: '10.0.0.0/8'}), r({action: 'accept', destination: '10.2.0.0/16', user_id: 'u-a'})];
    const result = reach({users: [alice, bob, carol, dave], devices: [...devices, daveDevice], rules}, '10.2.3.4:443/tcp');
    if (typeof result === 'string') throw new Error(result);
    expect(result.lines.map((l) => l.text)).toEqual([
      'Who can reach 10.2.3.4 tcp 443: 1 of 4 users (of the 2 with a device that sends there, the rules accept 1 and drop 1)',
      '',
      'ACCEPT: 1 user',
      '  by ACCEPT 10.2.0.0/16 all ports · alice@example.com — 1 user',
      '    alice@example.com',
      '',
      'DROP: 1 user',
      '  by DROP 10.0.0.0/8 all ports · global — 1 user',
      '    bob@example.com',
      '',
      'Disabled, so off WireGuard (no traffic, whatever the rules): 1 user',
      '    dave@example.com',
      '',
      'No device with an IPv4 address (no traffic to trace): 1 user',
      '    carol@example.com',
    ]);
    const v6 = reach({users: [alice, bob, carol, dave], devices: [...devices, daveDevice], rules}, 'fd00::1');
    if (typeof v6 === 'string') throw new Error(v6);
    expect(v6.lines[0]!.text).toBe(
      'Who can reach fd00::1 (traffic without a port: ICMP and others; ADDRESS:PORT/tcp|udp asks for a port): 2 of 4 users (of the 2 with a device that sends there, the rules accept 2 and drop 0)',
    );
    expect(reach({users, devices, rules}, 'nowhere')).toBe('"nowhere" is not an IP address (DEST is ADDRESS or ADDRESS:PORT/tcp|udp)');
    // A user whose VPN session has expired sends nothing either, and is counted apart.
    const expired = reach({users: [alice, bob, carol, dave], devices: [...devices, daveDevice], rules, expired: new Set(['u-b'])}, '10.2.3.4:443/tcp');
    if (typeof expired === 'string') throw new Error(expired);
    expect(expired.lines.map((l) => l.text)).toEqual([
      'Who can reach 10.2.3.4 tcp 443: 1 of 4 users (of the 1 with a device that sends there, the rules accept 1 and drop 0)',
      '',
      'ACCEPT: 1 user',
      '  by ACCEPT 10.2.0.0/16 all ports · alice@example.com — 1 user',
      '    alice@example.com',
      '',
      'DROP: 0 users',
      '',
      'Disabled, so off WireGuard (no traffic, whatever the rules): 1 user',
      '    dave@example.com',
      '',
      'VPN session expired, so off WireGuard until they sign in again (no traffic, whatever the rules): 1 user',
      '    bob@example.com',
      '',
      'No device with an IPv4 address (no traffic to trace): 1 user',
      '    carol@example.com',
    ]);
    const two = reach({users: [alice, bob, carol, dave], devices: [...devices, daveDevice], rules, expired: new Set(['u-a', 'u-b'])}, '10.2.3.4:443/tcp');
    if (typeof two === 'string') throw new Error(two);
    expect(two.lines.map((l) => l.text)).toContain('VPN session expired, so off WireGuard until they sign in again (no traffic, whatever the rules): 2 users');
  });

  it('long groups name the first users and count the rest', () => {
    const many = Array.from({length: NAMED_PER_GROUP + 3}, (_, i) => user({id: `u${i}`, email: `u${String(i).padStart(2, '0')}@example.com`}));
    const devs = many.map((u, i) => device({id: `d${i}`, user_id: u.id, name: `d${i}`, ipv4: `10.3.3.${i + 1}`}));
    const result = reach({users: many, devices: devs, rules: []}, '1.1.1.1:53/udp');
    if (typeof result === 'string') throw new Error(result);
    expect(result.lines[4]!.text).toMatch(/, … and 3 more$/);
    // Exactly as many as are named: nothing left to count.
    const exact = reach({users: many.slice(0, NAMED_PER_GROUP), devices: devs, rules: []}, '1.1.1.1:53/udp');
    if (typeof exact === 'string') throw new Error(exact);
    expect(exact.lines[4]!.text).not.toContain('more');
    expect(exact.lines[4]!.text.split(', ')).toHaveLength(NAMED_PER_GROUP);
  });
});

describe('the panel, line by line (text, tone, weight)', () => {
  const bobRule = r({id: 'r-g', action: 'drop', destination: '10.0.0.0/8'});
  const lines = (t: ReturnType<typeof trace>) => {
    if (typeof t === 'string') throw new Error(t);
    return t.lines;
  };

  it('a drop by a global rule, every set on the way', () => {
    expect(lines(trace({users, devices, rules: [bobRule]}, 'bob@example.com', '10.1.1.1:80/tcp'))).toEqual([
      {text: 'Verdict: DROP', bold: true, tone: 'danger'},
      {text: "decided by DROP 10.0.0.0/8 all ports · global (drop; the global rules, after the user's own)"},
      {text: ''},
      {text: 'From user bob@example.com (10.3.2.9) to 10.1.1.1 tcp 80', tone: 'muted'},
      {text: 'Path, in the order the firewall checks:', bold: true},
      {text: "  bob@example.com's rules · accept with ports: no match"},
      {text: "  bob@example.com's rules · drop with ports: no match"},
      {text: "  bob@example.com's rules · accept: no match"},
      {text: "  bob@example.com's rules · drop: no match"},
      {text: '  global rules · accept with ports: no match'},
      {text: '  global rules · drop with ports: no match'},
      {text: '  global rules · accept: no match'},
      {text: '  global rules · drop: DROP 10.0.0.0/8 all ports · global  ← decides'},
    ]);
  });

  it("the policy for a user's devices over IPv6; rules of another family or protocol do not match", () => {
    const rules = [r({action: 'drop', destination: '10.0.0.0/8'}), r({action: 'drop', destination: 'fd00::/16', port_type: 'udp', port_range: '22'})];
    expect(lines(trace({users, devices, rules}, 'alice@example.com', '[fd00::9]:22/tcp'))).toEqual([
      {text: 'Verdict: ACCEPT', bold: true, tone: 'ok'},
      {text: "no rule matches: the forward chain's policy accepts"},
      {text: ''},
      {text: 'From user alice@example.com: 2 devices (fd00::3:2:2, fd00::3:2:3) to fd00::9 tcp 22', tone: 'muted'},
      {text: 'Path, in the order the firewall checks:', bold: true},
      {text: "  alice@example.com's rules · accept with ports: no match"},
      {text: "  alice@example.com's rules · drop with ports: no match"},
      {text: "  alice@example.com's rules · accept: no match"},
      {text: "  alice@example.com's rules · drop: no match"},
      {text: '  global rules · accept with ports: no match'},
      {text: '  global rules · drop with ports: no match'},
      {text: '  global rules · accept: no match'},
      {text: '  global rules · drop: no match'},
      {text: "  forward chain's policy: accept  ← decides"},
      {text: ''},
      {text: 'Caveats (Firezone 0.7.36):', bold: true},
      {text: '  rules with ports need a kernel newer than 5.6.8 on the server (0.7.36 ignores ports otherwise)', tone: 'warning'},
    ]);
  });

  it('decided in the user chain: the rest matched but never reached, muted; two edited rules counted', () => {
    const rules = [
      r({action: 'accept', destination: '10.2.0.0/16', user_id: 'u-a', updated_at: iso(5)}),
      r({action: 'drop', destination: '10.2.3.0/24', user_id: 'u-a'}),
      r({action: 'drop', destination: '10.0.0.0/8', port_type: 'tcp', port_range: '1 - 1000', updated_at: iso(5)}),
    ];
    expect(lines(trace({users, devices, rules}, 'alice-laptop', '10.2.3.4:443/tcp'))).toEqual([
      {text: 'Verdict: ACCEPT', bold: true, tone: 'ok'},
      {text: "decided by ACCEPT 10.2.0.0/16 all ports · alice@example.com (accept; the user's own rules are checked first)"},
      {text: ''},
      {text: 'From device alice-laptop of alice@example.com (10.3.2.2) to 10.2.3.4 tcp 443', tone: 'muted'},
      {text: 'Path, in the order the firewall checks:', bold: true},
      {text: "  alice@example.com's rules · accept with ports: no match"},
      {text: "  alice@example.com's rules · drop with ports: no match"},
      {text: "  alice@example.com's rules · accept: ACCEPT 10.2.0.0/16 all ports · alice@example.com  ← decides"},
      {text: 'Matched, but never reached (something above decided first):', bold: true},
      {text: '  DROP 10.2.3.0/24 all ports · alice@example.com', tone: 'muted'},
      {text: '  DROP 10.0.0.0/8 tcp 1 - 1000 · global', tone: 'muted'},
      {text: ''},
      {text: 'Caveats (Firezone 0.7.36):', bold: true},
      {
        text: '  2 rules here were edited after being created: 0.7.36 applies an edit only after a restart (no update trigger), so until then the firewall may hold the old rule',
        tone: 'warning',
      },
      {text: '  rules with ports need a kernel newer than 5.6.8 on the server (0.7.36 ignores ports otherwise)', tone: 'warning'},
    ]);
  });

  it('depends on the port: warned in bold, the ranges, no path; the port caveat', () => {
    const rules = [r({action: 'accept', destination: '10.1.1.1', port_type: 'udp', port_range: '53 - 54'})];
    expect(lines(trace({users, devices, rules}, '10.3.2.9', '10.1.1.1'))).toEqual([
      {text: 'Verdict: depends on the port', bold: true, tone: 'warning'},
      {text: "  tcp any port: ACCEPT — no rule matches: the forward chain's policy accepts"},
      {text: "  udp 1–52: ACCEPT — no rule matches: the forward chain's policy accepts"},
      {text: "  udp 53–54: ACCEPT — decided by ACCEPT 10.1.1.1 udp 53 - 54 · global (accept with ports; the global rules, after the user's own)"},
      {text: "  udp 55–65535: ACCEPT — no rule matches: the forward chain's policy accepts"},
      {text: "  no port (ICMP and others): ACCEPT — no rule matches: the forward chain's policy accepts"},
      {text: ''},
      {text: 'From device bob-laptop of bob@example.com (10.3.2.9) to 10.1.1.1', tone: 'muted'},
      {text: ''},
      {text: 'Caveats (Firezone 0.7.36):', bold: true},
      {text: '  rules with ports need a kernel newer than 5.6.8 on the server (0.7.36 ignores ports otherwise)', tone: 'warning'},
    ]);
  });

  it('a device whose user is gone: only the global chain, said so', () => {
    const ghost = device({id: 'd-g', user_id: 'u-gone', name: 'ghost', ipv4: '10.3.2.50'});
    expect(lines(trace({users, devices: [...devices, ghost], rules: []}, '10.3.2.50', '1.1.1.1:53/udp'))).toEqual([
      {text: 'Verdict: ACCEPT', bold: true, tone: 'ok'},
      {text: "no rule matches: the forward chain's policy accepts"},
      {text: ''},
      {text: 'From device ghost of a user that no longer exists (u-gone) (10.3.2.50) to 1.1.1.1 udp 53', tone: 'muted'},
      {text: 'Path, in the order the firewall checks:', bold: true},
      {text: '  global rules · accept with ports: no match'},
      {text: '  global rules · drop with ports: no match'},
      {text: '  global rules · accept: no match'},
      {text: '  global rules · drop: no match'},
      {text: "  forward chain's policy: accept  ← decides"},
      {text: ''},
      {text: 'Caveats (Firezone 0.7.36):', bold: true},
      {text: "  the device's user no longer exists: its device set and chain went with it; only the global rules would apply", tone: 'warning'},
    ]);
  });

  it('two devices of one name are asked to be told apart', () => {
    const twin = device({id: 'd-t', user_id: 'u-b', name: 'alice-laptop', ipv4: '10.3.2.60'});
    expect(trace({users, devices: [...devices, twin], rules: []}, 'ALICE-LAPTOP', '1.1.1.1')).toBe(
      "2 devices are named ALICE-LAPTOP: give the device's tunnel address or the user's email",
    );
    expect(lines(trace({users, devices: [...devices, twin], rules: []}, '10.3.2.60', '1.1.1.1:1/tcp'))[3]).toEqual({
      text: 'From device alice-laptop of bob@example.com (10.3.2.60) to 1.1.1.1 tcp 1',
      tone: 'muted',
    });
  });
});

describe('reading rules and destinations', () => {
  it('port ranges and destinations at their edges', () => {
    expect(parsePortRange('1')).toEqual({from: 1, to: 1});
    expect(parsePortRange('65535')).toEqual({from: 65535, to: 65535});
    expect(parsePortRange(' 80 - 90 ')).toEqual({from: 80, to: 90});
    expect(parsePortRange('0')).toBeNull();
    expect(parsePortRange('65536')).toBeNull();
    expect(parsePortRange('80-')).toBeNull();
    expect(parsePortRange('x80')).toBeNull();
    expect(parsePortRange('80-90x')).toBeNull();
    expect(parseDestination(' 10.2.3.4:65535/tcp ')).toMatchObject({port: 65535});
    expect(parseDestination('10.2.3.4:65536/tcp')).toBe('port 65536 is not a port (1–65535)');
    expect(parseDestination('[fd00::1]')).toMatchObject({address: 'fd00::1', port: null});
    expect(parseDestination('fd00::1:53')).toMatchObject({address: 'fd00::1:53', port: null});
    expect(parseDestination('x10.2.3.4:53/tcp')).toBe('"x10.2.3.4" is not an IP address (DEST is ADDRESS or ADDRESS:PORT/tcp|udp)');
    expect(parseDestination('10.2.3.4:53/tcpx')).toBe('"10.2.3.4:53/tcpx" is not an IP address (DEST is ADDRESS or ADDRESS:PORT/tcp|udp)');
    expect(parseDestination('[fd00::1]:53/udpx')).toBe('"[fd00::1]:53/udpx" is not an IP address (DEST is ADDRESS or ADDRESS:PORT/tcp|udp)');
    expect(parseDestination('x[fd00::1]')).toBe('"x[fd00::1]" is not an IP address (DEST is ADDRESS or ADDRESS:PORT/tcp|udp)');
  });

  it('rules the server could not have stored are set apart; a padded destination is read', () => {
    const bad = r({destination: 'nowhere'});
    const badPorts = r({destination: '10.0.0.0/8', port_type: 'tcp', port_range: 'lots'});
    const padded = r({destination: ' 10.0.0.0/8 ', action: 'drop'});
    const book = new RuleBook([bad, badPorts, padded], new Set());
    expect(book.unreadable).toEqual([bad, badPorts]);
    expect(book.global.map((m) => m.rule)).toEqual([padded]);
    expect(book.evaluate(null, packet('10.3.2.2', '10.1.1.1')!).decidedBy).toBe(padded);
    expect(packet('nowhere', '10.1.1.1')).toBeNull();
    expect(packet('10.3.2.2', 'nowhere')).toBeNull();
    expect(packet('10.3.2.2', '10.1.1.1', null, 80)).toMatchObject({port: null});
  });

  it('a packet without a port meets only port-less rules; an address only its own family', () => {
    const portRule = r({action: 'drop', destination: '10.0.0.0/8', port_type: 'tcp', port_range: '1 - 65535'});
    const v6 = r({action: 'drop', destination: '::/0'});
    const book = new RuleBook([portRule, v6], new Set());
    expect(book.evaluate(null, packet('10.3.2.2', '10.1.1.1')!).verdict).toBe('accept');
    expect(book.evaluate(null, packet('10.3.2.2', '10.1.1.1', 'tcp', 80)!).verdict).toBe('drop');
    expect(book.evaluate(null, packet('10.3.2.2', '10.1.1.1', 'udp', 80)!).verdict).toBe('accept');
    expect(book.evaluate(null, packet('fd00::3:2:2', 'fd00::1', 'udp', 80)!).decidedBy).toBe(v6);
  });
});

describe('rules that never decide, case by case', () => {
  const ids = new Set(['u-a', 'u-b']);
  const never = (...rules: Rule[]) => rulesThatNeverDecide(rules, ids);

  it('a port drop under a port accept of the same protocol whose range and addresses cover it', () => {
    const accept = r({action: 'accept', destination: '10.0.0.0/8', port_type: 'tcp', port_range: '1 - 1024', user_id: 'u-a'});
    const drop = r({action: 'drop', destination: '10.2.0.0/16', port_type: 'tcp', port_range: '80', user_id: 'u-a'});
    expect(never(accept, drop).get(drop.id)).toEqual({kind: 'shadowed', by: accept});
    expect(never({...accept, port_type: 'udp'}, drop).size).toBe(0);
    expect(never({...accept, port_range: '81 - 1024'}, drop).size).toBe(0);
    expect(never({...accept, port_range: '1 - 79'}, drop).size).toBe(0);
    expect(never({...accept, port_range: '80'}, drop).get(drop.id)).toMatchObject({kind: 'shadowed'});
    expect(never({...accept, destination: '10.2.1.0/24'}, drop).size).toBe(0);
    // A port-less accept is checked after the port sets: it shadows no port rule.
    expect(never({...accept, port_type: null, port_range: null}, drop).size).toBe(0);
  });

  it('a port-less drop under a port-less accept of the same chain and family only', () => {
    const accept = r({action: 'accept', destination: '10.0.0.0/8'});
    const drop = r({action: 'drop', destination: '10.2.0.0/16'});
    expect(never(accept, drop).get(drop.id)).toEqual({kind: 'shadowed', by: accept});
    expect(never(accept, {...drop, user_id: 'u-a'}).size).toBe(0);
    expect(never({...accept, user_id: 'u-b'}, {...drop, user_id: 'u-a'}).size).toBe(0);
    expect(never({...accept, destination: '::/0'}, {...drop, destination: 'fd00::/16'}).get(drop.id)).toMatchObject({kind: 'shadowed'});
    expect(never({...accept, destination: '::/0'}, drop).size).toBe(0);
    // A port-specific accept cannot cover a port-less drop (ICMP is not in it).
    expect(never({...accept, port_type: 'tcp', port_range: '1 - 65535'}, drop).size).toBe(0);
    // An accept is never shadowed by a drop.
    expect(never({...drop, action: 'accept'}, {...accept, action: 'drop', id: 'x'}).has(drop.id)).toBe(false);
  });

  it('per snapshot: made once, again for new users', () => {
    const accept = r({action: 'accept', destination: '10.0.0.0/8'});
    const drop = r({action: 'drop', destination: '10.2.0.0/16'});
    const rules = [accept, drop];
    const usersById = new Map([['u-a', alice]]);
    const first = neverDecideIn({rules, usersById});
    expect(first.get(drop.id)).toMatchObject({kind: 'shadowed'});
    expect(neverDecideIn({rules, usersById})).toBe(first);
    const orphan = r({action: 'drop', destination: '10.9.0.0/16', user_id: 'u-b'});
    const withOrphan = [accept, drop, orphan];
    expect(neverDecideIn({rules: withOrphan, usersById}).get(orphan.id)).toEqual({kind: 'deleted user'});
    expect(neverDecideIn({rules: withOrphan, usersById: new Map([['u-b', bob]])}).has(orphan.id)).toBe(false);
  });
});

describe(':reach, line by line', () => {
  it('asked without a port, where rules with ports match the address: says the ports may be answered otherwise, and how to ask', () => {
    const rules = [
      r({action: 'drop', destination: '10.0.0.0/8'}),
      r({action: 'accept', destination: '10.10.20.15', port_type: 'tcp', port_range: '443'}),
      r({action: 'accept', destination: '10.99.0.0/16', port_type: 'udp', port_range: '53'}),
      r({action: 'accept', destination: 'fd00::/16', port_type: 'udp', port_range: '53 - 54', user_id: 'u-b'}),
    ];
    const portless = reach({users, devices, rules}, '10.10.20.15');
    if (typeof portless === 'string') throw new Error(portless);
    expect(portless.lines[0]!.text).toMatch(
      /^Who can reach 10\.10\.20\.15 \(traffic without a port: ICMP and others; ADDRESS:PORT\/tcp\|udp asks for a port\): 0 of 2 users/,
    );
    expect(portless.lines[1]).toEqual({
      text: '1 rule with ports matches 10.10.20.15 (such as ACCEPT 10.10.20.15 tcp 443 · global): TCP or UDP to its ports may be answered otherwise; ask for a port, e.g. :reach 10.10.20.15:443/tcp',
      tone: 'warning',
    });
    // With the port asked, the answer is the port's: no such line.
    const withPort = reach({users, devices, rules}, '10.10.20.15:443/tcp');
    if (typeof withPort === 'string') throw new Error(withPort);
    expect(withPort.lines[0]!.text).toMatch(/: 2 of 2 users/);
    expect(withPort.lines.some((l) => l.text.includes('with ports match'))).toBe(false);
    // A port rule elsewhere does not count; a user's own counts, and IPv6 is asked in brackets.
    const elsewhere = reach({users, devices, rules}, '10.10.20.16');
    if (typeof elsewhere === 'string') throw new Error(elsewhere);
    expect(elsewhere.lines.some((l) => l.text.includes('with ports match'))).toBe(false);
    const v6 = reach({users, devices, rules}, 'fd00::9');
    if (typeof v6 === 'string') throw new Error(v6);
    expect(v6.lines[1]!.text).toBe(
      '1 rule with ports matches fd00::9 (such as ACCEPT fd00::/16 udp 53 - 54 · bob@example.com): TCP or UDP to its ports may be answered otherwise; ask for a port, e.g. :reach [fd00::9]:53/udp',
    );
    const two = reach(
      {users, devices, rules: [...rules, r({action: 'drop', destination: '10.10.0.0/16', port_type: 'udp', port_range: '1 - 100'})]},
      '10.10.20.15',
    );
    if (typeof two === 'string') throw new Error(two);
    expect(two.lines[1]!.text).toMatch(/^2 rules with ports match 10\.10\.20\.15 \(such as .*\): TCP or UDP to their ports may be answered otherwise/);
  });

  it('groups sorted by size within a verdict, with tones and weights', () => {
    const carol = user({id: 'u-c', email: 'carol@example.com'});
    const carolDevice = device({id: 'd-c', user_id: 'u-c', name: 'carol-laptop', ipv4: '10.3.2.30'});
    const rules = [r({action: 'drop', destination: '10.2.0.0/16', user_id: 'u-a'}), r({action: 'drop', destination: '10.2.3.0/24', user_id: 'u-b'})];
    const result = reach({users: [alice, bob, carol], devices: [...devices, carolDevice], rules}, '10.2.3.4:80/udp');
    if (typeof result === 'string') throw new Error(result);
    expect(result.lines).toEqual([
      {text: 'Who can reach 10.2.3.4 udp 80: 1 of 3 users (of the 3 with a device that sends there, the rules accept 1 and drop 2)', bold: true},
      {text: ''},
      {text: 'ACCEPT: 1 user', bold: true, tone: 'ok'},
      {text: "  no rule matches: the forward chain's policy accepts — 1 user"},
      {text: '    carol@example.com', tone: 'muted'},
      {text: ''},
      {text: 'DROP: 2 users', bold: true, tone: 'danger'},
      {text: '  by DROP 10.2.0.0/16 all ports · alice@example.com — 1 user'},
      {text: '    alice@example.com', tone: 'muted'},
      {text: '  by DROP 10.2.3.0/24 all ports · bob@example.com — 1 user'},
      {text: '    bob@example.com', tone: 'muted'},
    ]);
    const many = Array.from({length: 3}, (_, i) => user({id: `m${i}`, email: `m${i}@example.com`}));
    const manyDevices = many.map((u, i) => device({id: `md${i}`, user_id: u.id, name: `m${i}`, ipv4: `10.3.4.${i + 1}`}));
    const sorted = reach(
      {
        users: [alice, ...many],
        devices: [...devices, ...manyDevices],
        rules: [r({action: 'drop', destination: '10.2.0.0/16', user_id: 'u-a'}), r({action: 'drop', destination: '10.0.0.0/8'})],
      },
      '10.2.3.4',
    );
    if (typeof sorted === 'string') throw new Error(sorted);
    expect(sorted.lines.filter((l) => l.text.startsWith('  by')).map((l) => l.text)).toEqual([
      '  by DROP 10.0.0.0/8 all ports · global — 3 users',
      '  by DROP 10.2.0.0/16 all ports · alice@example.com — 1 user',
    ]);
    expect(sorted.lines.find((l) => l.text.startsWith('    m0'))!.text).toBe('    m0@example.com, m1@example.com, m2@example.com');
  });
});
