// `--debug`: a plain-text log of requests and lifecycle events for bug reports. It never
// receives headers or bodies, so it cannot contain the token or key material.
import {promises as fs} from 'node:fs';
import type {FileHandle} from 'node:fs/promises';
import {homedir} from 'node:os';
import {join} from 'node:path';
import type {RequestEvent} from '../api/index.js';

export function debugLogPath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_STATE_HOME && env.XDG_STATE_HOME.startsWith('/') ? env.XDG_STATE_HOME : join(env.HOME ?? homedir(), '.local', 'state');
  return join(base, 'fz-console', 'debug.log');
}

export class DebugLog {
  private constructor(
    private readonly file: FileHandle,
    readonly path: string,
  ) {}

  static async open(env: NodeJS.ProcessEnv): Promise<DebugLog> {
    const path = debugLogPath(env);
    await fs.mkdir(join(path, '..'), {recursive: true, mode: 0o700});
    const file = await fs.open(path, 'a', 0o600);
    await file.chmod(0o600);
    const log = new DebugLog(file, path);
    log.line(`start fz-console ${process.env.FZ_CONSOLE_VERSION ?? 'dev'} node ${process.version} pid ${process.pid}`);
    return log;
  }

  line(text: string): void {
    void this.file.appendFile(`${new Date().toISOString()} ${text}\n`).catch(() => undefined);
  }

  request(e: RequestEvent): void {
    this.line(`${e.method} ${e.path} -> ${e.status ?? e.error ?? '?'} ${e.ms.toFixed(0)}ms ${e.bytes}B${e.error ? ` error=${e.error}` : ''}`);
  }

  async close(): Promise<void> {
    await this.file.close();
  }
}
