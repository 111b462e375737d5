// Bracketed paste in a real terminal: tmux pastes with the markers (paste-buffer -p) because the
// console turned the mode on. A multi-line SAML metadata XML arrives whole in its field, lines
// kept; a multi-line paste into a one-line field becomes one line and never acts as Enter.
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {BIN, hasBinary, hasTmux, startSandboxProcess, Terminal, type SandboxProcess} from './harness.js';

const enabled = hasTmux() && hasBinary();
let sandbox: SandboxProcess;
// Every terminal a test started, killed after the file (a test that fails leaves its own running).
const terms: Terminal[] = [];

const METADATA = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="http://idp.example/pasted">',
  '  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">',
  '    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.example/sso"/>',
  '  </md:IDPSSODescriptor>',
  '</md:EntityDescriptor>',
].join('\n');

async function configuration(): Promise<{saml_identity_providers: Array<{id: string; label: string; metadata: string}>}> {
  const res = await fetch(`${sandbox.url}/v0/configuration`, {headers: {authorization: `Bearer ${sandbox.adminToken}`}});
  return ((await res.json()) as {data: {saml_identity_providers: Array<{id: string; label: string; metadata: string}>}}).data;
}

describe.skipIf(!enabled)('bracketed paste end to end (tmux)', {timeout: 60_000}, () => {
  beforeAll(async () => {
    sandbox = await startSandboxProcess(['--seed', 'empty', '--stats-interval', '0']);
  });
  afterAll(async () => {
    for (const t of terms.splice(0)) t.kill();
    await sandbox?.stop();
  });

  it('a 6-line SAML metadata paste arrives whole; a paste into a one-line field stays one line', async () => {
    const t = Terminal.start({width: 120, height: 40, env: {FZ_URL: sandbox.url, FZ_API_TOKEN: sandbox.adminToken, NO_COLOR: '1'}});
    terms.push(t);
    t.run(`node ${BIN} --refresh 0`);
    await t.waitFor(/Devices \d+/);
    // Configuration: defaults → security → + add OIDC → + add SAML, Enter opens the form.
    t.keys('4', 'Down', 'Down', 'Down', 'Enter');
    await t.waitFor('Add SAML identity provider');
    t.keys('C-u');
    t.type('pasted');
    t.keys('Tab');
    // A two-line paste into the one-line Label field: one line, and no Enter (no field change).
    t.tmux('set-buffer', 'Pasted\nIdP');
    t.tmux('paste-buffer', '-p', '-t', t.name);
    await t.waitFor(/› Label\s+Pasted IdP/);
    t.keys('Tab', 'Tab');
    await t.waitFor(/› Metadata XML/);
    t.tmux('set-buffer', METADATA);
    t.tmux('paste-buffer', '-p', '-t', t.name);
    await t.waitFor('IDPSSODescriptor');
    t.keys('C-s');
    await t.waitFor('Save these changes to the configuration?');
    t.keys('y');
    await t.waitFor('Configuration saved');
    const provider = (await configuration()).saml_identity_providers.find((p) => p.id === 'pasted');
    expect(provider?.label).toBe('Pasted IdP');
    expect(provider?.metadata).toBe(METADATA);
    t.keys('q');
    await t.waitFor('SHELL-READY$');
  });

  it('raw bytes from the terminal: a colour code or a split CSI never crashes, a CSI split by 200 ms is one key; a paste that carries its own end marker confirms nothing', async () => {
    const demo = await startSandboxProcess(['--seed', 'demo', '--stats-interval', '0']);
    const t = Terminal.start({width: 120, height: 40, env: {FZ_URL: demo.url, FZ_API_TOKEN: demo.adminToken, NO_COLOR: '1'}});
    terms.push(t);
    const hex = (text: string) => t.tmux('send-keys', '-t', t.name, '-H', ...[...Buffer.from(text, 'latin1')].map((b) => b.toString(16).padStart(2, '0')));
    const devices = async () =>
      ((await (await fetch(`${demo.url}/v0/devices`, {headers: {authorization: `Bearer ${demo.adminToken}`}})).json()) as {data: unknown[]}).data.length;
    try {
      t.run(`node ${BIN} --refresh 0`);
      await t.waitFor(/1\/\d+ devices/);
      // Colour codes typed raw (Ink's parser died on these), then a split Ctrl-Down: ignored.
      hex('\x1b[31m\x1b[0m\x1b[1;5m');
      hex('\x1b[1;');
      hex('5B');
      t.keys('/');
      t.type('lap');
      await t.waitFor('/lap');
      t.keys('Escape');
      await t.waitFor(/1\/\d+ devices/);
      // A Down arrow whose halves come apart by more than the 50 ms escape delay (a slow link):
      // still Down, where it was once dropped and its `B` read as a key.
      hex('\x1b[');
      await new Promise((resolve) => setTimeout(resolve, 200));
      hex('B');
      await t.waitFor(/(?:^|\s)2\/\d+ devices/m);
      t.keys('k');
      await t.waitFor(/(?:^|\s)1\/\d+ devices/m);
      // In a device's detail a paste is ignored; the bytes after its (forged) end marker arrive in
      // the same read as `d`: the question opens, and the `y` that came with it does not answer it.
      const before = await devices();
      t.keys('Enter');
      await t.waitFor('Preshared key');
      hex('\x1b[200~x\x1b[201~dy\x1b[201~');
      await t.waitFor('Not done: that key came in with the keys that opened this question');
      expect(t.screen()).toMatch(/Delete device/);
      t.keys('n');
      await t.waitFor('Cancelled');
      expect(await devices()).toBe(before);
      t.keys('q');
      await t.waitFor('SHELL-READY$');
    } finally {
      t.kill();
      await demo.stop();
    }
  });

  it('the line editor in a real terminal: the caret moves, Alt-B is a word move (not Esc then b), Ctrl-_ undoes; Ctrl-Z stops to the shell and fg comes back', async () => {
    const demo = await startSandboxProcess(['--seed', 'demo', '--stats-interval', '0']);
    const t = Terminal.start({width: 120, height: 40, env: {FZ_URL: demo.url, FZ_API_TOKEN: demo.adminToken, NO_COLOR: '1'}});
    terms.push(t);
    const hex = (text: string) => t.tmux('send-keys', '-t', t.name, '-H', ...[...Buffer.from(text, 'latin1')].map((b) => b.toString(16).padStart(2, '0')));
    try {
      t.run(`node ${BIN} --refresh 0`);
      await t.waitFor(/1\/\d+ devices/);
      t.keys('2');
      await t.waitFor(/1\/\d+ users/);
      t.keys('n');
      await t.waitFor(/› Email/);
      t.type('abcdef');
      t.keys('Left', 'Left');
      t.type('X');
      await t.waitFor(/Email\s+abcdXef/);
      // Alt-B as a terminal sends it (ESC b in one write): the caret goes to the word's start.
      hex('\x1bb');
      t.type('Y');
      await t.waitFor(/Email\s+YabcdXef/);
      expect(t.screen()).toMatch(/Add user/); // the form is still open: not Esc, then b
      hex('\x1f'); // Ctrl-_ (Ctrl-/): undo the Y
      await t.waitFor(/Email\s+abcdXef/);
      // Ctrl-Z: the shell gets the terminal back, as it was; fg brings the console back, drawn whole.
      t.keys('C-z');
      await t.waitFor(/Stopped/);
      await t.waitUntil(() => !t.altScreen && t.cursorVisible, 'the main screen and a visible cursor');
      // The window changes size while the console is stopped (the SIGWINCH goes to the shell).
      t.resize(150, 45);
      t.run('fg');
      await t.waitFor(/Email\s+abcdXef/);
      expect(t.altScreen).toBe(true);
      // Drawn for the new size: the header reaches past column 120, the key hints at the new bottom.
      await t.waitUntil(() => {
        const lines = t.screen().split('\n');
        return (lines[0] ?? '').trimEnd().length > 140 && lines.findIndex((l) => /Esc cancel/.test(l)) >= 42;
      }, 'the console drawn at 150×45 after fg');
      // The keyboard is the console's again (raw mode back): the undo left the caret at the start,
      // and Ctrl-K deletes from there on.
      t.keys('C-k');
      await t.waitUntil(() => !/abcdXef/.test(t.screen()), 'Ctrl-K to clear the field');
      t.keys('Escape');
      await t.waitFor(/1\/\d+ users/);
      t.keys('q');
      await t.waitUntil(() => !t.altScreen, 'the console to quit');
      // After fg, $? is the job's own exit status.
      t.run('echo "status=$?"');
      await t.waitFor('status=0');
    } finally {
      t.kill();
      await demo.stop();
    }
  });
});
