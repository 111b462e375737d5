// Bulk delete, from the question to the summary, line by line: what it lists and holds back, what
// each outcome is called (deleted, already gone, failed, checked, unknown), what stays marked, and
// stopping — by the admin, or by itself when the server is gone. Expected lines are written out.
import {describe, expect, it} from 'vitest';
import {topModal} from '../../src/state/core/state.js';
import {JOB_CONCURRENCY} from '../../src/state/interactions/jobs.js';
import {device} from '../fixtures/data.js';
import {finishedReport, open, seeded, until, type FakeServer} from '../helpers/fake-console.js';

/** ann's devices laptop-01 … laptop-NN (ids d-01 …), on the Devices list sorted by name. */
function withLaptops(n: number): FakeServer {
  const server = seeded();
  server.devices = Array.from({length: n}, (_, i) => {
    const k = String(i + 1).padStart(2, '0');
    return device({id: `d-${k}`, user_id: 'u-1', name: `laptop-${k}`, ipv4: `10.3.2.${i + 10}`});
  });
  return server;
}

const finished = finishedReport;

const dialogLines = (c: Awaited<ReturnType<typeof open>>['c']) => {
  const m = topModal(c.state);
  return m?.kind === 'dialog' ? {title: m.title, lines: m.lines.map((l) => l.text), choices: m.choices.map((x) => x.label)} : null;
};

describe('bulk delete', () => {
  it('asks once, naming eight and counting the rest, then deletes every one and unmarks them', async () => {
    const server = withLaptops(10);
    const {c, press, message} = await open(server);
    press('>'); // sort by name
    press('*', 'd');
    expect(dialogLines(c)).toEqual({
      title: 'Delete 10 devices of 1 user?',
      lines: [
        ...Array.from({length: 8}, (_, i) => `  laptop-0${i + 1} (ann@example.com)`),
        '  … and 2 more',
        'Firezone keeps nothing: u takes them back from what this console keeps, until it quits. Esc stops it midway; what is done stays done.',
      ],
      choices: ['delete 10 devices', 'keep them'],
    });
    press('y');
    const lines = await finished(c);
    expect(lines.slice(0, 3)).toEqual(['Deleted 10 of 10 devices; 0 failed. u takes them back.', '', 'Deleted']);
    expect(lines.slice(3).sort()).toEqual(Array.from({length: 10}, (_, i) => `  laptop-${String(i + 1).padStart(2, '0')} (ann@example.com)`));
    expect(topModal(c.state)).toMatchObject({title: 'Deleted 10 devices'});
    expect(message()).toBe('Deleted 10 of 10 devices; 0 failed. u takes them back.');
    expect(c.state.marks.devices.size).toBe(0);
    expect(server.devices).toEqual([]);
  });

  it('exactly eight are all named', async () => {
    const {c, press} = await open(withLaptops(8));
    press('*', 'd');
    expect(dialogLines(c)!.lines).toHaveLength(9);
    expect(dialogLines(c)!.lines.at(-2)).toBe('  laptop-08 (ann@example.com)');
  });

  it('says what each outcome was, and keeps marked only what is still there', async () => {
    const server = withLaptops(5);
    server.breakDelete.set('d-02', 'gone').set('d-03', 'refused').set('d-04', 'after');
    const {c, press, message} = await open(server);
    press('>', '*', 'd', 'y');
    const lines = await finished(c);
    expect(lines[0]).toBe('Deleted 3 of 5 devices; 1 already gone; 1 failed. u takes them back.');
    expect(lines).toContain('1 answer never came (the connection broke); reading the devices again showed it deleted.');
    expect(lines.slice(lines.indexOf('Failed (still marked)'))).toEqual([
      'Failed (still marked)',
      '  laptop-03 (ann@example.com): Server error 500 with an empty body',
      '',
      'Deleted',
      ...lines.slice(lines.indexOf('Deleted') + 1),
    ]);
    const deleted = lines.slice(lines.indexOf('Deleted') + 1).sort();
    expect(deleted).toEqual([
      '  laptop-01 (ann@example.com)',
      '  laptop-02 (ann@example.com) (already gone)',
      '  laptop-04 (ann@example.com) (checked after the connection broke)',
      '  laptop-05 (ann@example.com)',
    ]);
    // The title counts as the first line does; the bar's count is what is still known to have failed.
    expect(topModal(c.state)).toMatchObject({title: 'Deleted 3 of 5 devices; 1 already gone', progress: {finished: 5, failed: 1, unknown: 0}});
    expect(message()).toBe(lines[0]);
    expect([...c.state.marks.devices]).toEqual(['d-03']);
  });

  it('Esc stops it: what is in flight finishes, nothing new starts, the rest stays marked', async () => {
    const server = withLaptops(10);
    for (const d of server.devices) server.breakDelete.set(d.id, 'hang');
    const {c, press} = await open(server);
    press('>', '*', 'd', 'y');
    await until(() => server.calls.length === JOB_CONCURRENCY, 'the first deletes to start');
    press('esc');
    expect(topModal(c.state)).toMatchObject({kind: 'report', phase: 'stopping'});
    server.release();
    const lines = await finished(c);
    expect(server.calls).toHaveLength(JOB_CONCURRENCY);
    expect(lines.slice(0, 2)).toEqual([
      `Deleted ${JOB_CONCURRENCY} of 10 devices; 0 failed. u takes them back.`,
      `Stopped: ${10 - JOB_CONCURRENCY} not started (still marked).`,
    ]);
    expect(lines).toContain('Not started (still marked)');
    expect(c.state.marks.devices.size).toBe(10 - JOB_CONCURRENCY);
    expect(topModal(c.state)).toMatchObject({title: `Deleted ${JOB_CONCURRENCY} of 10 devices`});
  });

  it('stops by itself when the server is gone, and says how many were not started', async () => {
    const server = withLaptops(10);
    server.breakDelete.set('d-01', 'before');
    const {c, press} = await open(server);
    // The server goes away: the reading-again fails too.
    server.listsFail = true;
    press('>', '*', 'd', 'y');
    const lines = await finished(c);
    const started = server.calls.length;
    expect(started).toBeLessThan(10);
    expect(lines[0]).toBe(`Deleted ${started - 1} of 10 devices; 0 failed; 1 unknown.${started - 1 === 1 ? ' u takes it back.' : ' u takes them back.'}`);
    expect(lines[1]).toBe(`The server stopped answering (connection closed unexpectedly); ${10 - started} not started (still marked).`);
    expect(lines).toContain('Outcome unknown (still marked)');
    // The bar says the same: no answer, not failed.
    expect(topModal(c.state)).toMatchObject({progress: {failed: 0, unknown: 1}});
    expect(c.state.marks.devices.size).toBe(10 - started + 1);
  });
});
