// Connection settings: flags > environment > profile in the config file (design §2).
import {execFile} from 'node:child_process';
import {promises as fs, type Stats} from 'node:fs';
import {homedir} from 'node:os';
import {dirname, join} from 'node:path';
import {z} from 'zod';
import type {ConsoleFlags} from './args.js';
import {parseRefresh, UsageError} from './args.js';

export const ProfileSchema = z.object({
  url: z.string().min(1),
  tokenFile: z.string().min(1).optional(),
  tokenCommand: z.string().min(1).optional(),
  refresh: z.number().min(0).optional(),
  timeout: z.number().positive().optional(),
  readOnly: z.boolean().optional(),
  caFile: z.string().min(1).nullable().optional(),
  insecure: z.boolean().optional(),
}).strict().refine((p) => !(p.tokenFile && p.tokenCommand), {message: 'set tokenFile or tokenCommand, not both'})
  .refine((p) => p.refresh === undefined || p.refresh === 0 || p.refresh >= 1, {message: 'refresh must be 0 (manual) or at least 1', path: ['refresh']});
export type Profile = z.infer<typeof ProfileSchema>;

export const ConfigFileSchema = z.object({
  defaultProfile: z.string().optional(),
  profiles: z.record(z.string(), ProfileSchema).default({}),
}).strict();
export type ConfigFile = z.infer<typeof ConfigFileSchema>;

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
}

export type Resolution =
  | {kind: 'connection'; connection: Connection}
  | {kind: 'first-run'; configPath: string; settings: Omit<Connection, 'url' | 'token' | 'label' | 'profile'>};

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

export async function readConfigFile(path: string): Promise<ConfigFile | null> {
  let text: string;
  try {
    const stat = await fs.stat(path);
    checkPrivate(path, stat, 'Config file');
    text = await fs.readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`Cannot read config file ${path}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`Config file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = ConfigFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path.map(String).join('.') || '(top level)';
    throw new ConfigError(`Config file ${path}: ${key}: ${issue.message}`);
  }
  return parsed.data;
}

/** Writes the config file with mode 0600, creating its folder with 0700. */
export async function writeConfigFile(path: string, config: ConfigFile): Promise<void> {
  const valid = ConfigFileSchema.parse(config);
  await fs.mkdir(dirname(path), {recursive: true, mode: 0o700});
  const tmp = `${path}.${process.pid}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(valid, null, 2)}\n`, {mode: 0o600});
  await fs.chmod(tmp, 0o600);
  await fs.rename(tmp, path);
}

export async function readTokenFile(path: string): Promise<string> {
  let stat: Stats;
  try {
    stat = await fs.stat(path);
  } catch (err) {
    throw new ConfigError(`Cannot read token file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  checkPrivate(path, stat, 'Token file');
  const token = (await fs.readFile(path, 'utf8')).trim();
  if (token === '') throw new ConfigError(`Token file ${path} is empty`);
  return token;
}

export function runTokenCommand(command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('/bin/sh', ['-c', command], {timeout: 15_000, maxBuffer: 64 * 1024}, (err, stdout) => {
      // The command's stderr may echo secrets; report only how it failed.
      if (err) {
        const how = (err as NodeJS.ErrnoException & {killed?: boolean}).killed ? 'timed out after 15 s' : `exited with status ${String((err as {code?: unknown}).code ?? '?')}`;
        reject(new ConfigError(`tokenCommand ${how}`));
        return;
      }
      const token = stdout.trim();
      if (token === '') reject(new ConfigError('tokenCommand printed no token'));
      else resolve(token);
    });
  });
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
    profile = file?.profiles[profileName] ?? null;
    if (!profile) {
      const known = Object.keys(file?.profiles ?? {});
      throw new ConfigError(file
        ? `Profile "${profileName}" is not in ${path}${known.length ? ` (profiles: ${known.join(', ')})` : ''}`
        : `Profile "${profileName}" requested but there is no config file at ${path}`);
    }
  }
  const envRefresh = env.FZ_REFRESH ? parseRefresh(env.FZ_REFRESH, 'FZ_REFRESH') : undefined;
  const settings = {
    refreshSeconds: flags.refresh ?? envRefresh ?? profile?.refresh ?? 5,
    timeoutSeconds: flags.timeout ?? profile?.timeout ?? 15,
    caFile: flags.caFile ?? profile?.caFile ?? null,
    insecure: flags.insecure || (profile?.insecure ?? false),
    readOnly: flags.readOnly || (profile?.readOnly ?? false),
  };
  const url = flags.url ?? (env.FZ_URL || undefined) ?? profile?.url;
  if (url === undefined) return {kind: 'first-run', configPath: path, settings};

  let token: string | undefined;
  if (env.FZ_API_TOKEN) token = env.FZ_API_TOKEN.trim();
  else if (env.FZ_API_TOKEN_FILE) token = await readTokenFile(env.FZ_API_TOKEN_FILE);
  else if (profile?.tokenFile) token = await readTokenFile(expandHome(profile.tokenFile, env));
  else if (profile?.tokenCommand) token = await runTokenCommand(profile.tokenCommand);
  if (!token) {
    throw new UsageError(`no API token for ${url}: set FZ_API_TOKEN or FZ_API_TOKEN_FILE, or give the profile a tokenFile or tokenCommand`);
  }
  return {kind: 'connection', connection: {
    url, token, profile: profileName,
    label: profileName ?? url,
    ...settings,
  }};
}

function expandHome(path: string, env: NodeJS.ProcessEnv): string {
  return path.startsWith('~/') ? join(env.HOME ?? homedir(), path.slice(2)) : path;
}
