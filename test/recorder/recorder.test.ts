// The headless audit recorder, the built binary without a terminal against a sandbox process:
// the baseline, events as the console writes them, a gap (the server answering 500s) crossed
// without losing or duplicating, its own state on stderr, 0600, no symbolic link, and exit 143 on
// SIGTERM. Waits are for conditions (a line on stderr, a line in the log), never for a time.
import {readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {hasBinary} from '../e2e/harness.js';
import {TempDirs} from '../helpers/tmp.js';
import {logLines, Rig, until} from './harness.js';

const rig = new Rig();
let dir: string;
const tmp = new TempDirs();
const api = <T>(method: string, path: string, body?: unknown) => rig.api<T>(method, path, body);
const record = (args: string[], env: NodeJS.ProcessEnv = {}) => rig.record(args, env);

describe.skipIf(!hasBinary())('fz-console activity --follow (the headless recorder)', {timeout: 60_000}, () => {
  beforeAll(async () => {
    await rig.start();
    dir = tmp.make('fz-recorder-');
  });
  afterAll(async () => {
    // A recorder a failed test left running still appends to its log in the directory: stopped,
    // and waited for, before the directory goes.
    await rig.stop();
    tmp.remove();
  });

  it('records from a baseline, crosses gaps (500s, resets, no answer) without losing or duplicating, and exits 143 on SIGTERM', async () => {
    const log = join(dir, 'audit.jsonl');
    const r = record(['--follow', '--log', log, '--interval', '1', '--timeout', '3']);
    await until(() => r.stderr().includes('baseline: 0 devices, 2 users, 0 rules'), 'the baseline');
    // The first poll records nothing: the server's state is not "news".
    expect(logLines(log)).toEqual([]);
    const created = await api<{data: {id: string}}>('POST', '/v0/users', {user: {email: 'carol@example.com', role: 'unprivileged'}});
    await until(() => logLines(log).length === 1, 'the first event');
    expect(logLines(log)[0]).toMatchObject({kind: 'user.created', label: 'carol@example.com', text: 'User carol@example.com created (unprivileged)'});
    // The server goes away three ways (a 500 with no body, a reset connection, no answer at all),
    // changes happen meanwhile through the control API, and it comes back each time.
    const changes: Array<[string, Record<string, unknown>, string]> = [
      ['empty-500', {disabled_at: new Date().toISOString()}, 'user.disabled'],
      ['reset', {last_signed_in_at: new Date().toISOString(), last_signed_in_method: 'okta'}, 'user.signed_in'],
      ['hang', {disabled_at: null}, 'user.enabled'],
    ];
    let failures = 0;
    let recoveries = 0;
    for (const [mode, change, kind] of changes) {
      await api('PUT', '/_sandbox/faults', {mode});
      failures++;
      await until(() => (r.stderr().match(/poll failed \(1 in a row\)/g) ?? []).length >= failures, `a failure with ${mode} on stderr`);
      await api('PUT', `/_sandbox/users/${created.data.id}`, change);
      await api('PUT', '/_sandbox/faults', {mode: 'none'});
      recoveries++;
      await until(() => (r.stderr().match(/reachable again after/g) ?? []).length >= recoveries, `the recovery after ${mode}`);
      await until(() => logLines(log).some((l) => l.kind === kind), `the ${kind} of the gap`);
    }
    // Later polls write nothing twice: the next change is the next line.
    await api('POST', '/v0/users', {user: {email: 'dave@example.com', role: 'admin'}});
    await until(() => logLines(log).some((l) => l.label === 'dave@example.com'), 'the event after the gap');
    expect(logLines(log).map((l) => `${l.kind} ${l.label}`)).toEqual([
      'user.created carol@example.com',
      'user.disabled carol@example.com',
      'user.signed_in carol@example.com',
      'user.enabled carol@example.com',
      'user.created dave@example.com',
    ]);
    expect(statSync(log).mode & 0o777).toBe(0o600);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(143);
    expect(r.stderr()).toMatch(/stopped by SIGTERM; 5 events recorded; exit 143\n$/);
    // Every stderr line is one stamped line about the recorder.
    for (const line of r.stderr().trim().split('\n')) expect(line).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z fz-console activity: /);
  });

  it('one event is "1 event recorded" in the last line', async () => {
    const log = join(dir, 'one.jsonl');
    const r = record(['--follow', '--log', log, '--interval', '1']);
    await until(() => r.stderr().includes('baseline:'), 'the baseline');
    await api('POST', '/v0/users', {user: {email: 'erin@example.com', role: 'unprivileged'}});
    await until(() => logLines(log).length === 1, 'the event');
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(143);
    expect(r.stderr()).toMatch(/stopped by SIGTERM; 1 event recorded; exit 143\n$/);
  });

  it("a list holding an id twice is the server's error: said on stderr, no events invented, and the change made meanwhile recorded once after", async () => {
    const log = join(dir, 'twice.jsonl');
    const users = (await api<{data: Array<{id: string; email: string}>}>('GET', '/v0/users')).data;
    const r = record(['--follow', '--log', log, '--interval', '1']);
    await until(() => r.stderr().includes('baseline:'), 'the baseline');
    // The sandbox now sends the users' last item under the first one's id (the old recorder wrote
    // "is now …" and a role change for it, then "created" when the list was whole again).
    await api('PUT', '/_sandbox/faults', {mode: 'duplicate-id'});
    const said = `Server error: /v0/users lists user id ${JSON.stringify(users[0]!.id)} more than once: no user changes are taken from it; the next poll is compared with the last list that held each id once`;
    await until(() => r.stderr().includes(said), 'the repeated id on stderr');
    const created = await api<{data: {email: string}}>('POST', '/v0/users', {user: {email: 'frank@example.com', role: 'unprivileged'}});
    expect(created.data.email).toBe('frank@example.com');
    await api('PUT', '/_sandbox/faults', {mode: 'none'});
    await until(() => r.stderr().includes('every list holds each id once again'), 'the end of the repeats');
    await until(() => logLines(log).length === 1, 'the change made meanwhile');
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(143);
    expect(logLines(log).map((l) => `${l.kind} ${l.label}`)).toEqual(['user.created frank@example.com']);
    // Said once, though every poll of the fault repeated the id.
    expect(r.stderr().split(said).length - 1).toBe(1);
    expect(r.stderr()).toMatch(/stopped by SIGTERM; 1 event recorded; exit 143\n$/);
  });

  it('a half line left in the log (an older recorder on a full disk) is ended and said; the next event is a line of its own', async () => {
    const log = join(dir, 'half.jsonl');
    const start = '{"time":"2026-01-01T00:00:00.000Z","kind":"device.updated","text":"';
    writeFileSync(log, `{"earlier":1}\n${start}${'x'.repeat(807 - start.length)}`, {mode: 0o600});
    const r = record(['--follow', '--log', log, '--interval', '1']);
    await until(() => r.stderr().includes('baseline:'), 'the baseline');
    expect(r.stderr()).toContain(
      `The activity log ${log} ended in a partial line (807 bytes, a write cut short by a full disk or a crash): ended it with a newline, so new events start on a line of their own; that line is not a whole event`,
    );
    await api('POST', '/v0/users', {user: {email: 'gina@example.com', role: 'unprivileged'}});
    await until(() => readFileSync(log, 'utf8').includes('gina@example.com'), 'the event');
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(143);
    const lines = readFileSync(log, 'utf8').split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe(`${start}${'x'.repeat(807 - start.length)}`);
    expect(JSON.parse(lines[2]!)).toMatchObject({kind: 'user.created', label: 'gina@example.com'});
    expect(r.stderr()).toMatch(/stopped by SIGTERM; 1 event recorded; exit 143\n$/);
  });

  it('activity --help (and -h) prints its help and exits 0', async () => {
    for (const flag of ['--help', '-h']) {
      const r = record([flag]);
      expect(await r.exited).toBe(0);
      expect(r.stderr()).toBe('');
      expect(r.stdout()).toMatch(/^fz-console activity — the headless audit recorder/);
      for (const option of ['--follow', '--log FILE', '--interval SECONDS', '--token-grace SECONDS', '--url URL', '--profile NAME'])
        expect(r.stdout()).toContain(`  ${option} `);
      expect(r.stdout()).toContain('Exit status: 1 when a batch of events cannot be written');
    }
  });

  it('a token of a user who is not an admin: devices are recorded, and stderr says what is not', async () => {
    const r = record(['--follow', '--log', join(dir, 'unpriv.jsonl'), '--interval', '1'], {FZ_API_TOKEN: rig.sandbox.unprivilegedToken});
    await until(() => r.stderr().includes('not visible to this token'), 'the hidden lists on stderr');
    expect(r.stderr()).toContain('not visible to this token (its user is not an admin), so not recorded: /v0/users, /v0/rules, /v0/configuration');
    r.child.kill('SIGINT');
    expect(await r.exited).toBe(130);
  });

  it('a log path that is a symbolic link is refused before anything runs (exit 2), the target untouched', async () => {
    const target = join(dir, 'bashrc');
    writeFileSync(target, 'alias ll="ls -l"\n', {mode: 0o644});
    const link = join(dir, 'audit-link.jsonl');
    symlinkSync(target, link);
    const r = record(['--follow', '--log', link]);
    expect(await r.exited).toBe(2);
    expect(r.stderr()).toBe(
      `fz-console: cannot open the activity log: ${link} is a symbolic link: name the file itself (logs are never written through a link)\n`,
    );
    expect(readFileSync(target, 'utf8')).toBe('alias ll="ls -l"\n');
  });

  it('usage: --follow and --log are required; no server is said', async () => {
    let r = record(['--log', join(dir, 'x.jsonl')]);
    expect(await r.exited).toBe(2);
    expect(r.stderr()).toBe('fz-console: activity needs --follow: it records changes until stopped (fz-console activity --follow --log FILE)\n');
    r = record(['--follow']);
    expect(await r.exited).toBe(2);
    expect(r.stderr()).toBe('fz-console: activity needs --log FILE: where the events are appended (JSON Lines, 0600)\n');
    r = record(['--follow', '--log', join(dir, 'y.jsonl')], {FZ_URL: '', FZ_API_TOKEN: '', HOME: dir, XDG_CONFIG_HOME: join(dir, 'none')});
    expect(await r.exited).toBe(2);
    expect(r.stderr()).toBe('fz-console: activity: no server to record: give --url or FZ_URL with FZ_API_TOKEN/FZ_API_TOKEN_FILE, or --profile NAME\n');
  });
});
