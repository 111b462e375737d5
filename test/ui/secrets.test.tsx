// A whole session scanned for secrets: no 24-character piece of the API token and no 12-character
// piece of a typed password reaches a frame (wrapped lines joined too), the clipboard, an export or
// the debug log; the device private key is shown only on its result screen (by design) and never
// logged; the debug log is 0600.
import {readFileSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {afterAll, describe, expect, it} from 'vitest';
import {FirezoneClient} from '../../src/api/index.js';
import {DebugLog, debugLogPath} from '../../src/config/debuglog.js';
import {strip} from '../helpers/ink.js';
import {renderApp, useSandbox} from '../helpers/rig.js';
import {TempDirs} from '../helpers/tmp.js';

const fx = useSandbox({seed: 'demo', statsIntervalSeconds: 1});
const tmp = new TempDirs();
// The debug log's directory; the log is closed by the test that opens it.
const env = {XDG_STATE_HOME: tmp.make('fzc-state-'), HOME: tmpdir()};
afterAll(() => tmp.remove());

describe('secrets', {timeout: 60_000}, () => {
  it('never shows or logs the token or a password; the private key only on its result screen', async () => {
    const debug = await DebugLog.open(env);
    const sandbox = fx.sandbox;
    const client = new FirezoneClient({baseUrl: sandbox.url, token: sandbox.adminToken, onRequest: (e) => debug.request(e)});
    const password = 'Tr0ub4dor&3-horse-battery';
    const raw: string[] = [];
    const app = await renderApp({
      fixture: fx,
      client,
      writeRaw: (data) => raw.push(data),
      settings: {label: 'secrets', refreshSeconds: 1, readOnly: false, insecure: false, demo: false},
      ready: false,
    });
    try {
      await app.waitFor(/1\/\d+ devices/);
      // a user with a password
      await app.press('screen2');
      await app.press('new', 'list');
      await app.type('secret-test@example.com');
      await app.press('nextField', 'form', 2);
      await app.type(password);
      await app.press('nextField', 'form');
      await app.type(password);
      await app.press('save');
      await app.waitFor('User created successfully: secret-test@example.com');
      // a device for that user, from the user's detail
      await app.press('filter', 'list');
      await app.type('secret-test@');
      await app.press('filterAccept', 'filter');
      await app.press('open', 'list');
      await app.press('newDevice', 'detail');
      await app.press('save');
      const result = await app.waitFor('PrivateKey = ');
      const privateKey = /PrivateKey = (\S+)/.exec(result)![1]!;
      await app.press('done', 'result');
      await app.press('confirm', 'dialog');
      await app.waitFor(/Device .* created/);
      // reveal the configuration's secrets, walk the screens
      await app.press('screen1');
      await app.press('open', 'list');
      await app.press('reveal', 'detail');
      await app.press('back', 'detail');
      await app.press('screen3');
      await app.press('screen4');
      await app.press('reveal', 'configuration');
      await app.waitFor('client secret');
      // the users as exported (x), and a copy to the clipboard (c)
      await app.press('screen2');
      await app.press('back', 'detail');
      await app.waitFor('EMAIL');
      await app.press('copy', 'list');
      await app.press('export', 'list');
      await app.named('ctrl+u');
      await app.type('users.json');
      await app.press('accept', 'prompt');
      await app.waitFor(/Exported \d+ users? to/);
      const exported = readFileSync('users.json', 'utf8');
      await debug.close();

      const frames = app.frames.map(strip);
      // A wrapped piece of a secret would be cut by a line break: search the lines joined too.
      const texts = [...frames, ...frames.map((f) => f.replace(/\n/g, ''))];
      const log = readFileSync(debugLogPath(env), 'utf8');
      const pieces = (secret: string, n: number) => Array.from({length: secret.length - n + 1}, (_, i) => secret.slice(i, i + n));
      const found = (haystacks: readonly string[], secret: string, n: number) => pieces(secret, n).filter((piece) => haystacks.some((h) => h.includes(piece)));
      // The search itself works on what the screen did show: the private key, wrapped or not.
      expect(found(texts, privateKey, 24).length).toBe(privateKey.length - 23);
      expect(sandbox.adminToken.length).toBeGreaterThan(100);
      for (const [name, secret, n] of [
        ['token', sandbox.adminToken, 24],
        ['password', password, 12],
      ] as const) {
        expect(found(texts, secret, n), `${name} in a frame`).toEqual([]);
        expect(found([log], secret, n), `${name} in the debug log`).toEqual([]);
        expect(found(raw, secret, n), `${name} on the clipboard`).toEqual([]);
        expect(found([exported], secret, n), `${name} in an export`).toEqual([]);
      }
      const withKey = frames.filter((f) => f.includes(privateKey));
      expect(withKey.length).toBeGreaterThan(0);
      expect(withKey.every((f) => f.includes('WILL NOT be viewable again'))).toBe(true);
      expect(log.includes(privateKey)).toBe(false);
      expect(log).toMatch(/POST \/v0\/devices -> 201/);
      expect(statSync(debugLogPath(env)).mode & 0o777).toBe(0o600);
    } finally {
      await app.unmount();
      await client.close();
    }
  });
});
