// Where the single executable unpacks its bundle (src/config/bundle-folder.ts): a new 0700 folder
// in the first of TMPDIR, XDG_RUNTIME_DIR and ~/.cache/fz-console that no other user can change;
// a TMPDIR others can write that is not sticky, or one that does not exist, is passed over, and
// when none serves the error is one line that says why each did not. The executable itself is run
// in test/release/exe.test.ts.
import {chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, renameSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {UnsafeFolderError} from '../../src/common/private-folder.js';
import {checkBundleFolder, makeBundleFolder} from '../../src/config/bundle-folder.js';
import {TempDirs} from '../helpers/tmp.js';

const tmp = new TempDirs();
let base: string;
let home: string;
beforeEach(() => {
  base = tmp.make('fzc-bundle-');
  home = join(base, 'home');
  mkdirSync(home, {mode: 0o700});
});
afterEach(() => tmp.remove());

function folder(name: string, mode: number): string {
  const path = join(base, name);
  mkdirSync(path);
  chmodSync(path, mode);
  return path;
}
const isOurs0700 = (path: string) => statSync(path).uid === process.getuid!() && (statSync(path).mode & 0o7777) === 0o700;

describe('makeBundleFolder', () => {
  it('is a new 0700 folder in TMPDIR when no other user can change it (sticky, or private)', () => {
    for (const temporary of [folder('sticky', 0o1777), folder('private', 0o700)]) {
      const dir = makeBundleFolder({TMPDIR: temporary, HOME: home}, temporary);
      expect(dir.startsWith(join(temporary, 'fz-console-'))).toBe(true);
      expect(isOurs0700(dir)).toBe(true);
    }
  });

  it('passes over a TMPDIR others can write that is not sticky: XDG_RUNTIME_DIR, else ~/.cache/fz-console', () => {
    const shared = folder('shared', 0o777);
    const runtime = folder('runtime', 0o700);
    const inRuntime = makeBundleFolder({TMPDIR: shared, XDG_RUNTIME_DIR: runtime, HOME: home}, shared);
    expect(inRuntime.startsWith(join(runtime, 'fz-console-'))).toBe(true);
    const inCache = makeBundleFolder({TMPDIR: shared, HOME: home}, shared);
    expect(inCache.startsWith(join(home, '.cache', 'fz-console', 'bundle-'))).toBe(true);
    expect(isOurs0700(inCache)).toBe(true);
    expect(readdirSync(shared)).toEqual([]);
  });

  it('passes over a TMPDIR that does not exist', () => {
    const missing = join(base, 'missing');
    expect(makeBundleFolder({TMPDIR: missing, HOME: home}, missing).startsWith(join(home, '.cache', 'fz-console', 'bundle-'))).toBe(true);
  });

  it('tries XDG_RUNTIME_DIR only when it is set to an absolute path', () => {
    const shared = folder('shared', 0o777);
    const missing = join(base, 'missing');
    for (const env of [{}, {XDG_RUNTIME_DIR: 'run/user'}, {XDG_RUNTIME_DIR: ''}]) {
      expect(() => makeBundleFolder({TMPDIR: shared, HOME: missing, ...env}, shared)).toThrow(
        new UnsafeFolderError(
          `no folder of yours alone to unpack the bundle into (TMPDIR: ${shared} can be written by others and is not sticky (mode 0777); ` +
            `the cache folder: ${missing}: ENOENT); set TMPDIR to one`,
        ),
      );
    }
  });

  it('when nothing serves, says why each did not, on one line', () => {
    const shared = folder('shared', 0o777);
    const missing = join(base, 'missing');
    let error: unknown;
    try {
      makeBundleFolder({TMPDIR: shared, XDG_RUNTIME_DIR: missing, HOME: missing}, shared);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UnsafeFolderError);
    expect((error as Error).message).toBe(
      `no folder of yours alone to unpack the bundle into (TMPDIR: ${shared} can be written by others and is not sticky (mode 0777); ` +
        `XDG_RUNTIME_DIR: ${missing}: ENOENT; the cache folder: ${missing}: ENOENT); set TMPDIR to one`,
    );
  });
});

describe('checkBundleFolder', () => {
  it('holds while the folder is the one made, and refuses one renamed away and replaced', () => {
    const temporary = folder('private', 0o700);
    const dir = makeBundleFolder({HOME: home}, temporary);
    const made = lstatSync(dir);
    expect(() => checkBundleFolder(dir, made)).not.toThrow();
    renameSync(dir, `${dir}.away`);
    mkdirSync(dir, {mode: 0o700});
    expect(() => checkBundleFolder(dir, made)).toThrow(new UnsafeFolderError(`${dir} was changed after it was made`));
  });

  it('refuses it when others have been let in, or it has been given away', () => {
    const temporary = folder('private', 0o700);
    const dir = makeBundleFolder({HOME: home}, temporary);
    const made = lstatSync(dir);
    chmodSync(dir, 0o750);
    expect(() => checkBundleFolder(dir, made)).toThrow(new UnsafeFolderError(`${dir} was changed after it was made`));
    chmodSync(dir, 0o700);
    expect(() => checkBundleFolder(dir, made)).not.toThrow();
    if (process.getuid?.() === 0) {
      chownSync(dir, 65534, 65534);
      expect(() => checkBundleFolder(dir, made)).toThrow(new UnsafeFolderError(`${dir} was changed after it was made`));
    }
  });

  it('refuses it when its parent has become writable by others', () => {
    const temporary = folder('private', 0o700);
    const dir = makeBundleFolder({HOME: home}, temporary);
    const made = lstatSync(dir);
    chmodSync(temporary, 0o777);
    expect(() => checkBundleFolder(dir, made)).toThrow(`${temporary} can be written by others and is not sticky`);
  });
});
