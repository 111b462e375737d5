// V8's compile cache goes to a folder of the user's own, never to the shared temporary folder
// (src/config/compile-cache.ts). What is in it runs inside the console, and Node checks neither the
// owner of `$TMPDIR/node-compile-cache` nor who wrote its entries. The choice is checked on any
// Node; the built console is run on Node ≥ 22.1 (which has the cache: CI runs the suite on 22 and
// 24), against a second, unprivileged uid (nobody, through setpriv) where this runs as root.
import {spawnSync} from 'node:child_process';
import {chmodSync, existsSync, mkdirSync, readdirSync, statSync} from 'node:fs';
import * as nodeModule from 'node:module';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {chooseCompileCache} from '../../src/config/compile-cache.js';
import {BIN, hasBinary} from '../e2e/harness.js';
import {TempDirs} from '../helpers/tmp.js';

const NOBODY = 65534;
const hasCache = typeof (nodeModule as {enableCompileCache?: unknown}).enableCompileCache === 'function';
const hasSetpriv = spawnSync('sh', ['-c', 'command -v setpriv']).status === 0;
const isRoot = process.getuid?.() === 0;
const runSkip = !hasCache ? `Node ${process.version} has no compile cache (22.1 and later)` : !hasBinary() ? 'no dist/fz-console.js (npm run build)' : null;
const uidSkip = runSkip ?? (!isRoot ? 'not root: cannot act as another user' : !hasSetpriv ? 'no setpriv' : null);
if (runSkip) console.warn(`compile-cache: the built console's runs skipped (${runSkip})`);
else if (uidSkip) console.warn(`compile-cache: the second uid's runs skipped (${uidSkip})`);

const tmp = new TempDirs();
let home: string;
beforeEach(() => {
  home = tmp.make('fzc-cc-home-');
});
afterEach(() => tmp.remove());

/** Every file below `dir`, relative. */
function filesIn(dir: string): string[] {
  return readdirSync(dir, {recursive: true, withFileTypes: true})
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

describe('chooseCompileCache', () => {
  it("is the user's private cache folder, made 0700: $XDG_CACHE_HOME when absolute, else ~/.cache", () => {
    const path = join(home, '.cache', 'fz-console', 'compile-cache');
    expect(chooseCompileCache({HOME: home}, false)).toEqual({kind: 'folder', path});
    expect(statSync(path).mode & 0o777).toBe(0o700);
    expect(chooseCompileCache({HOME: home, XDG_CACHE_HOME: 'relative'}, false)).toEqual({kind: 'folder', path});
    const xdg = join(home, 'xdg');
    expect(chooseCompileCache({HOME: home, XDG_CACHE_HOME: xdg}, false)).toEqual({kind: 'folder', path: join(xdg, 'fz-console', 'compile-cache')});
  });

  it("leaves an admin's explicit choice to Node, and makes no folder for it", () => {
    // Node turns the cache off when NODE_DISABLE_COMPILE_CACHE is set at all, empty included.
    expect(chooseCompileCache({HOME: home, NODE_DISABLE_COMPILE_CACHE: ''}, false)).toEqual({kind: 'node', why: 'NODE_DISABLE_COMPILE_CACHE is set'});
    expect(chooseCompileCache({HOME: home, NODE_COMPILE_CACHE: '/x'}, false)).toEqual({kind: 'node', why: 'NODE_COMPILE_CACHE is set'});
    expect(readdirSync(home)).toEqual([]);
  });

  it('keeps none for the single executable (a new bundle folder each run: entries would only pile up)', () => {
    expect(chooseCompileCache({HOME: home}, true)).toMatchObject({kind: 'none'});
    expect(readdirSync(home)).toEqual([]);
  });

  it('keeps none in a cache home others can write that is not sticky, and makes nothing there', () => {
    const shared = join(home, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    expect(chooseCompileCache({HOME: home, XDG_CACHE_HOME: shared}, false)).toEqual({
      kind: 'none',
      why: `${shared} can be written by others and is not sticky (mode 0777)`,
    });
    expect(readdirSync(shared)).toEqual([]);
  });
});

/** The built console's `sandbox --help` (it loads a chunk, which the cache then holds), as root or as `uid`. */
function runConsole(env: NodeJS.ProcessEnv, uid?: number) {
  const command = uid === undefined ? [process.execPath, BIN] : ['setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', process.execPath, BIN];
  const r = spawnSync(command[0]!, [...command.slice(1), 'sandbox', '--help'], {encoding: 'utf8', env: {PATH: process.env.PATH, ...env}});
  expect({status: r.status, stderr: r.stderr}).toEqual({status: 0, stderr: ''});
}

describe.skipIf(runSkip !== null)('the built console', () => {
  it('keeps nothing in a TMPDIR others can write, and its cache in ~/.cache/fz-console', () => {
    const shared = tmp.make('fzc-cc-tmp-');
    chmodSync(shared, 0o777);
    runConsole({HOME: home, TMPDIR: shared});
    // The old code: $TMPDIR/node-compile-cache/<node version>/<entries>.
    expect(readdirSync(shared)).toEqual([]);
    expect(filesIn(join(home, '.cache', 'fz-console', 'compile-cache')).length).toBeGreaterThan(0);
  });

  it.skipIf(uidSkip !== null)('never uses a cache folder another user planted in a shared /tmp, as TMPDIR or as cache home', () => {
    // A sticky, world-writable folder like /tmp, that nobody can reach (the test's own TMPDIR is 0700).
    const shared = tmp.make('fzc-cc-shared-', '/tmp');
    chmodSync(shared, 0o1777);
    const planted = join(shared, 'node-compile-cache');
    const made = spawnSync('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', 'mkdir', '-m', '777', planted]);
    expect(made.status).toBe(0);
    expect(statSync(planted).uid).toBe(NOBODY);
    // As cache home too: his folder in it is refused, the cache goes nowhere.
    const plantedHome = join(shared, 'fz-console');
    expect(spawnSync('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', 'mkdir', '-m', '777', plantedHome]).status).toBe(0);
    runConsole({HOME: home, TMPDIR: shared});
    runConsole({HOME: home, TMPDIR: shared, XDG_CACHE_HOME: shared});
    expect(filesIn(planted)).toEqual([]);
    expect(filesIn(plantedHome)).toEqual([]);
  });

  it.skipIf(uidSkip !== null)('run by an unprivileged user, keeps its cache in that user’s own folder', () => {
    const parent = tmp.make('fzc-cc-user-', '/tmp');
    chmodSync(parent, 0o755);
    const userHome = join(parent, 'home');
    mkdirSync(userHome, {mode: 0o700});
    chownHome(userHome);
    const shared = join(parent, 'tmp');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    runConsole({HOME: userHome, TMPDIR: shared}, NOBODY);
    const cache = join(userHome, '.cache', 'fz-console', 'compile-cache');
    expect(statSync(cache).uid).toBe(NOBODY);
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    expect(filesIn(cache).length).toBeGreaterThan(0);
    expect(existsSync(join(shared, 'node-compile-cache'))).toBe(false);
  });
});

function chownHome(path: string): void {
  expect(spawnSync('chown', [`${NOBODY}:${NOBODY}`, path]).status).toBe(0);
}
