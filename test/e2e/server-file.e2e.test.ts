// `fz-console export | plan | apply`, the built binary against sandbox processes, without a
// terminal. The server's state is read with plain `fetch`, never with the console's code.
import {spawn} from 'node:child_process';
import {generateKeyPairSync} from 'node:crypto';
import {mkdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {BIN, hasTmux, startSandboxProcess, Terminal, type SandboxProcess} from './harness.js';

let sandbox: SandboxProcess;
const dir = process.cwd();

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: NodeJS.ProcessEnv = {}, onStderr?: (text: string) => void): Promise<Ran> {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {...process.env, FZ_URL: sandbox.url, FZ_API_TOKEN: sandbox.adminToken, XDG_STATE_HOME: join(dir, 'state'), ...env},
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
    onStderr?.(stderr);
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({code, stdout, stderr})));
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: {authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json'},
    ...(body === undefined ? {} : {body: JSON.stringify(body)}),
  });
  return (res.status === 204 ? null : await res.json()) as T;
}

interface Dev {
  id: string;
  name: string;
  public_key: string;
  preshared_key: string;
  ipv4: string;
  ipv6: string;
  allowed_ips: string[];
  use_default_allowed_ips: boolean;
}
const devices = async () => (await api<{data: Dev[]}>('GET', '/v0/devices')).data;
const rules = async () =>
  (await api<{data: Array<{destination: string; action: string; port_range: string | null; user_id: string | null}>}>('GET', '/v0/rules')).data;
const users = async () => (await api<{data: Array<{id: string; email: string; role: string}>}>('GET', '/v0/users')).data;

function publicKey(): string {
  const {publicKey: der} = generateKeyPairSync('x25519', {
    publicKeyEncoding: {type: 'spki', format: 'der'},
    privateKeyEncoding: {type: 'pkcs8', format: 'der'},
  });
  return der.subarray(12).toString('base64');
}

beforeAll(async () => {
  sandbox = await startSandboxProcess(['--stats-interval', '0']);
});

afterAll(async () => {
  await sandbox?.stop();
});

describe('fz-console export, plan and apply against a sandbox process', () => {
  const file = join(dir, 'server.yaml');

  it('export twice gives the same bytes; then plan is exit 0 "No changes"; --with-secrets and .json', async () => {
    expect((await run(['export', '--output', file])).code).toBe(0);
    const first = readFileSync(file, 'utf8');
    const again = await run(['export']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(first);
    expect(first).not.toContain('preshared_key');
    const plan = await run(['plan', file]);
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('No changes: the server matches');
    expect(plan.code).toBe(0);

    const secret = join(dir, 'secret.json');
    expect((await run(['export', '--with-secrets', '-o', secret])).code).toBe(0);
    expect(statSync(secret).mode & 0o777).toBe(0o600);
    const doc = JSON.parse(readFileSync(secret, 'utf8')) as {devices: Array<{public_key: string; preshared_key: string}>};
    const server = await devices();
    expect(doc.devices.find((d) => d.public_key === server[0]!.public_key)?.preshared_key).toBe(server[0]!.preshared_key);
  });

  it('a user, a device, a rule (/32, "53-60", an upper-case email) and a configuration change: plan 2 naming each, apply, the server has them, plan 0', async () => {
    const key = publicKey();
    const text = readFileSync(file, 'utf8')
      .replace('users:\n', 'users:\n  - email: New.Person@Example.com\n    role: unprivileged\n')
      .replace('devices:\n', `devices:\n  - owner: NEW.PERSON@example.com\n    name: new-laptop\n    public_key: ${key}\n`)
      .replace(
        'rules:\n',
        'rules:\n  - action: accept\n    destination: 10.99.0.5/32\n    port_type: udp\n    port_range: 53-60\n    user: new.person@EXAMPLE.com\n',
      )
      .replace(/default_client_mtu: \d+/, 'default_client_mtu: 1380');
    writeFileSync(file, text);
    const plan = await run(['plan', file]);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('+ create user New.Person@Example.com (unprivileged)  (line 5)');
    expect(plan.stdout).toMatch(/\+ create device new-laptop of NEW\.PERSON@example\.com {2}\(line \d+\)/);
    expect(plan.stdout).toContain('+ create rule accept 10.99.0.5 udp 53 - 60 for new.person@example.com');
    expect(plan.stdout).toMatch(/default_client_mtu: \d+ → 1380/);
    expect(plan.stdout).toContain('Plan: 3 to create, 1 to update, 0 to replace, 0 to delete.');

    const apply = await run(['apply', file, '--yes']);
    expect(apply.stderr).toContain('apply: done: 4 changes applied.');
    expect(apply.code).toBe(0);
    const person = (await users()).find((u) => u.email === 'New.Person@Example.com');
    expect(person?.role).toBe('unprivileged');
    expect((await devices()).find((d) => d.public_key === key)?.name).toBe('new-laptop');
    expect((await rules()).find((r) => r.user_id === person!.id)).toMatchObject({destination: '10.99.0.5', action: 'accept', port_range: '53 - 60'});
    expect((await api<{data: {default_client_mtu: number}}>('GET', '/v0/configuration')).data.default_client_mtu).toBe(1380);

    const after = await run(['plan', file]);
    expect(after.stdout).toContain('No changes');
    expect(after.code).toBe(0);
  });

  it('a rule removed from the file is kept; --prune deletes it, after a 0600 backup that apply brings back', async () => {
    const text = readFileSync(file, 'utf8');
    const without = text.replace(
      '  - action: accept\n    destination: 10.99.0.5/32\n    port_type: udp\n    port_range: 53-60\n    user: new.person@EXAMPLE.com\n',
      '',
    );
    expect(without).not.toBe(text);
    writeFileSync(file, without);
    const kept = await run(['plan', file]);
    expect(kept.code).toBe(0);
    expect(kept.stdout).toContain('  = rule accept 10.99.0.5 udp 53 - 60 for new.person@example.com');
    const pruned = await run(['plan', file, '--prune']);
    expect(pruned.code).toBe(2);
    expect(pruned.stdout).toContain('- delete rule accept 10.99.0.5 udp 53 - 60 for new.person@example.com');

    const apply = await run(['apply', file, '--prune', '--yes']);
    expect(apply.code).toBe(0);
    expect((await rules()).some((r) => r.destination === '10.99.0.5')).toBe(false);
    const backup = /saved in (\S+) /.exec(apply.stderr)?.[1];
    expect(backup).toBeDefined();
    expect(statSync(backup!).mode & 0o777).toBe(0o600);
    const restore = await run(['apply', backup!, '--yes']);
    expect(restore.code).toBe(0);
    expect((await rules()).some((r) => r.destination === '10.99.0.5')).toBe(true);
  });

  it('an allowed-IPs change is a replace: refused without --replace; with it the device keeps its key, addresses and preshared key', async () => {
    const text = readFileSync(file, 'utf8');
    const before = (await devices()).find((d) => d.name === 'new-laptop')!;
    const changed = text.replace(`    public_key: ${before.public_key}\n`, `    public_key: ${before.public_key}\n    allowed_ips:\n      - 10.0.0.0/8\n`);
    expect(changed).not.toBe(text);
    writeFileSync(file, changed);
    const plan = await run(['plan', file]);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('± replace device new-laptop of New.Person@Example.com');
    expect(plan.stdout).toContain('allowed_ips: default → 10.0.0.0/8');
    const refused = await run(['apply', file, '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('run with --replace. Nothing was sent.');
    expect((await devices()).find((d) => d.name === 'new-laptop')!.id).toBe(before.id);

    const apply = await run(['apply', file, '--yes', '--replace']);
    expect(apply.code).toBe(0);
    const after = (await devices()).find((d) => d.name === 'new-laptop')!;
    expect(after.id).not.toBe(before.id);
    // What the client config made before holds: its key pair, addresses and preshared key.
    expect({public_key: after.public_key, ipv4: after.ipv4, ipv6: after.ipv6, preshared_key: after.preshared_key}).toEqual({
      public_key: before.public_key,
      ipv4: before.ipv4,
      ipv6: before.ipv6,
      preshared_key: before.preshared_key,
    });
    expect(after).toMatchObject({use_default_allowed_ips: false, allowed_ips: ['10.0.0.0/8']});
    expect((await run(['plan', file])).code).toBe(0);
  });

  it('a bad file is refused with its line before any request (the server named is not even listening)', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'version: 1\nusers:\n  - email: a@example.com\n    role: admin\n    colour: red\n');
    const unknownKey = await run(['plan', bad], {FZ_URL: 'http://127.0.0.1:9'});
    expect(unknownKey.code).toBe(1);
    expect(unknownKey.stderr).toMatch(/bad\.yaml:5: users\[0\]\.colour/);
    writeFileSync(bad, 'version: 1\nusers:\n  - email: a@example.com\n    role: admin\n  - email: A@example.com\n    role: admin\n');
    const duplicate = await run(['apply', bad, '--yes'], {FZ_URL: 'http://127.0.0.1:9'});
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('bad.yaml:5: user A@example.com is already in the file (line 3)');
    expect(duplicate.stderr).not.toMatch(/reach|ECONNREFUSED/i);
    writeFileSync(bad, 'version: 1\nrules:\n  - action: drop\n    destination: 10.0.0.0/8\n  - action: drop\n    destination: 10.2.0.0/16\n');
    const overlap = await run(['plan', bad], {FZ_URL: 'http://127.0.0.1:9'});
    expect(overlap.code).toBe(1);
    expect(overlap.stderr).toContain('bad.yaml:5: rule drop 10.2.0.0/16 overlaps the rule at line 3');
  });

  it('read-only refuses apply; without --yes outside a terminal nothing is sent', async () => {
    const text = readFileSync(file, 'utf8').replace(/default_client_mtu: \d+/, 'default_client_mtu: 1300');
    writeFileSync(file, text);
    const readOnly = await run(['apply', file, '--yes', '--read-only']);
    expect(readOnly.code).toBe(1);
    expect(readOnly.stderr).toContain('read-only');
    const noYes = await run(['apply', file]);
    expect(noYes.code).toBe(1);
    expect(noYes.stderr).toContain('not in a terminal');
    expect((await api<{data: {default_client_mtu: number}}>('GET', '/v0/configuration')).data.default_client_mtu).toBe(1380);
  });

  it('a server failure half-way: an exact summary; a second apply finishes the job', async () => {
    // As the server is (the read-only test left 1300 in the file): six changes, all written here.
    const base = readFileSync(file, 'utf8').replace('default_client_mtu: 1300', 'default_client_mtu: 1380');
    const emails = ['half-1@example.com', 'half-2@example.com', 'half-3@example.com'];
    const text = base
      .replace('users:\n', `users:\n${emails.map((e) => `  - email: ${e}\n    role: unprivileged\n`).join('')}`)
      .replace('rules:\n', `rules:\n${emails.map((e, i) => `  - action: drop\n    destination: 10.77.0.${i + 1}\n    user: ${e}\n`).join('')}`);
    writeFileSync(file, text);
    // Each request is slow, so the fault is set while the users are being created.
    await api('PUT', '/_sandbox/faults', {mode: 'none', latency_ms: 150});
    let faulted: Promise<unknown> | null = null;
    const apply = await run(['apply', file, '--yes'], {}, (stderr) => {
      if (!faulted && stderr.includes('] created user')) faulted = api('PUT', '/_sandbox/faults', {mode: 'empty-500', rate: 1, latency_ms: 150});
    });
    await faulted;
    await api('PUT', '/_sandbox/faults', {mode: 'none'});
    expect(apply.code).toBe(1);
    expect(apply.stderr).toMatch(/apply: stopped after a failure: \d+ applied, \d+ failed, \d+ not started\./);
    const summary = /(\d+) applied, (\d+) failed, (\d+) not started/.exec(apply.stderr)!.slice(1).map(Number);
    expect(summary[0]! + summary[1]! + summary[2]!).toBe(6);
    expect(apply.stderr).toMatch(/failed: .*server\.yaml:\d+: create /);
    for (const e of emails) expect(apply.stderr).toContain(`rule drop 10.77.0.${emails.indexOf(e) + 1} for ${e}`);
    expect(apply.stderr).toContain('again to finish');
    const created = (await users()).filter((u) => emails.includes(u.email)).length;
    expect(apply.stderr.match(/ {2}applied: create user half-/g)?.length ?? 0).toBe(created);

    const finish = await run(['apply', file, '--yes']);
    expect(finish.code).toBe(0);
    expect((await users()).filter((u) => emails.includes(u.email))).toHaveLength(3);
    expect((await rules()).filter((r) => r.destination.startsWith('10.77.0.'))).toHaveLength(3);
    expect((await run(['plan', file])).code).toBe(0);
  });

  it("the server's 422 is reported against the file's entry and line", async () => {
    const key = publicKey();
    const text = readFileSync(file, 'utf8').replace(
      'devices:\n',
      `devices:\n  - owner: half-1@example.com\n    name: outside\n    public_key: ${key}\n    ipv4: 192.0.2.9\n`,
    );
    writeFileSync(file, text);
    const line = text.split('\n').indexOf('  - owner: half-1@example.com') + 1;
    const apply = await run(['apply', file, '--yes']);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain(`failed: ${file}:${line}: create device outside of half-1@example.com: ipv4: is not in the CIDR`);
    expect((await devices()).some((d) => d.public_key === key)).toBe(false);
    writeFileSync(file, text.replace(`  - owner: half-1@example.com\n    name: outside\n    public_key: ${key}\n    ipv4: 192.0.2.9\n`, ''));
  });

  it.skipIf(!hasTmux())('in a terminal, apply asks first: n sends nothing, y applies', async () => {
    const text = readFileSync(file, 'utf8').replace(/default_client_mtu: \d+/, 'default_client_mtu: 1420');
    writeFileSync(file, text);
    const term = Terminal.start({width: 160, height: 40, env: {FZ_URL: sandbox.url, FZ_API_TOKEN: sandbox.adminToken, XDG_STATE_HOME: join(dir, 'state')}});
    try {
      await term.waitFor('SHELL-READY$');
      const mtu = async () => (await api<{data: {default_client_mtu: number}}>('GET', '/v0/configuration')).data.default_client_mtu;
      term.run(`'${process.execPath}' '${BIN}' apply '${file}'; echo "EXIT=$?"`);
      await term.waitFor('Apply these changes? [y/N]');
      term.type('n');
      term.keys('Enter');
      await term.waitFor('EXIT=1');
      expect(await mtu()).toBe(1380);
      term.run('clear');
      term.run(`'${process.execPath}' '${BIN}' apply '${file}'; echo "EXIT=$?"`);
      await term.waitFor('Apply these changes? [y/N]');
      term.type('y');
      term.keys('Enter');
      await term.waitFor('EXIT=0');
      expect(await mtu()).toBe(1420);
    } finally {
      term.kill();
    }
  });

  it('a profile of the config file (its token file) works as for the console; a read-only profile refuses apply', async () => {
    const config = join(dir, 'xdg');
    mkdirSync(join(config, 'fz-console'), {recursive: true});
    const tokenFile = join(config, 'token');
    writeFileSync(tokenFile, `${sandbox.adminToken}\n`, {mode: 0o600});
    writeFileSync(
      join(config, 'fz-console', 'config.json'),
      JSON.stringify({profiles: {lab: {url: sandbox.url, tokenFile}, watch: {url: sandbox.url, tokenFile, readOnly: true}}}),
      {mode: 0o600},
    );
    const env = {XDG_CONFIG_HOME: config, FZ_URL: '', FZ_API_TOKEN: ''};
    const plan = await run(['plan', file, '--profile', 'lab'], env);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
    // Whatever the terminal test (skipped without tmux) left there.
    const before = (await api<{data: {default_client_mtu: number}}>('GET', '/v0/configuration')).data.default_client_mtu;
    expect(before).not.toBe(1300);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/default_client_mtu: \d+/, 'default_client_mtu: 1300'));
    const refused = await run(['apply', file, '--yes', '--profile', 'watch'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('apply: this profile is read-only');
    expect((await api<{data: {default_client_mtu: number}}>('GET', '/v0/configuration')).data.default_client_mtu).toBe(before);
    const applied = await run(['apply', file, '--yes', '--profile', 'lab'], env);
    expect(applied.code).toBe(0);
    expect((await api<{data: {default_client_mtu: number}}>('GET', '/v0/configuration')).data.default_client_mtu).toBe(1300);
  });
});
