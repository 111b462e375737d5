// `fz-console sandbox [options]` (src/sandbox/README.md, "Command line"): runs the sandbox in the foreground. stdout carries
// exactly the three FZ_ lines once listening; everything else goes to stderr.

import {parseCidr} from './inet.js';
import {sandboxHelp} from './options.js';
import {startSandbox} from './server.js';
import {SettingsError} from './settings.js';
import type {SandboxOptions} from './types.js';

export const SANDBOX_HELP = sandboxHelp();

export class SandboxUsageError extends Error {}

export type ParsedSandboxArgs = {help: true} | {help: false; options: SandboxOptions};

function integer(flag: string, text: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(text)) throw new SandboxUsageError(`${flag} expects an integer, got "${text}"`);
  const n = Number(text);
  if (n < min || n > max) throw new SandboxUsageError(`${flag} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function network(flag: string, text: string, family: 4 | 6): string {
  const cidr = parseCidr(text);
  if (!cidr || cidr.ip.family !== family)
    throw new SandboxUsageError(`${flag} expects an IPv${family} CIDR like ${family === 4 ? '10.3.2.0/24' : 'fd00::3:2:0/120'}, got "${text}"`);
  return text;
}

/** Parses the arguments after `sandbox`; throws SandboxUsageError with a one-line message. */
export function parseSandboxArgs(argv: readonly string[]): ParsedSandboxArgs {
  const options: SandboxOptions = {seed: 'demo'};
  const env: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return {help: true};
    if (!arg.startsWith('--')) throw new SandboxUsageError(`unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const takeValue = (): string => {
      if (eq >= 0) return arg.slice(eq + 1);
      const next = argv[i + 1];
      if (next === undefined) throw new SandboxUsageError(`${flag} needs a value`);
      i++;
      return next;
    };
    switch (flag) {
      case '--host': {
        const value = takeValue();
        if (value === '') throw new SandboxUsageError('--host needs a value');
        options.host = value;
        break;
      }
      case '--port':
        options.port = integer(flag, takeValue(), 0, 65535);
        break;
      case '--seed': {
        const value = takeValue();
        if (value !== 'demo' && value !== 'empty') throw new SandboxUsageError(`--seed expects demo or empty, got "${value}"`);
        options.seed = value;
        break;
      }
      case '--devices':
        options.devices = integer(flag, takeValue(), 0, 1_000_000);
        break;
      case '--users':
        options.users = integer(flag, takeValue(), 0, 1_000_000);
        break;
      case '--rules':
        options.rules = integer(flag, takeValue(), 0, 40_000);
        break;
      case '--random-seed':
        options.randomSeed = integer(flag, takeValue(), -(2 ** 31), 2 ** 32 - 1);
        break;
      case '--ipv4-network':
        options.ipv4Network = network(flag, takeValue(), 4);
        break;
      case '--ipv6-network':
        options.ipv6Network = network(flag, takeValue(), 6);
        break;
      case '--max-devices-per-user':
        options.maxDevicesPerUser = integer(flag, takeValue(), 0, 100);
        break;
      case '--stats-interval': {
        const value = takeValue();
        const n = Number(value);
        if (value.trim() === '' || !Number.isFinite(n) || n < 0)
          throw new SandboxUsageError(`--stats-interval expects a number of seconds ≥ 0, got "${value}"`);
        options.statsIntervalSeconds = n;
        break;
      }
      case '--env': {
        const value = takeValue();
        const sep = value.indexOf('=');
        const key = sep < 0 ? value : value.slice(0, sep);
        if (sep < 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new SandboxUsageError(`--env expects KEY=VALUE, got "${value}"`);
        env[key] = value.slice(sep + 1);
        break;
      }
      case '--latency-ms':
        options.latencyMs = integer(flag, takeValue(), 0, 600_000);
        break;
      default:
        throw new SandboxUsageError(`unknown option ${flag} (see fz-console sandbox --help)`);
    }
  }
  if (Object.keys(env).length > 0) options.env = env;
  return {help: false, options};
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

export async function runSandboxCli(argv: string[]): Promise<void> {
  let parsed: ParsedSandboxArgs;
  try {
    parsed = parseSandboxArgs(argv);
  } catch (e) {
    if (!(e instanceof SandboxUsageError)) throw e;
    process.stderr.write(`fz-console sandbox: ${oneLine(e.message)}\n`);
    process.exit(2);
  }
  if (parsed.help) {
    process.stdout.write(SANDBOX_HELP);
    return;
  }
  const log = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  let handle;
  try {
    handle = await startSandbox({...parsed.options, log});
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`fz-console sandbox: ${oneLine(message)}\n`);
    process.exit(e instanceof SettingsError ? 2 : 1);
  }
  process.stdout.write(`FZ_URL=${handle.url}\nFZ_API_TOKEN=${handle.adminToken}\nFZ_UNPRIVILEGED_TOKEN=${handle.unprivilegedToken}\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    handle.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
