// `K`, a new key for a device, end to end: the built binary in tmux against a sandbox process, at
// 120×40 and 80×24. The device is read back with the API over HTTP (not with the console's code):
// the same name, user and addresses, a new public key; the config written with `w` is 0600 and
// its PrivateKey gives that public key under `wg pubkey`. Then `u` brings the old key back.
import {execFileSync} from 'node:child_process';
import {generateKeyPairSync} from 'node:crypto';
import {readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {BIN, hasBinary, hasTmux, startSandboxProcess, Terminal, type SandboxProcess} from './harness.js';
import {TempDirs} from '../helpers/tmp.js';

const enabled = hasTmux() && hasBinary();
const WG = '/usr/bin/wg';
let sandbox: SandboxProcess;
const terms: Terminal[] = [];
const tmp = new TempDirs();

interface DeviceJson {
  id: string;
  name: string;
  user_id: string;
  ipv4: string | null;
  ipv6: string | null;
  public_key: string;
  preshared_key: string | null;
  description: string | null;
}

const api = <T>(method: string, path: string, body?: unknown) => sandbox.api<T>(method, path, body);

/** What `wg pubkey` says of a private key: the check is WireGuard's own, not the console's code. */
function wgPubkey(privateKey: string): string {
  return execFileSync(WG, ['pubkey'], {input: `${privateKey}\n`, encoding: 'utf8'}).trim();
}

describe.skipIf(!enabled)('K: a new key for a device (tmux)', {timeout: 120_000}, () => {
  beforeAll(async () => {
    sandbox = await startSandboxProcess(['--seed', 'demo', '--stats-interval', '0']);
  });
  afterAll(async () => {
    for (const t of terms) t.kill();
    await sandbox?.stop();
    tmp.remove();
  });

  for (const [width, height] of [
    [120, 40],
    [80, 24],
  ] as const) {
    it(`K on a device, its config written and checked with wg, then u, at ${width}×${height}`, async () => {
      // A user and a device of this test's own, so the two sizes do not meet.
      const email = `kay-${width}@example.com`;
      const name = `kay-${width}`;
      const {data: user} = await api<{data: {id: string}}>('POST', '/v0/users', {user: {email, role: 'unprivileged'}});
      const {publicKey} = generateKeyPairSync('x25519', {publicKeyEncoding: {type: 'spki', format: 'der'}, privateKeyEncoding: {type: 'pkcs8', format: 'der'}});
      const {data: before} = await api<{data: DeviceJson}>('POST', '/v0/devices', {
        device: {user_id: user.id, name, description: 'the old key', public_key: publicKey.subarray(12).toString('base64')},
      });

      const dir = tmp.make('fzc-e2e-newkey-');
      const t = Terminal.start({width, height, env: {FZ_URL: sandbox.url, FZ_API_TOKEN: sandbox.adminToken, NO_COLOR: '1'}});
      terms.push(t);
      t.run(`clear; cd ${dir} && node ${BIN} --refresh 0; echo "exit=$?"`);
      await t.waitFor(/1\/\d+ devices/);
      t.keys('/');
      t.type(name);
      t.keys('Enter');
      await t.waitFor(/1\/1 of \d+ devices/);

      // The question names the device, says its config stops working and what is kept.
      t.keys('K');
      const question = (await t.waitFor(`New key for device ${name} of ${email}?`)).replace(/\s+/g, ' ');
      expect(question).toContain('Its current client config stops working');
      expect(question).toContain(`addresses (${before.ipv4} and ${before.ipv6})`);
      t.keys('y');
      const result = await t.waitFor(/New key: kay-\d+[\s\S]*PrivateKey = /);
      expect(result).toContain('WILL NOT be viewable again');

      // Over HTTP: one device of that name, the same user and addresses, a new public key.
      const now = (await api<{data: DeviceJson[]}>('GET', '/v0/devices')).data.filter((d) => d.name === name);
      expect(now).toHaveLength(1);
      const after = now[0]!;
      expect({user: after.user_id, ipv4: after.ipv4, ipv6: after.ipv6, description: after.description}).toEqual({
        user: before.user_id,
        ipv4: before.ipv4,
        ipv6: before.ipv6,
        description: before.description,
      });
      expect(after.id).not.toBe(before.id);
      expect(after.public_key).not.toBe(before.public_key);
      expect(after.preshared_key).not.toBe(before.preshared_key);
      // The key shown is the key of that device.
      expect(wgPubkey(/PrivateKey = (\S+)/.exec(result)![1]!)).toBe(after.public_key);

      // w writes it 0600; its PrivateKey gives the new public key under wg pubkey.
      t.keys('w');
      await t.waitFor(`./${name}.conf`);
      t.keys('Enter');
      await t.waitFor('(mode 0600)');
      const file = join(dir, `${name}.conf`);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const config = readFileSync(file, 'utf8');
      expect(wgPubkey(/^PrivateKey = (\S+)$/m.exec(config)![1]!)).toBe(after.public_key);
      expect(config).toContain(`PresharedKey = ${after.preshared_key}`);

      // Leaving asks; then u brings the old key back.
      t.keys('Escape');
      await t.waitFor('Leave the new key?');
      t.keys('y');
      await t.waitFor(`New key for device ${name}: u brings the old key back`);
      t.keys('u');
      await t.waitFor(`Took back new key of device ${name}`);
      const back = (await api<{data: DeviceJson[]}>('GET', '/v0/devices')).data.filter((d) => d.name === name);
      expect(back.map((d) => [d.public_key, d.preshared_key, d.ipv4, d.ipv6, d.user_id])).toEqual([
        [before.public_key, before.preshared_key, before.ipv4, before.ipv6, before.user_id],
      ]);
      t.keys('Escape', 'q');
      await t.waitFor('exit=0');
    });
  }
});
