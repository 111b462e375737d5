// `--debug`: a plain-text log of requests and lifecycle events for bug reports. It never
// receives headers or bodies, so it cannot contain the token or key material.
import {closeSync, promises as fs, writeSync} from 'node:fs';
import {openPrivateAppend} from '../common/private-file.js';
import {homedir} from 'node:os';
import {join} from 'node:path';
import type {RequestEvent} from '../api/index.js';

export function debugLogPath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_STATE_HOME && env.XDG_STATE_HOME.startsWith('/') ? env.XDG_STATE_HOME : join(env.HOME ?? homedir(), '.local', 'state');
  return join(base, 'fz-console', 'debug.log');
}

export class DebugLog {
  private fd: number | null;

  private constructor(
    fd: number,
    readonly path: string,
  ) {
    this.fd = fd;
  }

  /** Opens it owner-only, never through a link (src/common/private-file.ts); its folder is made 0700. */
  static async open(env: NodeJS.ProcessEnv): Promise<DebugLog> {
    const path = debugLogPath(env);
    await fs.mkdir(join(path, '..'), {recursive: true, mode: 0o700});
    const log = new DebugLog(openPrivateAppend(path), path);
    log.line(`start fz-console ${process.env.FZ_CONSOLE_VERSION ?? 'dev'} node ${process.version} pid ${process.pid}`);
    return log;
  }

  /** One line; a failed write is dropped (a debug log must never stop the console). */
  line(text: string): void {
    if (this.fd === null) return;
    try {
      writeSync(this.fd, `${new Date().toISOString()} ${text}\n`);
    } catch {
      // a full disk or a closed descriptor: the line is lost, the console goes on
    }
  }

  request(e: RequestEvent): void {
    this.line(`${e.method} ${e.path} -> ${e.status ?? e.error ?? '?'} ${e.ms.toFixed(0)}ms ${e.bytes}B via ${e.via}${e.error ? ` error=${e.error}` : ''}`);
  }

  async close(): Promise<void> {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    closeSync(fd);
  }
}
