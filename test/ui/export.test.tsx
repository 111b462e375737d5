// Export of the list as shown, through the UI: filtered and sorted rows, no secrets unless asked.
import {readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {renderApp, useSandbox} from '../helpers/rig.js';

const fx = useSandbox({devices: 20, users: 5});

describe('export', () => {
  it('x writes the filtered list as CSV without preshared keys; X asks, then includes them; an existing file is not overwritten without asking', async () => {
    const devices = (await fx.api<{data: Array<{name: string; user_id: string; preshared_key: string | null}>}>('GET', '/v0/devices')).json.data;
    const users = (await fx.api<{data: Array<{id: string; email: string}>}>('GET', '/v0/users')).json.data;
    const owner = users.find((u) => devices.some((d) => d.user_id === u.id && d.preshared_key))!;
    const mine = devices.filter((d) => d.user_id === owner.id);
    const app = await renderApp({fixture: fx, ready: /1\/20 devices/});
    await app.press('filter', 'list');
    await app.type(owner.email);
    await app.press('filterAccept', 'filter');
    await app.press('export', 'list');
    await app.waitFor('Export to file:');
    expect(app.frame()).toContain(`Export the ${mine.length} device${mine.length === 1 ? '' : 's'} shown (filter "${owner.email}")`);
    const path = join(process.cwd(), 'mine.csv');
    await app.named('ctrl+u');
    await app.paste(path);
    await app.press('accept', 'prompt');
    await app.waitFor(`Exported ${mine.length} device`);
    const csv = readFileSync(path, 'utf8');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines).toHaveLength(mine.length + 1);
    expect(lines[0]).not.toContain('preshared_key');
    for (const d of mine) expect(csv).toContain(d.name);
    for (const d of mine) if (d.preshared_key) expect(csv).not.toContain(d.preshared_key);

    await app.press('export', 'list');
    await app.named('ctrl+u');
    await app.paste(path);
    await app.press('accept', 'prompt');
    await app.waitFor('The file exists. Overwrite it?');
    await app.press('cancel', 'dialog');
    // Back at the path, to give another name; Esc leaves it.
    await app.waitFor('Export to file:');
    await app.press('cancel', 'prompt');

    await app.press('exportSecrets', 'list');
    await app.waitFor('with their preshared keys? [y/N]');
    await app.press('confirm', 'dialog');
    await app.waitFor('Including preshared keys');
    const json = join(process.cwd(), 'mine.json');
    await app.named('ctrl+u');
    await app.paste(json);
    await app.press('accept', 'prompt');
    await app.waitFor('JSON, WITH preshared keys');
    const records = JSON.parse(readFileSync(json, 'utf8')) as Array<{name: string; preshared_key: string | null; owner_email: string}>;
    expect(records.map((r) => r.owner_email)).toEqual(mine.map(() => owner.email));
    expect(records.some((r) => r.preshared_key && mine.some((d) => d.preshared_key === r.preshared_key))).toBe(true);
  });

  it('the Activity list is exported as events, and its prompt promises nothing about secrets it cannot hold', async () => {
    const app = await renderApp({fixture: fx, ready: /1\/20 devices/});
    // A change made by another client gives the Activity list an event to export.
    await fx.client.createUser({email: 'export-activity@example.com', role: 'unprivileged'});
    await app.press('refresh');
    await app.press('screen5');
    await app.waitFor('User export-activity@');
    await app.press('export', 'list');
    const prompt = await app.waitFor('Export to file:');
    expect(prompt).toMatch(/Export the \d+ events? shown/);
    expect(prompt).not.toContain('preshared');
    const path = join(process.cwd(), 'activity.csv');
    await app.named('ctrl+u');
    await app.paste(path);
    await app.press('accept', 'prompt');
    const done = await app.waitFor(/Exported \d+ events? to/);
    expect(done).toMatch(/\(CSV, mode 0600\)/);
    expect(done).not.toMatch(/activits|no secrets/);
  });
});
