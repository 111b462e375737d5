// Whether Ctrl-Z has a shell to go back to (src/config/job-control.ts): from /proc's stat lines,
// faked here for each way a console is started; test/e2e/signals.e2e.test.ts starts it for real.
import {describe, expect, it} from 'vitest';
import {hasJobControl, parseStat, type ProcessIds} from '../../src/config/job-control.js';

describe('parseStat', () => {
  it('reads the parent, group and session after the last ")" of the command name', () => {
    expect(parseStat('4242 (node) S 4100 4242 4100 34816 4242 4194560 1 0')).toEqual({ppid: 4100, pgrp: 4242, session: 4100});
    // A command name with spaces and parentheses of its own.
    expect(parseStat('77 (a) b (c)) R 1 77 77 0 -1 0')).toEqual({ppid: 1, pgrp: 77, session: 77});
    expect(parseStat('')).toBeNull();
    expect(parseStat('12 node S 1 2 3')).toBeNull();
    expect(parseStat('12 (node) S x 2 3')).toBeNull();
    expect(parseStat('12 (node) S 1 2')).toBeNull();
  });
});

describe('hasJobControl', () => {
  const table = (rows: Record<number, ProcessIds>) => (pid: number) => rows[pid] ?? null;

  it('an interactive shell in the same session, another group: yes', () => {
    // bash (pid 100, its own group, session 100) runs the console as a job (group 200).
    expect(hasJobControl(200, table({200: {ppid: 100, pgrp: 200, session: 100}, 100: {ppid: 50, pgrp: 100, session: 100}}))).toBe(true);
  });

  it('a non-interactive shell in between shares the group: up past it to the one that made the job', () => {
    const rows = {300: {ppid: 200, pgrp: 200, session: 100}, 200: {ppid: 100, pgrp: 200, session: 100}, 100: {ppid: 50, pgrp: 100, session: 100}};
    expect(hasJobControl(300, table(rows))).toBe(true);
  });

  it('started straight by tmux, sshd or `exec` (it leads its session), or under a script that does: no', () => {
    // The console leads session 200; its parent, the tmux server, is in another.
    expect(hasJobControl(200, table({200: {ppid: 10, pgrp: 200, session: 200}, 10: {ppid: 1, pgrp: 10, session: 10}}))).toBe(false);
    // `sh -c 'fz-console'` as the session's command: the group's way up leaves the session.
    const rows = {300: {ppid: 200, pgrp: 200, session: 200}, 200: {ppid: 10, pgrp: 200, session: 200}, 10: {ppid: 1, pgrp: 10, session: 10}};
    expect(hasJobControl(300, table(rows))).toBe(false);
    // Its parent gone (reparented to no one).
    expect(hasJobControl(200, table({200: {ppid: 0, pgrp: 200, session: 200}}))).toBe(false);
  });

  it('cannot tell without /proc, or past 64 processes of one group: null (Ctrl-Z does as it always did)', () => {
    expect(hasJobControl(200, () => null)).toBeNull();
    expect(hasJobControl(200, table({200: {ppid: 100, pgrp: 200, session: 100}}))).toBeNull();
    const chain: Record<number, ProcessIds> = {};
    for (let pid = 1000; pid > 900; pid--) chain[pid] = {ppid: pid - 1, pgrp: 7, session: 7};
    expect(hasJobControl(1000, table(chain))).toBeNull();
  });

  it('on this machine it can tell', () => {
    expect(typeof hasJobControl()).toBe(process.platform === 'linux' ? 'boolean' : 'object');
  });
});
