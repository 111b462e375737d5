// Command-line parsing for `fz-console` (the flags of README.md, "Connecting to a real server",
// and `fz-console --help`). Pure: returns a description of what to do, or a usage error; never
// touches the terminal or the network.
import {parseArgs} from 'node:util';
import {consoleHelp} from './cli-spec.js';

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
  /** `--no-mouse`: the terminal keeps the mouse (the profile's `mouse: false` does the same). */
  noMouse?: boolean;
}

export type Command =
  | {kind: 'help'}
  | {kind: 'version'}
  | {kind: 'sandbox'; argv: string[]}
  | {kind: 'completion'; argv: string[]}
  | {kind: 'activity'; flags: ConsoleFlags; log: string; intervalSeconds: number | null; tokenGraceSeconds: number | null}
  | {kind: 'activity-help'}
  | ServerFileCommand
  | {kind: 'server-file-help'; verb: ServerFileVerb}
  | {kind: 'console'; flags: ConsoleFlags};

export type ServerFileVerb = 'export' | 'plan' | 'apply';

/** `fz-console export|plan|apply` (README, "Keeping the server in a file"). */
export interface ServerFileCommand {
  kind: 'server-file';
  verb: ServerFileVerb;
  flags: ConsoleFlags;
  /** plan and apply: the document; export: --output, or null for stdout. */
  file: string | null;
  format: 'yaml' | 'json' | null;
  withSecrets: boolean;
  yes: boolean;
  prune: boolean;
  replace: boolean;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

/** `fz-console --help`, made from the command-line tables (src/config/cli-spec.ts). */
export const HELP_TEXT = consoleHelp();

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

/** The options that choose and reach a server: the console's and `activity`'s alike. */
const CONNECTION_OPTIONS = {
  url: {type: 'string'},
  profile: {type: 'string'},
  timeout: {type: 'string'},
  'ca-file': {type: 'string'},
  insecure: {type: 'boolean', default: false},
  // Parsed only to be refused with a reason (parseArgs would say "unknown option").
  token: {type: 'string'},
} as const;

type ConnectionValues = {url?: string; profile?: string; timeout?: string; 'ca-file'?: string; insecure: boolean};

const NO_TOKEN_FLAG = 'there is no --token flag (it would leak into ps and shell history): set FZ_API_TOKEN or FZ_API_TOKEN_FILE, or use a profile';

/** parseArgs's complaint as a usage error, after `prefix` (`activity: `), without its hint about `--`. */
function usageError(err: unknown, prefix = ''): UsageError {
  return new UsageError(`${prefix}${String((err as Error).message).replace(/\. To specify a positional argument.*$/, '')}`);
}

/** The connection options into `flags` (a --token is refused before, by the caller). */
function withConnection(values: ConnectionValues, flags: ConsoleFlags): ConsoleFlags {
  const timeout = parseSeconds('timeout', values.timeout, {min: 1, allowZero: false});
  if (values.url !== undefined) flags.url = values.url;
  if (values.profile !== undefined) flags.profile = values.profile;
  if (timeout !== undefined) flags.timeout = timeout;
  if (values['ca-file'] !== undefined) flags.caFile = values['ca-file'];
  return flags;
}

export function parseCommandLine(argv: string[]): Command {
  if (argv[0] === 'sandbox') return {kind: 'sandbox', argv: argv.slice(1)};
  if (argv[0] === 'completion') return {kind: 'completion', argv: argv.slice(1)};
  if (argv[0] === 'activity') return parseActivity(argv.slice(1));
  if (argv[0] === 'export' || argv[0] === 'plan' || argv[0] === 'apply') return parseServerFile(argv[0], argv.slice(1));
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        ...CONNECTION_OPTIONS,
        refresh: {type: 'string'},
        'read-only': {type: 'boolean', default: false},
        demo: {type: 'boolean', default: false},
        debug: {type: 'boolean', default: false},
        'activity-log': {type: 'string'},
        'stale-days': {type: 'string'},
        'no-mouse': {type: 'boolean', default: false},
        help: {type: 'boolean', short: 'h', default: false},
        version: {type: 'boolean', short: 'V', default: false},
      },
    });
  } catch (err) {
    throw usageError(err);
  }
  const {values, positionals} = parsed;
  if (values.help) return {kind: 'help'};
  if (values.version) return {kind: 'version'};
  if (values.token !== undefined) throw new UsageError(NO_TOKEN_FLAG);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const refresh = parseRefresh(values.refresh, '--refresh');
  const flags = withConnection(values, {insecure: values.insecure, readOnly: values['read-only'], demo: values.demo, debug: values.debug});
  if (refresh !== undefined) flags.refresh = refresh;
  if (values['activity-log'] !== undefined) {
    if (values['activity-log'].trim() === '') throw new UsageError('--activity-log needs a file path');
    flags.activityLog = values['activity-log'];
  }
  if (values['stale-days'] !== undefined) flags.staleDays = parseStaleDays(values['stale-days'], '--stale-days');
  if (values['no-mouse']) flags.noMouse = true;
  if (flags.demo && flags.url !== undefined) throw new UsageError('--demo and --url cannot be combined');
  return {kind: 'console', flags};
}

/**
 * `fz-console activity --follow --log FILE [--interval S] [--token-grace S]` with the connection
 * flags of the console (README, "The headless audit recorder"), or `activity --help`. `--follow`
 * is required: recording is all it does, and a command that starts an endless process should say so.
 */
function parseActivity(argv: string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        follow: {type: 'boolean', default: false},
        log: {type: 'string'},
        interval: {type: 'string'},
        'token-grace': {type: 'string'},
        help: {type: 'boolean', short: 'h', default: false},
        ...CONNECTION_OPTIONS,
      },
    });
  } catch (err) {
    throw usageError(err, 'activity: ');
  }
  const {values, positionals} = parsed;
  if (values.help) return {kind: 'activity-help'};
  if (values.token !== undefined) throw new UsageError(NO_TOKEN_FLAG);
  if (positionals.length > 0) throw new UsageError(`activity: unexpected argument "${positionals[0]}"`);
  if (!values.follow) throw new UsageError('activity needs --follow: it records changes until stopped (fz-console activity --follow --log FILE)');
  if (values.log === undefined || values.log.trim() === '') throw new UsageError('activity needs --log FILE: where the events are appended (JSON Lines, 0600)');
  const interval = parseSeconds('interval', values.interval, {min: 1, allowZero: false});
  const tokenGrace = parseSeconds('token-grace', values['token-grace'], {min: 1, allowZero: false});
  // It sends no writes; read-only keeps the resolution's meaning for it.
  const flags = withConnection(values, {insecure: values.insecure, readOnly: true, demo: false, debug: false});
  return {kind: 'activity', flags, log: values.log, intervalSeconds: interval ?? null, tokenGraceSeconds: tokenGrace ?? null};
}

/**
 * `fz-console export [--output FILE] [--format yaml|json] [--with-secrets]`, `plan FILE [--prune]
 * [--replace]`, `apply FILE [--yes] [--prune] [--replace]`, each with the connection flags of the
 * console and --read-only (which apply refuses).
 */
function parseServerFile(verb: ServerFileVerb, argv: string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        ...CONNECTION_OPTIONS,
        'read-only': {type: 'boolean', default: false},
        ...(verb === 'export'
          ? {output: {type: 'string', short: 'o'}, format: {type: 'string'}, 'with-secrets': {type: 'boolean', default: false}}
          : {prune: {type: 'boolean', default: false}, replace: {type: 'boolean', default: false}}),
        ...(verb === 'apply' ? {yes: {type: 'boolean', short: 'y', default: false}} : {}),
        help: {type: 'boolean', short: 'h', default: false},
      },
    });
  } catch (err) {
    throw usageError(err, `${verb}: `);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const positionals = parsed.positionals;
  if (values.help) return {kind: 'server-file-help', verb};
  if (values.token !== undefined) throw new UsageError(NO_TOKEN_FLAG);
  const connection = withConnection(values as ConnectionValues, {
    insecure: values.insecure === true,
    readOnly: values['read-only'] === true,
    demo: false,
    debug: false,
  });
  let file: string | null = null;
  if (verb === 'export') {
    if (positionals.length > 0) throw new UsageError(`export: unexpected argument "${positionals[0]}" (the file is --output FILE)`);
    const output = values.output as string | undefined;
    if (output !== undefined && output.trim() === '') throw new UsageError('export: --output needs a file path');
    file = output ?? null;
  } else {
    if (positionals.length !== 1 || positionals[0]!.trim() === '')
      throw new UsageError(`${verb} needs one FILE: the document to ${verb} (fz-console ${verb} FILE)`);
    file = positionals[0]!;
  }
  const format = values.format as string | undefined;
  if (format !== undefined && format !== 'yaml' && format !== 'json') throw new UsageError(`export: --format is yaml or json, got "${format}"`);
  return {
    kind: 'server-file',
    verb,
    flags: connection,
    file,
    format: format ?? null,
    withSecrets: values['with-secrets'] === true,
    yes: values.yes === true,
    prune: values.prune === true,
    replace: values.replace === true,
  };
}
