// The access explainer against the real thing: inside network namespaces, exactly the nftables
// ruleset 0.7.36's fz_wall builds (the behaviour doc's §11.3: table, sets, jump rules, per-user
// chains; `wg-firezone` is a veth here), real TCP and UDP packets from device addresses through
// the kernel's forward hook, and each verdict compared with RuleBook's (src/state/access/).
//
// Three namespaces: a client holding the device addresses, the router with the firewall, and a
// sink the router forwards to. The router counts each test packet twice, by its source port, in
// sets filled by its own chains: one before fz_wall's chain (the packet arrived) and one after it
// (the packet was accepted). The test waits for the first, never for a time, then reads the second.
// Needs root, `ip netns` and `nft` (.ci/run installs nftables and iproute2); where namespaces are
// not permitted the suite says why and is skipped.
import {execFileSync, spawn, type ChildProcessWithoutNullStreams} from 'node:child_process';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import fc from 'fast-check';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import type {Rule} from '../../src/api/index.js';
import {parseCidr, formatCidr} from '../../src/common/cidr.js';
import {packet, RuleBook, setOf} from '../../src/state/access/evaluate.js';
import {rule} from '../fixtures/data.js';
import {TempDirs} from '../helpers/tmp.js';

const tag = `fz${process.pid % 100000}`;
const NS = {client: `${tag}c`, router: `${tag}r`, sink: `${tag}s`};
const USERS = {a: '6f1c2b8e-0d1a-4c3e-9b5f-2a7d8e9f0a11', b: '0b9e8d7c-6a5f-4e3d-8c2b-1a0f9e8d7c22'};
const DEVICE = {a: '10.3.2.2', b: '10.3.2.9'};

function why(): string | null {
  try {
    if (process.getuid?.() !== 0) return 'not root';
    execFileSync('nft', ['--version'], {stdio: 'ignore'});
    execFileSync('ip', ['netns', 'add', `${tag}probe`], {stdio: 'ignore'});
    execFileSync('ip', ['netns', 'del', `${tag}probe`], {stdio: 'ignore'});
    return null;
  } catch (err) {
    return `network namespaces or nft unavailable: ${(err as Error).message.split('\n')[0]}`;
  }
}
const unavailable = why();
if (unavailable) console.warn(`access.netns: skipped (${unavailable})`);

const run = (ns: string, ...args: string[]) => execFileSync('ip', ['netns', 'exec', ns, ...args], {encoding: 'utf8'});
const nft = (script: string) => {
  const file = join(dir, 'rules.nft');
  writeFileSync(file, script);
  run(NS.router, 'nft', '-f', file);
};

let dir: string;
const tmp = new TempDirs();
let sender: ChildProcessWithoutNullStreams;
let sent = 0;

/** The client's packet sender: one JSON line per packet, from a device address and a chosen source port. */
const SENDER = `
const dgram = require('node:dgram');
const net = require('node:net');
const rl = require('node:readline').createInterface({input: process.stdin});
rl.on('line', (line) => {
  const p = JSON.parse(line);
  if (p.proto === 'udp') {
    const s = dgram.createSocket('udp4');
    s.bind({address: p.src, port: p.sport}, () => s.send('x', p.port, p.dst, () => { s.close(); console.log('sent ' + p.sport); }));
  } else {
    const s = net.connect({host: p.dst, port: p.port, localAddress: p.src, localPort: p.sport});
    s.on('error', () => {});
    // The SYN leaves with connect(); closing at once means no retransmission later.
    setImmediate(() => { s.destroy(); console.log('sent ' + p.sport); });
  }
});
`;

function firewall(rules: readonly Rule[]): string {
  // §11.3, in its order: the global sets and their rules inserted at the top, then per user.
  const wg = 'wg-firezone';
  const lines = ['add table inet firezone', 'delete table inet firezone', 'create table inet firezone'];
  lines.push('add chain inet firezone forward { type filter hook forward priority 0 ; policy accept ; }');
  const sets = (prefix: string, chain: string) => {
    const names = ['ip_drop', 'ip_accept', 'ip6_drop', 'ip6_accept'];
    const types: Record<string, string> = {ip: 'ipv4_addr', ip6: 'ipv6_addr'};
    for (const n of names) lines.push(`add set inet firezone ${prefix}${n} { type ${types[n.split('_')[0]!]} ; flags interval ; }`);
    for (const n of names)
      lines.push(`add set inet firezone ${prefix}${n}_layer4 { type ${types[n.split('_')[0]!]} . inet_proto . inet_service ; flags interval ; }`);
    for (const n of names) {
      const [fam, action] = n.split('_') as [string, string];
      lines.push(`insert rule inet firezone ${chain} ${fam} daddr @${prefix}${n} meta iifname ${wg} ${action}`);
    }
    for (const n of names) {
      const [fam, action] = n.split('_') as [string, string];
      lines.push(`insert rule inet firezone ${chain} ${fam} daddr . meta l4proto . th dport @${prefix}${n}_layer4 meta iifname ${wg} ${action}`);
    }
  };
  sets('', 'forward');
  for (const [key, uid] of Object.entries(USERS)) {
    lines.push(`add set inet firezone user${uid}_ip_devices { type ipv4_addr ; flags interval ; }`);
    lines.push(`add set inet firezone user${uid}_ip6_devices { type ipv6_addr ; flags interval ; }`);
    lines.push(`add chain inet firezone user${uid}`);
    lines.push(`insert rule inet firezone forward ip saddr @user${uid}_ip_devices jump user${uid}`);
    lines.push(`insert rule inet firezone forward ip6 saddr @user${uid}_ip6_devices jump user${uid}`);
    sets(`user${uid}_`, `user${uid}`);
    lines.push(`add element inet firezone user${uid}_ip_devices { ${DEVICE[key as 'a' | 'b']} }`);
  }
  for (const r of rules) {
    const dest = parseCidr(r.destination)!;
    const set = `${r.user_id ? `user${r.user_id}_` : ''}${dest.family === 4 ? 'ip' : 'ip6'}_${r.action}${r.port_type ? '_layer4' : ''}`;
    const element = `${formatCidr(dest)}${r.port_type ? ` . ${r.port_type} . ${r.port_range!.replace(' - ', '-')}` : ''}`;
    lines.push(`add element inet firezone ${set} { ${element} }`);
  }
  return `${lines.join('\n')}\n`;
}

const seen = (set: string): Set<number> => {
  const out = run(NS.router, 'nft', '-j', 'list', 'set', 'inet', 'probe', set);
  const elems = (JSON.parse(out) as {nftables: Array<{set?: {elem?: unknown[]}}>}).nftables.find((x) => x.set)?.set?.elem ?? [];
  return new Set(elems.map((e) => Number(typeof e === 'object' && e !== null && 'elem' in e ? (e as {elem: {val: unknown}}).elem.val : e)));
};

async function send(p: {src: string; dst: string; proto: 'tcp' | 'udp'; port: number; sport: number}): Promise<void> {
  const line = `sent ${p.sport}`;
  const done = new Promise<void>((resolve) => {
    const onData = (d: Buffer) => {
      if (d.toString().includes(line)) {
        sender.stdout.off('data', onData);
        resolve();
      }
    };
    sender.stdout.on('data', onData);
  });
  sender.stdin.write(`${JSON.stringify(p)}\n`);
  await done;
  sent++;
}

/** Waits until the router has seen every source port in `sports` arrive (a condition, not a time). */
async function arrived(sports: number[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const got = seen('entered');
    if (sports.every((s) => got.has(s))) return;
    if (Date.now() > deadline) throw new Error(`packets ${sports.filter((s) => !got.has(s)).join(', ')} never reached the router`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.skipIf(unavailable !== null)('the explainer agrees with the kernel (nftables in network namespaces)', {timeout: 300_000}, () => {
  beforeAll(() => {
    dir = tmp.make('fz-netns-');
    for (const ns of Object.values(NS)) execFileSync('ip', ['netns', 'add', ns]);
    const ip = (...args: string[]) => execFileSync('ip', args);
    ip('link', 'add', 'c0', 'netns', NS.client, 'type', 'veth', 'peer', 'name', 'wg-firezone', 'netns', NS.router);
    ip('link', 'add', 'rout', 'netns', NS.router, 'type', 'veth', 'peer', 'name', 's0', 'netns', NS.sink);
    run(NS.client, 'ip', 'link', 'set', 'lo', 'up');
    run(NS.client, 'ip', 'link', 'set', 'c0', 'up');
    for (const a of Object.values(DEVICE)) run(NS.client, 'ip', 'addr', 'add', `${a}/32`, 'dev', 'c0');
    run(NS.client, 'ip', 'route', 'add', 'default', 'via', '10.3.2.1', 'dev', 'c0', 'onlink');
    run(NS.router, 'ip', 'link', 'set', 'wg-firezone', 'up');
    run(NS.router, 'ip', 'link', 'set', 'rout', 'up');
    run(NS.router, 'ip', 'addr', 'add', '192.0.2.1/30', 'dev', 'rout');
    run(NS.router, 'ip', 'addr', 'add', '10.3.2.1/24', 'dev', 'wg-firezone');
    run(NS.router, 'ip', 'route', 'add', 'default', 'via', '192.0.2.2');
    run(NS.router, 'sysctl', '-qw', 'net.ipv4.ip_forward=1', 'net.ipv4.conf.all.rp_filter=0', 'net.ipv4.conf.wg-firezone.rp_filter=0');
    run(NS.sink, 'ip', 'link', 'set', 's0', 'up');
    run(NS.sink, 'ip', 'addr', 'add', '192.0.2.2/30', 'dev', 's0');
    // The router's probe: source ports of test packets as they arrive, and once fz_wall's chain let them through.
    nft(
      [
        'table inet probe {',
        '  set entered { type inet_service ; flags dynamic ; }',
        '  set passed { type inet_service ; flags dynamic ; }',
        '  chain before { type filter hook forward priority -10 ; policy accept ; meta l4proto { tcp, udp } th sport 20000-60000 update @entered { th sport } ; }',
        '  chain after { type filter hook forward priority 10 ; policy accept ; meta l4proto { tcp, udp } th sport 20000-60000 update @passed { th sport } ; }',
        '}',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'sender.cjs'), SENDER);
    sender = spawn('ip', ['netns', 'exec', NS.client, process.execPath, join(dir, 'sender.cjs')]);
  });

  afterAll(() => {
    sender?.stdin.end();
    sender?.kill();
    for (const ns of Object.values(NS)) {
      try {
        execFileSync('ip', ['netns', 'del', ns], {stdio: 'ignore'});
      } catch {
        // already gone
      }
    }
    // The sender's script (read when it started) and the last ruleset (nft -f has returned).
    tmp.remove();
  });

  it('on 200 random rule sets and their packets, every verdict is the kernel’s', async () => {
    const user = fc.constantFrom(null, USERS.a, USERS.b);
    const arbRule = fc.record({
      action: fc.constantFrom('accept' as const, 'drop' as const),
      a: fc.integer({min: 0, max: 2}),
      b: fc.integer({min: 0, max: 2}),
      prefix: fc.constantFrom(8, 16, 24, 32),
      ports: fc.option(
        fc.record({proto: fc.constantFrom('tcp' as const, 'udp' as const), from: fc.integer({min: 1, max: 60}), len: fc.integer({min: 0, max: 30})}),
        {nil: null},
      ),
      user,
    });
    const arbPacket = fc.record({
      from: fc.constantFrom('a' as const, 'b' as const),
      a: fc.integer({min: 0, max: 2}),
      b: fc.integer({min: 0, max: 2}),
      proto: fc.constantFrom('tcp' as const, 'udp' as const),
      port: fc.integer({min: 1, max: 100}),
    });
    const samples = fc.sample(fc.tuple(fc.array(arbRule, {maxLength: 10}), fc.array(arbPacket, {minLength: 5, maxLength: 5})), {numRuns: 200, seed: 26});
    let compared = 0;
    let sport = 20000;
    for (const [specs, packets] of samples) {
      // The server refuses overlapping rules of one set (the behaviour doc's §5.2 exclusion
      // constraints): keep the first of any overlapping pair, as the server would.
      const rules: Rule[] = [];
      for (const [i, s] of specs.entries()) {
        const candidate = rule({
          id: `r${i}`,
          action: s.action,
          destination: `10.${s.a}.${s.b}.7/${s.prefix}`,
          port_type: s.ports?.proto ?? null,
          port_range: s.ports ? (s.ports.len === 0 ? String(s.ports.from) : `${s.ports.from} - ${s.ports.from + s.ports.len}`) : null,
          user_id: s.user,
        });
        if (!rules.some((other) => conflicts(other, candidate))) rules.push(candidate);
      }
      nft(firewall(rules));
      run(NS.router, 'nft', 'flush', 'set', 'inet', 'probe', 'entered');
      run(NS.router, 'nft', 'flush', 'set', 'inet', 'probe', 'passed');
      const book = new RuleBook(rules, new Set(Object.values(USERS)));
      const batch = packets.map((p) => ({...p, src: DEVICE[p.from], dst: `10.${p.a}.${p.b}.7`, sport: sport++}));
      for (const p of batch) await send({src: p.src, dst: p.dst, proto: p.proto, port: p.port, sport: p.sport});
      await arrived(batch.map((p) => p.sport));
      const passed = seen('passed');
      for (const p of batch) {
        const expected = book.evaluate(USERS[p.from], packet(p.src, p.dst, p.proto, p.port)!);
        const kernel = passed.has(p.sport) ? 'accept' : 'drop';
        expect(
          kernel,
          `${p.proto} ${p.src} → ${p.dst}:${p.port} with ${JSON.stringify(rules.map((r) => [r.action, r.destination, r.port_type, r.port_range, r.user_id]))}`,
        ).toBe(expected.verdict);
        compared++;
      }
      if (sport > 59000) sport = 20000;
    }
    expect(compared).toBe(1000);
    console.log(`access.netns: ${compared} packets over ${samples.length} rule sets, every verdict the kernel's (${sent} sent)`);
  });
});

/** Whether the server would refuse `b` beside `a`: one set (user, action, ports or not), overlapping destinations and, with ports, the same protocol and overlapping ranges. */
function conflicts(a: Rule, b: Rule): boolean {
  if (a.user_id !== b.user_id || a.action !== b.action || setOf(a) !== setOf(b)) return false;
  const da = parseCidr(a.destination)!;
  const db = parseCidr(b.destination)!;
  const overlap = (x: typeof da, y: typeof db) => {
    const shift = (c: typeof da) => BigInt(32 - c.prefix);
    const first = (c: typeof da) => (c.value >> shift(c)) << shift(c);
    const last = (c: typeof da) => first(c) + (1n << shift(c)) - 1n;
    return first(x) <= last(y) && first(y) <= last(x);
  };
  if (!overlap(da, db)) return false;
  if (a.port_type === null) return true;
  if (a.port_type !== b.port_type) return false;
  const range = (r: Rule) => r.port_range!.split(' - ').map(Number) as [number, number?];
  const [a1, a2 = a1] = range(a);
  const [b1, b2 = b1] = range(b);
  return a1 <= b2! && b1 <= a2!;
}
