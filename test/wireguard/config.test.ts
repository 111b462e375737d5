import {describe, expect, it} from 'vitest';
import type {Device} from '../../src/api/index.js';
import {configWarnings, renderClientConfig, type ClientConfigDevice} from '../../src/wireguard/config.js';
import {ClientConfigError} from '../../src/wireguard/validate.js';
import {generateKeyPair, generatePresharedKey} from '../../src/wireguard/keys.js';
import {device as apiDevice} from '../fixtures/data.js';

const PRIVATE = generateKeyPair().privateKey;
const SERVER = generateKeyPair().publicKey;
const PSK = generatePresharedKey();

// The "typical default-valued result" device of docs/firezone-0.7.36.md, "The WireGuard client config", as the
// /v0 JSON carries it.
function typical(overrides: Partial<ClientConfigDevice> = {}): ClientConfigDevice {
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
  };
}

// Line index in the 12-line template (0-based).
const L = {address: 2, mtu: 3, dns: 4, psk: 7, publicKey: 8, allowedIps: 9, endpoint: 10, keepalive: 11} as const;
const lineOf = (conf: string, i: number) => conf.split('\n')[i];
const endpointLine = (overrides: Partial<ClientConfigDevice>, port?: number) =>
  lineOf(renderClientConfig(typical(overrides), {privateKey: PRIVATE, wireguardPort: port}), L.endpoint);

describe('renderClientConfig', () => {
  it("reproduces the admin UI doc's typical default-valued output byte for byte", () => {
    const expected =
      '[Interface]\n' +
      `PrivateKey = ${PRIVATE}\n` +
      'Address = 10.3.2.7/32,fd00::3:2:7/128\n' +
      'MTU = 1280\n' +
      'DNS = 1.1.1.1,1.0.0.1\n' +
      '\n' +
      '[Peer]\n' +
      `PresharedKey = ${PSK}\n` +
      `PublicKey = ${SERVER}\n` +
      'AllowedIPs = 0.0.0.0/0,::/0\n' +
      'Endpoint = vpn.example.com:51820\n' +
      'PersistentKeepalive = 25\n';
    expect(renderClientConfig(typical(), {privateKey: PRIVATE})).toBe(expected);
    // A default endpoint without a port (bare FQDN) comes out the same with the default port.
    expect(renderClientConfig(typical({endpoint: 'vpn.example.com'}), {privateKey: PRIVATE})).toBe(expected);
    expect(Buffer.byteLength(expected)).toBeGreaterThan(340);
    expect(configWarnings(typical())).toEqual([]);
  });

  it('always has 12 lines and a trailing newline, blank lines standing in for empty values', () => {
    const conf = renderClientConfig(typical({mtu: null, dns: [], allowed_ips: null, endpoint: '  ', persistent_keepalive: null, preshared_key: null}), {
      privateKey: PRIVATE,
    });
    expect(conf).toBe(`[Interface]\nPrivateKey = ${PRIVATE}\nAddress = 10.3.2.7/32,fd00::3:2:7/128\n\n\n\n[Peer]\n\nPublicKey = ${SERVER}\n\n\n\n`);
  });

  it('drops the IPv6 address when the device has none (IPv6 disabled on the server)', () => {
    expect(lineOf(renderClientConfig(typical({ipv6: null}), {privateKey: PRIVATE}), L.address)).toBe('Address = 10.3.2.7/32');
    expect(lineOf(renderClientConfig(typical({ipv4: null}), {privateKey: PRIVATE}), L.address)).toBe('Address = fd00::3:2:7/128');
    const none = renderClientConfig(typical({ipv4: null, ipv6: null}), {privateKey: PRIVATE});
    expect(lineOf(none, L.address)).toBe('Address = ');
    expect(configWarnings(typical({ipv4: null, ipv6: null}))[0]).toMatch(/no tunnel address/);
  });

  it('renders empty DNS ([] or null) as a blank line, and a list with only blanks as "DNS = " like 0.7.36', () => {
    expect(lineOf(renderClientConfig(typical({dns: []}), {privateKey: PRIVATE}), L.dns)).toBe('');
    expect(lineOf(renderClientConfig(typical({dns: null}), {privateKey: PRIVATE}), L.dns)).toBe('');
    expect(lineOf(renderClientConfig(typical({dns: ['']}), {privateKey: PRIVATE}), L.dns)).toBe('DNS = ');
    expect(lineOf(renderClientConfig(typical({dns: ['10.0.0.53']}), {privateKey: PRIVATE}), L.dns)).toBe('DNS = 10.0.0.53');
  });

  it('prints PersistentKeepalive = 0 (0.7.36 no longer treats 0 as empty)', () => {
    expect(lineOf(renderClientConfig(typical({persistent_keepalive: 0}), {privateKey: PRIVATE}), L.keepalive)).toBe('PersistentKeepalive = 0');
    expect(lineOf(renderClientConfig(typical({persistent_keepalive: null}), {privateKey: PRIVATE}), L.keepalive)).toBe('');
  });

  it('renders a null MTU as a blank line', () => {
    const conf = renderClientConfig(typical({mtu: null}), {privateKey: PRIVATE});
    expect(lineOf(conf, L.mtu)).toBe('');
    expect(lineOf(conf, L.dns)).toBe('DNS = 1.1.1.1,1.0.0.1');
  });

  it('joins AllowedIPs with "," and prints entries as given', () => {
    expect(lineOf(renderClientConfig(typical({allowed_ips: ['10.0.0.0/8', '1.1.1.1', 'fd00::/64']}), {privateKey: PRIVATE}), L.allowedIps)).toBe(
      'AllowedIPs = 10.0.0.0/8,1.1.1.1,fd00::/64',
    );
    expect(configWarnings(typical({allowed_ips: []}))[0]).toMatch(/AllowedIPs is empty/);
  });

  it('keeps the PresharedKey line first in [Peer] and prints an unknown server key as an empty PublicKey', () => {
    const conf = renderClientConfig(typical({server_public_key: null}), {privateKey: PRIVATE});
    expect(lineOf(conf, L.psk)).toBe(`PresharedKey = ${PSK}`);
    expect(lineOf(conf, L.publicKey)).toBe('PublicKey = ');
    expect(configWarnings(typical({server_public_key: null}))[0]).toMatch(/empty PublicKey line/);
    // psk_config/1 tests truthiness, so only null drops the line; a blank PSK prints as is.
    expect(lineOf(renderClientConfig(typical({preshared_key: ''}), {privateKey: PRIVATE}), L.psk)).toBe('PresharedKey = ');
    expect(configWarnings(typical({preshared_key: ''}))).toEqual([expect.stringMatching(/empty PresharedKey line/)]);
  });

  it('warns of an endpoint on the unspecified address (0.7.36 reads a default endpoint "0" as 0.0.0.0), with or without a port, v4 or v6', () => {
    const unreachable = /^Endpoint (\S+) is the unspecified address (0\.0\.0\.0|::) .*no client can reach the server there/;
    expect(configWarnings(typical({endpoint: '0.0.0.0', use_default_endpoint: true}))).toEqual([expect.stringMatching(unreachable)]);
    expect(configWarnings(typical({endpoint: '0.0.0.0:51820'}))[0]).toMatch(/^Endpoint 0\.0\.0\.0:51820 is the unspecified address 0\.0\.0\.0/);
    expect(configWarnings(typical({endpoint: '[::]:51820'}))[0]).toMatch(/^Endpoint \[::\]:51820 is the unspecified address ::/);
    expect(configWarnings(typical({endpoint: '::', use_default_endpoint: true}))[0]).toMatch(/is the unspecified address ::/);
    // Addresses that only look like it, and names, are endpoints like any other.
    for (const endpoint of ['10.0.0.0', '0.0.0.1:51820', '[::1]:51820', 'zero.example.com', '[fd00::]:51820']) {
      expect(configWarnings(typical({endpoint})), endpoint).toEqual([]);
    }
  });

  describe('endpoint port completion (0.7.36 maybe_add_port)', () => {
    it('IPv4 without a port gets WIREGUARD_PORT', () => {
      expect(endpointLine({endpoint: '203.0.113.5'})).toBe('Endpoint = 203.0.113.5:51820');
      expect(endpointLine({endpoint: '203.0.113.5'}, 443)).toBe('Endpoint = 203.0.113.5:443');
      expect(endpointLine({endpoint: '203.0.113.5', use_default_endpoint: true})).toBe('Endpoint = 203.0.113.5:51820');
    });
    it('IPv4 with a port is kept', () => {
      expect(endpointLine({endpoint: '203.0.113.5:4500'})).toBe('Endpoint = 203.0.113.5:4500');
    });
    it('[v6]:port is kept', () => {
      expect(endpointLine({endpoint: '[2001:db8::1]:51821'})).toBe('Endpoint = [2001:db8::1]:51821');
      expect(configWarnings(typical({endpoint: '[2001:db8::1]:51821'}))).toEqual([]);
    });
    it('[v6] without a port gets one', () => {
      expect(endpointLine({endpoint: '[2001:db8::1]'})).toBe('Endpoint = [2001:db8::1]:51820');
      expect(configWarnings(typical({endpoint: '[2001:db8::1]'}))).toEqual([]);
    });
    it('a bare hostname gets :51820, hostname:port is kept', () => {
      expect(endpointLine({endpoint: 'vpn.example.com'})).toBe('Endpoint = vpn.example.com:51820');
      expect(endpointLine({endpoint: 'vpn.example.com:443'})).toBe('Endpoint = vpn.example.com:443');
      expect(configWarnings(typical({endpoint: 'vpn.example.com'}))).toEqual([]);
    });
    it("a device's own bare IPv6 gets the malformed …::1:51820 exactly like 0.7.36, with a warning", () => {
      expect(endpointLine({endpoint: 'fd00::1'})).toBe('Endpoint = fd00::1:51820');
      expect(endpointLine({endpoint: 'fd00::1', use_default_endpoint: false})).toBe('Endpoint = fd00::1:51820');
      const [warning, ...rest] = configWarnings(typical({endpoint: 'fd00::1'}));
      expect(rest).toEqual([]);
      expect(warning).toMatch(/^Endpoint fd00::1 is an unbracketed IPv6 address; the config gets fd00::1:51820 exactly as Firezone 0.7.36 would/);
      expect(warning).toContain('use [fd00::1]:51820 instead');
      expect(configWarnings(typical({endpoint: 'fd00::1'}), {wireguardPort: 443})[0]).toContain('fd00::1:443');
    });
    it('a default (IPPort) bare IPv6 is bracketed, as 0.7.36 does for IP endpoints', () => {
      expect(endpointLine({endpoint: 'fd00::1', use_default_endpoint: true})).toBe('Endpoint = [fd00::1]:51820');
      expect(configWarnings(typical({endpoint: 'fd00::1', use_default_endpoint: true}))).toEqual([]);
    });
    it('other multi-colon strings are not endpoints and refuse the config (and the warnings)', () => {
      expect(() => endpointLine({endpoint: 'a:b:c'})).toThrow(ClientConfigError);
      expect(() => configWarnings(typical({endpoint: 'a:b:c'}))).toThrow(/Endpoint endpoint .*: "a:b:c"$/);
    });
    it('an empty endpoint gives a blank line and a warning', () => {
      expect(endpointLine({endpoint: null})).toBe('');
      expect(configWarnings(typical({endpoint: ''}))[0]).toMatch(/no Endpoint line/);
    });
  });

  it("accepts the API layer's 25-field Device as is", () => {
    const d: Device = apiDevice({preshared_key: PSK, server_public_key: SERVER, endpoint: 'fd00::9', use_default_endpoint: false});
    const conf = renderClientConfig(d, {privateKey: PRIVATE});
    expect(conf).toContain('Address = 10.3.2.2/32,fd00::3:2:2/128\n');
    expect(conf).toContain('Endpoint = fd00::9:51820\n');
  });

  it('refuses a private key that is not a WireGuard key and an out-of-range port', () => {
    expect(() => renderClientConfig(typical(), {privateKey: 'REPLACE_ME'})).toThrow(/not a WireGuard key/);
    expect(() => renderClientConfig(typical(), {privateKey: 'REPLACE_ME'})).toThrow(ClientConfigError);
    expect(() => renderClientConfig(typical(), {privateKey: PRIVATE, wireguardPort: 0})).toThrow(RangeError);
    expect(() => renderClientConfig(typical(), {privateKey: PRIVATE, wireguardPort: 65536})).toThrow(/1 to 65535/);
  });
});

describe('the Endpoint line, as 0.7.36 builds it', () => {
  // [endpoint, use_default_endpoint, the line]. From the server's default (IPPort.cast then
  // to_string) or as the device holds it (maybe_add_port), written out from 0.7.36's source.
  const CASES: Array<[string, boolean, string]> = [
    ['1.2.3.4', true, 'Endpoint = 1.2.3.4:51820'],
    ['1.2.3.4:443', true, 'Endpoint = 1.2.3.4:443'],
    ['1.2.3.4:1', true, 'Endpoint = 1.2.3.4:1'],
    ['1.2.3.4:65535', true, 'Endpoint = 1.2.3.4:65535'],
    ['[fd00::1]:51821', true, 'Endpoint = [fd00::1]:51821'],
    ['[fd00::1]', true, 'Endpoint = [fd00::1]:51820'],
    ['fd00::1', true, 'Endpoint = [fd00::1]:51820'],
    ['vpn.example.com', true, 'Endpoint = vpn.example.com:51820'],
    ['vpn.example.com:1234', true, 'Endpoint = vpn.example.com:1234'],
    // Not from the default: the device's own string and maybe_add_port only.
    ['1.2.3.4', false, 'Endpoint = 1.2.3.4:51820'],
    ['fd00::1', false, 'Endpoint = fd00::1:51820'],
    ['[fd00::1]', false, 'Endpoint = [fd00::1]:51820'],
    ['[fd00::1]:7', false, 'Endpoint = [fd00::1]:7'],
  ];
  it.each(['1.2.3.4:+443', '1.2.3.4:0', '1.2.3.4:65536', '1.2.3.4:12a', '[fd00::1]:x'])('%s is refused before it is rendered', (endpoint) => {
    expect(() => endpointLine({endpoint, use_default_endpoint: true})).toThrow(ClientConfigError);
  });
  it.each(CASES)('%s (default %s) → %s', (endpoint, fromDefault, expected) => {
    expect(endpointLine({endpoint, use_default_endpoint: fromDefault})).toBe(expected);
  });

  it('uses the WireGuard port given, from 1 to 65535', () => {
    expect(endpointLine({endpoint: 'vpn.example.com', use_default_endpoint: true}, 1)).toBe('Endpoint = vpn.example.com:1');
    expect(endpointLine({endpoint: 'vpn.example.com', use_default_endpoint: true}, 65535)).toBe('Endpoint = vpn.example.com:65535');
    expect(() => endpointLine({endpoint: 'vpn.example.com'}, 65536)).toThrow(RangeError);
    expect(() => endpointLine({endpoint: 'vpn.example.com'}, 0)).toThrow(RangeError);
  });

  it('warns exactly where the line is ambiguous, and about each empty value', () => {
    expect(configWarnings(typical({endpoint: 'fd00::1', use_default_endpoint: false}))).toEqual([
      'Endpoint fd00::1 is an unbracketed IPv6 address; the config gets fd00::1:51820 exactly as Firezone 0.7.36 would, where host and port are ambiguous and WireGuard clients may reject or misread it; use [fd00::1]:51820 instead',
    ]);
    expect(configWarnings(typical({endpoint: '[fd00::1]', use_default_endpoint: false}))).toEqual([]);
    expect(configWarnings(typical({endpoint: 'fd00::1', use_default_endpoint: true}))).toEqual([]);
    expect(configWarnings(typical({ipv4: null}))).toEqual([]);
    expect(configWarnings(typical({ipv6: null}))).toEqual([]);
    expect(configWarnings(typical({ipv4: null, ipv6: null}))[0]).toMatch(/^The device has no tunnel address/);
    expect(configWarnings(typical({endpoint: null}))).toEqual([
      'The endpoint is empty, so the config has no Endpoint line and the client cannot start the connection',
    ]);
    expect(configWarnings(typical({dns: null, allowed_ips: []}))).toEqual([
      'AllowedIPs is empty, so the config has no AllowedIPs line and the client routes no traffic through the tunnel',
    ]);
  });
});
