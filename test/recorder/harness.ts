// The recorder tests' rig: the built binary's `activity` without a terminal, against a sandbox
// process, its stderr collected, and waits for conditions (a line on stderr, a line in the log),
// never for a time. Each test file makes one Rig and stops it in afterAll.
import {spawn, type ChildProcess} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {BIN, startSandboxProcess, type SandboxProcess} from '../e2e/harness.js';

export interface Running {
  child: ChildProcess;
  stderr: () => string;
  stdout: () => string;
  exited: Promise<number | null>;
}

export async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The log's lines that parse; a line that does not parse throws (no test expects one unless it says so). */
export function logLines(path: string): Array<{kind: string; label: string; text: string}> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as {kind: string; label: string; text: string});
}

export class Rig {
  sandbox!: SandboxProcess;
  private readonly running: Running[] = [];

  async start(args: string[] = ['--seed', 'empty', '--stats-interval', '0']): Promise<void> {
    this.sandbox = await startSandboxProcess(args);
  }

  /** A request to the sandbox with its admin token (or `token`); the parsed answer, or null for a 204. */
  async api<T>(method: string, path: string, body?: unknown, token = this.sandbox.adminToken): Promise<T> {
    const res = await fetch(`${this.sandbox.url}${path}`, {
      method,
      headers: {authorization: `Bearer ${token}`, 'content-type': 'application/json'},
      ...(body === undefined ? {} : {body: JSON.stringify(body)}),
    });
    return (res.status === 204 ? null : await res.json()) as T;
  }

  /**
   * `fz-console activity ARGS` against the sandbox (FZ_URL and its admin token unless `env` says
   * otherwise); `prefix` runs it under another command (prlimit).
   */
  record(args: string[], env: NodeJS.ProcessEnv = {}, prefix: string[] = []): Running {
    const argv = [...prefix, process.execPath, BIN, 'activity', ...args];
    const child = spawn(argv[0]!, argv.slice(1), {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {...process.env, FZ_URL: this.sandbox.url, FZ_API_TOKEN: this.sandbox.adminToken, ...env},
    });
    let err = '';
    let out = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const running = {child, stderr: () => err, stdout: () => out, exited};
    this.running.push(running);
    return running;
  }

  /** Stops what a failed test left running (each test stops its own when it passes), and the sandbox. */
  async stop(): Promise<void> {
    for (const r of this.running) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
    await Promise.all(this.running.map((r) => r.exited));
    await this.sandbox?.stop();
  }
}
