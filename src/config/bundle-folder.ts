// Where the single executable unpacks its bundle (src/sea-main.ts). That folder holds code the
// console loads later, chunk by chunk (React and Ink at start, the rest on demand), so no other
// user may be able to create it first, nor rename it away and put his own in its place between its
// making and a chunk's load: it is made with mkdtemp (0700, never an existing name) in a parent
// that is checked all the way up (src/common/private-folder.ts: a world-writable TMPDIR that is not
// sticky is refused, and so is a TMPDIR that does not exist), and it is checked again just before
// the bundle is loaded (docs/architecture.md, "The host around the console").
import {lstatSync, type Stats} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname} from 'node:path';
import {checkNoOtherWriter, makePrivateWorkFolder, UnsafeFolderError} from '../common/private-folder.js';

/**
 * A new folder of this user's alone for the bundle: see makePrivateWorkFolder
 * (src/common/private-folder.ts). Throws an UnsafeFolderError saying why each place could not serve.
 */
export function makeBundleFolder(env: NodeJS.ProcessEnv, temporary: string = tmpdir()): string {
  return makePrivateWorkFolder(env, {temporaryPrefix: 'fz-console-', cachePrefix: 'bundle-', purpose: 'unpack the bundle into'}, temporary);
}

/** Throws unless `dir` is still the folder `made` describes: ours, not a link, 0700, the way to it safe. */
export function checkBundleFolder(dir: string, made: Stats): void {
  const now = lstatSync(dir);
  // Another inode is another folder: one made after ours was renamed away, or a link put there.
  const replaced = now.ino !== made.ino || now.dev !== made.dev;
  // A link or a file in its place has an inode of its own, which `replaced` sees first; said
  // anyway, as the rule reads, and no test can tell the two apart.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,BooleanLiteral: see above
  const notAFolder = now.isSymbolicLink() || !now.isDirectory();
  if (replaced || notAFolder || now.uid !== made.uid || (now.mode & 0o077) !== 0) {
    throw new UnsafeFolderError(`${dir} was changed after it was made`);
  }
  checkNoOtherWriter(dirname(dir));
}
