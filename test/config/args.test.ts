import {describe, expect, it} from 'vitest';
import {HELP_TEXT, parseCommandLine, UsageError} from '../../src/config/args.js';

describe('parseCommandLine', () => {
  it('defaults', () => {
    expect(parseCommandLine([])).toEqual({kind: 'console', flags: {insecure: false, readOnly: false, demo: false, debug: false}});
  });
  it('parses every console flag', () => {
    const c = parseCommandLine([
      '--url',
      'https://h/vpn/',
      '--profile',
      'prod',
      '--refresh',
      '0',
      '--timeout',
      '3',
      '--ca-file',
      '/ca.pem',
      '--insecure',
      '--read-only',
      '--debug',
      '--activity-log',
      '~/fz.jsonl',
      '--stale-days',
      '45',
    ]);
    expect(c).toEqual({
      kind: 'console',
      flags: {
        url: 'https://h/vpn/',
        profile: 'prod',
        refresh: 0,
        timeout: 3,
        caFile: '/ca.pem',
        insecure: true,
        readOnly: true,
        demo: false,
        debug: true,
        activityLog: '~/fz.jsonl',
        staleDays: 45,
      },
    });
  });
  it('--no-mouse leaves the mouse to the terminal; without it the flag is not set', () => {
    expect(parseCommandLine(['--no-mouse', '--demo'])).toEqual({
      kind: 'console',
      flags: {insecure: false, readOnly: false, demo: true, debug: false, noMouse: true},
    });
    expect(parseCommandLine(['--demo'])).toEqual({kind: 'console', flags: {insecure: false, readOnly: false, demo: true, debug: false}});
  });
  it('routes sandbox arguments untouched', () => {
    expect(parseCommandLine(['sandbox', '--port', '0'])).toEqual({kind: 'sandbox', argv: ['--port', '0']});
  });
  it('help and version', () => {
    expect(parseCommandLine(['--help'])).toEqual({kind: 'help'});
    expect(parseCommandLine(['-V'])).toEqual({kind: 'version'});
  });
  it.each([
    [['--refresh', '0.5'], /--refresh must be at least 1/],
    [['--refresh', 'x'], /needs a number/],
    [['--timeout', '0'], /--timeout must be at least 1/],
    [['--bogus'], /Unknown option '--bogus'/],
    [['--token', 'abc'], /no --token flag/],
    [['--demo', '--url', 'http://x'], /cannot be combined/],
    [['extra'], /unexpected argument "extra"/],
    [['--stale-days', '0'], /--stale-days needs a whole number of days/],
    [['--stale-days', '2.5'], /--stale-days needs a whole number of days/],
    [['--activity-log', ' '], /--activity-log needs a file path/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(UsageError);
    expect(() => parseCommandLine(argv)).toThrow(message);
  });
  it('help lists every flag and environment variable it parses', () => {
    for (const word of [
      '--url',
      '--profile',
      '--refresh',
      '--timeout',
      '--ca-file',
      '--insecure',
      '--read-only',
      '--demo',
      '--debug',
      '--activity-log',
      '--stale-days',
      '--help',
      '--version',
      'FZ_URL',
      'FZ_API_TOKEN',
      'FZ_API_TOKEN_FILE',
      'FZ_PROFILE',
      'FZ_REFRESH',
      'NO_COLOR',
      'XDG_CONFIG_HOME',
      'XDG_STATE_HOME',
      'HTTPS_PROXY',
    ]) {
      expect(HELP_TEXT).toContain(word);
    }
  });
});
