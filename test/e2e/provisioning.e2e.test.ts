// Onboarding and offboarding from the keyboard, in tmux against a sandbox process; every
// step verified through the sandbox's /v0 afterwards.
import {execFileSync} from 'node:child_process';
import {readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {BIN, hasBinary, hasTmux, startSandboxProcess, Terminal, type SandboxProcess} from './harness.js';
import {TempDirs} from '../helpers/tmp.js';

const enabled = hasTmux() && hasBinary();
let sandbox: SandboxProcess;
let term: Terminal;
const tmp = new TempDirs();
const workdir = tmp.make('fzc-e2e-prov-');

function hasWg(): boolean {
  try {
    execFileSync('wg', ['--version'], {stdio: 'ignore'});
    return true;
  } catch {
    return false;
  }
}

async function api<T>(method: string, path: string): Promise<{status: number; body: T}> {
  const res = await fetch(`${sandbox.url}${path}`, {method, headers: {authorization: `Bearer ${sandbox.adminToken}`}});
  const text = await res.text();
  return {status: res.status, body: (text ? JSON.parse(text) : null) as T};
}

interface UserJson {
  id: string;
  email: string;
}
interface DeviceJson {
  id: string;
  name: string;
  user_id: string;
  public_key: string;
}
interface RuleJson {
  id: string;
  action: string;
  destination: string;
  port_type: string | null;
  port_range: string | null;
  user_id: string | null;
}

describe.skipIf(!enabled)('provisioning end to end (tmux)', {timeout: 120_000}, () => {
  beforeAll(async () => {
    sandbox = await startSandboxProcess(['--seed', 'demo', '--stats-interval', '0']);
    term = Terminal.start({width: 120, height: 40, env: {FZ_URL: sandbox.url, FZ_API_TOKEN: sandbox.adminToken, NO_COLOR: '1'}});
    term.run(`cd ${workdir} && node ${BIN} --refresh 2`);
    await term.waitFor(/1 Devices \d+/);
  });
  afterAll(async () => {
    term?.kill();
    await sandbox?.stop();
    // The console's working directory (the configs it wrote), once its terminal is gone.
    tmp.remove();
  });

  it('creates a user (client-side and server 422s shown in the form), a device with its config file, renames it, manages a rule and deletes the user', async () => {
    // ---- user: a too-short password is caught with the server's message, then fixed
    term.keys('2');
    await term.waitFor('EMAIL');
    term.keys('n');
    await term.waitFor('Add user');
    term.type('eve@example.com');
    term.keys('Tab', 'Tab');
    term.type('short');
    term.keys('Tab');
    term.type('short');
    term.keys('C-s');
    let screen = await term.waitFor('✗ should be at least 12 character(s)');
    expect(screen).toMatch(/Fix the form: Password: should be at least 12 character\(s\)/);
    // the focus went back to the password; the email is kept
    expect(screen).toContain('eve@example.com');
    term.keys('C-u');
    term.type('correct horse battery');
    term.keys('Tab', 'C-u');
    term.type('correct horse battery');
    term.keys('C-s');
    await term.waitFor('User created successfully: eve@example.com (unprivileged)');
    const eve = (await api<{data: UserJson}>('GET', '/v0/users/eve@example.com')).body.data;
    expect(eve.email).toBe('eve@example.com');

    // ---- the same email again: the server's 422 lands under the email field
    term.keys('n');
    await term.waitFor('Add user');
    term.type('EVE@example.com');
    term.keys('C-s');
    screen = await term.waitFor('✗ has already been taken');
    expect(screen).toContain('Email: has already been taken');
    term.keys('Escape');
    await term.waitFor('Discard your changes?');
    term.keys('y');
    await term.waitFor('Changes discarded');

    // ---- device for eve from her detail view; config written 0600 and accepted by wg
    term.keys('/');
    term.type('eve@');
    await term.waitFor(/1\/1 of \d+ users/);
    term.keys('Enter', 'Enter');
    await term.waitFor('User › eve@example.com');
    term.keys('n');
    screen = await term.waitFor('Add device for eve@example.com');
    expect(screen).toMatch(/Use default DNS servers\s+\[x\] yes/);
    term.keys('C-s');
    screen = await term.waitFor('PrivateKey = ');
    expect(screen).toContain('WILL NOT be viewable again');
    const device = (await api<{data: DeviceJson[]}>('GET', '/v0/devices')).body.data.find((d) => d.user_id === eve.id)!;
    expect(device).toBeDefined();
    term.keys('w');
    await term.waitFor(`./${device.name}.conf`);
    term.keys('Enter');
    await term.waitFor('(mode 0600)');
    const file = join(workdir, `${device.name}.conf`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const config = readFileSync(file, 'utf8');
    expect(config).toMatch(/^\[Interface\]\nPrivateKey = [A-Za-z0-9+/]{43}=\n/);
    const privateKey = /PrivateKey = (\S+)/.exec(config)![1]!;
    if (hasWg()) {
      expect(execFileSync('wg', ['pubkey'], {input: `${privateKey}\n`, encoding: 'utf8'}).trim()).toBe(device.public_key);
    }
    // writing again never overwrites silently
    term.keys('w', 'Enter');
    await term.waitFor('The file exists. Overwrite it?');
    term.keys('n');
    await term.waitFor('Enter writes (mode 0600');
    // Each Esc waits for its effect: an Esc glued to the next key would read as Alt+key.
    term.keys('Escape');
    await term.waitFor('w write file · c copy config');
    term.keys('Escape');
    // The file's path can wrap the sentence anywhere (a long TMPDIR): words, then spaces or borders.
    await term.waitFor(/cannot[\s│]+be[\s│]+shown[\s│]+(here[\s│]+)?again[\s\S]*y leave/);
    term.keys('y');
    await term.waitFor(`Device ${device.name} created`);

    // ---- rename it from the Devices screen
    term.keys('Escape');
    await term.waitFor('filter "eve@" (Esc clears)');
    term.keys('1', '/');
    term.type(device.name);
    await term.waitFor(/1\/1 of \d+ devices/);
    term.keys('Enter', 'e');
    await term.waitFor('applies only name and description');
    term.keys('C-u');
    term.type('eve-laptop');
    term.keys('C-s');
    await term.waitFor('Device updated: eve-laptop');
    expect((await api<{data: DeviceJson}>('GET', `/v0/devices/${device.id}`)).body.data.name).toBe('eve-laptop');
    term.keys('Escape');
    // The whole list again ("N/M devices", no "of"): a positive sign the Esc was read, so the next
    // key is not sent within the Esc delay (an ESC followed at once by a key is that key with Alt).
    await term.waitFor(/\d+\/\d+ devices/);

    // ---- a port rule scoped to eve, then an overlapping one, then delete
    term.keys('3', 'n');
    await term.waitFor('Add rule');
    term.keys('Tab');
    term.type('198.18.0.0/16');
    term.keys('Tab', 'Right', 'Tab');
    term.type('443');
    term.keys('Tab', 'Enter');
    await term.waitFor('pick a user');
    term.type('eve@');
    term.keys('Enter');
    screen = await term.waitFor('eve@example.com  (Enter to change)');
    term.keys('C-s');
    await term.waitFor('Rule added: ACCEPT 198.18.0.0/16 TCP 443');
    let rules = (await api<{data: RuleJson[]}>('GET', '/v0/rules')).body.data.filter((r) => r.user_id === eve.id);
    expect(rules).toEqual([expect.objectContaining({action: 'accept', destination: '198.18.0.0/16', port_type: 'tcp', port_range: '443'})]);

    term.keys('n', 'Tab');
    term.type('198.18.1.0/24');
    term.keys('Tab', 'Right', 'Tab');
    term.type('400-500');
    term.keys('Tab', 'Enter');
    term.type('eve@');
    term.keys('Enter', 'C-s');
    await term.waitFor('✗ destination overlaps with an existing rule');
    term.keys('Escape');
    await term.waitFor('Discard your changes?');
    term.keys('y');
    await term.waitFor('Changes discarded');

    term.keys('/');
    term.type('198.18.');
    await term.waitFor(/1\/1 of \d+ rules/);
    term.keys('Enter', 'd');
    await term.waitFor('Delete rule ACCEPT 198.18.0.0/16 TCP 443?');
    term.keys('y');
    await term.waitFor('Deleted rule');
    rules = (await api<{data: RuleJson[]}>('GET', '/v0/rules')).body.data.filter((r) => r.user_id === eve.id);
    expect(rules).toEqual([]);

    // ---- delete eve: the dialog counts what goes with her (Esc clears the Users filter kept from before)
    term.keys('Escape');
    await term.waitFor(/\d+\/\d+ rules/);
    term.keys('2');
    await term.waitFor('filter "eve@" (Esc clears)');
    term.keys('Escape');
    await term.waitFor((sc) => sc.includes('EMAIL') && !sc.includes('filter "eve@"'));
    term.keys('/');
    term.type('eve@');
    await term.waitFor(/1\/1 of \d+ users/);
    term.keys('Enter', 'd');
    await term.waitFor('Delete user eve@example.com? This also deletes 1 device and 0 rules. [y/N]');
    term.keys('y');
    await term.waitFor('User deleted successfully: eve@example.com');
    expect((await api('GET', '/v0/users/eve@example.com')).status).toBe(404);
    expect((await api('GET', `/v0/devices/${device.id}`)).status).toBe(404);

    term.keys('q');
    await term.waitFor('SHELL-READY$');
  });
});
