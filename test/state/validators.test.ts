import {describe, expect, it} from 'vitest';
import {
  isCidrOrIP,
  isIPv6,
  parseList,
  validateAllowedIps,
  validateAllowedIpsNamed,
  validateDestination,
  validateDnsList,
  validateDnsListNamed,
  validateEmail,
  validateEndpoint,
  validateKeepalive,
  validateMtu,
  validatePassword,
  validatePortPair,
  validatePortRange,
  validateRedirectUri,
  validateScope,
  validateProviderId,
  validateDeviceName,
} from '../../src/state/data/validators.js';

describe('addresses', () => {
  it.each(['::', '::1', 'fd00::3:2:1', '2001:db8::1', '1:2:3:4:5:6:7:8', '::ffff:1.2.3.4'])('%s is IPv6', (s) => expect(isIPv6(s)).toBe(true));
  it.each(['1:2:3:4:5:6:7:8:9', '1::2::3', 'fd00::g', '1.2.3.4', ':::'])('%s is not IPv6', (s) => expect(isIPv6(s)).toBe(false));
  it('CIDR', () => {
    expect(isCidrOrIP('10.0.0.0/8')).toBe(true);
    expect(isCidrOrIP('10.0.0.0/33')).toBe(false);
    expect(isCidrOrIP('fd00::/128')).toBe(true);
    expect(isCidrOrIP('256.0.0.1')).toBe(false);
    expect(isCidrOrIP('10.0 0.0/24')).toBe(false);
  });
  it('destination messages match the server', () => {
    expect(validateDestination('')).toEqual(["can't be blank"]);
    expect(validateDestination('256.0.0.1')).toEqual(['is invalid']);
    expect(validateDestination('1.1.1.1/24')).toEqual([]);
  });
  it('allowed IPs', () => {
    expect(validateAllowedIps(['1.1.1.1', 'foobar'])).toEqual(['is invalid']);
    expect(validateAllowedIps(['1.1.1.1', '1.1.1.1'])).toEqual(['should not contain duplicates']);
  });
  it('endpoint', () => {
    expect(validateEndpoint('vpn.example.com:51820')).toEqual([]);
    expect(validateEndpoint('[fd00::1]:8080')).toEqual([]);
    expect(validateEndpoint('123')).toEqual([]);
    expect(validateEndpoint('!!!')).toEqual(['!!! is not a valid FQDN', 'must be an IP address or a host name, with an optional :port']);
    expect(validateEndpoint('host:99999')).toEqual([
      'port is not a number between 0 and 65535',
      'must be an IP address or a host name, with an optional :port',
    ]);
  });
  it('DNS', () => {
    expect(validateDnsList(['1.1.1.1', 'dns.example.com', 'fd00::1'])).toEqual([]);
    expect(validateDnsList(['!!!'])).toEqual(['!!! is not a valid FQDN', 'must be IP addresses or host names, without a port']);
    expect(validateDnsList(['1.1.1.1:53'])).toEqual(['setting port is not allowed', 'must be IP addresses or host names, without a port']);
    expect(validateDnsList(['1.1.1.1', '1.1.1.1'])).toEqual(['should not contain duplicates']);
  });
  it('comma lists', () => {
    expect(parseList(' 1.1.1.1 , ,1.0.0.1,')).toEqual(['1.1.1.1', '1.0.0.1']);
  });
});

describe('numbers', () => {
  it('MTU and keepalive ranges with the server wording', () => {
    expect(validateMtu('100')).toEqual(['must be greater than or equal to 576']);
    expect(validateMtu('1501')).toEqual(['must be less than or equal to 1500']);
    expect(validateMtu('')).toEqual([]);
    expect(validateMtu('', true)).toEqual(["can't be blank"]);
    expect(validateKeepalive('121')).toEqual(['must be less than or equal to 120']);
    expect(validateKeepalive('0')).toEqual([]);
    expect(validateKeepalive('1.5')).toEqual(['is invalid']);
  });
});

describe('users', () => {
  it('email', () => {
    expect(validateEmail('')).toEqual(["can't be blank"]);
    expect(validateEmail('not-an-email')).toEqual(['is invalid email address']);
    expect(validateEmail(' a@b ')).toEqual([]);
  });
  it('password and confirmation', () => {
    expect(validatePassword('test1234', '')).toEqual({password: ['should be at least 12 character(s)'], password_confirmation: ["can't be blank"]});
    expect(validatePassword('x'.repeat(65), 'x'.repeat(65))).toEqual({password: ['should be at most 64 character(s)'], password_confirmation: []});
    expect(validatePassword('correct horse battery', 'correct horse')).toEqual({password: [], password_confirmation: ['does not match confirmation']});
    expect(validatePassword('', '')).toEqual({password: [], password_confirmation: []});
  });
});

describe('devices', () => {
  it('name', () => {
    expect(validateDeviceName('   ')).toEqual(["can't be blank"]);
    expect(validateDeviceName('x'.repeat(256))).toEqual(['should be at most 255 character(s)']);
  });
});

describe('rules', () => {
  it('port ranges mirror Int4Range and the 1..65534 check', () => {
    expect(validatePortRange('80')).toEqual([]);
    expect(validatePortRange('100 - 200')).toEqual([]);
    expect(validatePortRange('20-10')).toEqual(['lower value cannot be higher than upper value']);
    expect(validatePortRange('1-65535')).toEqual(['port is not within valid range']);
    expect(validatePortRange('0')).toEqual(['port is not within valid range']);
    expect(validatePortRange('http')).toEqual(['bad format']);
  });
  it('both or neither', () => {
    expect(validatePortPair(null, '10-20')).toEqual({port_type: ["can't be blank"], port_range: []});
    expect(validatePortPair('tcp', '')).toEqual({port_type: [], port_range: ["can't be blank"]});
    expect(validatePortPair(null, '')).toEqual({port_type: [], port_range: []});
  });
});

describe('identity providers', () => {
  it('scope lists the email message first, like 0.7.36', () => {
    expect(validateScope('profile')).toEqual(['must include email scope', 'must include openid scope']);
    expect(validateScope('openid email profile')).toEqual([]);
  });
  it('reserved ids and redirect URIs', () => {
    expect(validateProviderId('saml')).toEqual(['is reserved']);
    expect(validateRedirectUri('ftp://x', {required: false})).toEqual(['only http, https schemes are supported']);
    expect(validateRedirectUri('', {required: false})).toEqual([]);
    expect(validateRedirectUri('https://vpn.example.com/auth/oidc/google/callback/', {required: false})).toEqual([]);
  });
});

// The fixes test/state/validators-in-step/ found against the sandbox (0.7.36's FzHttp.Validator and Ecto rules).
describe('in step with 0.7.36', () => {
  it('endpoint: the FQDN message names the part before the port; port 0 is refused; a non-numeric port is part of the name', () => {
    expect(validateEndpoint('!!!:80')).toEqual(['!!! is not a valid FQDN', 'must be an IP address or a host name, with an optional :port']);
    expect(validateEndpoint('host:0')).toEqual(['port is not a number between 0 and 65535', 'must be an IP address or a host name, with an optional :port']);
    expect(validateEndpoint('host:abc')).toEqual(['host:abc is not a valid FQDN', 'must be an IP address or a host name, with an optional :port']);
  });
  it('DNS: every specific message, the one-of message, then duplicates, each once', () => {
    expect(validateDnsList(['!!!:53'])).toEqual([
      '!!! is not a valid FQDN',
      'setting port is not allowed',
      'must be IP addresses or host names, without a port',
    ]);
    expect(validateDnsList(['!!!', '!!!'])).toEqual([
      '!!! is not a valid FQDN',
      'must be IP addresses or host names, without a port',
      'should not contain duplicates',
    ]);
  });
  it('allowed IPs: duplicates compared as addresses', () => {
    expect(validateAllowedIps(['fd00::1', 'FD00:0::1'])).toEqual(['should not contain duplicates']);
    expect(validateAllowedIps(['1.1.1.1', '1.1.1.1/32'])).toEqual([]);
  });
  it('lengths count graphemes', () => {
    expect(validateDeviceName('e\u0301'.repeat(255))).toEqual([]);
  });
  it('port ranges: Int4Range bracket forms', () => {
    expect(validatePortRange('[80,90]')).toEqual([]);
    expect(validatePortRange('(0,2)')).toEqual([]);
    expect(validatePortRange('[1,65535]')).toEqual(['port is not within valid range']);
    expect(validatePortRange('(90,80)')).toEqual(['lower value cannot be higher than upper value']);
  });
  it('scope: substrings, like validate_format', () => {
    expect(validateScope('openid,email')).toEqual([]);
  });
  it('URIs: parsed like URI.new/1, host checked before scheme', () => {
    expect(validateRedirectUri('example.com/cb', {required: false})).toEqual(['does not contain a scheme or a host']);
    expect(validateRedirectUri('//example.com/cb', {required: false})).toEqual(['does not contain a scheme']);
    expect(validateRedirectUri('http:foo', {required: false})).toEqual(['does not contain a scheme or a host']);
    expect(validateRedirectUri('not a uri', {required: false})).toEqual(['is invalid. Error at  a uri']);
  });
});

describe('a list message names its entry for a form (0.7.36 names none)', () => {
  it('allowed IPs: the first entry that is not an address, and where it is', () => {
    const list = ['10.0.0.0/8', ' fd00::/64', '10.0.0.300/24', 'nope'];
    expect(validateAllowedIps(list)).toEqual(['is invalid']);
    expect(validateAllowedIpsNamed(list)).toEqual(['is invalid: "10.0.0.300/24" (entry 3 of 4)']);
    expect(validateAllowedIpsNamed(['10.0.0.0/33'])).toEqual(['is invalid: "10.0.0.0/33"']);
  });
  it('allowed IPs: the second of two entries that are the same address written two ways', () => {
    expect(validateAllowedIpsNamed(['fd00::1', '10.0.0.1', 'FD00:0::1'])).toEqual(['should not contain duplicates: "FD00:0::1" (entry 3 of 3)']);
  });
  it('DNS: the entry with a port, the duplicate; an FQDN message already names its own', () => {
    expect(validateDnsListNamed(['1.1.1.1', 'dns.example:53'])).toEqual([
      'setting port is not allowed: "dns.example:53" (entry 2 of 2)',
      'must be IP addresses or host names, without a port',
    ]);
    expect(validateDnsListNamed(['1.1.1.1', '9.9.9.9', '1.1.1.1'])).toEqual(['should not contain duplicates: "1.1.1.1" (entry 3 of 3)']);
    expect(validateDnsListNamed(['bad name'])).toEqual(['bad name is not a valid FQDN', 'must be IP addresses or host names, without a port']);
  });
  it('entries are named as trimmed', () => {
    expect(validateDnsListNamed([' 1.1.1.1', ' dns.example:53 '])[0]).toBe('setting port is not allowed: "dns.example:53" (entry 2 of 2)');
    expect(validateAllowedIpsNamed([' 10.0.0.0/8 ', ' nope '])).toEqual(['is invalid: "nope" (entry 2 of 2)']);
  });
  it('an entry of 40 characters is quoted whole, one of 41 cut', () => {
    expect(validateAllowedIpsNamed(['x'.repeat(40)])).toEqual([`is invalid: "${'x'.repeat(40)}"`]);
    expect(validateAllowedIpsNamed(['x'.repeat(41)])).toEqual([`is invalid: "${'x'.repeat(39)}…"`]);
  });
  it('a long entry is cut where the message quotes it', () => {
    const long = `${'x'.repeat(200)}/8`;
    const [message] = validateAllowedIpsNamed([long]);
    expect(message).toBe(`is invalid: "${'x'.repeat(39)}…"`);
  });
  it('valid lists have no message', () => {
    expect(validateAllowedIpsNamed(['0.0.0.0/0', '::/0'])).toEqual([]);
    expect(validateDnsListNamed(['1.1.1.1', 'dns.example'])).toEqual([]);
  });
});
