// The command line as data: `--help`, the man page (man/fz-console.1, src/config/manpage.ts) and
// the shell completions (src/config/completion.ts) are all made from these tables, so none of
// them can list a flag the others lack. test/config/manpage.test.ts holds the man page to them.
// Light on purpose: bin.ts prints --help from here without loading anything else.
import {SANDBOX_OPTIONS} from '../sandbox/options.js';

export interface OptionSpec {
  flag: string;
  short?: string;
  /** The value's name (`URL`, `SECONDS`), or '' for a flag without one. */
  arg: string;
  help: string;
  /** What a shell should complete for the value. */
  completes?: 'file' | 'profile';
  /** Of `export`, `plan` and `apply`: the verbs that take it (all when absent). */
  verbs?: readonly string[];
}

export const CONSOLE_OPTIONS: readonly OptionSpec[] = [
  {flag: '--url', arg: 'URL', help: 'server root, e.g. https://vpn.example.com (a path prefix is kept; /v0 is appended)'},
  {flag: '--profile', arg: 'NAME', help: 'use a profile from the config file', completes: 'profile'},
  {flag: '--refresh', arg: 'SECONDS', help: 'live refresh interval (default 5, minimum 1, 0 = manual only)'},
  {flag: '--timeout', arg: 'SECONDS', help: 'request timeout (default 15)'},
  {flag: '--ca-file', arg: 'PATH', help: 'trust the CA certificates in this PEM file', completes: 'file'},
  {flag: '--insecure', arg: '', help: "do not verify the server's TLS certificate (a red banner stays on screen)"},
  {flag: '--read-only', arg: '', help: 'refuse every write action'},
  {flag: '--demo', arg: '', help: 'start an embedded sandbox with demo data and connect to it'},
  {flag: '--debug', arg: '', help: 'write a debug log (no secrets) to $XDG_STATE_HOME/fz-console/debug.log'},
  {flag: '--activity-log', arg: 'PATH', help: 'append what changes between polls (and what you do) as JSON Lines (0600)', completes: 'file'},
  {flag: '--stale-days', arg: 'N', help: 'devices without a handshake for N days are stale (S on Devices; default 30)'},
  {flag: '--no-mouse', arg: '', help: 'leave the mouse to the terminal (on by default: click, double-click, wheel; Shift-drag selects)'},
  {flag: '--help', short: '-h', arg: '', help: 'show this help'},
  {flag: '--version', short: '-V', arg: '', help: 'print the version'},
];

export const SUBCOMMANDS: ReadonlyArray<{name: string; args: string; help: string}> = [
  {name: 'sandbox', args: '[options]', help: 'run the Firezone 0.7.36-compatible sandbox server (see: fz-console sandbox --help)'},
  {name: 'completion', args: 'bash|zsh|fish', help: 'print a shell completion script (README, "Shell completion")'},
  {
    name: 'activity',
    args: '--follow --log FILE [--interval S] [--token-grace S]',
    help: 'record what changes to FILE (JSON Lines, 0600) without a terminal, until stopped: the headless audit recorder (see: fz-console activity --help)',
  },
  {
    name: 'export',
    args: '[--output FILE] [--format yaml|json] [--with-secrets]',
    help: "write the server's users, devices, rules and configuration as one YAML or JSON document",
  },
  {name: 'plan', args: 'FILE [--prune] [--replace]', help: 'show what applying FILE would change; exit 0 nothing to do, 2 changes, 1 an error'},
  {name: 'apply', args: 'FILE [--yes] [--prune] [--replace]', help: 'make the server match FILE (README, "Keeping the server in a file")'},
];

/** `export`, `plan` and `apply`'s own options; they also take the connection's and --read-only (apply refuses it). */
export const SERVER_FILE_OPTIONS: readonly OptionSpec[] = [
  {
    flag: '--output',
    short: '-o',
    arg: 'FILE',
    verbs: ['export'],
    help: 'export: write the document to FILE (0600) instead of stdout; a .json name writes JSON',
    completes: 'file',
  },
  {flag: '--format', arg: 'FORMAT', verbs: ['export'], help: 'export: yaml (the default) or json'},
  {flag: '--with-secrets', arg: '', verbs: ['export'], help: "export: include devices' preshared keys and OIDC client secrets"},
  {flag: '--prune', arg: '', verbs: ['plan', 'apply'], help: 'plan, apply: delete what is on the server and not in the file (kept otherwise)'},
  {
    flag: '--replace',
    arg: '',
    verbs: ['plan', 'apply'],
    help: 'plan, apply: replace devices whose settings 0.7.36 cannot change in place (delete, then create with the same keys and addresses)',
  },
  {flag: '--yes', short: '-y', arg: '', verbs: ['apply'], help: 'apply: do not ask (required when not in a terminal)'},
  {flag: '--help', short: '-h', arg: '', help: 'show this help'},
];

export const SERVER_FILE_EXIT_STATUS = [
  'Exit status: 0 when there is nothing to do (plan) or it was done (export, apply); 2 when plan',
  'finds changes; 1 on any error: a file that does not parse (with its line), a refused request, a',
  'usage error, apply without --yes outside a terminal, or on a read-only profile.',
];

/** The console's options that `export`, `plan` and `apply` take too. */
export const SERVER_FILE_CONNECTION_FLAGS = ['--url', '--profile', '--timeout', '--ca-file', '--insecure', '--read-only'] as const;

/** `activity --token-grace`'s default: ten minutes without an accepted token, then exit 1 (README, "The headless audit recorder"). */
export const ACTIVITY_TOKEN_GRACE_S = 600;

/** `fz-console activity`'s own options; it also takes the connection's (--url, --profile, --timeout, --ca-file, --insecure). */
export const ACTIVITY_OPTIONS: readonly OptionSpec[] = [
  {flag: '--follow', arg: '', help: 'keep recording until stopped (SIGTERM, SIGINT, SIGHUP); required'},
  {flag: '--log', arg: 'FILE', help: 'where the events are appended, as --activity-log does (0600, never through a symbolic link)', completes: 'file'},
  {flag: '--interval', arg: 'SECONDS', help: "poll every SECONDS (default: the profile's refresh, else 30)"},
  {
    flag: '--token-grace',
    arg: 'SECONDS',
    help: `after the server rejects the token (401), re-read it from its file or command before each retry for this long, then exit 1 (default ${ACTIVITY_TOKEN_GRACE_S})`,
  },
  {flag: '--help', short: '-h', arg: '', help: 'show this help'},
];

/** `activity`'s exit statuses, as its --help and the man page say them. */
export const ACTIVITY_EXIT_STATUS = [
  'Exit status: 1 when a batch of events cannot be written (the log keeps only whole batches; stderr',
  'says how many events were not recorded) or when no token has been accepted for --token-grace',
  'seconds; 2 on a usage or configuration error; 143, 130, 129 after SIGTERM, SIGINT, SIGHUP.',
];

/** The console's options that `activity` takes too. */
export const ACTIVITY_CONNECTION_FLAGS = ['--url', '--profile', '--timeout', '--ca-file', '--insecure'] as const;

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;

export const ENVIRONMENT: ReadonlyArray<{name: string; help: string}> = [
  {name: 'FZ_URL', help: 'server root (when --url is not given)'},
  {name: 'FZ_API_TOKEN', help: 'API token (there is deliberately no flag: it would leak into ps and shell history)'},
  {name: 'FZ_API_TOKEN_FILE', help: 'file holding the API token (must not be readable by group or others)'},
  {name: 'FZ_PROFILE', help: 'profile name (when --profile is not given)'},
  {name: 'FZ_REFRESH', help: 'refresh interval in seconds (when --refresh is not given)'},
  {
    name: 'FZ_POLL_WORKER',
    help: '1 decodes a long device list (5,000 devices or more) on a worker thread (experimental: about 100 MB more memory at 50,000 devices)',
  },
  {name: 'NODE_EXTRA_CA_CERTS', help: 'extra CA certificates, as for any Node program'},
  {name: 'HTTPS_PROXY, HTTP_PROXY, NO_PROXY', help: 'honoured for API requests'},
  {name: 'NO_COLOR, FORCE_COLOR', help: 'colour output control'},
  {name: 'XDG_CONFIG_HOME', help: 'config file location (default ~/.config/fz-console/config.json)'},
  {name: 'XDG_STATE_HOME', help: 'debug log location (default ~/.local/state/fz-console/)'},
];

export const SUMMARY = 'a keyboard-driven console for Firezone 0.7 (legacy) VPN servers';

/** As `--help` breaks them; the man page joins them (roff fills its own lines). */
export const PRECEDENCE = [
  'Precedence: flag > environment > profile. Get a token in the Firezone web UI under',
  'Settings → Account → API Tokens, or on the server with bin/create-api-token.',
];

export const EXIT_STATUS = [
  'Exit status: 0 after quitting, 1 on an error, 2 on a usage error or when not run in a terminal.',
  'A bad configuration, token file or CA file counts as a usage error (2); after SIGINT, SIGTERM',
  'or SIGHUP the status is 128 + the signal number (130, 143, 129).',
];

export {SANDBOX_OPTIONS};

/** `--url URL`, `-h, --help`: an option as the help lists it. */
export function optionLabel(o: OptionSpec): string {
  return `${o.short ? `${o.short}, ` : ''}${o.flag}${o.arg ? ` ${o.arg}` : ''}`;
}

const helpRow = (left: string, help: string, column: number) => `  ${left.padEnd(column - 2)}${help}`;

/** `fz-console activity --help`. */
export function activityHelp(): string {
  const activity = SUBCOMMANDS.find((s) => s.name === 'activity')!;
  const connection = CONSOLE_OPTIONS.filter((o) => (ACTIVITY_CONNECTION_FLAGS as readonly string[]).includes(o.flag));
  const column = Math.max(...[...ACTIVITY_OPTIONS, ...connection].map((o) => optionLabel(o).length)) + 4;
  return [
    'fz-console activity — the headless audit recorder: appends what changes on the server to a',
    'file (JSON Lines, 0600, the events of --activity-log) without a terminal, until stopped.',
    '',
    'Usage:',
    `  fz-console activity ${activity.args}`,
    '',
    'Options:',
    ...ACTIVITY_OPTIONS.map((o) => helpRow(optionLabel(o), o.help, column)),
    '',
    'Connection options (as the console takes them):',
    ...connection.map((o) => helpRow(optionLabel(o), o.help, column)),
    '',
    'The token comes from FZ_API_TOKEN, FZ_API_TOKEN_FILE or the profile (see: fz-console --help).',
    '',
    ...ACTIVITY_EXIT_STATUS,
    '',
  ].join('\n');
}

/** `fz-console export|plan|apply --help`. */
export function serverFileHelp(verb: 'export' | 'plan' | 'apply'): string {
  const sub = SUBCOMMANDS.find((s) => s.name === verb)!;
  const connection = CONSOLE_OPTIONS.filter((o) => (SERVER_FILE_CONNECTION_FLAGS as readonly string[]).includes(o.flag));
  const own = SERVER_FILE_OPTIONS.filter(
    (o) => o.flag === '--help' || o.help.startsWith(`${verb}`) || o.help.includes(` ${verb}:`) || o.help.includes(`${verb},`),
  );
  const column = Math.max(...[...own, ...connection].map((o) => optionLabel(o).length)) + 4;
  return [
    `fz-console ${verb} — ${sub.help}.`,
    '',
    'Usage:',
    `  fz-console ${verb} ${sub.args}`,
    '',
    'Options:',
    ...own.map((o) => helpRow(optionLabel(o), o.help, column)),
    '',
    'Connection options (as the console takes them):',
    ...connection.map((o) => helpRow(optionLabel(o), o.help, column)),
    '',
    ...SERVER_FILE_EXIT_STATUS,
    '',
  ].join('\n');
}

/** `fz-console --help`. */
export function consoleHelp(): string {
  const row = helpRow;
  const usage = ['fz-console [options]', ...SUBCOMMANDS.map((s) => `fz-console ${s.name} ${s.args}`)];
  const usageColumn = Math.max(...usage.map((u) => u.length)) + 4;
  return [
    `fz-console — ${SUMMARY}`,
    '',
    'Usage:',
    row('fz-console [options]', 'open the console', usageColumn),
    row('fz-console --demo', 'open the console on an embedded sandbox with demo data', usageColumn),
    ...SUBCOMMANDS.map((s) => row(`fz-console ${s.name} ${s.args}`, s.help, usageColumn)),
    row('fz-console --help | --version', '', usageColumn).trimEnd(),
    '',
    'Options:',
    ...CONSOLE_OPTIONS.map((o) => row(optionLabel(o), o.help, 23)),
    '',
    'Environment:',
    ...ENVIRONMENT.map((e) => row(e.name, e.help, e.name.length > 19 ? 38 : 23)),
    '',
    ...PRECEDENCE,
    '',
    ...EXIT_STATUS,
    '',
  ].join('\n');
}
