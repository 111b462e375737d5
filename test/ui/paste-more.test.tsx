// Pastes where admins paste: a public key into the filter, a client secret copied with its line
// break, a token on the first-run screen, a user into the rule form's picker.
import React from 'react';
import {afterEach, describe, expect, it} from 'vitest';
import {render} from 'ink-testing-library';
import {FirstRun} from '../../src/ui/FirstRun.js';
import {cleanupRigs, renderApp, useSandbox} from '../helpers/rig.js';
import {waitFor} from '../helpers/ink.js';

const fx = useSandbox({seed: 'demo'});
afterEach(() => cleanupRigs());

describe('paste', () => {
  it('a bracketed paste into the / filter is typed there (a key prefix from wg show)', async () => {
    const devices = (await fx.api('GET', '/v0/devices')).json.data as Array<{name: string; public_key: string}>;
    const target = devices[7]!;
    const app = await renderApp({fixture: fx});
    await app.press('filter', 'list');
    await app.paste(target.public_key.slice(0, 12));
    await app.press('filterAccept', 'filter');
    const frame = await app.waitFor(/1\/1 of \d+ devices/);
    expect(frame).toContain(target.name);
    // Ctrl-U clears the filter text as it clears a field.
    await app.press('filter', 'list');
    await app.named('ctrl+u');
    await app.waitFor(/\/▌/);
  });

  it('a trailing line break of a pasted one-line value is dropped (a pasted password stays exact)', async () => {
    const app = await renderApp({fixture: fx});
    await app.press('screen2');
    await app.press('new', 'list');
    await app.waitFor('Add user');
    await app.type('pasted@example.com');
    // Email → Role → Password: pasted as a password manager copies it, with a line break.
    await app.press('nextField', 'form', 2);
    await app.paste('correct-horse-battery\n');
    await app.press('nextField', 'form');
    await app.type('correct-horse-battery');
    await app.press('save');
    await app.waitFor('User created successfully: pasted@example.com (unprivileged)');
  });

  it('a token pasted on the first-run screen arrives whole, without the markers or its line break', async () => {
    const calls: Array<{url: string; token: string}> = [];
    const ui = render(
      <FirstRun
        configPath="/cfg/config.json"
        onDemo={() => undefined}
        onConnect={async (r) => {
          calls.push(r);
          return null;
        }}
      />,
    );
    await waitFor(ui.lastFrame, 'Welcome to fz-console');
    ui.stdin.write('c');
    await waitFor(ui.lastFrame, 'Connect to a Firezone server');
    ui.stdin.write('https://vpn.example.com\t');
    ui.stdin.write('\x1b[200~tok.en-123\n\x1b[201~');
    await waitFor(() => (ui.lastFrame()?.includes('paste the token (hidden)') ? '' : 'pasted'), 'pasted');
    ui.stdin.write('\x13');
    await waitFor(() => (calls.length > 0 ? 'called' : ''), 'called');
    expect(calls).toEqual([{url: 'https://vpn.example.com', token: 'tok.en-123'}]);
  });
});
