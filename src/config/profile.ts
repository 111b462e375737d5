// Connection settings: flags > environment > profile in the config file (README.md,
// "Connecting to a real server").
import {constants, promises as fs, type Stats} from 'node:fs';
import type * as ChildProcess from 'node:child_process';
import type {Socket} from 'node:net';
import {createRequire} from 'node:module';
import {homedir} from 'node:os';
import {dirname, join} from 'node:path';
import type {ConsoleFlags} from './args.js';
import type {ConfigFile, Profile} from './config-schema.js';
import {parseRefresh, UsageError} from './args.js';

export type {ConfigFile, Profile} from './config-schema.js';

/** The config file's schema, loaded only when there is a file: zod is not needed at start otherwise. */
const configSchema = () => import('./config-schema.js').then((m) => m.ConfigFileSchema);

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface Connection {
  url: string;
  token: string;
  /** What to show in the header: the profile name, or the URL. */
  label: string;
  profile: string | null;
  refreshSeconds: number;
  timeoutSeconds: number;
  caFile: string | null;
  insecure: boolean;
  readOnly: boolean;
  /** `--activity-log` or the profile's activityLog (`~/` expanded). */
  activityLog: string | null;
  staleDays: number;
  /** The console takes the mouse: not with --no-mouse, nor with the profile's `mouse: false`. */
  mouse: boolean;
}

export type Resolution =
  {kind: 'connection'; connection: Connection} | {kind: 'first-run'; configPath: string; settings: Omit<Connection, 'url' | 'token' | 'label' | 'profile'>};

export function configPath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.startsWith('/') ? env.XDG_CONFIG_HOME : join(env.HOME ?? homedir(), '.config');
  return join(base, 'fz-console', 'config.json');
}

/** ssh's rule: a file holding secrets (or pointing at them) must not be readable by group or others. */
export function checkPrivate(path: string, stat: Stats, what: string): void {
  if ((stat.mode & 0o077) !== 0) {
    const mode = (stat.mode & 0o777).toString(8).padStart(3, '0');
    throw new ConfigError(`${what} ${path} is accessible by group or others (mode ${mode}); run: chmod 600 ${path}`);
  }
}

/**
 * Reads a small file that must be a regular file. Opened non-blocking and checked on the open
 * descriptor, so a FIFO cannot hang the start and a directory or device is refused by name.
 * Rejects with the errno code (ENOENT…) as `code`, or a ConfigError.
 */
export async function readRegularFile(path: string, what: string, maxBytes = 1024 * 1024): Promise<{text: string; stat: Stats}> {
  const handle = await fs.open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new ConfigError(`${what} ${path} is ${describeFileType(stat)}, not a regular file`);
    if (stat.size > maxBytes) throw new ConfigError(`${what} ${path} is too large (${stat.size} bytes)`);
    return {text: await handle.readFile('utf8'), stat};
  } finally {
    await handle.close();
  }
}

function describeFileType(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function errnoText(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}

export async function readConfigFile(path: string): Promise<ConfigFile | null> {
  let text: string;
  try {
    const read = await readRegularFile(path, 'Config file');
    checkPrivate(path, read.stat, 'Config file');
    text = read.text;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`Cannot read config file ${path}: ${errnoText(err)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`Config file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  return checkedConfig(path, json);
}

/** The config file's content as the schema has it, or a ConfigError naming the file, key and problem. */
async function checkedConfig(path: string, json: unknown): Promise<ConfigFile> {
  const parsed = (await configSchema()).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path.map(String).join('.') || '(top level)';
    throw new ConfigError(`Config file ${path}: ${key}: ${issue.message}`);
  }
  return parsed.data;
}

/** Writes the config file with mode 0600, creating its folder with 0700. */
export async function writeConfigFile(path: string, config: ConfigFile): Promise<void> {
  const valid = await checkedConfig(path, config);
  await fs.mkdir(dirname(path), {recursive: true, mode: 0o700});
  const tmp = `${path}.${process.pid}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(valid, null, 2)}\n`, {mode: 0o600});
  await fs.chmod(tmp, 0o600);
  await fs.rename(tmp, path);
}

export async function readTokenFile(path: string): Promise<string> {
  let read: {text: string; stat: Stats};
  try {
    read = await readRegularFile(path, 'Token file', 64 * 1024);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`Cannot read token file ${path}: ${errnoText(err)}`);
  }
  checkPrivate(path, read.stat, 'Token file');
  const token = read.text.trim();
  if (token === '') throw new ConfigError(`Token file ${path} is empty`);
  return token;
}

/**
 * A token goes into an `Authorization` header: a line break or a character outside Latin-1
 * (or a control character) can never be sent, and would otherwise surface as an endless
 * "Cannot reach …: invalid authorization header". Never quotes the token.
 */
export function checkToken(token: string, source: string): void {
  if (/[\r\n]/.test(token)) {
    throw new ConfigError(`The API token from ${source} contains a line break; a token is one line`);
  }
  // HTTP field values: tab, visible ASCII, space and obs-text (0x80-0xFF).
  if (/[^\t\x20-\x7e\x80-\xff]/.test(token)) {
    throw new ConfigError(`The API token from ${source} contains a character that cannot be sent in an HTTP header`);
  }
}

export const TOKEN_COMMAND_TIMEOUT_MS = 15_000;
const TOKEN_COMMAND_MAX_OUTPUT = 64 * 1024;

const requireBuiltin = createRequire(import.meta.url);

/**
 * The command runs in a shell of its own, inside one that waits for it and then writes a NUL and
 * its exit status to the same pipe: what the command's shell printed comes before that in the pipe,
 * so "did it exit before printing its line" has one answer, whatever order the event loop learns
 * of the output and of the exit in. The command is the shell's argument, never part of this text.
 */
const TOKEN_COMMAND_WRAPPER = '/bin/sh -c "$1"; printf \'\\000%d\\n\' "$?"';

/**
 * Runs a profile's tokenCommand with `/bin/sh -c`, in its own process group so that a timeout
 * kills the whole pipeline. stdin is /dev/null; stderr is dropped (it may echo secrets).
 *
 * The token is the first line that is not blank, taken as soon as it is complete — or, when the
 * command exits first, from what it printed (a token without a final newline), an exit status
 * other than 0 being the error it is. Nothing waits for the output pipe to close: a command that
 * leaves a child in the background holding it (`agent & echo tok`, `setsid …`) would keep it open
 * as long as that child lives. Once the token is taken, the rest of the output is read and
 * dropped, and neither the command nor anything it left behind keeps the console from exiting.
 */
export function runTokenCommand(command: string, options: {timeoutMs?: number} = {}): Promise<string> {
  const timeoutMs = options.timeoutMs ?? TOKEN_COMMAND_TIMEOUT_MS;
  // Loaded here, not with the module: most starts run no command, and this module is on the path
  // to the first poll's requests (early.ts).
  const {spawn} = requireBuiltin('node:child_process') as typeof ChildProcess;
  return new Promise((resolve, reject) => {
    let settled = false;
    const child = spawn('/bin/sh', ['-c', TOKEN_COMMAND_WRAPPER, 'sh', command], {stdio: ['ignore', 'pipe', 'ignore'], detached: true});
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    /** From here on the command is not waited for: its output is drained, and nothing of it holds the event loop. */
    const letGo = () => {
      clearTimeout(timer);
      child.stdout.removeListener('data', onData);
      child.stdout.resume();
      // A child process's pipe is a socket; the type says only Readable.
      (child.stdout as unknown as Socket).unref();
      child.unref();
    };
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      killGroup();
      letGo();
      reject(new ConfigError(message));
    };
    const take = (text: string) => {
      if (settled) return;
      settled = true;
      letGo();
      const token = text.trim();
      if (token === '') reject(new ConfigError('tokenCommand printed no token'));
      else resolve(token);
    };
    const timer = setTimeout(
      () => fail(`tokenCommand timed out after ${timeoutMs % 1000 === 0 ? timeoutMs / 1000 : (timeoutMs / 1000).toFixed(1)} s`),
      timeoutMs,
    );
    // What has been printed since the last blank line, at most 64 KiB.
    let pending = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      if (pending.length + chunk.length > TOKEN_COMMAND_MAX_OUTPUT) {
        fail('tokenCommand printed more than 64 KiB');
        return;
      }
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const newline = pending.indexOf(0x0a);
        const exited = pending.indexOf(0x00);
        if (exited >= 0 && (newline < 0 || exited < newline)) {
          // The command has exited; its status follows the NUL, up to the wrapper's newline.
          const end = pending.indexOf(0x0a, exited);
          if (end < 0) return;
          const status = pending.subarray(exited + 1, end).toString('latin1');
          // A NUL of the command's own is no token either; what follows it is not shown.
          if (!/^[0-9]{1,3}$/.test(status)) fail('tokenCommand printed a NUL byte, not a token');
          else if (status !== '0') fail(`tokenCommand exited with status ${status}`);
          else take(pending.subarray(0, exited).toString('utf8'));
          return;
        }
        if (newline < 0) return;
        const line = pending.subarray(0, newline).toString('utf8');
        pending = pending.subarray(newline + 1);
        if (line.trim() !== '') {
          take(line);
          return;
        }
      }
    };
    child.stdout.on('data', onData);
    child.on('error', (err) => fail(`tokenCommand could not be started: ${errnoText(err)}`));
    // The wrapper itself killed (by someone else: a timeout has settled already). Otherwise its
    // exit is read in the pipe, after everything the command printed.
    child.on('exit', (_code, signal) => {
      if (signal) fail(`tokenCommand was killed by ${signal}`);
    });
  });
}

/** The CA file must be readable and hold at least one PEM certificate. */
export async function checkCaFile(path: string): Promise<void> {
  let text: string;
  try {
    text = (await readRegularFile(path, 'CA file', 16 * 1024 * 1024)).text;
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`Cannot read CA file ${path}: ${errnoText(err)}`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new ConfigError(`CA file ${path} contains no PEM certificate (no "-----BEGIN CERTIFICATE-----" line)`);
  }
}

/**
 * The profile of that name, looked up among the file's own profiles only: `constructor`,
 * `toString` or `__proto__` name no profile unless the file has one of that name (an object's
 * inherited members are not profiles; zod drops a `__proto__` key altogether).
 */
export function profileNamed(file: ConfigFile, name: string): Profile | null {
  return Object.hasOwn(file.profiles, name) ? (file.profiles[name] ?? null) : null;
}

/**
 * Resolves the connection. `demo` is handled by the caller (it needs no configuration).
 * Returns `first-run` when no URL is configured anywhere.
 */
export async function resolveConnection(flags: ConsoleFlags, env: NodeJS.ProcessEnv): Promise<Resolution> {
  const path = configPath(env);
  const file = await readConfigFile(path);
  const profileName = flags.profile ?? (env.FZ_PROFILE || undefined) ?? file?.defaultProfile ?? null;
  let profile: Profile | null = null;
  if (profileName !== null) {
    profile = file ? profileNamed(file, profileName) : null;
    if (!profile) {
      const known = Object.keys(file?.profiles ?? {});
      throw new ConfigError(
        file
          ? `Profile "${profileName}" is not in ${path}${known.length ? ` (profiles: ${known.join(', ')})` : ''}`
          : `Profile "${profileName}" requested but there is no config file at ${path}`,
      );
    }
  }
  const envRefresh = env.FZ_REFRESH ? parseRefresh(env.FZ_REFRESH, 'FZ_REFRESH') : undefined;
  const settings = {
    refreshSeconds: flags.refresh ?? envRefresh ?? profile?.refresh ?? 5,
    timeoutSeconds: flags.timeout ?? profile?.timeout ?? 15,
    caFile: flags.caFile ?? profile?.caFile ?? null,
    insecure: flags.insecure || (profile?.insecure ?? false),
    readOnly: flags.readOnly || (profile?.readOnly ?? false),
    activityLog: flags.activityLog ?? (profile?.activityLog ? expandHome(profile.activityLog, env) : null),
    staleDays: flags.staleDays ?? profile?.staleDays ?? 30,
    mouse: flags.noMouse !== true && (profile?.mouse ?? true),
  };
  if (settings.caFile !== null) await checkCaFile(settings.caFile);
  const url = flags.url ?? (env.FZ_URL || undefined) ?? profile?.url;
  if (url === undefined) return {kind: 'first-run', configPath: path, settings};
  // A profile's token is sent only to that profile's server, unless the profile was named on
  // purpose (--profile, FZ_PROFILE): a default profile must not hand its credential to whatever
  // --url or FZ_URL names. And the header says the profile only when the server is the profile's.
  const urlFromProfile = url === profile?.url && flags.url === undefined && !env.FZ_URL;
  const named = flags.profile !== undefined || Boolean(env.FZ_PROFILE);
  const tokenProfile = urlFromProfile || named ? profile : null;

  let token: string | undefined;
  let source = '';
  if (env.FZ_API_TOKEN) {
    token = env.FZ_API_TOKEN.trim();
    source = 'FZ_API_TOKEN';
  } else if (env.FZ_API_TOKEN_FILE) {
    token = await readTokenFile(env.FZ_API_TOKEN_FILE);
    source = `FZ_API_TOKEN_FILE ${env.FZ_API_TOKEN_FILE}`;
  } else if (tokenProfile?.tokenFile) {
    const tokenFile = expandHome(tokenProfile.tokenFile, env);
    token = await readTokenFile(tokenFile);
    source = `the token file ${tokenFile} of profile "${profileName}"`;
  } else if (tokenProfile?.tokenCommand) {
    token = await runTokenCommand(tokenProfile.tokenCommand);
    source = `the tokenCommand of profile "${profileName}"`;
  }
  if (!token) {
    throw new UsageError(
      profile && !tokenProfile && (profile.tokenFile || profile.tokenCommand)
        ? `no API token for ${url}: set FZ_API_TOKEN or FZ_API_TOKEN_FILE (the token of the default profile "${profileName}" is only sent to its own server ${profile.url}; --profile ${profileName} sends it anyway)`
        : `no API token for ${url}: set FZ_API_TOKEN or FZ_API_TOKEN_FILE, or give the profile a tokenFile or tokenCommand`,
    );
  }
  checkToken(token, source);
  return {
    kind: 'connection',
    connection: {
      url,
      token,
      profile: urlFromProfile || named ? profileName : null,
      label: urlFromProfile ? (profileName ?? url) : url,
      ...settings,
    },
  };
}

function expandHome(path: string, env: NodeJS.ProcessEnv): string {
  return path.startsWith('~/') ? join(env.HOME ?? homedir(), path.slice(2)) : path;
}
