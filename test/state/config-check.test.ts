// Whether a client config can be built, asked before a create, before `K`'s delete and in the
// review of the client defaults (src/state/interactions/config-check.ts). Through the real
// console against a sandbox: test/ui/config-check.test.tsx.
import {describe, expect, it} from 'vitest';
import {createRefusal, defaultsWarnings, deviceAsCreated} from '../../src/state/interactions/config-check.js';
import {configuration} from '../fixtures/data.js';

describe('deviceAsCreated', () => {
  it('takes each setting from the defaults unless the body says use_default_* false, then its own value', () => {
    const c = configuration();
    expect(deviceAsCreated({}, c)).toEqual({
      ipv4: null,
      ipv6: null,
      preshared_key: null,
      server_public_key: null,
      mtu: 1280,
      persistent_keepalive: 25,
      dns: ['1.1.1.1', '1.0.0.1'],
      allowed_ips: ['0.0.0.0/0', '::/0'],
      endpoint: 'vpn.example.com:51820',
      use_default_endpoint: true,
    });
    const own = deviceAsCreated(
      {
        use_default_mtu: false,
        mtu: 1400,
        use_default_persistent_keepalive: false,
        persistent_keepalive: 0,
        use_default_dns: false,
        dns: ['9.9.9.9'],
        use_default_allowed_ips: false,
        allowed_ips: ['10.0.0.0/8'],
        use_default_endpoint: false,
        endpoint: 'other.example.com',
      },
      c,
    );
    expect(own).toMatchObject({
      mtu: 1400,
      persistent_keepalive: 0,
      dns: ['9.9.9.9'],
      allowed_ips: ['10.0.0.0/8'],
      endpoint: 'other.example.com',
      use_default_endpoint: false,
    });
    // use_default_* true with an own value sent anyway: the default is what the device gets.
    expect(deviceAsCreated({use_default_dns: true, dns: ['9.9.9.9']}, c).dns).toEqual(['1.1.1.1', '1.0.0.1']);
    expect(deviceAsCreated({use_default_dns: false}, c).dns).toBeNull();
  });
});

describe('createRefusal', () => {
  it('says why no config could be built, and whose value it is: a client default, or the device’s own', () => {
    const broken = configuration({default_client_dns: ['1.1.1.1', '999.1.1.1']});
    expect(createRefusal({}, broken)).toBe(
      'no client config could be built for it: DNS server dns[1] is not an IP address or domain name: "999.1.1.1" (a client default of the Configuration (4): fix it there first)',
    );
    // Its own DNS instead of the broken default: nothing to refuse.
    expect(createRefusal({use_default_dns: false, dns: ['9.9.9.9']}, broken)).toBeNull();
    expect(createRefusal({use_default_endpoint: false, endpoint: 'bad endpoint'}, configuration())).toMatch(
      /^no client config could be built for it: Endpoint endpoint is not host.*"bad endpoint" \(this device's own value\)$/,
    );
    expect(createRefusal({use_default_mtu: false, mtu: 9000}, configuration())).toMatch(
      /MTU mtu is not a whole number from 576 to 1500: 9000 \(this device's own value\)$/,
    );
    expect(createRefusal({}, configuration())).toBeNull();
    // No configuration to check against (a token that may not read it): nothing is refused.
    expect(createRefusal({}, null)).toBeNull();
  });
});

describe('defaultsWarnings', () => {
  it('says that no device on these defaults can get a config, and why; else only the endpoint’s warnings', () => {
    expect(defaultsWarnings(configuration({default_client_dns: ['999.1.1.1']}))).toEqual([
      'No device that uses these client defaults can get a client config: DNS server dns[0] is not an IP address or domain name: "999.1.1.1"',
    ]);
    expect(defaultsWarnings(configuration({default_client_endpoint: '0.0.0.0'}))).toEqual([
      expect.stringMatching(/^Endpoint 0\.0\.0\.0:51820 is the unspecified address 0\.0\.0\.0/),
    ]);
    expect(defaultsWarnings(configuration({default_client_endpoint: null}))).toEqual([expect.stringMatching(/^The endpoint is empty/)]);
    // A default device has no address and no server key: those warnings are not the defaults'.
    expect(defaultsWarnings(configuration())).toEqual([]);
  });
});
