// The configuration panel against a real sandbox: defaults reach devices, providers round-trip,
// nested and env-override errors land on their fields, and no update is ever lost silently.
import React from 'react';
import {generateKeyPairSync} from 'node:crypto';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {cleanup, render} from 'ink-testing-library';
import {FirezoneClient} from '../../src/api/index.js';
import {startSandbox, type SandboxHandle} from '../../src/sandbox/index.js';
import {App, type AppSettings} from '../../src/ui/App.js';
import {press, waitFor} from '../helpers/ink.js';

const settings: AppSettings = {label: 'test', refreshSeconds: 0, readOnly: false, insecure: false, demo: false};
const KEY = {tab: '\t', save: '\x13', enter: '\r', esc: '\x1b', up: '\x1b[A', down: '\x1b[B', right: '\x1b[C', clear: '\x15', space: ' '};



function publicKey(): string {
  const {publicKey: key} = generateKeyPairSync('x25519');
  return Buffer.from(key.export({format: 'jwk'}).x!, 'base64url').toString('base64');
}

interface Handle {
  sandbox: SandboxHandle;
  client: FirezoneClient;
}

async function open(env: Record<string, string> = {}): Promise<Handle> {
  const sandbox = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0, env});
  return {sandbox, client: new FirezoneClient({baseUrl: sandbox.url, token: sandbox.adminToken})};
}

async function close(h: Handle) {
  await h.client.close();
  await h.sandbox.close();
}

let h: Handle;
beforeAll(async () => {
  h = await open();
});
afterEach(() => cleanup());
afterAll(async () => close(h));

async function configScreen() {
  const ui = render(<App client={h.client} settings={settings} />);
  await waitFor(ui.lastFrame, /Devices \d+/);
  await press(ui.stdin, '4');
  await waitFor(ui.lastFrame, 'Client defaults');
  return ui;
}

describe('configuration panel', () => {
  it('a changed default reaches a device that uses it, after a diff and a confirmation', async () => {
    const user = (await h.client.listUsers()).data[0]!;
    const device = (await h.client.createDevice({user_id: user.id, public_key: publicKey()})).data;
    expect(device.mtu).toBe(1280);
    const ui = await configScreen();
    await press(ui.stdin, KEY.enter);
    await waitFor(ui.lastFrame, 'Comma-separated IPs/CIDRs');
    await press(ui.stdin, KEY.tab, KEY.tab, KEY.tab, KEY.clear, ...'1400', KEY.save);
    const review = await waitFor(ui.lastFrame, 'Save these changes to the configuration?');
    expect(review).toContain('MTU: 1280 → 1400');
    expect((await h.client.getDevice(device.id)).data.mtu).toBe(1280);
    await press(ui.stdin, 'y');
    await waitFor(ui.lastFrame, /Configuration saved \(1 change\)/);
    expect((await h.client.getDevice(device.id)).data.mtu).toBe(1400);
    await h.client.updateConfiguration({default_client_mtu: 1280});
  });

  it('OIDC provider add, edit, delete round-trip; secrets never shown in the diff', async () => {
    const ui = await configScreen();
    // cursor: defaults → security → "+ add an OpenID Connect provider"
    await press(ui.stdin, KEY.down, KEY.down, 'n');
    await waitFor(ui.lastFrame, 'Add OpenID Connect provider');
    await press(ui.stdin, KEY.clear, ...'google', KEY.tab, ...'Google', KEY.tab, KEY.tab, ...'client-1', KEY.tab, ...'very-secret-value',
      KEY.tab, ...'https://accounts.google.com/.well-known/openid-configuration', KEY.save);
    let frame = await waitFor(ui.lastFrame, 'OIDC provider google: added (Google)');
    await press(ui.stdin, 'y');
    await waitFor(ui.lastFrame, 'Configuration saved');
    let config = (await h.client.getConfiguration()).data;
    expect(config.openid_connect_providers).toEqual([expect.objectContaining({id: 'google', label: 'Google', client_id: 'client-1',
      client_secret: 'very-secret-value', scope: 'openid email profile', response_type: 'code'})]);

    await waitFor(ui.lastFrame, 'Google · client client-1');
    // the cursor stayed on "+ add"; the new provider is the entry above it
    await press(ui.stdin, KEY.up);
    await press(ui.stdin, KEY.enter);
    await waitFor(ui.lastFrame, 'OIDC provider google');
    await press(ui.stdin, KEY.tab, KEY.tab, KEY.tab, KEY.tab, KEY.clear, ...'rotated-secret', KEY.save);
    frame = await waitFor(ui.lastFrame, 'client_secret changed (secret, not shown)');
    expect(frame).not.toContain('rotated-secret');
    expect(frame).not.toContain('very-secret-value');
    await press(ui.stdin, 'y');
    await waitFor(ui.lastFrame, 'Configuration saved');
    config = (await h.client.getConfiguration()).data;
    expect(config.openid_connect_providers[0]!.client_secret).toBe('rotated-secret');

    await press(ui.stdin, 'd');
    await waitFor(ui.lastFrame, 'OIDC provider google: removed');
    await press(ui.stdin, 'y');
    await waitFor(ui.lastFrame, 'Configuration saved');
    expect((await h.client.getConfiguration()).data.openid_connect_providers).toEqual([]);
  });

  it('a nested provider error from the server lands on that provider field', async () => {
    const ui = await configScreen();
    await press(ui.stdin, KEY.down, KEY.down, KEY.down, 'n');
    await waitFor(ui.lastFrame, 'Add SAML identity provider');
    await press(ui.stdin, KEY.clear, ...'okta', KEY.tab, ...'Okta', KEY.tab, KEY.tab, ...'<not-saml/>', KEY.save);
    await waitFor(ui.lastFrame, 'SAML provider okta: added');
    await press(ui.stdin, 'y');
    const frame = await waitFor(ui.lastFrame, /✗ is invalid\. Details:/);
    // The status bar names the field by the form's label.
    expect(frame).toContain('Metadata XML: is invalid');
    // the form is back with the values kept and the focus on the metadata field
    expect(frame).toContain('<not-saml/>');
    expect((await h.client.getConfiguration()).data.saml_identity_providers).toEqual([]);
  });

  it('an edit is never written over a configuration that changed meanwhile', async () => {
    const ui = await configScreen();
    await press(ui.stdin, KEY.down);
    await press(ui.stdin, KEY.enter);
    await waitFor(ui.lastFrame, 'Enable or disable authentication with email and password.');
    await press(ui.stdin, KEY.tab, KEY.tab, KEY.tab, KEY.tab, KEY.right, KEY.right, KEY.right, KEY.save);
    await waitFor(ui.lastFrame, 'VPN session duration: 0 → 86400');
    // meanwhile, someone else changes the DNS defaults
    await h.client.updateConfiguration({default_client_dns: ['9.9.9.9']});
    await press(ui.stdin, 'y');
    let frame = await waitFor(ui.lastFrame, 'Nothing was saved');
    expect(frame).toContain('DNS servers: 1.1.1.1, 1.0.0.1 → 9.9.9.9');
    expect((await h.client.getConfiguration()).data.vpn_session_duration).toBe(0);
    await press(ui.stdin, 'a');
    frame = await waitFor(ui.lastFrame, 'Save these changes to the configuration?');
    expect(frame).toContain('VPN session duration: 0 → 86400');
    await press(ui.stdin, 'y');
    await waitFor(ui.lastFrame, 'Configuration saved');
    const config = (await h.client.getConfiguration()).data;
    expect(config.vpn_session_duration).toBe(86400);
    expect(config.default_client_dns).toEqual(['9.9.9.9']);
    await h.client.updateConfiguration({vpn_session_duration: 0, default_client_dns: ['1.1.1.1', '1.0.0.1']});
  });

  it('an env-overridden switch shows the override error on that switch, explained', async () => {
    const env = await open({LOCAL_AUTH_ENABLED: 'true'});
    try {
      const ui = render(<App client={env.client} settings={settings} />);
      await waitFor(ui.lastFrame, /Devices \d+/);
      await press(ui.stdin, '4', KEY.down, KEY.enter);
      await waitFor(ui.lastFrame, 'Enable or disable authentication with email and password.');
      await press(ui.stdin, KEY.space, KEY.save);
      await waitFor(ui.lastFrame, 'Local auth: on → off');
      await press(ui.stdin, 'y');
      const frame = await waitFor(ui.lastFrame, /✗ cannot be changed; it is overridden by LOCAL_AUTH_ENABLED\s+environment\s+variable/);
      expect(frame.replace(/\s+/g, ' ')).toMatch(/environment variable, which wins over the API/);
    } finally {
      await close(env);
    }
  });

  it('providers are addressed structurally: with corp and corp:legacy side by side, d and Enter act on the one under the cursor', async () => {
    const oidc = (id: string, label: string) => ({id, label, scope: 'openid email profile', response_type: 'code', client_id: `${id}-client`,
      client_secret: 'secret-value', discovery_document_uri: 'https://idp.example/.well-known/openid-configuration', auto_create_users: false});
    await h.client.updateConfiguration({openid_connect_providers: [oidc('corp', 'Corp'), oidc('corp:legacy', 'Corp legacy')]});
    try {
      const ui = await configScreen();
      // cursor: defaults → security → corp → corp:legacy
      await press(ui.stdin, KEY.down, KEY.down, KEY.down, KEY.enter);
      await waitFor(ui.lastFrame, 'OIDC provider corp:legacy');
      await press(ui.stdin, KEY.esc);
      await waitFor(ui.lastFrame, 'OpenID Connect providers (2)');
      await press(ui.stdin, 'd');
      await waitFor(ui.lastFrame, 'Delete OIDC provider corp:legacy?');
      await press(ui.stdin, 'y');
      await waitFor(ui.lastFrame, 'Configuration saved');
      expect((await h.client.getConfiguration()).data.openid_connect_providers.map((p) => p.id)).toEqual(['corp']);
    } finally {
      await h.client.updateConfiguration({openid_connect_providers: []});
    }
  });
});
