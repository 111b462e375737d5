import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {allocateAddress} from '../../src/sandbox/allocate.js';
import {bitsOf, cidrContains, formatCidr, formatIp, parseAddress, type Ip} from '../../src/sandbox/inet.js';
import {Prng} from '../../src/sandbox/prng.js';
import {networkCapacity, Settings} from '../../src/sandbox/settings.js';

function settingsFor(env: Record<string, string>): Settings {
  return new Settings({env, externalUrl: 'http://127.0.0.1:13000'});
}

// See docs/firezone-0.7.36.md, "IP allocation".
describe('device address allocation', () => {
  it('never hands out a used, gateway, network or broadcast address, and exhausts exactly at capacity (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({min: 24, max: 29}),
        fc.integer({min: 0, max: 2 ** 31}),
        fc.integer({min: 0, max: 12}),
        fc.integer({min: 0, max: 255}),
        (prefix, seed, preTaken, gatewayOctet) => {
          const net = settingsFor({WIREGUARD_IPV4_NETWORK: `10.9.8.0/${prefix}`, WIREGUARD_IPV4_ADDRESS: `10.9.8.${gatewayOctet}`}).ipv4;
          const size = 2 ** (32 - prefix);
          const base = parseAddress('10.9.8.0')!.value;
          const used = new Set<bigint>();
          const random = new Prng(seed, 'test');
          // some addresses are already taken by devices, possibly including reserved ones
          for (let i = 0; i < preTaken; i++) used.add(base + BigInt(random.int(0, size - 1)));
          const before = used.size;
          const handedOut: Ip[] = [];
          for (;;) {
            const ip = allocateAddress(net, (c) => used.has(c.value), random);
            if (!ip) break;
            handedOut.push(ip);
            const offset = Number(ip.value - base);
            expect(offset).toBeGreaterThanOrEqual(2);
            expect(offset).toBeLessThanOrEqual(size - 2);
            expect(ip.value).not.toBe(net.gateway.value);
            expect(used.has(ip.value)).toBe(false);
            expect(cidrContains(net.effective, ip)).toBe(true);
            used.add(ip.value);
          }
          // exhaustion only once every allocatable offset is taken
          for (let offset = 2; offset <= size - 2; offset++) {
            const value = base + BigInt(offset);
            if (value !== net.gateway.value) expect(used.has(value)).toBe(true);
          }
          expect(handedOut.length).toBeLessThanOrEqual(Number(networkCapacity(net)));
          expect(handedOut.length + before).toBeGreaterThanOrEqual(Number(networkCapacity(net)));
        },
      ),
      {numRuns: 60},
    );
  });

  it('for 10.3.2.0/24 (gateway .1) hands out 10.3.2.2 – 10.3.2.254: 253 addresses', () => {
    const net = settingsFor({}).ipv4;
    expect(formatCidr(net.network)).toBe('10.3.2.0/24');
    expect(formatIp(net.gateway)).toBe('10.3.2.1');
    expect(networkCapacity(net)).toBe(253n);
    const used = new Set<bigint>();
    const random = new Prng(7, 'test');
    let ip: Ip | null;
    while ((ip = allocateAddress(net, (c) => used.has(c.value), random))) used.add(ip.value);
    const octets = [...used].map((v) => Number(v & 0xffn)).sort((a, b) => a - b);
    expect(octets[0]).toBe(2);
    expect(octets.at(-1)).toBe(254);
    expect(octets).toHaveLength(253);
  });

  it('clamps IPv6 networks shorter than /70 to /70 (fd00::/20 allocates inside fd00::/70)', () => {
    const net = settingsFor({WIREGUARD_IPV6_NETWORK: 'fd00::/20'}).ipv6;
    expect(formatCidr(net.effective)).toBe('fd00::/70');
    fc.assert(
      fc.property(fc.integer({min: 0, max: 2 ** 31}), (seed) => {
        const ip = allocateAddress(net, () => false, new Prng(seed, 'test'))!;
        expect(ip.family).toBe(6);
        expect(formatIp(ip).startsWith('fd00::') || formatIp(ip).startsWith('fd00:0:0:0:')).toBe(true);
        expect(ip.value >> BigInt(bitsOf(6) - 70)).toBe(parseAddress('fd00::')!.value >> BigInt(bitsOf(6) - 70));
      }),
      {numRuns: 50},
    );
  });

  it('keeps a /120 or longer IPv6 network as configured', () => {
    expect(formatCidr(settingsFor({}).ipv6.effective)).toBe('fd00::3:2:0/120');
  });

  it('returns null when nothing is free', () => {
    const net = settingsFor({WIREGUARD_IPV4_NETWORK: '10.0.0.0/30'}).ipv4;
    // offsets 2..2 only, and .1 is the gateway: one address
    const first = allocateAddress(net, () => false, new Prng(1, 'x'));
    expect(first && formatIp(first)).toBe('10.0.0.2');
    expect(allocateAddress(net, () => true, new Prng(1, 'x'))).toBeNull();
  });
});
