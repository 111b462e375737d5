// The UI test rig: <App> rendered with ink-testing-library against a sandbox, driven by action
// names from the keymap (src/state/input/keymap.ts) instead of raw escape strings.
//
//   const fx = useSandbox({seed: 'demo'});          // one sandbox for the test file
//   const app = await renderApp({fixture: fx});      // waits for the first data
//   await app.press('new');                          // the key BINDINGS gives `new`
//   await app.press('cancel', 'dialog');             // scope needed where the keys differ
//   await app.type('ann@example.com');               // one write per character
//   await app.burst('ann@example.com\tpass');        // everything in ONE write
//   await app.paste('line 1\nline 2');               // bracketed paste: ESC[200~ … ESC[201~
//   await app.waitFor('User created');
//
// Every rig is unmounted after each test (and a sandbox it started itself is closed).
import React from 'react';
import {afterAll, afterEach, beforeAll} from 'vitest';
import {render} from 'ink-testing-library';
import {FirezoneClient, type ClientOptions} from '../../src/api/index.js';
import {startSandbox, type SandboxHandle, type SandboxOptions} from '../../src/sandbox/index.js';
import {BINDINGS, keyFor, type Action, type Scope} from '../../src/state/input/keymap.js';
import {App, type AppProps, type AppSettings, type ConsoleClient} from '../../src/ui/App.js';
import type {FetchedData} from '../../src/state/data/snapshot.js';
import {strip, waitFor as waitForFrame} from './ink.js';

// ---- keys --------------------------------------------------------------------------------------

/** What a terminal sends for each normalised key name of the keymap. */
export const KEY_BYTES: Readonly<Record<string, string>> = {
  enter: '\r',
  esc: '\x1b',
  tab: '\t',
  'shift+tab': '\x1b[Z',
  backspace: '\x7f',
  ' ': ' ',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  pageup: '\x1b[5~',
  pagedown: '\x1b[6~',
  home: '\x1b[H',
  end: '\x1b[F',
};

/** The bytes for a key name: named keys, `ctrl+<letter>`, or a printable character as it is. */
export function bytesFor(name: string): string {
  const named = KEY_BYTES[name];
  if (named !== undefined) return named;
  const ctrl = /^ctrl\+([a-z])$/.exec(name);
  if (ctrl) return String.fromCharCode(ctrl[1]!.charCodeAt(0) - 96);
  if ([...name].length === 1) return name;
  throw new Error(`no terminal bytes known for key "${name}"`);
}

/**
 * The key the keymap binds to `action` (in `scope`, or in every scope that binds the action when
 * they all agree on the key). Throws if the action is unbound or its key differs by scope.
 */
export function keyForAction(action: Action, scope?: Scope): string {
  if (scope !== undefined) {
    const key = keyFor(scope, action);
    if (key === undefined) throw new Error(`the keymap binds no key to ${action} in scope ${scope}`);
    return key;
  }
  const keys = new Map<string, Scope[]>();
  for (const b of BINDINGS) if (b.action === action) keys.set(b.keys[0]!, [...(keys.get(b.keys[0]!) ?? []), b.scope]);
  if (keys.size === 0) throw new Error(`the keymap binds no key to ${action}`);
  if (keys.size > 1) {
    const which = [...keys].map(([k, scopes]) => `${k} in ${scopes.join('/')}`).join(', ');
    throw new Error(`press('${action}'): the key differs by scope (${which}); pass the scope`);
  }
  return [...keys.keys()][0]!;
}

/** A scheduler turn: Ink and React handle one write before the next arrives. */
export async function turn(): Promise<void> {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setTimeout(r, 0));
}

// ---- sandboxes ---------------------------------------------------------------------------------

export interface TestSandbox {
  sandbox: SandboxHandle;
  client: FirezoneClient;
  /** A request to the sandbox's /v0 (or /_sandbox) API as the admin; the JSON body parsed. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- sandbox JSON; the assertions check its shape
  api<T = any>(method: string, path: string, body?: unknown): Promise<{status: number; json: T}>;
  close(): Promise<void>;
}

export const TEST_SANDBOX_DEFAULTS: SandboxOptions = {port: 0, seed: 'demo', statsIntervalSeconds: 0};

/** A sandbox (port 0, demo seed and no stats unless told) with an admin client. */
export async function startTestSandbox(options: SandboxOptions = {}, clientOptions: Partial<ClientOptions> = {}): Promise<TestSandbox> {
  const sandbox = await startSandbox({...TEST_SANDBOX_DEFAULTS, ...options});
  const client = new FirezoneClient({baseUrl: sandbox.url, token: sandbox.adminToken, ...clientOptions});
  return {
    sandbox,
    client,
    api: async (method, path, body) => {
      const res = await fetch(`${sandbox.url}${path}`, {
        method,
        headers: {authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json'},
        ...(body === undefined ? {} : {body: JSON.stringify(body)}),
      });
      const text = await res.text();
      return {status: res.status, json: text ? JSON.parse(text) : null};
    },
    close: async () => {
      await client.close();
      await sandbox.close();
    },
  };
}

/**
 * One sandbox for the test file: started before its tests, closed after them. The fields are
 * readable once the file's tests run.
 */
export function useSandbox(options: SandboxOptions = {}, clientOptions: Partial<ClientOptions> = {}): TestSandbox {
  let current: TestSandbox | null = null;
  const get = () => {
    if (!current) throw new Error('the sandbox is not started yet (use it inside a test or a hook)');
    return current;
  };
  beforeAll(async () => {
    current = await startTestSandbox(options, clientOptions);
  });
  afterAll(async () => {
    await current?.close();
    current = null;
  });
  return {
    get sandbox() {
      return get().sandbox;
    },
    get client() {
      return get().client;
    },
    api: (method, path, body) => get().api(method, path, body),
    close: async () => get().close(),
  };
}

// ---- the app -----------------------------------------------------------------------------------

export const TEST_SETTINGS: AppSettings = {label: 'test', refreshSeconds: 0, readOnly: false, insecure: false, demo: false};

export interface RenderAppOptions {
  /** The sandbox to talk to (its admin client unless `client` is given). */
  fixture?: TestSandbox;
  /** Another client (a proxy, a revocable token, …). With neither, the rig starts its own sandbox. */
  client?: ConsoleClient;
  /** Options for the sandbox the rig starts itself. */
  sandbox?: SandboxOptions;
  settings?: Partial<AppSettings>;
  writeRaw?: (data: string) => void;
  firstData?: Promise<FetchedData>;
  /** App's firstDataReady: `firstData` had arrived when the console started. */
  firstDataReady?: boolean;
  reloadToken?: () => Promise<string | null>;
  /** `--activity-log`: an opened ActivityLog (src/state/tracking/activity-log.ts). */
  activityLog?: AppProps['activityLog'];
  /** `E`'s editor (App's editText): a function of the file's text, standing for the admin in $EDITOR. */
  editText?: AppProps['editText'];
  /** What to wait for before returning: the first data by default; false returns at once. */
  ready?: string | RegExp | false;
}

export interface Rig {
  /** The sandbox the app talks to, when the rig knows it (a fixture or its own). */
  readonly sandbox: TestSandbox | null;
  readonly stdin: {write: (data: string) => void};
  readonly stdout: NodeJS.EventEmitter;
  /** Every frame Ink wrote, raw (SGR codes included). */
  readonly frames: readonly string[];
  /** The last frame without SGR codes. */
  frame(): string;
  /** The last frame as Ink wrote it. */
  lastFrame(): string | undefined;
  waitFor(test: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Presses the key the keymap binds to `action` (see keyForAction); `times` presses in a row. */
  press(action: Action, scope?: Scope, times?: number): Promise<void>;
  /** Raw bytes, one write each, a scheduler turn between. */
  keys(...raw: string[]): Promise<void>;
  /** Key names (`tab`, `down`, `ctrl+u`, `x`), one write each. */
  named(...names: string[]): Promise<void>;
  /** Text typed one character per write, a scheduler turn between. */
  type(text: string): Promise<void>;
  /** Text (and control bytes) in ONE write, as a fast typist, tmux send-keys or an unbracketed paste. */
  burst(text: string): Promise<void>;
  /** A bracketed paste: ESC[200~ text ESC[201~ in one write. */
  paste(text: string): Promise<void>;
  /** Resizes the fake terminal. */
  resize(columns: number, rows?: number): void;
  unmount(): Promise<void>;
}

const live = new Set<Rig>();

/** Renders <App> and (unless `ready: false`) waits for the first data. */
export async function renderApp(options: RenderAppOptions = {}): Promise<Rig> {
  const own = options.client === undefined && options.fixture === undefined ? await startTestSandbox(options.sandbox) : null;
  const fixture = options.fixture ?? own;
  const client = options.client ?? fixture!.client;
  const settings: AppSettings = {...TEST_SETTINGS, ...options.settings};
  const ui = render(
    <App
      client={client}
      settings={settings}
      writeRaw={options.writeRaw}
      firstData={options.firstData}
      {...(options.firstDataReady !== undefined ? {firstDataReady: options.firstDataReady} : {})}
      reloadToken={options.reloadToken}
      // A lone ESC is the Esc key at the next timer turn: the rig writes keys a scheduler turn
      // apart, faster than a person, and must not have two of them read as one Alt chord.
      escapeDelayMs={0}
      {...(options.activityLog ? {activityLog: options.activityLog} : {})}
      {...(options.editText ? {editText: options.editText} : {})}
    />,
  );
  let unmounted = false;
  const write = async (data: string) => {
    ui.stdin.write(data);
    await turn();
  };
  const rig: Rig = {
    sandbox: fixture ?? null,
    stdin: ui.stdin,
    stdout: ui.stdout,
    frames: ui.frames,
    frame: () => strip(ui.lastFrame()),
    lastFrame: () => ui.lastFrame(),
    waitFor: (test, timeoutMs) => waitForFrame(ui.lastFrame, test, timeoutMs),
    press: async (action, scope, times = 1) => {
      const bytes = bytesFor(keyForAction(action, scope));
      for (let i = 0; i < times; i++) await write(bytes);
    },
    keys: async (...raw) => {
      for (const data of raw) await write(data);
    },
    named: async (...names) => {
      for (const name of names) await write(bytesFor(name));
    },
    type: async (text) => {
      for (const ch of text) await write(ch);
    },
    burst: async (text) => write(text),
    paste: async (text) => write(`\x1b[200~${text}\x1b[201~`),
    resize: (columns, rows) => {
      Object.defineProperty(ui.stdout, 'columns', {value: columns, configurable: true});
      if (rows !== undefined) Object.defineProperty(ui.stdout, 'rows', {value: rows, configurable: true});
      ui.stdout.emit('resize');
    },
    unmount: async () => {
      if (unmounted) return;
      unmounted = true;
      live.delete(rig);
      ui.unmount();
      ui.cleanup();
      await own?.close();
    },
  };
  live.add(rig);
  if (options.ready !== false) await rig.waitFor(options.ready ?? /Devices \d+/);
  return rig;
}

/** Unmounts every rig still rendered (run after each test). */
export async function cleanupRigs(): Promise<void> {
  for (const rig of [...live]) await rig.unmount();
}

afterEach(cleanupRigs);
