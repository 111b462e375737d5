// What a k9s, lazygit or htop hand reaches for, end to end: the built binary in tmux against a
// sandbox process, keys sent as the bytes terminals send them (`send-keys -H`), at 120×40 and
// 80×24: htop's F3 (search), F5 (refresh), F10 (quit), U from a device to its owner (Esc back), and
// y, the device as the server sent it.
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {BIN, hasBinary, hasTmux, startSandboxProcess, Terminal, type SandboxProcess} from './harness.js';
import {publicKey} from '../sandbox/helpers.js';

const enabled = hasTmux() && hasBinary();
let sandbox: SandboxProcess;
const terms: Terminal[] = [];

const api = <T>(method: string, path: string, body?: unknown) => sandbox.api<T>(method, path, body);

describe.skipIf(!enabled)('k9s and htop hands (tmux)', {timeout: 120_000}, () => {
  beforeAll(async () => {
    sandbox = await startSandboxProcess(['--seed', 'demo', '--stats-interval', '0']);
  });
  afterAll(async () => {
    for (const t of terms) t.kill();
    await sandbox?.stop();
  });

  for (const [width, height] of [
    [120, 40],
    [80, 24],
  ] as const) {
    it(`F3, F5, U, y and F10 at ${width}×${height}`, async () => {
      const t = Terminal.start({width, height, env: {FZ_URL: sandbox.url, FZ_API_TOKEN: sandbox.adminToken, NO_COLOR: '1'}});
      terms.push(t);
      const hex = (bytes: string) => t.tmux('send-keys', '-t', t.name, '-H', ...[...Buffer.from(bytes, 'latin1')].map((b) => b.toString(16).padStart(2, '0')));
      t.run(`clear; node ${BIN} --refresh 0; echo "exit=$?"`);
      const first = await t.waitFor(/1\/(\d+) devices/);
      const total = Number(/1\/(\d+) devices/.exec(first)![1]);

      // F3 (ESC O R, as xterm sends it) opens the filter, empty.
      hex('\x1bOR');
      await t.waitFor(/^\/\S?\s+1\/\d+ devices[\s\S]*Enter keep\s+Esc clear/m);
      hex('\x1b');
      await t.waitFor((s) => !s.includes('Esc clear'));

      // F5 (ESC [ 1 5 ~) polls now: a device added meanwhile is counted.
      const {data: users} = await api<{data: Array<{id: string; email: string}>}>('GET', '/v0/users');
      const owner = users.at(-1)!;
      await api('POST', '/v0/devices', {device: {user_id: owner.id, name: `f5-${width}`, public_key: publicKey()}});
      hex('\x1b[15~');
      await t.waitFor(new RegExp(`1/${total + 1} devices`));

      // U: the owner of the device under the cursor, on Users; Esc comes back to the list.
      const device = (await api<{data: Array<{name: string; user_id: string}>}>('GET', '/v0/devices')).data;
      hex('U');
      const detail = await t.waitFor(/User\b[\s\S]*Devices \(\d+\)/);
      const shown = users.filter((u) => detail.includes(u.email));
      expect(shown.length).toBeGreaterThan(0);
      expect(device.some((d) => shown.some((u) => u.id === d.user_id))).toBe(true);
      hex('\x1b');
      await t.waitFor(new RegExp(`1/${total + 1} devices`));

      // y: the device under the cursor as the server sent it; its key is the one the API returns.
      hex('y');
      const json = await t.waitFor(/as the server sent it[\s\S]*"public_key": "/);
      const id = /"id": "([0-9a-f-]{36})"/.exec(json)![1];
      const fromApi = device.find((d) => (d as unknown as {id: string}).id === id) as unknown as {public_key: string; preshared_key: string | null};
      expect(json).toContain(`"public_key": "${fromApi.public_key}"`);
      if (fromApi.preshared_key) expect(json).not.toContain(fromApi.preshared_key);
      hex('\x1b');
      await t.waitFor(new RegExp(`1/${total + 1} devices`));

      // F10 (ESC [ 2 1 ~) quits, as q does.
      hex('\x1b[21~');
      await t.waitFor('exit=0');
    });
  }
});
