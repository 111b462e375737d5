// Whether Ctrl-Z can stop the console and hand the terminal to a shell that will give it back
// (`fg`). It can when a shell with job control started it: that shell put the console's process
// group in the foreground, in its own session. Started straight by tmux, ssh, a terminal emulator
// or `exec` in a shell, the console's group has no such parent: the kernel discards the SIGTSTP
// of an orphaned process group (POSIX), and the console used to give up the screen and keep
// running, blank, with nothing to come back to. Read from /proc (Linux); elsewhere it cannot
// tell, and Ctrl-Z does as before.
import {readFileSync} from 'node:fs';

export interface ProcessIds {
  ppid: number;
  pgrp: number;
  session: number;
}

/** The parent, process group and session of a `/proc/<pid>/stat` line; null when it is not one. */
export function parseStat(text: string): ProcessIds | null {
  // `pid (comm) state ppid pgrp session …`: the command name may hold spaces and parentheses, so
  // the fields are read after its last ")".
  const end = text.lastIndexOf(')');
  if (end < 0) return null;
  const fields = text
    .slice(end + 1)
    .trim()
    .split(/\s+/);
  const [ppid, pgrp, session] = [Number(fields[1]), Number(fields[2]), Number(fields[3])];
  return [ppid, pgrp, session].every((n) => Number.isInteger(n) && n >= 0) ? {ppid, pgrp, session} : null;
}

function readIds(pid: number): ProcessIds | null {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * True when a process outside the console's process group but in its session is the parent of
 * one of the group's processes up the line (a job-control shell: its group is not orphaned);
 * false when the line leaves the session first (tmux, sshd, init); null when it cannot tell.
 */
export function hasJobControl(pid: number = process.pid, read: (pid: number) => ProcessIds | null = readIds): boolean | null {
  const own = read(pid);
  if (own === null) return null;
  let at = own;
  // A non-interactive shell in between (`sh -c 'fz-console'`) shares the console's group: up past it.
  for (let hops = 0; hops < 64; hops++) {
    if (at.ppid <= 0) return false;
    const parent = read(at.ppid);
    if (parent === null) return null;
    if (parent.pgrp !== own.pgrp) return parent.session === own.session;
    at = parent;
  }
  return null;
}
