// `:export FILE` and `:plan FILE` in the console against a sandbox: the export written 0600 without
// secrets, the plan as a report, `y` applying it with its summary, read-only mode refusing that.
// The server's state is read with plain HTTP (fx.api), not with the console's code.
import {readFileSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {cleanupRigs, renderApp, useSandbox} from '../helpers/rig.js';

const fx = useSandbox({seed: 'demo'});
afterEach(() => cleanupRigs());

type Rules = {data: Array<{destination: string; action: string}>};

describe(':export and :plan', () => {
  it(':export writes the document; an added rule is planned, y applies it, and planning again finds nothing', async () => {
    const file = join(process.cwd(), 'server.yaml');
    const app = await renderApp({fixture: fx});
    await app.press('command');
    await app.type(`export ${file}`);
    await app.named('enter');
    await app.waitFor('Exported the server to');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    const devices = (await fx.api('GET', '/v0/devices')).json.data as Array<{preshared_key: string | null; public_key: string}>;
    expect(text).toContain(devices[0]!.public_key);
    for (const d of devices) if (d.preshared_key) expect(text).not.toContain(d.preshared_key);

    writeFileSync(file, text.replace('rules:\n', 'rules:\n  - action: drop\n    destination: 10.66.0.0/16\n'));
    await app.press('command');
    await app.type(`plan ${file}`);
    await app.named('enter');
    await app.waitFor('Plan: 1 to create, 0 to update, 0 to replace, 0 to delete.');
    expect(app.frame()).toContain('+ create rule drop 10.66.0.0/16  (line');
    await app.press('confirm', 'report');
    await app.waitFor('apply: done: 1 change applied.');
    expect((await fx.api('GET', '/v0/rules')).json as Rules).toMatchObject({
      data: expect.arrayContaining([expect.objectContaining({destination: '10.66.0.0/16', action: 'drop'})]),
    });
    await app.press('cancel', 'report');

    await app.press('command');
    await app.type(`plan ${file}`);
    await app.named('enter');
    await app.waitFor('No changes: the server matches');
  });

  it('read-only mode shows the plan but refuses to apply it', async () => {
    const file = join(process.cwd(), 'ro.yaml');
    const app = await renderApp({fixture: fx, settings: {readOnly: true}});
    await app.press('command');
    await app.type(`export ${file}`);
    await app.named('enter');
    await app.waitFor('Exported the server to');
    writeFileSync(file, readFileSync(file, 'utf8').replace('rules:\n', 'rules:\n  - action: drop\n    destination: 10.67.0.0/16\n'));
    await app.press('command');
    await app.type(`plan ${file}`);
    await app.named('enter');
    await app.waitFor('Plan: 1 to create');
    await app.press('confirm', 'report');
    await app.waitFor('Read-only mode: applying a file is disabled');
    expect(((await fx.api('GET', '/v0/rules')).json as Rules).data.some((r) => r.destination === '10.67.0.0/16')).toBe(false);
  });

  it('a file with a problem is shown with its line, and cannot be applied', async () => {
    const file = join(process.cwd(), 'bad.yaml');
    writeFileSync(file, 'version: 1\nusers:\n  - email: a@example.com\n    role: root\n');
    const app = await renderApp({fixture: fx});
    await app.press('command');
    await app.type(`plan ${file}`);
    await app.named('enter');
    await app.waitFor('bad.yaml:4: users[0].role');
    await app.press('confirm', 'report');
    await app.waitFor('Nothing to apply');
  });
});
