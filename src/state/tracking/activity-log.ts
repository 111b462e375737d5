// `--activity-log PATH` (issue #14) and the headless recorder's `--log FILE`: every activity event
// appended as one JSON line, an audit trail that outlives the session. Owner-only (0600),
// append-only, written straight from the events (no buffer in the process) and flushed per batch.
// A batch is whole or absent (issue #44): a write that fails part-way (a full disk) is cut back to
// where the batch began, so no half line is left for the next event to be glued onto; and a half
// line that a crash or an older version left is ended with a newline when the file is opened, and
// said. Events are built secret-free (src/state/tracking/snapshot-diff.ts); the file gets exactly
// what the Activity screen shows.
import {closeSync, fdatasyncSync, fstatSync, ftruncateSync, readSync, writeSync} from 'node:fs';
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

/** How far back from its end a file is read to measure a partial last line (a bound on what a start reads). */
export const PARTIAL_LINE_SCAN_BYTES = 64 * 1024;

/** What `append` does to the file: node:fs, or (in a test) operations that fail part-way. */
export interface LogFileOps {
  size(fd: number): number;
  write(fd: number, bytes: Buffer, offset: number, length: number): number;
  datasync(fd: number): void;
  truncate(fd: number, length: number): void;
}

const NODE_FS: LogFileOps = {
  size: (fd) => fstatSync(fd).size,
  write: (fd, bytes, offset, length) => writeSync(fd, bytes, offset, length),
  datasync: (fd) => fdatasyncSync(fd),
  truncate: (fd, length) => ftruncateSync(fd, length),
};

/** A batch that is not in the file. */
export interface AppendFailure {
  /** Why, for one line: `Cannot write the activity log PATH: ENOSPC`. */
  readonly reason: string;
  /**
   * Whether the file is back at the length it had before the batch (its last whole line). False
   * only when cutting it back failed too: it may then end in part of a line, which the next open ends.
   */
  readonly cutBack: boolean;
}

/** The failure with what it cost: `…: 3 events NOT recorded (the log is cut back to its last whole line)`. */
export function notRecordedText(failure: AppendFailure, events: number): string {
  const state = failure.cutBack
    ? 'the log is cut back to its last whole line'
    : 'cutting the log back failed too: it may end in part of a line, which the next start ends';
  return `${failure.reason}: ${events} event${events === 1 ? '' : 's'} NOT recorded (${state})`;
}

/** What the errors a full or failing disk gives mean, for an admin reading stderr. */
const MEANING: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'over the disk quota',
  EFBIG: 'the file is at its size limit',
  EIO: 'an I/O error',
};

function errnoOf(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code === undefined) return e.message ?? String(err);
  return Object.hasOwn(MEANING, e.code) ? `${MEANING[e.code]} (${e.code})` : e.code;
}

/** Reads `length` bytes ending at `end`, or fewer where the file is shorter. */
function readTail(fd: number, end: number, length: number): Buffer {
  const bytes = Buffer.alloc(Math.min(end, length));
  let got = 0;
  while (got < bytes.length) {
    const n = readSync(fd, bytes, got, bytes.length - got, end - bytes.length + got);
    if (n === 0) break;
    got += n;
  }
  return bytes.subarray(0, got);
}

/**
 * Ends a partial last line with a newline, so that the next event starts a line of its own (glued
 * onto the half line, it would not parse either). The half line stays: it is not ours to remove
 * (it may be another writer's, or hold the start of an event worth reading). Returns what to say,
 * or null when the file ends where a line does. Reads at most PARTIAL_LINE_SCAN_BYTES.
 */
function endPartialLine(fd: number, path: string, sync: boolean): string | null {
  const size = fstatSync(fd).size;
  if (size === 0) return null;
  const last = readTail(fd, size, 1);
  if (last.length === 1 && last[0] === 0x0a) return null;
  const tail = readTail(fd, size, PARTIAL_LINE_SCAN_BYTES);
  const newline = tail.lastIndexOf(0x0a);
  const length = newline >= 0 ? `${tail.length - newline - 1} bytes` : size <= tail.length ? `${size} bytes` : `over ${PARTIAL_LINE_SCAN_BYTES / 1024} KiB`;
  try {
    writeSync(fd, '\n');
    if (sync) fdatasyncSync(fd);
  } catch (err) {
    throw new Error(`it ends in a partial line (${length}) that cannot be ended: ${errnoOf(err)}`, {cause: err});
  }
  return `The activity log ${path} ended in a partial line (${length}, a write cut short by a full disk or a crash): ended it with a newline, so new events start on a line of their own; that line is not a whole event`;
}

export class ActivityLog {
  private fd: number | null;
  private startNote: string | null;

  private constructor(
    fd: number,
    readonly path: string,
    private readonly sync: boolean,
    private readonly ops: LogFileOps,
    startNote: string | null,
  ) {
    this.fd = fd;
    this.startNote = startNote;
  }

  /**
   * Opens (creating if needed) for appending, mode 0600 from the first byte; never through a
   * symbolic link, never a FIFO or device, never chmodding a file it did not create (an existing
   * one must already be owner-only: src/common/private-file.ts). A partial last line is ended
   * (`takeStartNote` says so). Throws so the console can refuse to start with a message rather
   * than run without the audit trail the admin asked for. `sync` (default true) makes each batch
   * durable with fdatasync, not just written.
   */
  static open(path: string, options: {sync?: boolean; ops?: LogFileOps} = {}): ActivityLog {
    const fd = openPrivateAppend(path, {readable: true});
    const sync = options.sync ?? true;
    try {
      return new ActivityLog(fd, path, sync, options.ops ?? NODE_FS, endPartialLine(fd, path, sync));
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /** What opening found and mended (a partial last line ended), once; null when nothing. */
  takeStartNote(): string | null {
    const note = this.startNote;
    this.startNote = null;
    return note;
  }

  /**
   * Appends one line per event, the whole batch or none of it. Never throws: it runs inside the
   * poll's data callback, and a full disk must not stop the console. A failure is returned (the
   * batch is then not in the file: see AppendFailure.cutBack), and the next batch tries again.
   */
  append(events: readonly ActivityEvent[]): AppendFailure | null {
    if (this.fd === null) return {reason: `The activity log ${this.path} is closed`, cutBack: true};
    if (events.length === 0) return null;
    const {fd, ops} = this;
    const cannot = (err: unknown) => `Cannot write the activity log ${this.path}: ${errnoOf(err)}`;
    let start: number;
    try {
      start = ops.size(fd);
    } catch (err) {
      return {reason: cannot(err), cutBack: true};
    }
    try {
      for (const event of events) {
        const bytes = Buffer.from(encodeLine(event), 'utf8');
        let off = 0;
        // O_APPEND: a regular file takes the whole line in one write; the loop covers a short write.
        while (off < bytes.length) off += ops.write(fd, bytes, off, bytes.length - off);
      }
      if (this.sync) ops.datasync(fd);
      return null;
    } catch (err) {
      // Whole or absent: whatever part of the batch reached the file (a line cut short by a full
      // disk, or lines written but not made durable) goes, so the file ends at its last whole line.
      let cutBack = true;
      try {
        ops.truncate(fd, start);
      } catch {
        cutBack = false;
      }
      if (cutBack && this.sync) {
        try {
          ops.datasync(fd);
        } catch {
          // the cut is made in the file; making it durable is the next batch's flush
        }
      }
      return {reason: cannot(err), cutBack};
    }
  }

  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    closeSync(fd);
  }
}
