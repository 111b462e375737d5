// `--activity-log PATH` (issue #14): every activity event appended as one JSON line, an audit trail
// that outlives the session. Owner-only (0600), append-only, one write(2) per line straight from
// the event (no buffer in the process), so a crash loses at most the line being written and never
// leaves earlier lines half-written. Events are built secret-free (src/state/tracking/snapshot-diff.ts); the
// file gets exactly what the Activity screen shows.
import {closeSync, fdatasyncSync, writeSync} from 'node:fs';
import {openPrivateAppend} from '../../common/private-file.js';
import type {ActivityEvent} from './events.js';

/** The JSON of one event. Field names are the file's format: change them only with a note in the README. */
export interface ActivityLogLine {
  time: string;
  kind: string;
  type: string;
  id: string;
  label: string;
  owner: string | null;
  text: string;
  detail?: readonly string[];
  by: 'you' | null;
}

export function logLine(event: ActivityEvent): ActivityLogLine {
  const line: ActivityLogLine = {
    time: new Date(event.at).toISOString(),
    kind: event.kind,
    type: event.object.type,
    id: event.object.id,
    label: event.object.label,
    owner: event.owner,
    text: event.text,
    by: event.by,
  };
  if (event.detail.length > 0) line.detail = event.detail;
  return line;
}

// JSON.stringify escapes C0 controls but passes DEL, C1 controls (U+009B is a CSI on some
// terminals), bidi overrides and line separators through. Escaped, the line is still the same JSON
// value, and `cat`/`tail -f` of the log cannot drive the terminal with a hostile device name.
const UNSAFE_IN_LOG = /[\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

export function encodeLine(event: ActivityEvent): string {
  return `${JSON.stringify(logLine(event)).replace(UNSAFE_IN_LOG, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

export class ActivityLog {
  private fd: number | null;

  private constructor(
    fd: number,
    readonly path: string,
    private readonly sync: boolean,
  ) {
    this.fd = fd;
  }

  /**
   * Opens (creating if needed) for appending, mode 0600 from the first byte; never through a
   * symbolic link, never a FIFO or device, never chmodding a file it did not create (an existing
   * one must already be owner-only: src/common/private-file.ts). Throws so the console can refuse
   * to start with a message rather than run without the audit trail the admin asked for.
   * `sync` (default true) makes each batch durable with fdatasync, not just written.
   */
  static open(path: string, options: {sync?: boolean} = {}): ActivityLog {
    return new ActivityLog(openPrivateAppend(path), path, options.sync ?? true);
  }

  /**
   * Appends one line per event. Never throws: it runs inside the poll's data callback, and a full
   * disk must not stop the console. A failure is returned as a message for the status bar; lines
   * written before it stay whole, and the next batch tries again.
   */
  append(events: readonly ActivityEvent[]): string | null {
    if (this.fd === null) return `the activity log ${this.path} is closed`;
    if (events.length === 0) return null;
    try {
      for (const event of events) {
        const bytes = Buffer.from(encodeLine(event), 'utf8');
        let off = 0;
        // O_APPEND: a regular file takes the whole line in one write; the loop covers a short write.
        while (off < bytes.length) off += writeSync(this.fd, bytes, off, bytes.length - off);
      }
      if (this.sync) fdatasyncSync(this.fd);
      return null;
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      return `Cannot write the activity log ${this.path}: ${e.code ?? e.message ?? String(err)}`;
    }
  }

  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    closeSync(fd);
  }
}
