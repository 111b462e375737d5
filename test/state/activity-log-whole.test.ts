// The activity log keeps whole batches only (issue #44): a write that fails part-way is cut back to
// where the batch began, and a half line found at open is ended with a newline and said. The disk
// is real here (a file in the test's folder); only `write` is given a budget of bytes, after which
// it fails as a full disk does — short first, then ENOSPC. test/recorder/full-disk.test.ts does it
// with a real full tmpfs and a real file size limit, through the built binary.
import {fdatasyncSync, fstatSync, ftruncateSync, readFileSync, writeFileSync, writeSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {ActivityLog, encodeLine, notRecordedText, PARTIAL_LINE_SCAN_BYTES, type LogFileOps} from '../../src/state/tracking/activity-log.js';
import type {ActivityEvent} from '../../src/state/tracking/events.js';
import {TempDirs} from '../helpers/tmp.js';

const tmp = new TempDirs();
let dir: string;
beforeEach(() => {
  dir = tmp.make('fzc-log-whole-');
});
afterEach(() => tmp.remove());

const event = (label: string): ActivityEvent => ({
  seq: 1,
  kind: 'user.created',
  at: Date.UTC(2026, 0, 1),
  object: {type: 'user', id: `u-${label}`, label},
  owner: null,
  text: `User ${label} created (unprivileged)`,
  detail: [],
  by: null,
});

const errno = (code: string) => Object.assign(new Error(code), {code});

/** node:fs, but `write` takes `budget.bytes` more bytes and then fails with ENOSPC, as a full disk does; `fail` makes one operation throw. */
function fullDisk(budget: {bytes: number}, fail: {datasync?: string; truncate?: string} = {}): LogFileOps {
  return {
    size: (fd) => fstatSync(fd).size,
    write: (fd, bytes, offset, length) => {
      if (budget.bytes === 0) throw errno('ENOSPC');
      const n = writeSync(fd, bytes, offset, Math.min(length, budget.bytes));
      budget.bytes -= n;
      return n;
    },
    datasync: (fd) => {
      if (fail.datasync) throw errno(fail.datasync);
      fdatasyncSync(fd);
    },
    truncate: (fd, length) => {
      if (fail.truncate) throw errno(fail.truncate);
      ftruncateSync(fd, length);
    },
  };
}

const EARLIER = '{"earlier":1}\n{"earlier":2}\n';

describe('an append is whole or absent', () => {
  it('a batch cut short by a full disk is cut back to the last whole line; the next batch starts there', () => {
    const path = join(dir, 'audit.jsonl');
    writeFileSync(path, EARLIER, {mode: 0o600});
    const budget = {bytes: 100};
    const log = ActivityLog.open(path, {ops: fullDisk(budget)});
    // The first line (≈190 bytes) gets 100 of its bytes in, then the disk is full.
    const failure = log.append([event('carol@example.com'), event('dave@example.com')]);
    expect(failure).toEqual({reason: `Cannot write the activity log ${path}: no space left on the device (ENOSPC)`, cutBack: true});
    expect(readFileSync(path, 'utf8')).toBe(EARLIER);
    expect(notRecordedText(failure!, 2)).toBe(
      `Cannot write the activity log ${path}: no space left on the device (ENOSPC): 2 events NOT recorded (the log is cut back to its last whole line)`,
    );
    // Space freed: the next batch's lines each parse, right after the earlier ones.
    budget.bytes = Infinity;
    expect(log.append([event('erin@example.com')])).toBeNull();
    log.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => (JSON.parse(l) as {label?: string}).label ?? 'earlier')).toEqual(['earlier', 'earlier', 'erin@example.com']);
  });

  it('a batch whose second line fails loses its first line too (whole batches only)', () => {
    const path = join(dir, 'audit.jsonl');
    writeFileSync(path, EARLIER, {mode: 0o600});
    // The first line goes in whole, and 20 bytes of the second.
    const log = ActivityLog.open(path, {ops: fullDisk({bytes: Buffer.byteLength(encodeLine(event('a@example.com'))) + 20})});
    expect(log.append([event('a@example.com'), event('b@example.com')])?.cutBack).toBe(true);
    log.close();
    expect(readFileSync(path, 'utf8')).toBe(EARLIER);
  });

  it('lines written but not made durable (fdatasync fails) are cut back as well', () => {
    const path = join(dir, 'audit.jsonl');
    writeFileSync(path, EARLIER, {mode: 0o600});
    const log = ActivityLog.open(path, {ops: fullDisk({bytes: Infinity}, {datasync: 'EIO'})});
    expect(log.append([event('a@example.com')])).toEqual({reason: `Cannot write the activity log ${path}: an I/O error (EIO)`, cutBack: true});
    log.close();
    expect(readFileSync(path, 'utf8')).toBe(EARLIER);
  });

  it('when cutting back fails too, it says the log may end in part of a line (the next open ends it)', () => {
    const path = join(dir, 'audit.jsonl');
    writeFileSync(path, EARLIER, {mode: 0o600});
    const log = ActivityLog.open(path, {ops: fullDisk({bytes: 40}, {truncate: 'EIO'})});
    const failure = log.append([event('a@example.com')]);
    log.close();
    expect(failure).toEqual({reason: `Cannot write the activity log ${path}: no space left on the device (ENOSPC)`, cutBack: false});
    expect(notRecordedText(failure!, 1)).toBe(
      `Cannot write the activity log ${path}: no space left on the device (ENOSPC): 1 event NOT recorded (cutting the log back failed too: it may end in part of a line, which the next start ends)`,
    );
    // What the next start finds and mends: the 40 bytes that got in.
    const again = ActivityLog.open(path);
    expect(again.takeStartNote()).toMatch(/ended in a partial line \(40 bytes,/);
    again.close();
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
  });
});

describe('a partial last line at open', () => {
  it('is ended with a newline and said once; the next event is a line of its own', () => {
    const path = join(dir, 'audit.jsonl');
    // What the old recorder left on a full disk: an 807-byte start of a line.
    const start = '{"time":"2026-01-01T00:00:00.000Z","kind":"device.updated","text":"';
    const partial = `${start}${'x'.repeat(807 - start.length)}`;
    expect(Buffer.byteLength(partial)).toBe(807);
    writeFileSync(path, `${EARLIER}${partial}`, {mode: 0o600});
    const log = ActivityLog.open(path);
    expect(log.takeStartNote()).toBe(
      `The activity log ${path} ended in a partial line (807 bytes, a write cut short by a full disk or a crash): ended it with a newline, so new events start on a line of their own; that line is not a whole event`,
    );
    expect(log.takeStartNote()).toBeNull();
    expect(log.append([event('carol@example.com')])).toBeNull();
    log.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[2]).toBe(partial);
    expect((JSON.parse(lines[3]!) as {label: string}).label).toBe('carol@example.com');
    expect(lines[4]).toBe('');
  });

  it('a file that ends a line, and an empty one, are left as they are', () => {
    for (const content of [EARLIER, '']) {
      const path = join(dir, `clean-${content.length}.jsonl`);
      writeFileSync(path, content, {mode: 0o600});
      const log = ActivityLog.open(path);
      expect(log.takeStartNote()).toBeNull();
      log.close();
      expect(readFileSync(path, 'utf8')).toBe(content);
    }
  });

  it('a file that is one partial line, and one whose partial line is longer than the look back', () => {
    let path = join(dir, 'only.jsonl');
    writeFileSync(path, '{"cut', {mode: 0o600});
    let log = ActivityLog.open(path);
    expect(log.takeStartNote()).toMatch(/ended in a partial line \(5 bytes,/);
    log.close();
    expect(readFileSync(path, 'utf8')).toBe('{"cut\n');
    path = join(dir, 'long.jsonl');
    writeFileSync(path, `${EARLIER}${'y'.repeat(PARTIAL_LINE_SCAN_BYTES + 10)}`, {mode: 0o600});
    log = ActivityLog.open(path);
    expect(log.takeStartNote()).toMatch(/ended in a partial line \(over 64 KiB,/);
    log.close();
    expect(readFileSync(path, 'utf8').endsWith('y\n')).toBe(true);
  });
});

/** node:fs with every call counted; `fail` makes one operation throw this error. */
function counted(fail: {size?: Error; write?: Error; truncate?: Error} = {}, firstWriteAtMost = Infinity) {
  const calls = {size: 0, write: 0, datasync: 0, truncate: 0};
  const ops: LogFileOps = {
    size: (fd) => {
      calls.size++;
      if (fail.size) throw fail.size;
      return fstatSync(fd).size;
    },
    write: (fd, bytes, offset, length) => {
      calls.write++;
      if (fail.write) throw fail.write;
      // A short first write (a signal, a pipe's worth), then whatever is asked.
      return writeSync(fd, bytes, offset, calls.write === 1 ? Math.min(length, firstWriteAtMost) : length);
    },
    datasync: (fd) => {
      calls.datasync++;
      fdatasyncSync(fd);
    },
    truncate: (fd, length) => {
      calls.truncate++;
      if (fail.truncate) throw fail.truncate;
      ftruncateSync(fd, length);
    },
  };
  return {ops, calls};
}

describe('an append, call by call', () => {
  it('an empty batch touches nothing; a short write is followed by the rest of the line', () => {
    const path = join(dir, 'audit.jsonl');
    writeFileSync(path, EARLIER, {mode: 0o600});
    const {ops, calls} = counted({}, 10);
    const log = ActivityLog.open(path, {ops});
    expect(log.append([])).toBeNull();
    expect(calls).toEqual({size: 0, write: 0, datasync: 0, truncate: 0});
    expect(log.append([event('a@example.com')])).toBeNull();
    log.close();
    expect(calls.write).toBe(2);
    expect(calls.datasync).toBe(1);
    expect(readFileSync(path, 'utf8')).toBe(`${EARLIER}${encodeLine(event('a@example.com'))}`);
  });

  it('without sync, nothing is flushed, after a failure either', () => {
    const path = join(dir, 'audit.jsonl');
    const {ops, calls} = counted({write: errno('ENOSPC')});
    const log = ActivityLog.open(path, {ops, sync: false});
    expect(log.append([event('a@example.com')])).toEqual({
      reason: `Cannot write the activity log ${path}: no space left on the device (ENOSPC)`,
      cutBack: true,
    });
    log.close();
    expect(calls).toEqual({size: 1, write: 1, datasync: 0, truncate: 1});
  });

  it('a cut back that failed is not flushed; a log whose length cannot be read writes nothing', () => {
    const path = join(dir, 'audit.jsonl');
    const failing = counted({write: errno('EIO'), truncate: errno('EIO')});
    const log = ActivityLog.open(path, {ops: failing.ops});
    expect(log.append([event('a@example.com')])).toEqual({reason: `Cannot write the activity log ${path}: an I/O error (EIO)`, cutBack: false});
    log.close();
    expect(failing.calls.datasync).toBe(0);
    const unreadable = counted({size: errno('EBADF')});
    const again = ActivityLog.open(path, {ops: unreadable.ops});
    expect(again.append([event('a@example.com')])).toEqual({reason: `Cannot write the activity log ${path}: EBADF`, cutBack: true});
    again.close();
    expect(unreadable.calls).toEqual({size: 1, write: 0, datasync: 0, truncate: 0});
  });

  it('an error without a code is said by its message', () => {
    const path = join(dir, 'audit.jsonl');
    const log = ActivityLog.open(path, {ops: counted({write: new Error('the disk is on fire')}).ops});
    expect(log.append([event('a@example.com')])?.reason).toBe(`Cannot write the activity log ${path}: the disk is on fire`);
    log.close();
  });

  it('a partial line whose look back starts right after a newline is measured from there', () => {
    const path = join(dir, 'audit.jsonl');
    writeFileSync(path, `${'x'.repeat(5)}\n${'y'.repeat(PARTIAL_LINE_SCAN_BYTES - 1)}`, {mode: 0o600});
    const log = ActivityLog.open(path);
    expect(log.takeStartNote()).toContain(`ended in a partial line (${PARTIAL_LINE_SCAN_BYTES - 1} bytes,`);
    log.close();
  });
});
