import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {cidrContains, cidrOverlaps, cidrRange, cidrSortKeyRange, formatCidr, parseAddress, parseCidr, type Cidr} from '../../src/common/cidr.js';
import {ipSortKey} from '../../src/common/ip-literal.js';

const v4 = (a: number, b: number, c: number, d: number) => BigInt(((a * 256 + b) * 256 + c) * 256 + d);
const cidr = (text: string): Cidr => {
  const c = parseCidr(text);
  if (c === null) throw new Error(`not a CIDR: ${text}`);
  return c;
};

describe('parseAddress and parseCidr', () => {
  it('reads IPv4 addresses and blocks, host bits kept as written', () => {
    expect(parseAddress('10.3.2.2')).toEqual({family: 4, value: v4(10, 3, 2, 2), prefix: 32});
    expect(parseAddress('0.0.0.0')).toEqual({family: 4, value: 0n, prefix: 32});
    expect(parseAddress('255.255.255.255')).toEqual({family: 4, value: 0xffffffffn, prefix: 32});
    expect(parseCidr('10.2.3.4/16')).toEqual({family: 4, value: v4(10, 2, 3, 4), prefix: 16});
    expect(parseCidr('0.0.0.0/0')).toEqual({family: 4, value: 0n, prefix: 0});
    expect(parseCidr('10.0.0.1')).toEqual({family: 4, value: v4(10, 0, 0, 1), prefix: 32});
  });

  it('reads IPv6 in every form: full, compressed, at either end, with an embedded IPv4', () => {
    expect(parseAddress('fd00::3:2:2')).toEqual({family: 6, value: (0xfd00n << 112n) | (3n << 32n) | (2n << 16n) | 2n, prefix: 128});
    expect(parseAddress('::')!.value).toBe(0n);
    expect(parseAddress('::1')!.value).toBe(1n);
    expect(parseAddress('fd00::')!.value).toBe(0xfd00n << 112n);
    expect(parseAddress('1:2:3:4:5:6:7:8')!.value).toBe(0x00010002000300040005000600070008n);
    expect(parseAddress('FD00:0:0:0:0:0:0:1')!.value).toBe((0xfd00n << 112n) | 1n);
    expect(parseAddress('::ffff:10.0.0.1')!.value).toBe((0xffffn << 32n) | v4(10, 0, 0, 1));
    expect(parseAddress('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')!.value).toBe((1n << 128n) - 1n);
    expect(parseCidr('fd00::/8')).toEqual({family: 6, value: 0xfd00n << 112n, prefix: 8});
    expect(parseCidr('::/0')).toEqual({family: 6, value: 0n, prefix: 0});
  });

  it('refuses what is not an address or block', () => {
    for (const bad of [
      '',
      '10.0.0',
      '10.0.0.256',
      '010.0.0.1',
      '10.0.0.1/33',
      '10.0.0.1/',
      '10.0.0.1/-1',
      '10.0.0.1/1a',
      '10.0.0.1/1234',
      'fd00::1/129',
      'fd00:::1',
      '1::2::3',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7',
      'fe80::1%eth0',
      ' 10.0.0.1',
      '10.0.0.1 ',
      'example.com',
      'fd00::g',
      '/8',
      '10.0.0.0/8/8',
    ]) {
      expect(parseCidr(bad), bad).toBeNull();
    }
    expect(parseAddress('10.0.0.0/8')).toBeNull();
  });
});

describe('cidrRange', () => {
  it('clears then sets the host bits', () => {
    expect(cidrRange(cidr('10.2.3.4/16'))).toEqual({first: v4(10, 2, 0, 0), last: v4(10, 2, 255, 255)});
    expect(cidrRange(cidr('10.2.3.4'))).toEqual({first: v4(10, 2, 3, 4), last: v4(10, 2, 3, 4)});
    expect(cidrRange(cidr('0.0.0.0/0'))).toEqual({first: 0n, last: 0xffffffffn});
    expect(cidrRange(cidr('fd00::1/120'))).toEqual({first: 0xfd00n << 112n, last: (0xfd00n << 112n) | 0xffn});
  });
});

describe('cidrContains', () => {
  it('holds an address or a smaller block inside a block, by the network bits only', () => {
    expect(cidrContains(cidr('10.2.0.0/16'), cidr('10.2.3.4'))).toBe(true);
    expect(cidrContains(cidr('10.2.3.4/32'), cidr('10.2.3.4'))).toBe(true);
    expect(cidrContains(cidr('10.2.3.4'), cidr('10.2.3.4'))).toBe(true);
    expect(cidrContains(cidr('10.2.99.99/16'), cidr('10.2.3.4'))).toBe(true);
    expect(cidrContains(cidr('10.0.0.0/8'), cidr('10.2.0.0/16'))).toBe(true);
    expect(cidrContains(cidr('0.0.0.0/0'), cidr('192.168.1.1'))).toBe(true);
    expect(cidrContains(cidr('fd00::/8'), cidr('fd00::3:2:2'))).toBe(true);
    expect(cidrContains(cidr('::/0'), cidr('::1'))).toBe(true);
  });

  it('refuses the neighbours, larger blocks and the other family', () => {
    expect(cidrContains(cidr('10.2.0.0/16'), cidr('10.3.0.0'))).toBe(false);
    expect(cidrContains(cidr('10.2.0.0/16'), cidr('10.1.255.255'))).toBe(false);
    expect(cidrContains(cidr('10.2.3.4/32'), cidr('10.2.3.5'))).toBe(false);
    expect(cidrContains(cidr('10.2.0.0/16'), cidr('10.0.0.0/8'))).toBe(false);
    expect(cidrContains(cidr('10.2.3.0/24'), cidr('10.2.0.0/16'))).toBe(false);
    expect(cidrContains(cidr('::/0'), cidr('10.0.0.1'))).toBe(false);
    expect(cidrContains(cidr('0.0.0.0/0'), cidr('::1'))).toBe(false);
    expect(cidrContains(cidr('::ffff:0:0/96'), cidr('10.0.0.1'))).toBe(false);
    expect(cidrContains(cidr('fd00::/8'), cidr('fe00::1'))).toBe(false);
  });

  it('agrees with a comparison of ranges for any IPv4 blocks', () => {
    const block = fc.record({value: fc.integer({min: 0, max: 0xffffffff}), prefix: fc.integer({min: 0, max: 32})});
    fc.assert(
      fc.property(block, block, (a, b) => {
        // The expectation by plain numbers: the first and last address of each block.
        const range = (x: {value: number; prefix: number}) => {
          const size = 2 ** (32 - x.prefix);
          const first = Math.floor(x.value / size) * size;
          return [first, first + size - 1] as const;
        };
        const [af, al] = range(a);
        const [bf, bl] = range(b);
        const outer: Cidr = {family: 4, value: BigInt(a.value), prefix: a.prefix};
        const inner: Cidr = {family: 4, value: BigInt(b.value), prefix: b.prefix};
        expect(cidrContains(outer, inner)).toBe(af <= bf && bl <= al);
        expect(cidrOverlaps(outer, inner)).toBe(af <= bl && bf <= al);
      }),
    );
  });
});

describe('cidrSortKeyRange', () => {
  it('is the range in the keys ipSortKey gives addresses', () => {
    expect(cidrSortKeyRange(cidr('10.2.3.4/16'))).toEqual({family: 4, first: 167903232, last: 167968767});
    expect(cidrSortKeyRange(cidr('fd00::/8'))).toEqual({family: 6, first: `fd${'0'.repeat(30)}`, last: `fd${'f'.repeat(30)}`});
    expect(ipSortKey('10.2.0.0')).toBe(167903232);
    expect(ipSortKey('fd00::')).toBe(`fd${'0'.repeat(30)}`);
  });

  it('holds an address’s key exactly when the block contains the address (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({min: 0n, max: (1n << 128n) - 1n}),
        fc.bigInt({min: 0n, max: (1n << 128n) - 1n}),
        fc.integer({min: 0, max: 128}),
        (a, n, prefix) => {
          const address: Cidr = {family: 6, value: a, prefix: 128};
          const block: Cidr = {family: 6, value: n, prefix};
          const range = cidrSortKeyRange(block);
          const key = ipSortKey(formatCidr(address));
          if (range.family !== 6 || typeof key !== 'string') throw new Error('an IPv6 range and key');
          expect(key >= range.first && key <= range.last).toBe(cidrContains(block, address));
        },
      ),
    );
    fc.assert(
      fc.property(fc.nat(0xffffffff), fc.nat(0xffffffff), fc.integer({min: 0, max: 32}), (a, n, prefix) => {
        const address: Cidr = {family: 4, value: BigInt(a), prefix: 32};
        const block: Cidr = {family: 4, value: BigInt(n), prefix};
        const range = cidrSortKeyRange(block);
        const key = ipSortKey(formatCidr(address));
        if (range.family !== 4 || typeof key !== 'number') throw new Error('an IPv4 range and key');
        expect(key >= range.first && key <= range.last).toBe(cidrContains(block, address));
      }),
    );
  });
});

describe('formatCidr', () => {
  it('writes the network address, IPv6 compressed as RFC 5952 says', () => {
    expect(formatCidr(cidr('10.2.3.4/16'))).toBe('10.2.0.0/16');
    expect(formatCidr(cidr('10.2.3.4'))).toBe('10.2.3.4');
    expect(formatCidr(cidr('fd00:0:0:0:0:0:3:2/120'))).toBe('fd00::3:0/120');
    expect(formatCidr(cidr('::'))).toBe('::');
    expect(formatCidr(cidr('::1'))).toBe('::1');
    expect(formatCidr(cidr('1:0:0:2:0:0:0:3'))).toBe('1:0:0:2::3');
    expect(formatCidr(cidr('1:0:2:0:3:0:4:0'))).toBe('1:0:2:0:3:0:4:0');
    expect(formatCidr(cidr('1:0:0:2:3:0:0:4'))).toBe('1::2:3:0:0:4');
  });

  it('reads back what it writes', () => {
    fc.assert(
      fc.property(fc.bigInt({min: 0n, max: (1n << 128n) - 1n}), fc.integer({min: 0, max: 128}), (value, prefix) => {
        const c: Cidr = {family: 6, value, prefix};
        const back = parseCidr(formatCidr(c))!;
        expect(back.family).toBe(6);
        expect(back.prefix).toBe(prefix);
        expect(back.value).toBe(cidrRange(c).first);
      }),
    );
  });
});
