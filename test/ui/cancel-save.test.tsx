// A hung save can be cancelled: Esc aborts the request, keeps the form and what was typed, says
// the outcome is unknown and re-reads the data. Keys typed while it waits are not silently lost.
import {afterEach, describe, expect, it} from 'vitest';
import {FirezoneClient} from '../../src/api/index.js';
import {cleanupRigs, renderApp, useSandbox} from '../helpers/rig.js';

const fx = useSandbox({seed: 'demo'});
afterEach(async () => {
  await cleanupRigs();
  await fx.api('PUT', '/_sandbox/faults', {mode: 'none', rate: 0, latency_ms: 0});
});

describe('a hung save', () => {
  it('Esc aborts it, keeps the form, and says the outcome is unknown', {timeout: 30_000}, async () => {
    const app = await renderApp({fixture: fx});
    await app.press('screen2');
    await app.press('new', 'list');
    await app.waitFor('Add user');
    await app.type('hung@example.com');
    await fx.api('PUT', '/_sandbox/faults', {mode: 'hang', rate: 1, latency_ms: 0});
    await app.press('save');
    await app.waitFor('Saving…');
    // The request has reached the server and is held there. Without this wait, on a busy machine
    // the POST could still be unread on the server when Esc aborts it, and be read (and applied)
    // after the fault is lifted below: the "outcome unknown" the console warns about.
    for (let i = 0; ((await fx.api('GET', '/_sandbox/faults')).json as {hung: number}).hung < 1; i++) {
      if (i > 400) throw new Error('the save never reached the server');
      await new Promise((r) => setTimeout(r, 5));
    }
    await app.type('x');
    await app.waitFor('"x" was not taken (Esc cancels the save)');
    await app.press('cancel', 'form');
    const frame = await app.waitFor('Save cancelled; the outcome is unknown');
    expect(frame).toContain('Add user');
    expect(frame).toMatch(/Email\s+hung@example\.com/);
    // The form works again: fix the fault and save for real.
    await fx.api('PUT', '/_sandbox/faults', {mode: 'none', rate: 0, latency_ms: 0});
    await app.press('save');
    await app.waitFor('User created successfully: hung@example.com');
  });

  it('a create whose answer never came says it may have happened, and reads the list back', {timeout: 30_000}, async () => {
    const usersBefore = ((await fx.api('GET', '/v0/users')).json.data as unknown[]).length;
    const client = new FirezoneClient({baseUrl: fx.sandbox.url, token: fx.sandbox.adminToken, timeoutMs: 1500});
    try {
      const app = await renderApp({client});
      await app.press('screen2');
      await app.waitFor(`2 Users ${usersBefore}`);
      await app.press('new', 'list');
      await app.waitFor('Add user');
      await app.type('unanswered@example.com');
      // The server applies the create and never answers it.
      await fx.api('PUT', '/_sandbox/faults', {mode: 'apply-hang', rate: 1, latency_ms: 0});
      await app.press('save');
      for (let i = 0; ((await fx.api('GET', '/_sandbox/faults')).json as {hung: number}).hung < 1; i++) {
        if (i > 400) throw new Error('the save never reached the server');
        await new Promise((r) => setTimeout(r, 5));
      }
      // Lifted once the create is in: the read-back that follows is answered.
      await fx.api('PUT', '/_sandbox/faults', {mode: 'none', rate: 0, latency_ms: 0});
      const frame = await app.waitFor('No answer to the save', 10_000);
      const joined = frame.replace(/\s*\n\s*/g, ' ');
      expect(joined).toContain('It may have been applied: the data is read again; look at the list before saving again');
      // The form is kept, with what was typed.
      expect(frame).toContain('Add user');
      expect(frame).toMatch(/Email\s+unanswered@example\.com/);
      // Nothing else refreshes here (manual refresh): the count moved because the list was read back.
      await app.waitFor(`2 Users ${usersBefore + 1}`, 10_000);
    } finally {
      await client.close();
    }
  });
});
