// Opening the console's own logs (--activity-log, --debug) as the owner's private, append-only
// files. A log path is a place an attacker can prepare: a symbolic link planted there would have
// the console append to, and tighten the mode of, a file it never meant to touch (~/.bashrc, with a
// device named `$(…)` in the line); a FIFO would hang start-up. So a link is never followed
// (O_NOFOLLOW), a FIFO or device is refused without blocking (O_NONBLOCK), a file the console did
// not create is never chmodded, and one that others can read or that belongs to someone else is
// refused with what to do about it.
import {closeSync, constants, fchmodSync, fstatSync, openSync, type Stats} from 'node:fs';

export class PrivateFileError extends Error {
  override readonly name = 'PrivateFileError';
}

const MODE = 0o600;

function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function refusal(path: string, err: NodeJS.ErrnoException): Error {
  switch (err.code) {
    case 'ELOOP':
      return new PrivateFileError(`${path} is a symbolic link: name the file itself (logs are never written through a link)`);
    case 'ENXIO':
      return new PrivateFileError(`${path} is a named pipe (FIFO) with nobody reading it, not a regular file`);
    case 'EISDIR':
      return new PrivateFileError(`${path} is a folder, not a file`);
    default:
      return err;
  }
}

/**
 * Opens `path` for appending and returns the descriptor: created 0600 when missing; an existing
 * file must be a regular file of this user that group and others cannot read or write, and is
 * appended to as it is. Throws a PrivateFileError that says why and what to do, or the system
 * error (ENOENT for a missing folder, EACCES …). `readable` opens it for reading too (the
 * activity log reads its own last line at start: src/state/tracking/activity-log.ts).
 */
export function openPrivateAppend(path: string, options: {readable?: boolean} = {}): number {
  const access = options.readable === true ? constants.O_RDWR : constants.O_WRONLY;
  const base = access | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NOCTTY | constants.O_NONBLOCK;
  let fd: number;
  let created = true;
  try {
    fd = openSync(path, base | constants.O_CREAT | constants.O_EXCL, MODE);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code !== 'EEXIST') throw refusal(path, e);
    created = false;
    try {
      fd = openSync(path, base);
    } catch (again) {
      throw refusal(path, again as NodeJS.ErrnoException);
    }
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new PrivateFileError(`${path} is ${kindOf(stat)}, not a regular file`);
    if (created) {
      // Ours from the first byte: exactly 0600 whatever the umask left.
      if ((stat.mode & 0o777) !== MODE) fchmodSync(fd, MODE);
    } else {
      const uid = process.getuid?.();
      if (uid !== undefined && stat.uid !== uid) throw new PrivateFileError(`${path} belongs to another user (uid ${stat.uid}): name a file of your own`);
      if ((stat.mode & 0o077) !== 0)
        throw new PrivateFileError(
          `${path} can be read or written by others (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}): chmod 600 it, or name another file`,
        );
    }
    return fd;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}
