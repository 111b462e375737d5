import {describe, expect, it} from 'vitest';
import {parseSandboxArgs, SandboxUsageError} from '../../src/sandbox/index.js';

describe('fz-console sandbox arguments', () => {
  it('defaults to the demo seed', () => {
    expect(parseSandboxArgs([])).toEqual({help: false, options: {seed: 'demo'}});
  });

  // the console design notes' sandbox flags, now src/sandbox/README.md, "Command line".
  it('maps every flag of the sandbox command line onto SandboxOptions', () => {
    const parsed = parseSandboxArgs([
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--seed',
      'empty',
      '--devices',
      '50000',
      '--users',
      '2000',
      '--rules',
      '1000',
      '--ipv4-network',
      '100.64.0.0/10',
      '--ipv6-network=fd00::/106',
      '--max-devices-per-user',
      '3',
      '--stats-interval',
      '5',
      '--env',
      'LOCAL_AUTH_ENABLED=true',
      '--env',
      'DEFAULT_CLIENT_DNS=1.1.1.1,9.9.9.9',
      '--latency-ms',
      '25',
      '--random-seed',
      '42',
    ]);
    expect(parsed).toEqual({
      help: false,
      options: {
        host: '0.0.0.0',
        port: 0,
        seed: 'empty',
        devices: 50000,
        users: 2000,
        rules: 1000,
        ipv4Network: '100.64.0.0/10',
        ipv6Network: 'fd00::/106',
        maxDevicesPerUser: 3,
        statsIntervalSeconds: 5,
        latencyMs: 25,
        randomSeed: 42,
        env: {LOCAL_AUTH_ENABLED: 'true', DEFAULT_CLIENT_DNS: '1.1.1.1,9.9.9.9'},
      },
    });
  });

  it('keeps "=" inside --env values and allows empty values', () => {
    const parsed = parseSandboxArgs(['--env', 'OPENID_CONNECT_PROVIDERS=[{"a":"b=c"}]', '--env=DEFAULT_CLIENT_ENDPOINT=']);
    expect(parsed.help === false && parsed.options.env).toEqual({OPENID_CONNECT_PROVIDERS: '[{"a":"b=c"}]', DEFAULT_CLIENT_ENDPOINT: ''});
  });

  it('recognises --help', () => {
    expect(parseSandboxArgs(['--port', '1', '--help'])).toEqual({help: true});
  });

  it.each([
    [['--bogus'], /unknown option --bogus/],
    [['--port'], /--port needs a value/],
    [['--port', '70000'], /--port must be between 0 and 65535/],
    [['--port', 'abc'], /--port expects an integer/],
    [['--seed', 'full'], /--seed expects demo or empty/],
    [['--devices', '-1'], /--devices must be between/],
    [['--ipv4-network', 'fd00::/64'], /--ipv4-network expects an IPv4 CIDR/],
    [['--ipv6-network', '10.0.0.0/8'], /--ipv6-network expects an IPv6 CIDR/],
    [['--max-devices-per-user', '101'], /between 0 and 100/],
    [['--stats-interval', '-5'], /--stats-interval expects a number/],
    [['--env', 'NOVALUE'], /--env expects KEY=VALUE/],
    [['--env', '1BAD=x'], /--env expects KEY=VALUE/],
    [['stray'], /unexpected argument "stray"/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseSandboxArgs(argv)).toThrow(SandboxUsageError);
    expect(() => parseSandboxArgs(argv)).toThrow(message);
  });
});
