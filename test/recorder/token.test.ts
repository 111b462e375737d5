// The recorder and a rotated token (issue #44): after a 401 it reads the token again where it came
// from (FZ_API_TOKEN_FILE, a profile's tokenCommand) before each retry and goes on with a new one,
// losing nothing the server shows; and when none is accepted within --token-grace seconds it exits
// 1 with a line that says so, for a service manager to restart it (Restart=on-failure) and someone
// to be told. --token-grace (default 600 s, `activity --help`) is what makes the last case take
// seconds here. Tokens are minted and revoked through the sandbox's control API.
import {chmodSync, mkdirSync, renameSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {hasBinary} from '../e2e/harness.js';
import {TempDirs} from '../helpers/tmp.js';
import {logLines, Rig, until} from './harness.js';

const rig = new Rig();
const tmp = new TempDirs();
let dir: string;

/** A new token of the sandbox's admin, and its id (to revoke it). */
const mint = () => rig.api<{id: string; token: string}>('POST', '/_sandbox/tokens', {user_id: 'admin@sandbox.test'});
const revoke = (id: string) => rig.api('DELETE', `/_sandbox/tokens/${id}`);

/** Replaced as a rotation script would: a new 0600 file renamed over the old. */
function writeToken(path: string, token: string): void {
  writeFileSync(`${path}.new`, `${token}\n`, {mode: 0o600});
  renameSync(`${path}.new`, path);
}

const REJECTED = 'the server rejects the token: it is read again from where it came from (its file or command) before each retry; if none is accepted within';

describe.skipIf(!hasBinary())('fz-console activity and a rotated token', {timeout: 60_000}, () => {
  beforeAll(async () => {
    await rig.start();
    dir = tmp.make('fz-recorder-token-');
  });
  afterAll(async () => {
    await rig.stop();
    tmp.remove();
  });

  it('a token file rotated after a 401 is read again and polling goes on with it; the change made meanwhile is recorded', async () => {
    const file = join(dir, 'audit.token');
    const first = await mint();
    writeToken(file, first.token);
    const log = join(dir, 'rotated.jsonl');
    const r = rig.record(['--follow', '--log', log, '--interval', '1', '--token-grace', '60'], {FZ_API_TOKEN: '', FZ_API_TOKEN_FILE: file});
    await until(() => r.stderr().includes('baseline:'), 'the baseline');
    await revoke(first.id);
    await until(() => r.stderr().includes(REJECTED), 'the rejected token on stderr');
    expect(r.stderr()).toContain(`${REJECTED} 60 s, the recorder exits 1`);
    await rig.api('POST', '/v0/users', {user: {email: 'hana@example.com', role: 'unprivileged'}});
    const second = await mint();
    writeToken(file, second.token);
    await until(() => r.stderr().includes('the token is accepted again'), 'the new token accepted');
    expect(r.stderr()).toContain('a new token was read: polling with it now');
    await until(() => logLines(log).length === 1, 'the change made while the token was rejected');
    expect(logLines(log)[0]).toMatchObject({kind: 'user.created', label: 'hana@example.com'});
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(143);
  });

  it("a profile's tokenCommand is run again after a 401", async () => {
    const file = join(dir, 'command.token');
    const first = await mint();
    writeToken(file, first.token);
    const config = join(process.env.XDG_CONFIG_HOME!, 'fz-console');
    mkdirSync(config, {recursive: true, mode: 0o700});
    writeFileSync(join(config, 'config.json'), JSON.stringify({profiles: {audit: {url: rig.sandbox.url, tokenCommand: `cat '${file}'`}}}), {mode: 0o600});
    chmodSync(join(config, 'config.json'), 0o600);
    const log = join(dir, 'command.jsonl');
    const r = rig.record(['--follow', '--log', log, '--interval', '1', '--profile', 'audit'], {FZ_URL: '', FZ_API_TOKEN: ''});
    await until(() => r.stderr().includes('baseline:'), 'the baseline');
    await revoke(first.id);
    await until(() => r.stderr().includes(REJECTED), 'the rejected token on stderr');
    // The default grace.
    expect(r.stderr()).toContain(`${REJECTED} 600 s, the recorder exits 1`);
    writeToken(file, (await mint()).token);
    await until(() => r.stderr().includes('the token is accepted again'), 'the new token accepted');
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(143);
  });

  it('no token accepted within --token-grace: exit 1, and stderr says why', async () => {
    const file = join(dir, 'stale.token');
    const first = await mint();
    writeToken(file, first.token);
    const r = rig.record(['--follow', '--log', join(dir, 'stale.jsonl'), '--interval', '1', '--token-grace', '2'], {FZ_API_TOKEN: '', FZ_API_TOKEN_FILE: file});
    await until(() => r.stderr().includes('baseline:'), 'the baseline');
    await revoke(first.id);
    expect(await r.exited).toBe(1);
    expect(r.stderr()).toContain(
      'the token read again is the one the server rejects: waiting for a new one in its file or command (FZ_API_TOKEN cannot change while the recorder runs)',
    );
    expect(r.stderr()).toMatch(
      /fz-console activity: no token accepted for 2 s \(the server rejects it since \d{4}-\d\d-\d\dT[\d:.]+Z\): giving up, so that a service manager restarts the recorder and someone looks at its token; 0 events recorded; exit 1\n$/,
    );
  });
});
