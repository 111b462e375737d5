// Folders the console keeps code in: V8's compile cache (src/config/compile-cache.ts) and the single
// executable's unpacked bundle (src/sea-main.ts). Whatever is in them runs inside the console,
// beside the API token, so no other local user may be able to put anything there — neither by
// creating the folder first (a planted cache entry in a shared /tmp), nor by renaming it away and
// putting one of his own in its place (a parent others can write that is not sticky), nor through
// a symbolic link (docs/architecture.md, "The host around the console").
//
// The rule, OpenSSH's for the files it trusts plus the sticky exception that makes /tmp usable:
// every folder from / down to ours belongs to root or to us, and one that group or others may write
// must be sticky (there only an entry's owner may rename or remove it, and every entry on our path
// is root's or ours). Our own folder is ours, not a symbolic link, and writable by nobody else;
// one we create is made with mkdir (which fails rather than take an existing name) and checked
// after it is made.
import {lstatSync, mkdirSync, mkdtempSync, realpathSync, type Stats} from 'node:fs';
import {homedir} from 'node:os';
import {basename, dirname, isAbsolute, join, sep} from 'node:path';

export class UnsafeFolderError extends Error {
  override readonly name = 'UnsafeFolderError';
}

const mode = (stat: Stats) => (stat.mode & 0o7777).toString(8).padStart(4, '0');
const writableByOthers = (stat: Stats) => (stat.mode & 0o022) !== 0;
const sticky = (stat: Stats) => (stat.mode & 0o1000) !== 0;

/** Our uid; the checks need one (there is none on Windows, where nothing here is used). */
function ownUid(): number {
  const uid = process.getuid?.();
  if (uid === undefined) throw new UnsafeFolderError('this system has no user ids to check folders by');
  return uid;
}

function lstatOf(path: string): Stats {
  try {
    return lstatSync(path);
  } catch (err) {
    throw failure(path, err);
  }
}

/** `/a/b/c` → `/`, `/a`, `/a/b`, `/a/b/c`. */
function prefixes(path: string): string[] {
  const parts = path.split(sep).filter(Boolean);
  return [sep, ...parts.map((_, i) => sep + parts.slice(0, i + 1).join(sep))];
}

/**
 * Checks that no other user can change what the folder `realPath` holds or names: see the rule
 * above. `realPath` is a resolved path (realpath), so a symbolic link anywhere in it means one was
 * put there since, and is refused, not followed. Throws an UnsafeFolderError that names the folder.
 * `uid` is whose folders are trusted besides root's: this process's user (a test names another).
 */
export function checkNoOtherWriter(realPath: string, uid: number = ownUid()): void {
  for (const path of prefixes(realPath)) {
    const stat = lstatOf(path);
    if (stat.isSymbolicLink()) throw new UnsafeFolderError(`${path} is a symbolic link`);
    if (!stat.isDirectory()) throw new UnsafeFolderError(`${path} is not a folder`);
    if (stat.uid !== 0 && stat.uid !== uid) throw new UnsafeFolderError(`${path} belongs to another user (uid ${stat.uid})`);
    if (writableByOthers(stat) && !sticky(stat)) throw new UnsafeFolderError(`${path} can be written by others and is not sticky (mode ${mode(stat)})`);
  }
}

/** Checks a folder that is to be ours alone: ours, a folder (not a link to one), writable by nobody else. */
function checkOwnFolder(path: string): void {
  const stat = lstatOf(path);
  if (stat.isSymbolicLink()) throw new UnsafeFolderError(`${path} is a symbolic link`);
  if (!stat.isDirectory()) throw new UnsafeFolderError(`${path} is not a folder`);
  if (stat.uid !== ownUid()) throw new UnsafeFolderError(`${path} belongs to another user (uid ${stat.uid})`);
  if (writableByOthers(stat)) throw new UnsafeFolderError(`${path} can be written by others (mode ${mode(stat)})`);
}

function failure(path: string, err: unknown): UnsafeFolderError {
  return new UnsafeFolderError(`${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
}

function resolved(path: string): string {
  try {
    return realpathSync.native(path);
  } catch (err) {
    throw failure(path, err);
  }
}

/**
 * The folder `parent`/`names[0]`/…/`names[n-1]`, for this user only: `parent` must exist; each of
 * `names` is made (0700) when missing. Before anything is made in a folder, that folder is checked
 * with checkNoOtherWriter (resolved first: `~/.cache` may be a link to another disk); the last one
 * must not be a symbolic link, must be ours and writable by nobody else. Returns its resolved path
 * (use that one: it is the path that was checked). Throws an UnsafeFolderError.
 */
export function ensurePrivateFolder(parent: string, names: readonly string[]): string {
  if (!isAbsolute(parent)) throw new UnsafeFolderError(`${parent} is not an absolute path`);
  let current = resolved(parent);
  for (const [i, name] of names.entries()) {
    checkNoOtherWriter(current);
    const path = join(current, name);
    try {
      mkdirSync(path, {mode: 0o700});
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw failure(path, err);
    }
    if (i === names.length - 1) {
      checkOwnFolder(path);
      return path;
    }
    current = resolved(path);
  }
  checkOwnFolder(current);
  return current;
}

/**
 * A new folder of this user's in `parent`, named `prefix` and six random characters (mkdtemp:
 * 0700, never an existing name), after checking that no other user can rename it away or replace
 * it (checkNoOtherWriter on the resolved parent). Returns its resolved path. Throws an
 * UnsafeFolderError.
 */
export function makePrivateTempFolder(parent: string, prefix: string): string {
  const real = resolved(parent);
  checkNoOtherWriter(real);
  let path: string;
  try {
    path = mkdtempSync(join(real, prefix));
  } catch (err) {
    throw failure(real, err);
  }
  checkOwnFolder(path);
  return path;
}

/** The user's cache folder by the XDG rule: `$XDG_CACHE_HOME` when it is an absolute path, else `~/.cache`. */
export function userCacheHome(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CACHE_HOME;
  return xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.cache');
}

/**
 * A new folder of this user's alone (mkdtemp, 0700), in the first of: the temporary folder (TMPDIR,
 * or the system's when unset), XDG_RUNTIME_DIR, and `$XDG_CACHE_HOME/fz-console`
 * (`~/.cache/fz-console`, made 0700 if missing) where one can be made safely: a world-writable
 * folder that is not sticky, or one that does not exist, is passed over. For what the console
 * loads later (the single executable's bundle) or hands to another program (the file `E` edits).
 * Throws an UnsafeFolderError saying why each place could not serve.
 */
export function makePrivateWorkFolder(
  env: NodeJS.ProcessEnv,
  names: {temporaryPrefix: string; cachePrefix: string; purpose: string},
  temporary: string,
): string {
  const reasons: string[] = [];
  const attempt = (what: string, make: () => string): string | null => {
    try {
      return make();
    } catch (err) {
      if (!(err instanceof UnsafeFolderError)) throw err;
      reasons.push(`${what}: ${err.message}`);
      return null;
    }
  };
  const fromTemporary = attempt(env.TMPDIR ? 'TMPDIR' : 'the temporary folder', () => makePrivateTempFolder(temporary, names.temporaryPrefix));
  if (fromTemporary) return fromTemporary;
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && isAbsolute(runtime)) {
    const fromRuntime = attempt('XDG_RUNTIME_DIR', () => makePrivateTempFolder(runtime, names.temporaryPrefix));
    if (fromRuntime) return fromRuntime;
  }
  const home = userCacheHome(env);
  const fromCache = attempt('the cache folder', () =>
    makePrivateTempFolder(ensurePrivateFolder(dirname(home), [basename(home), 'fz-console']), names.cachePrefix),
  );
  if (fromCache) return fromCache;
  throw new UnsafeFolderError(`no folder of yours alone to ${names.purpose} (${reasons.join('; ')}); set TMPDIR to one`);
}
