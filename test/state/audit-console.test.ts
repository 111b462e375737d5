// The console's side of the audit trail (issue #44), on the Controller without Ink: a list that
// repeats an id is said on the status line and gives Activity nothing; `--activity-log` batches
// that cannot be written are counted on the status line until a write works again; a half line
// the log had to end at open is said at start. The log is a real file; only its writes are given
// a budget of bytes, after which they fail as on a full disk (test/state/activity-log-whole.test.ts).
import {fstatSync, ftruncateSync, fdatasyncSync, readFileSync, writeFileSync, writeSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {ActivityLog, type LogFileOps} from '../../src/state/tracking/activity-log.js';
import {device} from '../fixtures/data.js';
import {open, seeded} from '../helpers/fake-console.js';
import {TempDirs} from '../helpers/tmp.js';

const tmp = new TempDirs();
let dir: string;
beforeEach(() => {
  dir = tmp.make('fzc-audit-console-');
});
afterEach(() => tmp.remove());

function budgeted(budget: {bytes: number}): LogFileOps {
  return {
    size: (fd) => fstatSync(fd).size,
    write: (fd, bytes, offset, length) => {
      if (budget.bytes === 0) throw Object.assign(new Error('ENOSPC'), {code: 'ENOSPC'});
      const n = writeSync(fd, bytes, offset, Math.min(length, budget.bytes));
      budget.bytes -= n;
      return n;
    },
    datasync: (fd) => fdatasyncSync(fd),
    truncate: (fd, length) => ftruncateSync(fd, length),
  };
}

describe('a list that repeats an id, in the console', () => {
  it('the status line says it is the server’s error, Activity gets no event, and the whole list after gives none either', async () => {
    const server = seeded();
    const {c, polled, message} = await open(server);
    const laptop = server.devices[0]!;
    server.devices.push(device({...server.devices[2]!, id: laptop.id, name: 'not-the-laptop'}));
    await polled();
    expect(message()).toBe(
      'Server error: /v0/devices lists device id "d-1" more than once: no device changes are taken from it; the next poll is compared with the last list that held each id once',
    );
    expect(c.tracker.events.version).toBe(0);
    server.devices.pop();
    await polled();
    // Before: "Device ann-laptop renamed to not-the-laptop", then "deleted" for the laptop.
    expect(c.tracker.events.version).toBe(0);
    server.devices.push(device({id: 'd-9', user_id: 'u-1', name: 'ann-tablet', ipv4: '10.3.2.9'}));
    await polled();
    expect(c.tracker.events.version).toBe(1);
  });
});

describe('--activity-log in the console', () => {
  it('while writes fail the status line counts the events not in the log; once one works it says how many are missing', async () => {
    const path = join(dir, 'audit.jsonl');
    const budget = {bytes: 0};
    const log = ActivityLog.open(path, {ops: budgeted(budget), sync: false});
    const server = seeded();
    const {polled, message} = await open(server, {}, {activityLog: log});
    server.devices[0] = {...server.devices[0]!, name: 'renamed-1'};
    await polled();
    expect(message()).toBe(
      `Cannot write the activity log ${path}: no space left on the device (ENOSPC): 1 event NOT recorded (the log is cut back to its last whole line); screen 5 lists them`,
    );
    server.devices[1] = {...server.devices[1]!, name: 'renamed-2'};
    server.devices[2] = {...server.devices[2]!, name: 'renamed-3'};
    budget.bytes = 30;
    await polled();
    expect(message()).toBe(
      `Cannot write the activity log ${path}: no space left on the device (ENOSPC): 3 events NOT recorded (the log is cut back to its last whole line); screen 5 lists them`,
    );
    expect(readFileSync(path, 'utf8')).toBe('');
    budget.bytes = Infinity;
    server.devices[0] = {...server.devices[0], name: 'renamed-again'};
    await polled();
    expect(message()).toBe('The activity log is written again; 3 earlier events are NOT in it (screen 5 lists them)');
    expect(
      readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as {label: string}).label),
    ).toEqual(['renamed-again']);
    log.close();
  });

  it('a half line the log had to end at open is said when the console starts', async () => {
    const path = join(dir, 'half.jsonl');
    writeFileSync(path, '{"earlier":1}\n{"time":"2026-', {mode: 0o600});
    const log = ActivityLog.open(path, {sync: false});
    const {message} = await open(seeded(), {}, {activityLog: log});
    expect(message()).toBe(
      `The activity log ${path} ended in a partial line (14 bytes, a write cut short by a full disk or a crash): ended it with a newline, so new events start on a line of their own; that line is not a whole event`,
    );
    log.close();
  });
});
