// A token whose user is not an admin: 0.7.36 lets it list devices only. What it cannot read is
// said to be not visible, never shown as empty ("Users 0", "No rules."), and the access
// explainer does not answer from rules and users it cannot see.
import React from 'react';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {render} from 'ink-testing-library';
import {FirezoneClient} from '../../src/api/index.js';
import {startSandbox, type SandboxHandle} from '../../src/sandbox/index.js';
import {App} from '../../src/ui/App.js';
import {waitFor} from '../helpers/ink.js';

let sandbox: SandboxHandle;
let client: FirezoneClient;

beforeAll(async () => {
  sandbox = await startSandbox({port: 0, seed: 'demo', statsIntervalSeconds: 0});
  client = new FirezoneClient({baseUrl: sandbox.url, token: sandbox.unprivilegedToken, timeoutMs: 5000});
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

describe('a token that is not an admin', () => {
  it('Users, Rules and the Configuration are not visible (not empty), and :trace / :reach say why they cannot answer', async () => {
    const ui = render(<App client={client} settings={{label: 'user', refreshSeconds: 0, readOnly: false, insecure: false, demo: false}} />);
    const press = (keys: string) => ui.stdin.write(keys);
    let frame = await waitFor(ui.lastFrame, /1 Devices \d+/);
    expect(frame).toMatch(/2 Users \? +3 Rules \?/);
    // Said once as what it is, not as the server's data being wrong.
    frame = await waitFor(
      ui.lastFrame,
      /This token's user is not an admin: 0\.7\.36 lists only its own devices to it; users,\s+rules\s+and\s+the\s+configuration\s+are\s+not\s+visible/,
    );
    expect(frame).not.toMatch(/Unexpected data/);
    press('2');
    frame = await waitFor(ui.lastFrame, /Not visible to this token \(its user is not an admin\)/);
    expect(frame).not.toMatch(/No users\./);
    press('3');
    frame = await waitFor(ui.lastFrame, /Rules \?/);
    await waitFor(ui.lastFrame, /Not visible to this token/);
    expect(ui.lastFrame()).not.toMatch(/No rules\./);
    press('4');
    await waitFor(ui.lastFrame, /Not visible to this token \(its user is not an admin\)/);
    expect(ui.lastFrame()).not.toMatch(/has not been loaded yet/);
    press('1');
    await waitFor(ui.lastFrame, /1\/\d+ devices/);
    press(':');
    await waitFor(ui.lastFrame, /:/);
    press('reach 10.10.0.5');
    await waitFor(ui.lastFrame, /reach 10\.10\.0\.5/);
    press('\r');
    frame = await waitFor(ui.lastFrame, /:reach cannot answer: this token cannot list rules or users \(its user is not an admin\)/);
    expect(frame).not.toMatch(/Who can reach/);
    ui.unmount();
  });

  it('d says it cannot be undone here (0.7.36 lets only admins create), deletes, and u has nothing to bring back', async () => {
    const before = (await client.listDevices()).data;
    const ui = render(<App client={client} settings={{label: 'user', refreshSeconds: 0, readOnly: false, insecure: false, demo: false}} />);
    const press = (keys: string) => ui.stdin.write(keys);
    await waitFor(ui.lastFrame, /1\/\d+ devices/);
    press('d');
    const frame = await waitFor(ui.lastFrame, /This cannot be undone here: this token's user is not an admin/);
    expect(frame).not.toMatch(/u takes/);
    press('y');
    await waitFor(ui.lastFrame, /Deleted device/);
    expect((await client.listDevices()).data).toHaveLength(before.length - 1);
    press('u');
    await waitFor(ui.lastFrame, /Nothing to undo/);
    expect((await client.listDevices()).data).toHaveLength(before.length - 1);
    ui.unmount();
  });
});
