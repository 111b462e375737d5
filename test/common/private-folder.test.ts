// Folders only this user (and root) can change (src/common/private-folder.ts): every folder on the
// way is root's or ours, one others may write is sticky, our own is ours, no link, 0700 when made.
// Folders of another user are made with a real second uid (chown, as root; skipped otherwise).
import {chmodSync, chownSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {checkNoOtherWriter, ensurePrivateFolder, makePrivateTempFolder, UnsafeFolderError, userCacheHome} from '../../src/common/private-folder.js';
import {TempDirs} from '../helpers/tmp.js';

const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;
if (!isRoot) console.warn('private-folder: the tests with another user’s folders skipped (not root: cannot give a folder to another uid)');

const tmp = new TempDirs();
let base: string;
beforeEach(() => {
  base = tmp.make('fzc-private-');
});
afterEach(() => tmp.remove());

const modeOf = (path: string) => statSync(path).mode & 0o7777;
/** A folder in `base` with exactly this mode (chmod: the umask would take bits off). */
function folder(name: string, mode: number): string {
  const path = join(base, name);
  mkdirSync(path);
  chmodSync(path, mode);
  return path;
}

describe('ensurePrivateFolder', () => {
  it('makes the missing folders 0700, one at a time, and returns the resolved path', () => {
    const made = ensurePrivateFolder(base, ['.cache', 'fz-console', 'compile-cache']);
    expect(made).toBe(join(base, '.cache', 'fz-console', 'compile-cache'));
    for (const path of [join(base, '.cache'), join(base, '.cache', 'fz-console'), made]) expect(modeOf(path)).toBe(0o700);
    // Taken again as it is.
    expect(ensurePrivateFolder(base, ['.cache', 'fz-console', 'compile-cache'])).toBe(made);
  });

  it('reaches the folders above through a link (a cache on another disk), checking what it resolves to', () => {
    const real = folder('elsewhere', 0o755);
    symlinkSync(real, join(base, '.cache'));
    expect(ensurePrivateFolder(base, ['.cache', 'fz-console'])).toBe(join(real, 'fz-console'));
  });

  it('refuses a parent others can write that is not sticky, and makes nothing in it', () => {
    const shared = folder('shared', 0o777);
    expect(() => ensurePrivateFolder(shared, ['fz-console'])).toThrow(
      new UnsafeFolderError(`${shared} can be written by others and is not sticky (mode 0777)`),
    );
    expect(readdirSync(shared)).toEqual([]);
    // Group-writable is others too.
    const group = folder('group', 0o775);
    expect(() => ensurePrivateFolder(group, ['fz-console'])).toThrow('can be written by others and is not sticky (mode 0775)');
  });

  it('takes a sticky shared parent (a /tmp), where only we can rename what is ours', () => {
    const shared = folder('sticky', 0o1777);
    const made = ensurePrivateFolder(shared, ['fz-console']);
    expect(modeOf(made)).toBe(0o700);
  });

  it('refuses our folder when it is a link, a file, or writable by others', () => {
    const target = folder('target', 0o700);
    symlinkSync(target, join(base, 'link'));
    expect(() => ensurePrivateFolder(base, ['link'])).toThrow(new UnsafeFolderError(`${join(base, 'link')} is a symbolic link`));
    writeFileSync(join(base, 'file'), '');
    expect(() => ensurePrivateFolder(base, ['file'])).toThrow(new UnsafeFolderError(`${join(base, 'file')} is not a folder`));
    folder('open', 0o757);
    expect(() => ensurePrivateFolder(base, ['open'])).toThrow(new UnsafeFolderError(`${join(base, 'open')} can be written by others (mode 0757)`));
  });

  it('refuses a parent that does not exist, and a relative one', () => {
    expect(() => ensurePrivateFolder(join(base, 'missing'), ['x'])).toThrow(new UnsafeFolderError(`${join(base, 'missing')}: ENOENT`));
    expect(() => ensurePrivateFolder('relative', ['x'])).toThrow('relative is not an absolute path');
  });

  it.skipIf(!isRoot)('refuses a folder another user made first in a sticky shared folder (his: he can fill it or swap it)', () => {
    const shared = folder('sticky', 0o1777);
    const planted = join(shared, 'fz-console');
    mkdirSync(planted);
    chmodSync(planted, 0o777);
    chownSync(planted, NOBODY, NOBODY);
    expect(() => ensurePrivateFolder(shared, ['fz-console', 'compile-cache'])).toThrow(
      new UnsafeFolderError(`${planted} belongs to another user (uid ${NOBODY})`),
    );
    expect(readdirSync(planted)).toEqual([]);
    // Even as the last folder, and not writable by anyone else.
    chmodSync(planted, 0o700);
    expect(() => ensurePrivateFolder(shared, ['fz-console'])).toThrow(`${planted} belongs to another user (uid ${NOBODY})`);
  });

  it.skipIf(!isRoot)('refuses a path through a folder of another user, though no one else can write it', () => {
    const his = folder('his', 0o755);
    chownSync(his, NOBODY, NOBODY);
    expect(() => ensurePrivateFolder(his, ['fz-console'])).toThrow(new UnsafeFolderError(`${his} belongs to another user (uid ${NOBODY})`));
  });
});

describe('makePrivateTempFolder', () => {
  it('makes a new 0700 folder in a sticky or private parent', () => {
    for (const parent of [folder('sticky', 0o1777), folder('private', 0o700)]) {
      const made = makePrivateTempFolder(parent, 'fz-console-');
      expect(made.startsWith(join(parent, 'fz-console-'))).toBe(true);
      expect(modeOf(made)).toBe(0o700);
      expect(statSync(made).uid).toBe(process.getuid!());
    }
  });

  it('refuses a parent others can write that is not sticky (the folder could be renamed away and replaced), and a missing one', () => {
    const shared = folder('shared', 0o777);
    expect(() => makePrivateTempFolder(shared, 'fz-console-')).toThrow(
      new UnsafeFolderError(`${shared} can be written by others and is not sticky (mode 0777)`),
    );
    expect(readdirSync(shared)).toEqual([]);
    expect(() => makePrivateTempFolder(join(base, 'none'), 'fz-console-')).toThrow(new UnsafeFolderError(`${join(base, 'none')}: ENOENT`));
  });

  it('refuses a missing folder, a link and a file on the way, each by name', () => {
    expect(() => checkNoOtherWriter(join(base, 'gone'))).toThrow(new UnsafeFolderError(`${join(base, 'gone')}: ENOENT`));
    symlinkSync(folder('target', 0o700), join(base, 'link'));
    expect(() => checkNoOtherWriter(join(base, 'link', 'x'))).toThrow(new UnsafeFolderError(`${join(base, 'link')} is a symbolic link`));
    writeFileSync(join(base, 'file'), '');
    expect(() => checkNoOtherWriter(join(base, 'file', 'x'))).toThrow(new UnsafeFolderError(`${join(base, 'file')} is not a folder`));
    // A prefix that cannot be made (its folder is missing) is said, not left to fail later.
    expect(() => makePrivateTempFolder(base, 'no/such-')).toThrow(new UnsafeFolderError(`${base}: ENOENT`));
  });

  it.skipIf(!isRoot)('as a user other than root: root’s folders and his own are trusted, another user’s are not', () => {
    const USER = 1000;
    const his = folder('his', 0o700);
    chownSync(his, USER, USER);
    // The way down is root's (base and above), then his.
    expect(() => checkNoOtherWriter(his, USER)).not.toThrow();
    expect(() => checkNoOtherWriter(base, USER)).not.toThrow();
    // To anyone else, root included, his folder is another user's.
    expect(() => checkNoOtherWriter(his, USER + 1)).toThrow(new UnsafeFolderError(`${his} belongs to another user (uid ${USER})`));
    expect(() => checkNoOtherWriter(his, 0)).toThrow(new UnsafeFolderError(`${his} belongs to another user (uid ${USER})`));
  });

  it('checks the whole way up, not only the parent', () => {
    const shared = folder('shared', 0o777);
    const inside = join(shared, 'mine');
    mkdirSync(inside, {mode: 0o700});
    expect(() => makePrivateTempFolder(inside, 'fz-console-')).toThrow(`${shared} can be written by others and is not sticky`);
    expect(() => checkNoOtherWriter(inside)).toThrow(UnsafeFolderError);
  });
});

describe('userCacheHome', () => {
  it('is $XDG_CACHE_HOME when absolute, else ~/.cache', () => {
    expect(userCacheHome({XDG_CACHE_HOME: '/c', HOME: '/h'})).toBe('/c');
    expect(userCacheHome({XDG_CACHE_HOME: 'rel', HOME: '/h'})).toBe('/h/.cache');
    expect(userCacheHome({HOME: '/h'})).toBe('/h/.cache');
  });
});
