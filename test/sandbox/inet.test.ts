import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {castInet, castIpPort, formatInet, formatIp, formatIpPort, inetOverlaps, parseAddress, readForm} from '../../src/sandbox/inet.js';
import {castPortRange, portRangeWithinValidValues} from '../../src/sandbox/portrange.js';

const ntoa = (text: string): string | null => {
  const ip = parseAddress(text);
  return ip ? formatIp(ip) : null;
};

describe(':inet.parse_address/1 (lenient IPv4, strict IPv6)', () => {
  it.each([
    ['10.3.2.7', '10.3.2.7'],
    ['10.1', '10.0.0.1'],
    ['11', '0.0.0.11'],
    ['10.1.2', '10.1.0.2'],
    ['010.0.0.1', '8.0.0.1'],
    ['0x0a.0.0.1', '10.0.0.1'],
    ['0X7F.1', '127.0.0.1'],
    ['4294967295', '255.255.255.255'],
    ['1.16777215', '1.255.255.255'],
    ['0', '0.0.0.0'],
    ['fd00::3:2:5', 'fd00::3:2:5'],
    ['FD00:0:0:0:0:0:3:5', 'fd00::3:5'],
    ['::', '::'],
    ['::1', '::1'],
    ['::2', '::0.0.0.2'],
    ['::ffff:1.2.3.4', '::ffff:1.2.3.4'],
    ['1:0:0:2:0:0:0:3', '1:0:0:2::3'],
    ['1:0:0:2:0:0:3:4', '1::2:0:0:3:4'],
    ['2001:db8::1', '2001:db8::1'],
    ['1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:0'],
    [':1::2', '1::2'],
    ['fe80::1%3', 'fe80::1%3'],
  ])('%s → %s', (input, expected) => {
    expect(ntoa(input)).toBe(expected);
  });

  it.each([
    '256.0.0.1',
    '1.2.3.4.5',
    '1.2.3.',
    '08.1.1.1',
    '0x',
    '1.256.0',
    '-1',
    '+1.2.3.4',
    'a.b.c.d',
    '',
    ' 1.2.3.4',
    '1::2::3',
    '12345::1',
    '1:2:3:4:5:6:7:8:9',
    '::1.2.3.04',
    'not-an-ip',
    '10.0 0.0',
    '4294967296',
    'fe80::1%',
  ])('%s is invalid', (input) => {
    expect(parseAddress(input)).toBeNull();
  });

  it('formats every IPv4 address back to itself (property)', () => {
    fc.assert(
      fc.property(fc.ipV4(), (text) => {
        expect(ntoa(text)).toBe(text);
      }),
    );
  });

  it('parses every IPv6 text form and formats canonically (property)', () => {
    fc.assert(
      fc.property(fc.ipV6(), (text) => {
        const ip = parseAddress(text);
        expect(ip?.family).toBe(6);
        expect(parseAddress(formatIp(ip!))).toEqual(ip);
      }),
    );
  });
});

describe('INET cast, netmask echo and overlap', () => {
  it('keeps host bits and the given netmask; a full-length netmask is dropped on later reads', () => {
    expect(formatInet(castInet('1.1.1.1/24')!)).toBe('1.1.1.1/24');
    expect(formatInet(castInet(' 10.0.0.1/32 ')!)).toBe('10.0.0.1/32');
    expect(formatInet(readForm(castInet('10.0.0.1/32')!))).toBe('10.0.0.1');
    expect(formatInet(readForm(castInet('fd00::1/128')!))).toBe('fd00::1');
    expect(formatInet(readForm(castInet('fd00::/64')!))).toBe('fd00::/64');
  });

  it('accepts any integer netmask at cast time (Postgres rejects out-of-range ones later)', () => {
    expect(castInet('10.0.0.0/33')?.netmask).toBe(33);
    expect(castInet('10.0.0.0/-1')?.netmask).toBe(-1);
    expect(castInet('10.0.0.0/')).toBeNull();
    expect(castInet('10.0.0.0/24x')).toBeNull();
    expect(castInet('foobar')).toBeNull();
  });

  it('overlap is containment in either direction within a family', () => {
    const o = (a: string, b: string): boolean => inetOverlaps(castInet(a)!, castInet(b)!);
    expect(o('10.10.10.1/24', '10.10.10.200/24')).toBe(true);
    expect(o('10.0.0.0/8', '10.1.2.3')).toBe(true);
    expect(o('10.1.0.0/16', '10.2.0.0/16')).toBe(false);
    expect(o('::/0', '10.0.0.0/8')).toBe(false);
  });
});

describe('IPPort', () => {
  it.each([
    ['1.2.3.4:51820', '1.2.3.4:51820'],
    ['1.2.3.4', '1.2.3.4'],
    ['[fd00::1]:8080', '[fd00::1]:8080'],
    ['fd00::1', 'fd00::1'],
    ['  127.0.0.1    ', '127.0.0.1'],
    ['123', '0.0.0.123'],
  ])('%s → %s', (input, expected) => {
    expect(formatIpPort(castIpPort(input)!)).toBe(expected);
  });

  it.each(['1.2.3.4:0', '1.2.3.4:65536', 'vpn.example.com:51820', '[fd00::1', '1.2.3.4:x'])('%s is not an IP endpoint', (input) => {
    expect(castIpPort(input)).toBeNull();
  });
});

describe('port_range (FzHttp.Types.Int4Range)', () => {
  const value = (input: unknown): string => {
    const r = castPortRange(input);
    return r.kind === 'ok' ? r.value : r.kind === 'error' ? `error: ${r.message}` : 'crash';
  };

  it.each([
    ['80', '80'],
    ['80-90', '80 - 90'],
    ['80 - 90', '80 - 90'],
    ['  80  -  90  ', '80 - 90'],
    ['90-90', '90'],
    ['-80', '80'],
    ['80abc', '80'],
    ['80-90-100', '80 - 90'],
    ['[1,3)', '1 - 2'],
    ['(1,3]', '2 - 3'],
    ['[5,5]', '5'],
    ['20-10', 'error: lower value cannot be higher than upper value'],
    ['abc', 'error: bad format'],
    [' ', 'error: bad format'],
    ['[a,b]', 'error: bad format'],
  ])('%j → %s', (input, expected) => {
    expect(value(input)).toBe(expected);
  });

  it('accepts a JSON [lower, upper] pair and crashes on a JSON number (FunctionClauseError)', () => {
    expect(value([1, 2])).toBe('1 - 2');
    expect(value([7, 7])).toBe('7');
    expect(value([3, 1])).toBe('error: lower value cannot be higher than upper value');
    expect(value(80)).toBe('crash');
    expect(value(true)).toBe('crash');
    expect(value([1, 2, 3])).toBe('crash');
  });

  it('is within the half-open int4range(1, 65535): 1..65534', () => {
    expect(portRangeWithinValidValues(1, 65534)).toBe(true);
    expect(portRangeWithinValidValues(1, 65535)).toBe(false);
    expect(portRangeWithinValidValues(0, 10)).toBe(false);
  });
});
