// `E`: the admin's own editor on a file the console writes (docs/terminal-notes.md,
// "Handing the terminal to an editor"). The editor is $VISUAL, else $EDITOR, else vi, run as words split on blanks and never
// through a shell: a value such as `code --wait` works, and nothing in it or in the file's name is
// evaluated. The file is the console's alone: made O_EXCL 0600 in a new 0700 folder that no other
// user can rename away or replace (src/common/private-folder.ts), read back without following a
// link and only up to a bound, and the folder removed afterwards whatever happened.
import {spawnSync} from 'node:child_process';
import {closeSync, constants, fstatSync, openSync, readSync, rmSync, writeSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {makePrivateWorkFolder, UnsafeFolderError} from '../common/private-folder.js';

/** What an edited file may hold: far more than any item or configuration (SAML metadata included). */
export const EDITED_FILE_MAX_BYTES = 1024 * 1024;
/** A longer $VISUAL/$EDITOR is not an editor command. */
const COMMAND_MAX = 4096;

/** What running the editor gave: the file's text, or why there is none (said on the status line). */
export type EditorRun = {ok: true; text: string} | {ok: false; reason: string};

/** The editor's argv without the file: $VISUAL, else $EDITOR, else vi; words split on blanks, no shell. */
export function editorCommand(env: NodeJS.ProcessEnv): string[] {
  for (const name of ['VISUAL', 'EDITOR'] as const) {
    const value = env[name];
    if (value === undefined || value.trim() === '' || value.length > COMMAND_MAX) continue;
    return value.trim().split(/\s+/);
  }
  return ['vi'];
}

/** A file name from an item's name: letters, digits, `.`, `-` and `_` only, at most 60 of them. */
export function editFileName(stem: string): string {
  const safe = stem
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+/, '')
    .slice(0, 60);
  return `${safe || 'item'}.json`;
}

/** How the editor is run: the real one hands it the terminal (tests pass another). */
export type RunEditor = (argv: readonly string[]) => {status: number | null; signal: string | null; error?: Error};

const runInTerminal: RunEditor = (argv) => {
  const result = spawnSync(argv[0]!, argv.slice(1), {stdio: 'inherit'});
  return {status: result.status, signal: result.signal, ...(result.error ? {error: result.error} : {})};
};

/**
 * Writes `text` to a new private file named for `stem`, runs the editor on it (synchronously: the
 * console's event loop, and so its reading of the keyboard, waits until the editor exits) and
 * returns what the file holds then. The folder is removed in every case.
 */
export function editTextInEditor(
  env: NodeJS.ProcessEnv,
  request: {stem: string; text: string},
  options: {run?: RunEditor; temporary?: string} = {},
): EditorRun {
  const run = options.run ?? runInTerminal;
  let folder: string;
  try {
    folder = makePrivateWorkFolder(
      env,
      {temporaryPrefix: 'fz-console-edit-', cachePrefix: 'edit-', purpose: 'write the file to edit in'},
      options.temporary ?? tmpdir(),
    );
  } catch (err) {
    if (err instanceof UnsafeFolderError) return {ok: false, reason: err.message};
    throw err;
  }
  try {
    const path = join(folder, editFileName(request.stem));
    const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      writeSync(fd, request.text);
    } finally {
      closeSync(fd);
    }
    const argv = [...editorCommand(env), path];
    const result = run(argv);
    const name = argv[0]!;
    if (result.error)
      return {
        ok: false,
        reason: `the editor ${JSON.stringify(name)} could not be started (${(result.error as NodeJS.ErrnoException).code ?? result.error.message}); set VISUAL or EDITOR`,
      };
    if (result.signal) return {ok: false, reason: `the editor ${JSON.stringify(name)} was ended by ${result.signal}`};
    if (result.status !== 0) return {ok: false, reason: `the editor ${JSON.stringify(name)} exited with status ${result.status}`};
    return readBack(path);
  } finally {
    rmSync(folder, {recursive: true, force: true});
  }
}

/** The edited file: a regular file (an editor may have replaced it by a rename), not a link, within the bound. */
function readBack(path: string): EditorRun {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return {
      ok: false,
      reason:
        code === 'ENOENT'
          ? 'the edited file was removed'
          : code === 'ELOOP'
            ? 'the edited file was replaced by a link'
            : `the edited file could not be read (${code})`,
    };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return {ok: false, reason: 'the edited file is not a regular file any more'};
    if (stat.size > EDITED_FILE_MAX_BYTES)
      return {ok: false, reason: `the edited file holds ${stat.size} bytes, more than the ${EDITED_FILE_MAX_BYTES} an edit may`};
    const buffer = Buffer.alloc(stat.size);
    let at = 0;
    while (at < buffer.length) {
      const n = readSync(fd, buffer, at, buffer.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return {ok: true, text: buffer.subarray(0, at).toString('utf8')};
  } finally {
    closeSync(fd);
  }
}
