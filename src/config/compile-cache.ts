// V8's compile cache (Node ≥ 22.1): the compiled bytecode of the chunks bin.ts loads (React, Ink:
// most of the start time), kept between runs. What is in it runs inside the console, beside the
// API token, and Node checks neither the owner of its folder nor who wrote an entry (the checksum
// of an entry is computable): `module.enableCompileCache()` with no folder uses
// `$TMPDIR/node-compile-cache`, which another local user can create first and fill. So the cache
// lives in a folder of this user's own, checked (src/common/private-folder.ts), or there is none
// (docs/architecture.md, "The host around the console").
import {createRequire} from 'node:module';
import * as nodeModule from 'node:module';
import {basename, dirname} from 'node:path';
import {ensurePrivateFolder, userCacheHome} from '../common/private-folder.js';

/** The cache's folder below the user's cache home: `~/.cache/fz-console/compile-cache`. */
export const COMPILE_CACHE_NAMES = ['fz-console', 'compile-cache'] as const;

export type CompileCacheChoice =
  | {kind: 'folder'; path: string}
  /** Node's own settings decide, before any code of the console runs. */
  | {kind: 'node'; why: string}
  | {kind: 'none'; why: string};

const requireBuiltin = createRequire(import.meta.url);

function inSingleExecutable(): boolean {
  try {
    return (requireBuiltin('node:sea') as {isSea(): boolean}).isSea();
  } catch {
    return false;
  }
}

/**
 * Where the compile cache goes, or why nowhere. An admin's explicit choice is Node's to apply, as
 * Node documents it: NODE_DISABLE_COMPILE_CACHE, set to anything, turns the cache off;
 * NODE_COMPILE_CACHE names the folder, and Node has already enabled the cache there before the
 * console starts (that folder is the admin's to choose, and is not checked). The single executable
 * keeps none: its bundle is unpacked to a new folder each run, and V8's entries are keyed by the
 * file's path, so they would pile up and never be read. Otherwise: the user's private cache folder
 * (`$XDG_CACHE_HOME/fz-console/compile-cache` or `~/.cache/fz-console/compile-cache`, 0700), or
 * no cache when that folder cannot be made safe.
 */
export function chooseCompileCache(env: NodeJS.ProcessEnv, singleExecutable: boolean): CompileCacheChoice {
  if ('NODE_DISABLE_COMPILE_CACHE' in env) return {kind: 'node', why: 'NODE_DISABLE_COMPILE_CACHE is set'};
  if (env.NODE_COMPILE_CACHE) return {kind: 'node', why: 'NODE_COMPILE_CACHE is set'};
  if (singleExecutable) return {kind: 'none', why: 'the single executable unpacks its bundle to a new folder each run'};
  const home = userCacheHome(env);
  const names = basename(home) ? [basename(home), ...COMPILE_CACHE_NAMES] : [...COMPILE_CACHE_NAMES];
  try {
    return {kind: 'folder', path: ensurePrivateFolder(dirname(home), names)};
  } catch (err) {
    return {kind: 'none', why: (err as Error).message};
  }
}

/**
 * Turns the compile cache on where chooseCompileCache says. Older Node has no such function. A
 * cache that cannot be had only costs speed, so nothing is said about it.
 */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): CompileCacheChoice | null {
  const enable = (nodeModule as {enableCompileCache?: (directory: string) => unknown}).enableCompileCache;
  if (typeof enable !== 'function') return null;
  const choice = chooseCompileCache(env, inSingleExecutable());
  if (choice.kind === 'folder') {
    try {
      enable(choice.path);
    } catch {
      // a cache that cannot be written only costs speed
    }
  }
  return choice;
}
