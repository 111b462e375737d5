// `E` end to end (#47): the built binary in tmux against a sandbox process, at 120×40 and 80×24,
// with a real editor — a shell script run as $EDITOR, in the terminal the console hands over. It
// changes a device's description (read back with the API, not the console's code), then a rename
// to a name the owner already has: the server's 422 reopens the editor with the error at the top,
// and the second round fixes it. The console is on screen again after each round.
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {BIN, hasBinary, hasTmux, startSandboxProcess, Terminal, type SandboxProcess} from './harness.js';
import {publicKey} from '../sandbox/helpers.js';

const enabled = hasTmux() && hasBinary();
let sandbox: SandboxProcess;
let dir: string;
const terms: Terminal[] = [];

const api = <T>(method: string, path: string, body?: unknown) => sandbox.api<T>(method, path, body);

describe.skipIf(!enabled)('E: edit in $EDITOR (tmux)', {timeout: 120_000}, () => {
  beforeAll(async () => {
    sandbox = await startSandboxProcess(['--seed', 'empty', '--stats-interval', '0']);
    dir = mkdtempSync(join(tmpdir(), 'fzc-e2e-editor-'));
  });
  afterAll(async () => {
    for (const t of terms) t.kill();
    await sandbox?.stop();
    rmSync(dir, {recursive: true, force: true});
  });

  for (const [width, height] of [
    [120, 40],
    [80, 24],
  ] as const) {
    it(`changes a description, and a 422 reopens the editor with the error, at ${width}×${height}`, async () => {
      const {data: users} = await api<{data: Array<{id: string; email: string}>}>('GET', '/v0/users');
      const owner = users[0]!;
      const made = async (name: string) =>
        (await api<{data: {id: string}}>('POST', '/v0/devices', {device: {user_id: owner.id, name, public_key: publicKey(), description: 'old'}})).data;
      const device = await made(`ed-${width}`);
      await made(`taken-${width}`);
      // The editor: round 1 writes a description; round 2 renames to a name the owner has; round 3
      // (the reopening) keeps what it was handed and renames to a free name. Each round's file is kept.
      const rounds = join(dir, `rounds-${width}`);
      const editor = join(dir, `editor-${width}.sh`);
      writeFileSync(
        editor,
        [
          '#!/bin/sh',
          `n=$(ls ${rounds}.* 2>/dev/null | wc -l); n=$((n+1)); cp "$1" ${rounds}.$n`,
          `stat -c %a "$1" > ${rounds}-mode; dirname "$1" > ${rounds}-dir`,
          'case $n in',
          `  1) sed -i 's/"description": "old"/"description": "set in the editor"/' "$1" ;;`,
          `  2) sed -i 's/"name": "ed-${width}"/"name": "taken-${width}"/' "$1" ;;`,
          `  *) sed -i 's/"name": "taken-${width}"/"name": "renamed-${width}"/' "$1" ;;`,
          'esac',
        ].join('\n'),
        {mode: 0o700},
      );
      const t = Terminal.start({width, height, env: {FZ_URL: sandbox.url, FZ_API_TOKEN: sandbox.adminToken, NO_COLOR: '1', EDITOR: editor, VISUAL: ''}});
      terms.push(t);
      t.run(`clear; node ${BIN} --refresh 0; echo "exit=$?"`);
      await t.waitFor(/1\/\d+ devices/);
      t.keys('/', `ed-${width}`, 'Enter');
      await t.waitFor(new RegExp(`1/1 of \\d+ devices`));

      t.keys('E');
      await t.waitFor(/Apply these changes to device/);
      await t.waitFor(/description: "old" → "set in the/);
      expect(readFileSync(`${rounds}-mode`, 'utf8').trim()).toBe('600');
      expect(readFileSync(`${rounds}.1`, 'utf8')).toContain(`"name": "ed-${width}"`);
      t.keys('y');
      await t.waitFor(`Device updated: ed-${width}`);
      expect((await api<{data: {description: string}}>('GET', `/v0/devices/${device.id}`)).data.description).toBe('set in the editor');

      t.keys('E');
      await t.waitFor(new RegExp(`name: "ed-${width}" → "taken-${width}"`));
      t.keys('y');
      // The 422 reopened the editor (round 3), which fixed the name: the question again, then the rename.
      await t.waitFor(new RegExp(`name: "ed-${width}" → "renamed-${width}"`));
      const third = readFileSync(`${rounds}.3`, 'utf8');
      expect(third).toContain('#   name: has already been taken (this user already has a device with this name)');
      expect(third).toContain(`"name": "taken-${width}"`);
      t.keys('y');
      await t.waitFor(`Device updated: renamed-${width}`);
      expect((await api<{data: {name: string}}>('GET', `/v0/devices/${device.id}`)).data.name).toBe(`renamed-${width}`);
      // The folder the file was in is gone.
      expect(existsSync(readFileSync(`${rounds}-dir`, 'utf8').trim())).toBe(false);

      t.keys('q');
      await t.waitFor('exit=0');
    });
  }

  it("a Ctrl-C the editor leaves to the terminal (SIGINT to the whole job) is the editor's: the console carries on", async () => {
    const {data: users} = await api<{data: Array<{id: string}>}>('GET', '/v0/users');
    await api('POST', '/v0/devices', {device: {user_id: users[0]!.id, name: 'sigint-dev', public_key: publicKey(), description: 'old'}});
    const editor = join(dir, 'sigint.sh');
    writeFileSync(editor, ['#!/bin/sh', "trap '' INT", 'kill -INT 0', 'sleep 0.2', `sed -i 's/"old"/"after a Ctrl-C"/' "$1"`].join('\n'), {mode: 0o700});
    const t = Terminal.start({width: 100, height: 30, env: {FZ_URL: sandbox.url, FZ_API_TOKEN: sandbox.adminToken, NO_COLOR: '1', EDITOR: editor, VISUAL: ''}});
    terms.push(t);
    t.run(`clear; node ${BIN} --refresh 0; echo "exit=$?"`);
    await t.waitFor(/1\/\d+ devices/);
    t.keys('/', 'sigint-dev', 'Enter');
    await t.waitFor(/1\/1 of \d+ devices/);
    t.keys('E');
    await t.waitFor(/description: "old" → "after a Ctrl-C"/);
    expect(t.screen()).not.toContain('exit=');
    t.keys('Escape');
    await t.waitFor('Cancelled');
    t.keys('q');
    await t.waitFor('exit=0');
  });
});
