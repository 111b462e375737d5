// One full configuration edit in tmux: form, diff, confirmation, verified through /v0.
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {BIN, hasBinary, hasTmux, startSandboxProcess, Terminal, type SandboxProcess} from './harness.js';

const enabled = hasTmux() && hasBinary();
let sandbox: SandboxProcess;
let term: Terminal;

describe.skipIf(!enabled)('configuration end to end (tmux)', {timeout: 120_000}, () => {
  beforeAll(async () => {
    sandbox = await startSandboxProcess(['--seed', 'demo', '--stats-interval', '0']);
    term = Terminal.start({width: 120, height: 40, env: {FZ_URL: sandbox.url, FZ_API_TOKEN: sandbox.adminToken, NO_COLOR: '1'}});
  });
  afterAll(async () => {
    term?.kill();
    await sandbox?.stop();
  });

  it('edits a client default with a diff and a confirmation', async () => {
    const before = (await (await fetch(`${sandbox.url}/v0/configuration`, {headers: {authorization: `Bearer ${sandbox.adminToken}`}})).json()) as {
      data: {default_client_mtu: number};
    };
    const target = before.data.default_client_mtu === 1400 ? 1420 : 1400;
    term.run(`node ${BIN}`);
    await term.waitFor(/1 Devices \d+/);
    term.keys('4');
    await term.waitFor('Client defaults  (Enter edits)');
    term.keys('Enter');
    await term.waitFor('Comma-separated IPs/CIDRs');
    term.keys('Tab', 'Tab', 'Tab', 'C-u');
    term.type(String(target));
    term.keys('C-s');
    const screen = await term.waitFor('Save these changes to the configuration?');
    expect(screen).toContain(`MTU: ${before.data.default_client_mtu} → ${target}`);
    term.keys('y');
    await term.waitFor(/Configuration saved \(1 change\)/);
    const after = (await (await fetch(`${sandbox.url}/v0/configuration`, {headers: {authorization: `Bearer ${sandbox.adminToken}`}})).json()) as {
      data: {default_client_mtu: number};
    };
    expect(after.data.default_client_mtu).toBe(target);
    term.keys('q');
    await term.waitFor('SHELL-READY$');
  });
});
