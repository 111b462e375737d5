// End-to-end harness: the built `fz-console` binary in a real pseudo-terminal (tmux), and a
// sandbox in its own process. Tests wait for screen content; they never sleep and hope.
import {execFileSync, spawn, type ChildProcess} from 'node:child_process';
import {existsSync} from 'node:fs';
import {fileURLToPath} from 'node:url';

export const BIN = fileURLToPath(new URL('../../dist/fz-console.js', import.meta.url));

export function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], {stdio: 'ignore'});
    return true;
  } catch {
    return false;
  }
}

export function hasBinary(): boolean {
  return existsSync(BIN);
}

export interface SandboxProcess {
  url: string;
  adminToken: string;
  unprivilegedToken: string;
  child: ChildProcess;
  /** A request as the admin, read with plain fetch (not the console's client): throws on a status that is not 2xx; the body parsed, null when empty. */
  api<T>(method: string, path: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

/** Starts `fz-console sandbox` and reads its three FZ_ lines. */
export async function startSandboxProcess(args: string[] = []): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', ...args], {stdio: ['ignore', 'pipe', 'pipe']});
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const values = await new Promise<Record<string, string>>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${stderr}`)), 15_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const lines = out.split('\n').filter((l) => l.includes('='));
      if (lines.length >= 3) {
        clearTimeout(timer);
        resolve(Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)])));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code}: ${stderr}`));
    });
  });
  const url = values.FZ_URL!;
  const adminToken = values.FZ_API_TOKEN!;
  return {
    url,
    adminToken,
    unprivilegedToken: values.FZ_UNPRIVILEGED_TOKEN!,
    child,
    api: async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: {authorization: `Bearer ${adminToken}`, 'content-type': 'application/json'},
        ...(body === undefined ? {} : {body: JSON.stringify(body)}),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
      return (text ? JSON.parse(text) : null) as T;
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

let sessionCounter = 0;

/** A tmux server of its own (own socket) running an interactive bash, so the shell survives the app. */
export class Terminal {
  readonly socket: string;
  readonly name = 'main';

  private constructor(socket: string) {
    this.socket = socket;
  }

  static start(opts: {width: number; height: number; env?: Record<string, string>}): Terminal {
    const socket = `fzc-e2e-${process.pid}-${++sessionCounter}`;
    const term = new Terminal(socket);
    const envArgs = Object.entries({
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      ...opts.env,
    }).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    // env -u: Ink renders only the last frame when it detects CI (docs/terminal-notes.md,
    // "CI mode renders only the last frame").
    term.tmux(
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      term.name,
      '-x',
      String(opts.width),
      '-y',
      String(opts.height),
      ...envArgs,
      // bash drops a PS1 handed in through tmux's environment; one set on exec sticks.
      `env -u CI -u CONTINUOUS_INTEGRATION -u GITHUB_ACTIONS -u BUILD_NUMBER -u RUN_ID bash --norc --noprofile -c 'PS1="SHELL-READY$ " exec bash --norc --noprofile'`,
    );
    term.tmux('set-option', '-t', term.name, 'status', 'off');
    return term;
  }

  tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], {encoding: 'utf8'});
  }

  /** Types a shell command line and presses Enter. */
  run(command: string): void {
    this.tmux('send-keys', '-t', this.name, '-l', command);
    this.tmux('send-keys', '-t', this.name, 'Enter');
  }

  /** tmux key names: `j`, `Enter`, `Escape`, `C-c`, `PageDown`… Each key is sent separately. */
  keys(...keys: string[]): void {
    for (const key of keys) this.tmux('send-keys', '-t', this.name, key);
  }

  /** Literal text (a filter string). */
  type(text: string): void {
    this.tmux('send-keys', '-t', this.name, '-l', text);
  }

  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', this.name);
  }

  format(fmt: string): string {
    return this.tmux('display-message', '-p', '-t', this.name, fmt).trim();
  }

  get altScreen(): boolean {
    return this.format('#{alternate_on}') === '1';
  }

  get cursorVisible(): boolean {
    return this.format('#{cursor_flag}') === '1';
  }

  get size(): {width: number; height: number} {
    const [w, h] = this.format('#{pane_width} #{pane_height}').split(' ').map(Number);
    return {width: w!, height: h!};
  }

  resize(width: number, height: number): void {
    this.tmux('resize-window', '-t', this.name, '-x', String(width), '-y', String(height));
  }

  /** The pid of the program the shell is running (the shell's child). */
  childPid(): number | null {
    const shell = this.format('#{pane_pid}');
    try {
      const out = execFileSync('pgrep', ['-P', shell], {encoding: 'utf8'}).trim();
      return out ? Number(out.split('\n')[0]) : null;
    } catch {
      return null;
    }
  }

  async waitFor(test: string | RegExp | ((screen: string) => boolean), timeoutMs = 15_000): Promise<string> {
    const matches = typeof test === 'string' ? (s: string) => s.includes(test) : test instanceof RegExp ? (s: string) => test.test(s) : test;
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      last = this.screen();
      if (matches(last)) {
        // A capture can land in the middle of a frame's write (the top half new, the rest the
        // frame before), and callers assert on more than what they waited for: hand back a
        // screen only once a second capture agrees with it.
        await new Promise((r) => setTimeout(r, 25));
        const again = this.screen();
        if (again === last) return last;
        continue;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out after ${timeoutMs} ms waiting for ${String(test)}; screen was:\n${last}`);
  }

  async waitUntil(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (check()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}; screen was:\n${this.screen()}`);
  }

  kill(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}
