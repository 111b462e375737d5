// Writing a client config (it holds the device's private key) to disk: owner-only from the
// first byte, never clobbering an existing file unless the admin said so, and reporting
// failures as values the UI can show next to the path prompt (the `w` key of the new-device
// result screen).
import {randomBytes} from 'node:crypto';
import {promises as fs} from 'node:fs';
import {homedir} from 'node:os';
import {basename, dirname, join, resolve} from 'node:path';

export type WriteConfigResult =
  | {ok: true; /** Absolute path written. */ path: string}
  | {ok: false; reason: 'exists' | 'error'; message: string; /** errno code when there is one. */ code?: string};

const MODE = 0o600;

/** `~` and `~/…` are expanded like a shell would, since the path comes from a prompt. */
export function expandPath(path: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return join(homedir(), path.slice(2));
  return resolve(path);
}

function describe(err: unknown, path: string): {message: string; code?: string} {
  const e = err as NodeJS.ErrnoException;
  const dir = dirname(path);
  switch (e.code) {
    case 'EACCES':
    case 'EPERM':
      return {code: e.code, message: `Permission denied: cannot write ${path} (check the permissions of ${dir})`};
    case 'ENOENT':
      return {code: e.code, message: `Folder ${dir} does not exist`};
    case 'ENOTDIR':
      return {code: e.code, message: `Cannot write ${path}: a part of ${dir} is not a folder`};
    case 'EISDIR':
      return {code: e.code, message: `${path} is a folder; give a file name`};
    case 'EROFS':
      return {code: e.code, message: `Cannot write ${path}: the file system is read-only`};
    case 'ENOSPC':
    case 'EDQUOT':
      return {code: e.code, message: `Cannot write ${path}: no space left (${e.code})`};
    case 'ENAMETOOLONG':
      return {code: e.code, message: `Cannot write ${path}: the file name is too long`};
    default:
      return {code: e.code, message: `Cannot write ${path}: ${e.message ?? String(err)}`};
  }
}

// O_CREAT|O_EXCL ('wx') creates the file or fails with EEXIST — also for a dangling symlink,
// so nothing is ever written through a link someone planted. The explicit chmod makes the
// mode exactly 0600 whatever the umask is. A file that could not be written completely (disk
// full, quota) is removed: it is ours, since we created it, and half a config is useless.
async function createExclusive(path: string, text: string): Promise<void> {
  const handle = await fs.open(path, 'wx', MODE);
  let complete = false;
  try {
    await handle.chmod(MODE);
    await handle.writeFile(text, 'utf8');
    await handle.sync();
    complete = true;
  } finally {
    await handle.close();
    if (!complete) await fs.unlink(path).catch(() => undefined);
  }
}

/**
 * Writes `text` to `path` with mode 0600. Without `overwrite` an existing path is refused
 * (`reason: 'exists'`); with it the file is replaced by a new 0600 file (written next to it,
 * then renamed over it), so an old 0644 file does not keep its looser mode and a crash never
 * leaves a half-written config behind.
 */
export async function writeConfigFile(path: string, text: string, opts: {overwrite: boolean}): Promise<WriteConfigResult> {
  if (path.trim() === '') return {ok: false, reason: 'error', message: 'Give a file name'};
  const target = expandPath(path);

  if (!opts.overwrite) {
    try {
      await createExclusive(target, text);
      return {ok: true, path: target};
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
        const isDir = await fs.lstat(target).then(
          (s) => s.isDirectory(),
          () => false,
        );
        if (isDir) return {ok: false, reason: 'error', code: 'EISDIR', message: `${target} is a folder; give a file name`};
        return {ok: false, reason: 'exists', code: 'EEXIST', message: `${target} already exists`};
      }
      return {ok: false, reason: 'error', ...describe(err, target)};
    }
  }

  // Same folder, so rename() is atomic and never crosses file systems; the dot prefix and
  // random part keep it out of the way and unique.
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await createExclusive(tmp, text);
    await fs.rename(tmp, target);
    return {ok: true, path: target};
  } catch (err) {
    await fs.unlink(tmp).catch(() => undefined);
    return {ok: false, reason: 'error', ...describe(err, target)};
  }
}

/**
 * `./<device name>.conf`, the web UI's download name (docs/firezone-0.7.36.md, "Device creation in the web UI"), with every
 * character outside `A–Z a–z 0–9 _ = + . -` replaced by `_`. That set is what wg-quick allows
 * in the interface name it derives from the file name, and it is safe on every file system
 * and in a shell. A leading dot (hidden file) is replaced too, and the name is cut to the 15
 * characters of a Linux interface name. No name (null) gives `./device.conf`.
 */
/** Linux interface names (IFNAMSIZ − 1), which wg-quick derives from the file name. */
export const WG_INTERFACE_NAME_MAX = 15;

export function defaultConfigFileName(deviceName: string | null | undefined): string {
  // The name comes from the server: the allow-list below is also what keeps control
  // characters, path separators and terminal sequences out of the prompt and the file system.
  let name = (typeof deviceName === 'string' ? deviceName : '')
    .trim()
    .replace(/[^A-Za-z0-9_=+.-]/gu, '_')
    .replace(/^\./, '_');
  if (name === '') name = 'device';
  // wg-quick names the interface after the file, and Linux interface names have at most 15
  // characters: `wg-quick up ./newhire-laptop-2026.conf` would fail.
  return `./${name.slice(0, WG_INTERFACE_NAME_MAX)}.conf`;
}
