// Temporary directories a test file makes for itself, each removed by the file where its use ends:
// `remove()` in the afterEach or afterAll that comes after whatever still uses them (a console in
// tmux, a child process) is stopped. test/setup/workdir.ts moves TMPDIR inside the file's own
// work directory, removed with it, so these are a second line: they go with their test, not only
// with the file, and do not outlive a run whose TMPDIR is the system's.
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';

export class TempDirs {
  private readonly dirs: string[] = [];

  /** A new private directory (mkdtemp: 0700) named `prefix` and six random characters, in TMPDIR or `parent`. */
  make(prefix: string, parent = tmpdir()): string {
    const dir = mkdtempSync(join(parent, prefix));
    this.dirs.push(dir);
    return dir;
  }

  /** Removes every directory made so far. Retried briefly: a process that was just stopped may still write its last file. */
  remove(): void {
    for (const dir of this.dirs.splice(0)) rmSync(dir, {recursive: true, force: true, maxRetries: 5, retryDelay: 100});
  }
}
