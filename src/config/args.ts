// Command-line parsing for `fz-console` (the flags of README.md, "Connecting to a real server",
// and `fz-console --help`). Pure: returns a description of what to do, or a usage error; never
// touches the terminal or the network.
import {parseArgs} from 'node:util';

export interface ConsoleFlags {
  url?: string;
  profile?: string;
  refresh?: number;
  timeout?: number;
  caFile?: string;
  insecure: boolean;
  readOnly: boolean;
  demo: boolean;
  debug: boolean;
  activityLog?: string;
  staleDays?: number;
}

export type Command = {kind: 'help'} | {kind: 'version'} | {kind: 'sandbox'; argv: string[]} | {kind: 'console'; flags: ConsoleFlags};

export class UsageError extends Error {
  override name = 'UsageError';
}

export const HELP_TEXT = `fz-console — a keyboard-driven console for Firezone 0.7 (legacy) VPN servers

Usage:
  fz-console [options]            open the console
  fz-console --demo               open the console on an embedded sandbox with demo data
  fz-console sandbox [options]    run the Firezone 0.7.36-compatible sandbox server (see: fz-console sandbox --help)
  fz-console --help | --version

Options:
  --url URL            server root, e.g. https://vpn.example.com (a path prefix is kept; /v0 is appended)
  --profile NAME       use a profile from the config file
  --refresh SECONDS    live refresh interval (default 5, minimum 1, 0 = manual only)
  --timeout SECONDS    request timeout (default 15)
  --ca-file PATH       trust the CA certificates in this PEM file
  --insecure           do not verify the server's TLS certificate (a red banner stays on screen)
  --read-only          refuse every write action
  --demo               start an embedded sandbox with demo data and connect to it
  --debug              write a debug log (no secrets) to $XDG_STATE_HOME/fz-console/debug.log
  --activity-log PATH  append what changes between polls (and what you do) as JSON Lines (0600)
  --stale-days N       devices without a handshake for N days are stale (S on Devices; default 30)
  -h, --help           show this help
  -V, --version        print the version

Environment:
  FZ_URL               server root (when --url is not given)
  FZ_API_TOKEN         API token (there is deliberately no flag: it would leak into ps and shell history)
  FZ_API_TOKEN_FILE    file holding the API token (must not be readable by group or others)
  FZ_PROFILE           profile name (when --profile is not given)
  FZ_REFRESH           refresh interval in seconds (when --refresh is not given)
  NODE_EXTRA_CA_CERTS  extra CA certificates, as for any Node program
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY   honoured for API requests
  NO_COLOR, FORCE_COLOR               colour output control
  XDG_CONFIG_HOME      config file location (default ~/.config/fz-console/config.json)
  XDG_STATE_HOME       debug log location (default ~/.local/state/fz-console/)

Precedence: flag > environment > profile. Get a token in the Firezone web UI under
Settings → Account → API Tokens, or on the server with bin/create-api-token.

Exit status: 0 after quitting, 1 on an error, 2 on a usage error or when not run in a terminal.
A bad configuration, token file or CA file counts as a usage error (2); after SIGINT, SIGTERM
or SIGHUP the status is 128 + the signal number (130, 143, 129).
`;

function parseSeconds(name: string, value: string | undefined, {min, allowZero}: {min: number; allowZero: boolean}): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${name} needs a number of seconds, got "${value}"`);
  if (allowZero && n === 0) return 0;
  if (n < min) throw new UsageError(`--${name} must be at least ${min}${allowZero ? ' (or 0 for manual refresh only)' : ''}, got ${value}`);
  return n;
}

export function parseRefresh(value: string | undefined, source: string): number | undefined {
  try {
    return parseSeconds('refresh', value, {min: 1, allowZero: true});
  } catch (err) {
    throw new UsageError((err as Error).message.replace('--refresh', source));
  }
}

/** Whole days, at least 1: a device idle for less than a day is not stale. */
export function parseStaleDays(value: string, source: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || Number(value) > 36500)
    throw new UsageError(`${source} needs a whole number of days (1 or more), got "${value}"`);
  return Number(value);
}

export function parseCommandLine(argv: string[]): Command {
  if (argv[0] === 'sandbox') return {kind: 'sandbox', argv: argv.slice(1)};
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        url: {type: 'string'},
        profile: {type: 'string'},
        refresh: {type: 'string'},
        timeout: {type: 'string'},
        'ca-file': {type: 'string'},
        insecure: {type: 'boolean', default: false},
        'read-only': {type: 'boolean', default: false},
        demo: {type: 'boolean', default: false},
        debug: {type: 'boolean', default: false},
        'activity-log': {type: 'string'},
        'stale-days': {type: 'string'},
        help: {type: 'boolean', short: 'h', default: false},
        version: {type: 'boolean', short: 'V', default: false},
        token: {type: 'string'},
      },
    });
  } catch (err) {
    throw new UsageError(String((err as Error).message).replace(/\. To specify a positional argument.*$/, ''));
  }
  const {values, positionals} = parsed;
  if (values.help) return {kind: 'help'};
  if (values.version) return {kind: 'version'};
  if (values.token !== undefined) {
    throw new UsageError('there is no --token flag (it would leak into ps and shell history): set FZ_API_TOKEN or FZ_API_TOKEN_FILE, or use a profile');
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const refresh = parseRefresh(values.refresh, '--refresh');
  const timeout = parseSeconds('timeout', values.timeout, {min: 1, allowZero: false});
  const flags: ConsoleFlags = {
    insecure: values.insecure,
    readOnly: values['read-only'],
    demo: values.demo,
    debug: values.debug,
  };
  if (values.url !== undefined) flags.url = values.url;
  if (values.profile !== undefined) flags.profile = values.profile;
  if (refresh !== undefined) flags.refresh = refresh;
  if (timeout !== undefined) flags.timeout = timeout;
  if (values['ca-file'] !== undefined) flags.caFile = values['ca-file'];
  if (values['activity-log'] !== undefined) {
    if (values['activity-log'].trim() === '') throw new UsageError('--activity-log needs a file path');
    flags.activityLog = values['activity-log'];
  }
  if (values['stale-days'] !== undefined) flags.staleDays = parseStaleDays(values['stale-days'], '--stale-days');
  if (flags.demo && flags.url !== undefined) throw new UsageError('--demo and --url cannot be combined');
  return {kind: 'console', flags};
}
