// A whole session scanned for secrets: the API token and typed passwords never reach a frame
// or the debug log; the device private key is shown only on its result screen (by design) and
// never logged; the debug log is 0600.
import React from 'react';
import {mkdtempSync, readFileSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {render} from 'ink-testing-library';
import {FirezoneClient} from '../../src/api/index.js';
import {DebugLog, debugLogPath} from '../../src/config/debuglog.js';
import {startSandbox, type SandboxHandle} from '../../src/sandbox/index.js';
import {App} from '../../src/ui/App.js';
import {press, strip, waitFor} from '../helpers/ink.js';

let sandbox: SandboxHandle;
const env = {XDG_STATE_HOME: mkdtempSync(join(tmpdir(), 'fzc-state-')), HOME: tmpdir()};

beforeAll(async () => {
  sandbox = await startSandbox({port: 0, seed: 'demo', statsIntervalSeconds: 1});
});
afterAll(async () => {
  await sandbox.close();
});

describe('secrets', {timeout: 60_000}, () => {
  it('never shows or logs the token or a password; the private key only on its result screen', async () => {
    const debug = await DebugLog.open(env);
    const client = new FirezoneClient({baseUrl: sandbox.url, token: sandbox.adminToken, onRequest: (e) => debug.request(e)});
    const password = 'Tr0ub4dor&3-horse-battery';
    const ui = render(<App client={client} settings={{label: 'secrets', refreshSeconds: 1, readOnly: false, insecure: false, demo: false}} />);
    try {
      await waitFor(ui.lastFrame, /1\/\d+ devices/);
      // a user with a password
      await press(ui.stdin, '2', 'n', ...'secret-test@example.com', '\t', '\t', ...password, '\t', ...password, '\x13');
      await waitFor(ui.lastFrame, 'User created successfully: secret-test@example.com');
      // a device for that user, from the user's detail
      await press(ui.stdin, '/', ...'secret-test@', '\r', '\r', 'n', '\x13');
      const result = await waitFor(ui.lastFrame, 'PrivateKey = ');
      const privateKey = /PrivateKey = (\S+)/.exec(result)![1]!;
      await press(ui.stdin, '\x1b', 'y');
      await waitFor(ui.lastFrame, /Device .* created/);
      // reveal the configuration's secrets, walk the screens
      await press(ui.stdin, '1', '\r', 'v', '\x1b', '3', '4', 'v');
      await waitFor(ui.lastFrame, 'client secret');
      await debug.close();

      const frames = ui.frames.map(strip);
      const log = readFileSync(debugLogPath(env), 'utf8');
      for (const [name, secret] of [['token', sandbox.adminToken], ['password', password]] as const) {
        expect(frames.filter((f) => f.includes(secret)), `${name} in a frame`).toEqual([]);
        expect(log.includes(secret), `${name} in the debug log`).toBe(false);
      }
      const withKey = frames.filter((f) => f.includes(privateKey));
      expect(withKey.length).toBeGreaterThan(0);
      expect(withKey.every((f) => f.includes('WILL NOT be viewable again'))).toBe(true);
      expect(log.includes(privateKey)).toBe(false);
      expect(log).toMatch(/POST \/v0\/devices -> 201/);
      expect(statSync(debugLogPath(env)).mode & 0o777).toBe(0o600);
    } finally {
      ui.unmount();
      await client.close();
    }
  });
});
