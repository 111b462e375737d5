// Onboarding from a file through the UI, against real sandboxes: the preview, the run, the
// written configs (checked with wireguard-tools), running it twice, and interruptions.
import {execFileSync, spawnSync} from 'node:child_process';
import {readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {renderApp, startTestSandbox, type Rig, type TestSandbox} from '../helpers/rig.js';
import {TempDirs} from '../helpers/tmp.js';

const hasWg = spawnSync('wg', ['--version'], {encoding: 'utf8'}).status === 0;

type User = {id: string; email: string; role: string};
type Device = {id: string; name: string; user_id: string; public_key: string};

async function listed<T>(fx: TestSandbox, path: string): Promise<T[]> {
  return (await fx.api<{data: T[]}>('GET', path)).json.data;
}

// The folders below, removed when the file's tests end (every rig is unmounted by then).
const tmp = new TempDirs();
afterAll(() => tmp.remove());

/** A folder of its own under the test file's temporary cwd. */
function folder(): string {
  return tmp.make('import-', process.cwd());
}

async function openImport(app: Rig, path: string): Promise<void> {
  await app.press('screen2');
  await app.waitFor('EMAIL');
  await app.press('import', 'list');
  await app.waitFor('Import from file:');
  await app.paste(path);
  await app.press('accept', 'prompt');
}

describe('import from a file', () => {
  it('previews every row outcome, creates users and devices, writes 0600 configs whose keys match the server, and a second run creates nothing', async () => {
    const fx = await startTestSandbox({devices: 6, users: 3});
    try {
      const dir = folder();
      const file = join(dir, 'team.csv');
      writeFileSync(
        file,
        [
          'email,role,devices',
          'carol@example.com,admin,laptop;phone',
          'USER@sandbox.test,admin,tablet',
          'dave@example.com,,',
          'broken-email,unprivileged,laptop',
          'erin@example.com,owner,laptop',
          'carol@example.com,unprivileged,desk',
        ].join('\n'),
      );
      const app = await renderApp({fixture: fx, ready: /1\/6 devices/});
      await openImport(app, file);
      let frame = await app.waitFor('Import preview: nothing has been sent yet');
      // Long lines wrap: match on the frame joined back into one line.
      const flat = frame.replace(/\n/g, ' ');
      expect(frame).toContain('6 rows');
      expect(frame).toContain('2 new users, 1 existing user (kept), 2 invalid, 1 duplicate; 3 devices to create');
      expect(flat).toMatch(/line 2 +carol@example\.com +new admin user; devices: \+laptop, \+phone/);
      expect(flat).toMatch(/line 3 +USER@sandbox\.test +existing user, kept as unprivileged \(the file says admin; roles are not changed\); devices: \+tablet/);
      expect(flat).toMatch(/line 5 +broken-email +invalid: email is invalid email address/);
      expect(flat).toMatch(/line 6 +erin@example\.com +invalid: role is invalid/);
      expect(flat).toMatch(/line 7 +carol@example\.com +skipped: duplicate of line 2/);
      expect(await listed<User>(fx, '/v0/users')).toHaveLength(3);

      await app.press('confirm', 'report');
      await app.waitFor('Folder for the client configs:');
      await app.press('accept', 'prompt');
      frame = await app.waitFor('Import finished', 15_000);
      expect(frame).toContain('Created 2 users and 3 devices; 3 client configs in');

      const users = await listed<User>(fx, '/v0/users');
      expect(users.map((u) => u.email)).toEqual(expect.arrayContaining(['carol@example.com', 'dave@example.com']));
      expect(users.find((u) => u.email === 'carol@example.com')!.role).toBe('admin');
      expect(users.find((u) => u.email === 'user@sandbox.test')!.role).toBe('unprivileged');
      const configs = join(process.cwd(), 'firezone-configs');
      expect(statSync(configs).mode & 0o777).toBe(0o700);
      const files = readdirSync(configs).sort();
      expect(files).toEqual(['USER@sandbox.test-tablet.conf', 'carol@example.com-laptop.conf', 'carol@example.com-phone.conf'].sort());
      const devices = await listed<Device>(fx, '/v0/devices');
      for (const name of files) {
        const path = join(configs, name);
        expect(statSync(path).mode & 0o777).toBe(0o600);
        const privateKey = /^PrivateKey = (.+)$/m.exec(readFileSync(path, 'utf8'))![1]!;
        const deviceName = name.replace(/^.*?@[^-]+-/, '').replace(/\.conf$/, '');
        const device = devices.find((d) => d.name === deviceName)!;
        if (hasWg) expect(execFileSync('wg', ['pubkey'], {input: `${privateKey}\n`, encoding: 'utf8'}).trim()).toBe(device.public_key);
      }

      // u cannot take an import back, and says so by what the import made.
      await app.press('cancel', 'report');
      await app.press('undo', 'global');
      await app.waitFor(
        /Nothing to undo: u takes back deletes of devices, users and rules and new keys \(K\), and none is left\s+\(not\s+"Created\s+2\s+users/,
      );
      // The same file again: nothing to send.
      await app.press('import', 'list');
      await app.waitFor('Import from file:');
      await app.paste(file);
      await app.press('accept', 'prompt');
      frame = await app.waitFor('Nothing to do: every user and device in the file exists already or is invalid.');
      expect(frame).toContain('0 new users, 3 existing users (kept)');
      await app.press('confirm', 'report');
      await app.waitFor('Nothing to apply');
      expect(await listed<Device>(fx, '/v0/devices')).toHaveLength(devices.length);
    } finally {
      await fx.close();
    }
  });

  it('refuses a file that is not UTF-8, a missing file and one without an email column, keeping the prompt', async () => {
    const fx = await startTestSandbox({devices: 3, users: 3});
    try {
      const dir = folder();
      writeFileSync(join(dir, 'latin1.csv'), Buffer.from([0x65, 0x6d, 0x61, 0x69, 0x6c, 0x0a, 0xe9, 0x40, 0x78, 0x0a]));
      writeFileSync(join(dir, 'nomail.csv'), 'name,role\nann,admin\n');
      const app = await renderApp({fixture: fx, ready: /1\/3 devices/});
      await openImport(app, join(dir, 'latin1.csv'));
      await app.waitFor('is not UTF-8 text');
      await app.press('cancel', 'prompt');
      await app.press('import', 'list');
      await app.paste(join(dir, 'missing.csv'));
      await app.press('accept', 'prompt');
      await app.waitFor(`No file ${join(dir, 'missing.csv')}`);
      expect(app.frame()).toContain('Import from file:');
      await app.press('cancel', 'prompt');
      await app.press('import', 'list');
      await app.paste(join(dir, 'nomail.csv'));
      await app.press('accept', 'prompt');
      await app.waitFor('the header row has no "email"');
    } finally {
      await fx.close();
    }
  });

  it('an import interrupted by Esc, or by the server dying, ends with a summary of what exists', async () => {
    const fx = await startTestSandbox({devices: 3, users: 3});
    let closed = false;
    try {
      const dir = folder();
      const file = join(dir, 'big.tsv');
      const rows = Array.from({length: 40}, (_, i) => `new${i}@example.com\tunprivileged\tlaptop`);
      writeFileSync(file, ['email\trole\tdevices', ...rows].join('\n'));
      const app = await renderApp({fixture: fx, ready: /1\/3 devices/});
      await openImport(app, file);
      await app.waitFor('40 new users');
      await fx.api('PUT', '/_sandbox/faults', {mode: 'none', latency_ms: 40});
      await app.press('confirm', 'report');
      await app.waitFor('Folder for the client configs:');
      const configs = join(dir, 'configs');
      await app.named('ctrl+u');
      await app.paste(configs);
      await app.press('accept', 'prompt');
      await app.waitFor(/\] [1-9]\d*\/40/);
      await app.press('cancel', 'report');
      let frame = await app.waitFor('Import stopped', 15_000);
      const created = Number(/Created (\d+) users/.exec(frame)![1]);
      const notStarted = Number(/Stopped: (\d+) row\(s\) not started/.exec(frame)![1]);
      expect(created).toBeGreaterThan(0);
      expect(created + notStarted).toBe(40);
      expect((await listed<User>(fx, '/v0/users')).length).toBe(3 + created);
      expect(readdirSync(configs)).toHaveLength(created);

      // The rest, with the server dying midway.
      await app.press('cancel', 'report');
      await app.press('import', 'list');
      await app.paste(file);
      await app.press('accept', 'prompt');
      frame = await app.waitFor(`${40 - created} new users, ${created} existing users`);
      await app.press('confirm', 'report');
      await app.waitFor('Folder for the client configs:');
      await app.named('ctrl+u');
      await app.paste(configs);
      await app.press('accept', 'prompt');
      await app.waitFor(/\] [1-9]\d*\/\d+/);
      closed = true;
      await fx.sandbox.close();
      frame = await app.waitFor('The server stopped answering', 20_000);
      expect(frame).toContain('Import stopped');
      expect(frame).toMatch(/Created \d+ users/);
    } finally {
      if (!closed) await fx.close();
      else await fx.client.close();
    }
  });
});
