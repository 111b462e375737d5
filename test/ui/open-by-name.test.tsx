// `:devices NAME` with several devices of that name filters the list to them. The filter is the
// name quoted once, and reads back as the name whatever it holds: it was shown `filter
// ""aisha-laptop""`, and a name with a quote lost it (the quote was dropped from the term).
import {afterEach, describe, expect, it} from 'vitest';
import {cleanupRigs, renderApp, useSandbox} from '../helpers/rig.js';

const fx = useSandbox({seed: 'demo'});
afterEach(() => cleanupRigs());

describe(':devices NAME with several of that name', () => {
  it('shows the filter quoted once', async () => {
    const app = await renderApp({fixture: fx});
    await app.press('command');
    await app.type('devices aisha-laptop');
    await app.named('enter');
    const frame = await app.waitFor('2 devices are named aisha-laptop');
    expect(frame).toContain('filter "aisha-laptop" (Esc clears)  1/2 of');
    expect(frame).not.toContain('""');
  });

  it('a name holding quotes and spaces filters to exactly those devices', async () => {
    const devices = (await fx.api('GET', '/v0/devices')).json.data as Array<{id: string; name: string; user_id: string}>;
    const [a, b] = devices.filter((d, i) => devices.findIndex((o) => o.user_id === d.user_id) === i);
    const name = 'ann\'s "work" pc';
    for (const d of [a!, b!]) expect((await fx.api('PUT', `/v0/devices/${d.id}`, {device: {name}})).status).toBe(200);
    // A third whose name differs only by the quotes: a filter that dropped them matched it too.
    const c = devices.find((d) => d.user_id !== a!.user_id && d.user_id !== b!.user_id)!;
    expect((await fx.api('PUT', `/v0/devices/${c.id}`, {device: {name: "ann's work pc"}})).status).toBe(200);
    const app = await renderApp({fixture: fx});
    await app.press('command');
    await app.type(`devices ${name}`);
    await app.named('enter');
    const frame = await app.waitFor(`2 devices are named ${name}`);
    expect(frame).toContain('filter "ann\'s ""work"" pc" (Esc clears)  1/2 of');
  });
});
