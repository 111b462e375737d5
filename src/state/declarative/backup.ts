// What apply deletes or replaces, kept first (docs/server-as-a-file.md, "Apply"): a document with
// its secrets, 0600, in $XDG_STATE_HOME/fz-console/backups/ (a folder of the user's own, 0700), so
// that `apply` of that file brings it back. Written with O_EXCL: never over a file or through a link.
import {lstatSync, mkdirSync} from 'node:fs';
import {homedir} from 'node:os';
import {join} from 'node:path';
import {writeConfigFile} from '../../wireguard/file.js';
import {backupDocument} from './apply.js';
import {serialiseDocument} from './document.js';
import type {ServerState} from './export.js';
import type {Plan} from './plan.js';

export class BackupError extends Error {
  override readonly name = 'BackupError';
}

function backupFolder(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_STATE_HOME && env.XDG_STATE_HOME.startsWith('/') ? env.XDG_STATE_HOME : join(env.HOME ?? homedir(), '.local', 'state');
  const folder = join(base, 'fz-console', 'backups');
  mkdirSync(folder, {recursive: true, mode: 0o700});
  // lstat: the folder itself, not what a link there would point to.
  const stat = lstatSync(folder);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (stat.mode & 0o077) !== 0 || (uid !== undefined && stat.uid !== uid))
    throw new BackupError(`${folder} must be a folder of your own that nobody else can open (chmod 700 it)`);
  return folder;
}

/** Writes the backup of what `plan` deletes or replaces; its path, or null when it deletes and replaces nothing. */
export async function writeBackup(plan: Plan, state: ServerState, env: NodeJS.ProcessEnv): Promise<string | null> {
  const backup = backupDocument(plan, state);
  if (!backup) return null;
  const path = join(backupFolder(env), `backup-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}.yaml`);
  const written = await writeConfigFile(path, serialiseDocument(backup, 'yaml'), {overwrite: false});
  if (!written.ok) throw new BackupError(`cannot write the backup: ${written.message}`);
  return written.path;
}
