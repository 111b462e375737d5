// The `/` filter's field terms on screen: `state:online` narrows the list and the count says so;
// a key the screen does not know is said under the list, in full at 80 columns.
import {afterEach, describe, expect, it} from 'vitest';
import {cleanupRigs, renderApp, useSandbox} from '../helpers/rig.js';

const fx = useSandbox({seed: 'empty'});
afterEach(() => cleanupRigs());

const iso = (ms: number) => new Date(ms).toISOString();
const KEYS = ['kQvbXRbBSRh7F1L5Y7nYH2hF0t8mnVfS2QfTaoUZ0mE=', 'mF0d4nH1c2q0Yq2bX3Y8v5r4s0W1aZkQe6JpT9uL3xA=', 'oP7sK2dV9wQ1zR4tY6uI8xC3vB5nM0lJ2hG4fD6sA1E='];

describe('field filters', () => {
  it('/state:online shows the online device and counts it; /foo:bar says which keys there are', async () => {
    const users = (await fx.api('GET', '/v0/users')).json.data as Array<{id: string}>;
    const ids: string[] = [];
    for (const [i, name] of ['busy-laptop', 'quiet-phone', 'spare-tablet'].entries()) {
      const created = await fx.api('POST', '/v0/devices', {device: {user_id: users[0]!.id, name, public_key: KEYS[i]}});
      expect(created.status).toBe(201);
      ids.push((created.json as {data: {id: string}}).data.id);
    }
    const stats = await fx.api('PUT', `/_sandbox/devices/${ids[0]}/stats`, {
      latest_handshake: iso(Date.now() - 5000),
      remote_ip: '198.51.100.7',
      rx_bytes: 1,
      tx_bytes: 1,
    });
    expect(stats.status).toBeLessThan(300);
    const app = await renderApp({fixture: fx});
    app.resize(80, 24);
    await app.waitFor('spare-tablet');
    const total = (app.frame().match(/(\d+) devices/) ?? [])[1];

    await app.press('filter', 'list');
    await app.type('state:online');
    const online = await app.waitFor(new RegExp(`1/1 of ${total} devices`));
    expect(online).toContain('busy-laptop');
    expect(online).not.toContain('quiet-phone');
    expect(online).not.toContain('unknown filter key');
    await app.press('filterClear', 'filter');
    await app.waitFor('spare-tablet');

    await app.press('filter', 'list');
    await app.type('foo:bar');
    const error = await app.waitFor('unknown filter key "foo"');
    // The term is left out: every device is listed, and the whole key list is readable in two lines.
    expect(error).toContain('quiet-phone');
    expect(error).toMatch(new RegExp(`1/${total} devices`));
    const lines = error.split('\n');
    const at = lines.findIndex((l) => l.includes('unknown filter key'));
    expect(`${lines[at]!.trim()} ${lines[at + 1]!.trim()}`).toContain('devices know: state, owner, name, ip, key, rx, tx, rate, handshake, created, stale');
    expect(lines.every((l) => l.length <= 80)).toBe(true);
    // The filter line with its count is right under the error.
    expect(lines[at + 2]).toMatch(/^\/foo:bar/);
  });
});
