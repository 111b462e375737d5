// Marks and bulk delete through the UI, against real sandboxes (one per test that deletes).
import {describe, expect, it} from 'vitest';
import type {FirezoneClient} from '../../src/api/index.js';
import {renderApp, startTestSandbox, type TestSandbox} from '../helpers/rig.js';

type Device = {id: string; name: string; user_id: string};

async function devicesOf(fx: TestSandbox): Promise<Device[]> {
  return (await fx.api<{data: Device[]}>('GET', '/v0/devices')).json.data;
}

/** Names on the marked rows of a frame: the gutter's ✓, the state glyph, then the name. */
function namesMarked(frame: string): string[] {
  return frame
    .split('\n')
    .filter((l) => l.startsWith('✓ '))
    .map((l) => l.slice(2).trim().split(/\s+/)[1]!);
}

/** The client, counting DELETE calls per id: nothing may be deleted twice. */
function countingClient(client: FirezoneClient): {client: FirezoneClient; deletes: Map<string, number>} {
  const deletes = new Map<string, number>();
  const wrapped = Object.create(client) as FirezoneClient;
  wrapped.deleteDevice = (id: string) => {
    deletes.set(id, (deletes.get(id) ?? 0) + 1);
    return client.deleteDevice(id);
  };
  return {client: wrapped, deletes};
}

describe('marks', () => {
  it('Space marks and moves on; marks survive sorting, filtering and refreshes; Esc clears the filter, then the marks', async () => {
    const fx = await startTestSandbox({devices: 30, users: 8});
    try {
      const app = await renderApp({fixture: fx, ready: /1\/30 devices/});
      await app.press('mark', 'list', 3);
      let frame = await app.waitFor('3 marked');
      expect(frame).toContain('4/30 devices · 3 marked');
      expect(frame).toContain('3 marked: d delete');
      expect(frame.split('\n').filter((l) => l.startsWith('✓ ')).length).toBe(3);
      const markedNames = namesMarked(frame);

      await app.press('sortNext', 'list', 2);
      await app.press('refresh');
      await app.waitFor('3 marked');
      await app.press('filter', 'list');
      await app.type(markedNames[1]!);
      await app.press('filterAccept', 'filter');
      frame = await app.waitFor(`filter "${markedNames[1]}"`);
      expect(frame).toContain('3 marked');
      expect(frame.split('\n').some((l) => l.startsWith('✓ ') && l.includes(markedNames[1]!))).toBe(true);

      await app.press('back', 'global');
      frame = await app.waitFor(/\/30 devices · 3 marked/);
      await app.press('back', 'global');
      frame = await app.waitFor('Unmarked 3 devices');
      expect(frame).not.toContain('✓ ');
    } finally {
      await fx.close();
    }
  });

  it('* marks every row the filter shows, and again unmarks them', async () => {
    const fx = await startTestSandbox({devices: 30, users: 8});
    try {
      const users = (await fx.api<{data: Array<{id: string; email: string}>}>('GET', '/v0/users')).json.data;
      const devices = await devicesOf(fx);
      const owner = users.find((u) => devices.filter((d) => d.user_id === u.id).length >= 2)!;
      const mine = devices.filter((d) => d.user_id === owner.id).length;
      const app = await renderApp({fixture: fx, ready: /1\/30 devices/});
      await app.press('filter', 'list');
      await app.type(owner.email);
      await app.press('filterAccept', 'filter');
      await app.press('markAll', 'list');
      await app.waitFor(`Marked ${mine} devices matching "${owner.email}"; ${mine} marked`);
      await app.press('markAll', 'list');
      await app.waitFor(`Unmarked ${mine} devices; 0 marked`);
    } finally {
      await fx.close();
    }
  });

  it('a marked device deleted elsewhere drops out of the marks with a message', async () => {
    const fx = await startTestSandbox({devices: 12, users: 4});
    try {
      const app = await renderApp({fixture: fx, ready: /1\/12 devices/});
      await app.press('mark', 'list', 2);
      const frame = await app.waitFor('2 marked');
      const name = namesMarked(frame)[0]!;
      const victim = (await devicesOf(fx)).find((d) => d.name === name)!;
      expect((await fx.api('DELETE', `/v0/devices/${victim.id}`)).status).toBe(204);
      await app.press('refresh');
      await app.waitFor('1 marked device no longer exists on the server and was unmarked');
      expect(app.frame()).toContain('1 marked');
    } finally {
      await fx.close();
    }
  });
});

describe('bulk delete', () => {
  it('asks once naming what goes, reports exactly the failed items under injected faults, and never deletes twice', async () => {
    const fx = await startTestSandbox({devices: 40, users: 10});
    try {
      const before = await devicesOf(fx);
      const {client, deletes} = countingClient(fx.client);
      const app = await renderApp({fixture: fx, client, ready: /1\/40 devices/});
      await app.press('markAll', 'list');
      await app.waitFor('40 marked');
      await app.press('delete', 'list');
      const owners = new Set(before.map((d) => d.user_id)).size;
      await app.waitFor(`Delete 40 devices of ${owners} users? [y/N]`);
      expect((await fx.api('PUT', '/_sandbox/faults', {mode: 'empty-500', rate: 0.25})).status).toBe(200);
      await app.press('confirm', 'dialog');
      const frame = await app.waitFor(/Deleted \d+ of 40 devices; \d+ failed\./, 20_000);
      await fx.api('PUT', '/_sandbox/faults', {mode: 'none'});

      const failedCount = Number(/; (\d+) failed\./.exec(frame)![1]);
      expect(failedCount).toBeGreaterThan(0);
      const remaining = await devicesOf(fx);
      expect(remaining.length).toBe(failedCount);
      // Every remaining device is listed as failed with the server's reason, and nothing else is:
      // read the whole report, page by page.
      let report = frame;
      for (let page = 0; page < 20 && /↓ \d+ more/.test(app.frame()); page++) {
        await app.press('pageDown', 'report');
        report += `\n${app.frame()}`;
      }
      const failedBlock = (report.split('Failed (still marked)')[1] ?? '').split('Deleted\n')[0]!;
      for (const d of remaining) expect(failedBlock).toContain(`${d.name} (`);
      expect(failedBlock).toContain('Server error 500 with an empty body for DELETE');
      for (const [, n] of deletes) expect(n).toBe(1);
      expect(deletes.size).toBe(40);

      await app.press('cancel', 'report');
      const list = await app.waitFor(`${failedCount} marked`);
      expect(list).toContain(`${failedCount} marked`);
    } finally {
      await fx.close();
    }
  });

  it('Esc stops midway: what was done stays done and is listed, the rest stays marked', async () => {
    const fx = await startTestSandbox({devices: 60, users: 10});
    try {
      const app = await renderApp({fixture: fx, ready: /1\/60 devices/});
      await app.press('markAll', 'list');
      await app.press('delete', 'list');
      await app.waitFor('Delete 60 devices');
      await fx.api('PUT', '/_sandbox/faults', {mode: 'none', latency_ms: 60});
      await app.press('confirm', 'dialog');
      await app.waitFor(/\] [1-9]\d*\/60/);
      await app.press('cancel', 'report');
      const frame = await app.waitFor(/Stopped: \d+ not started/, 10_000);
      await fx.api('PUT', '/_sandbox/faults', {mode: 'none', latency_ms: 0});
      const deleted = Number(/Deleted (\d+) of 60 devices/.exec(frame)![1]);
      const notStarted = Number(/Stopped: (\d+) not started/.exec(frame)![1]);
      expect(deleted).toBeGreaterThan(0);
      expect(deleted + notStarted).toBe(60);
      expect((await devicesOf(fx)).length).toBe(60 - deleted);
      await app.press('cancel', 'report');
      await app.waitFor(`${notStarted} marked`);
    } finally {
      await fx.close();
    }
  });

  it('users: the question counts the devices and rules that go with them', async () => {
    const fx = await startTestSandbox({devices: 30, users: 8, rules: 10});
    try {
      const app = await renderApp({fixture: fx, ready: /1\/30 devices/});
      await app.press('screen2');
      await app.waitFor('EMAIL');
      await app.press('mark', 'list', 3);
      await app.press('delete', 'list');
      const frame = await app.waitFor(/Delete 3 users\? This also deletes \d+ devices? and \d+ rules?\./);
      expect(frame).toContain('[y/N]');
      await app.press('cancel', 'dialog');
      await app.waitFor('Cancelled');
      expect(app.frame()).toContain('3 marked');
    } finally {
      await fx.close();
    }
  });

  it('read-only mode refuses it like any write', async () => {
    const fx = await startTestSandbox({devices: 10, users: 4});
    try {
      const app = await renderApp({fixture: fx, settings: {readOnly: true}, ready: /1\/10 devices/});
      await app.press('mark', 'list', 2);
      await app.press('delete', 'list');
      await app.waitFor('Read-only mode: deleting devices is disabled');
      expect((await devicesOf(fx)).length).toBe(10);
    } finally {
      await fx.close();
    }
  });
});
