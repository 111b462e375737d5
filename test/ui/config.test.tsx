// The configuration panel against a real sandbox: defaults reach devices, providers round-trip,
// nested and env-override errors land on their fields, and no update is ever lost silently.
import {generateKeyPairSync} from 'node:crypto';
import {describe, expect, it, vi} from 'vitest';
import {renderApp, startTestSandbox, useSandbox, type Rig} from '../helpers/rig.js';
import {clientWith} from '../helpers/client-with.js';

function publicKey(): string {
  // Encoded by the key-generation job itself: a JWK export of a generated key can hang Node 20 (src/wireguard/keys.ts).
  const {publicKey: der} = generateKeyPairSync('x25519', {
    publicKeyEncoding: {type: 'spki', format: 'der'},
    privateKeyEncoding: {type: 'pkcs8', format: 'der'},
  });
  return der.subarray(12).toString('base64');
}

const h = useSandbox({seed: 'empty'});

async function configScreen(): Promise<Rig> {
  const app = await renderApp({fixture: h});
  await app.press('screen4');
  await app.waitFor('Client defaults');
  return app;
}

/** Client defaults: the MTU typed over, then Ctrl-S (the review of the diff comes next). */
async function askMtu(app: Rig, mtu: string): Promise<void> {
  await app.press('edit', 'configuration');
  await app.waitFor('Comma-separated IPs/CIDRs');
  await app.press('nextField', 'form', 3);
  await app.named('ctrl+u');
  await app.type(mtu);
  await app.press('save');
}

describe('configuration panel', () => {
  it('a changed default reaches a device that uses it, after a diff and a confirmation', async () => {
    const user = (await h.client.listUsers()).data[0]!;
    const device = (await h.client.createDevice({user_id: user.id, public_key: publicKey()})).data;
    expect(device.mtu).toBe(1280);
    const app = await configScreen();
    await askMtu(app, '1400');
    const review = await app.waitFor('Save these changes to the configuration?');
    expect(review).toContain('MTU: 1280 → 1400');
    // Nothing is sent until the answer: the status line does not say "Saving…".
    expect(review).not.toContain('Saving…');
    expect((await h.client.getDevice(device.id)).data.mtu).toBe(1280);
    await app.press('confirm', 'dialog');
    await app.waitFor(/Configuration saved \(1 change\)/);
    expect((await h.client.getDevice(device.id)).data.mtu).toBe(1400);
    await h.client.updateConfiguration({default_client_mtu: 1280});
  });

  it('a list refused by its check names the entry at fault (0.7.36 says "is invalid" of the whole list); nothing is sent', async () => {
    const app = await configScreen();
    await app.press('edit', 'configuration');
    await app.waitFor('Comma-separated IPs/CIDRs');
    await app.named('ctrl+u');
    await app.type('0.0.0.0/0, 10.0.0.300/24, ::/0');
    await app.press('save');
    await app.waitFor('Fix the form: Allowed IPs: is invalid: "10.0.0.300/24" (entry 2 of 3)');
    expect((await h.client.getConfiguration()).data.default_client_allowed_ips).toEqual(['0.0.0.0/0', '::/0']);
  });

  it('OIDC provider add, edit, delete round-trip; secrets never shown in the diff', async () => {
    const app = await configScreen();
    // cursor: defaults → security → "+ add an OpenID Connect provider"
    await app.press('down', 'configuration', 2);
    await app.press('new', 'configuration');
    await app.waitFor('Add OpenID Connect provider');
    await app.named('ctrl+u');
    await app.type('google');
    await app.press('nextField', 'form');
    await app.type('Google');
    await app.press('nextField', 'form', 2);
    await app.type('client-1');
    await app.press('nextField', 'form');
    await app.type('very-secret-value');
    await app.press('nextField', 'form');
    await app.type('https://accounts.google.com/.well-known/openid-configuration');
    await app.press('save');
    let frame = await app.waitFor('OIDC provider google: added (Google)');
    await app.press('confirm', 'dialog');
    await app.waitFor('Configuration saved');
    let config = (await h.client.getConfiguration()).data;
    expect(config.openid_connect_providers).toEqual([
      expect.objectContaining({
        id: 'google',
        label: 'Google',
        client_id: 'client-1',
        client_secret: 'very-secret-value',
        scope: 'openid email profile',
        response_type: 'code',
      }),
    ]);

    await app.waitFor('Google · client client-1');
    // the cursor stayed on "+ add"; the new provider is the entry above it
    await app.press('up', 'configuration');
    await app.press('edit', 'configuration');
    await app.waitFor('OIDC provider google');
    await app.press('nextField', 'form', 4);
    await app.named('ctrl+u');
    await app.type('rotated-secret');
    await app.press('save');
    frame = await app.waitFor('client_secret changed (secret, not shown)');
    expect(frame).not.toContain('rotated-secret');
    expect(frame).not.toContain('very-secret-value');
    await app.press('confirm', 'dialog');
    await app.waitFor('Configuration saved');
    config = (await h.client.getConfiguration()).data;
    expect(config.openid_connect_providers[0]!.client_secret).toBe('rotated-secret');

    await app.press('delete', 'configuration');
    await app.waitFor('OIDC provider google: removed');
    await app.press('confirm', 'dialog');
    await app.waitFor('Configuration saved');
    expect((await h.client.getConfiguration()).data.openid_connect_providers).toEqual([]);
  });

  it('a nested provider error from the server lands on that provider field', async () => {
    const app = await configScreen();
    await app.press('down', 'configuration', 3);
    await app.press('new', 'configuration');
    await app.waitFor('Add SAML identity provider');
    await app.named('ctrl+u');
    await app.type('okta');
    await app.press('nextField', 'form');
    await app.type('Okta');
    await app.press('nextField', 'form', 2);
    await app.type('<not-saml/>');
    await app.press('save');
    await app.waitFor('SAML provider okta: added');
    await app.press('confirm', 'dialog');
    const frame = await app.waitFor(/✗ is invalid\. Details:/);
    // The status bar names the field by the form's label.
    expect(frame).toContain('Metadata XML: is invalid');
    // the form is back with the values kept and the focus on the metadata field
    expect(frame).toContain('<not-saml/>');
    expect((await h.client.getConfiguration()).data.saml_identity_providers).toEqual([]);
  });

  it('an edit is never written over a configuration that changed meanwhile', async () => {
    const app = await configScreen();
    await app.press('down', 'configuration');
    await app.press('edit', 'configuration');
    await app.waitFor('Enable or disable authentication with email and password.');
    await app.press('nextField', 'form', 4);
    await app.press('choiceNext', 'form', 3);
    await app.press('save');
    await app.waitFor('VPN session duration: 0 → 86400');
    // meanwhile, someone else changes the DNS defaults
    await h.client.updateConfiguration({default_client_dns: ['9.9.9.9']});
    await app.press('confirm', 'dialog');
    let frame = await app.waitFor('Nothing was saved');
    expect(frame).toContain('DNS servers: 1.1.1.1, 1.0.0.1 → 9.9.9.9');
    expect((await h.client.getConfiguration()).data.vpn_session_duration).toBe(0);
    await app.press('reapply', 'dialog');
    frame = await app.waitFor('Save these changes to the configuration?');
    expect(frame).toContain('VPN session duration: 0 → 86400');
    await app.press('confirm', 'dialog');
    await app.waitFor('Configuration saved');
    const config = (await h.client.getConfiguration()).data;
    expect(config.vpn_session_duration).toBe(86400);
    expect(config.default_client_dns).toEqual(['9.9.9.9']);
    await h.client.updateConfiguration({vpn_session_duration: 0, default_client_dns: ['1.1.1.1', '1.0.0.1']});
  });

  it('an env-overridden switch shows the override error on that switch, explained', async () => {
    const env = await startTestSandbox({seed: 'empty', env: {LOCAL_AUTH_ENABLED: 'true'}});
    try {
      const app = await renderApp({fixture: env});
      await app.press('screen4');
      await app.press('down', 'configuration');
      await app.press('edit', 'configuration');
      await app.waitFor('Enable or disable authentication with email and password.');
      await app.press('toggle', 'form');
      await app.press('save');
      await app.waitFor('Local auth: on → off');
      await app.press('confirm', 'dialog');
      const frame = await app.waitFor(/✗ cannot be changed; it is overridden by LOCAL_AUTH_ENABLED\s+environment\s+variable/);
      expect(frame.replace(/\s+/g, ' ')).toMatch(/environment variable, which wins over the API/);
      await app.unmount();
    } finally {
      await env.close();
    }
  });

  it('providers are addressed structurally: with corp and corp:legacy side by side, d and Enter act on the one under the cursor', async () => {
    const oidc = (id: string, label: string) => ({
      id,
      label,
      scope: 'openid email profile',
      response_type: 'code',
      client_id: `${id}-client`,
      client_secret: 'secret-value',
      discovery_document_uri: 'https://idp.example/.well-known/openid-configuration',
      auto_create_users: false,
    });
    await h.client.updateConfiguration({openid_connect_providers: [oidc('corp', 'Corp'), oidc('corp:legacy', 'Corp legacy')]});
    try {
      const app = await configScreen();
      // cursor: defaults → security → corp → corp:legacy
      await app.press('down', 'configuration', 3);
      await app.press('edit', 'configuration');
      await app.waitFor('OIDC provider corp:legacy');
      await app.press('cancel', 'form');
      await app.waitFor('OpenID Connect providers (2)');
      await app.press('delete', 'configuration');
      await app.waitFor('Delete OIDC provider corp:legacy?');
      await app.press('confirm', 'dialog');
      await app.waitFor('Configuration saved');
      expect((await h.client.getConfiguration()).data.openid_connect_providers.map((p) => p.id)).toEqual(['corp']);
    } finally {
      await h.client.updateConfiguration({openid_connect_providers: []});
    }
  });

  it('right after a save the screen shows the saved record, and an edit made before the refresh lands starts from it', async () => {
    await h.client.updateConfiguration({
      openid_connect_providers: [
        {
          id: 'google',
          label: 'Google',
          scope: 'openid email profile',
          response_type: 'code',
          client_id: 'client-1',
          client_secret: 'secret-value',
          discovery_document_uri: 'https://accounts.google.com/.well-known/openid-configuration',
          auto_create_users: false,
        },
      ],
    });
    // A slow refresh (50k devices over SSH): the device list waits at a gate the test opens.
    let gate: Promise<void> | null = null;
    let open = () => {};
    let served = 0;
    const client = clientWith(h.client, {
      pollDevices: async () => {
        if (gate) await gate;
        const listed = await h.client.pollDevices();
        served++;
        return listed;
      },
    });
    try {
      const app = await renderApp({client});
      await app.press('screen4');
      await app.waitFor('Google · client client-1');
      // cursor: defaults → security → google
      await app.press('down', 'configuration', 2);
      await app.press('edit', 'configuration');
      await app.waitFor('OIDC provider google');
      await app.press('nextField', 'form');
      await app.named('ctrl+u');
      await app.type('Google Workspace');
      await app.press('save');
      await app.waitFor('label: Google → Google Workspace');
      gate = new Promise((resolve) => (open = resolve));
      await app.press('confirm', 'dialog');
      // The refresh after the save is held at the gate, yet the screen already shows what was saved.
      await app.waitFor('Google Workspace · client client-1');
      expect(served).toBe(1);
      // Deleting now is built on the saved record: not refused as a change on the server.
      await app.press('delete', 'configuration');
      await app.waitFor('Delete OIDC provider google?');
      await app.press('confirm', 'dialog');
      let frame = await app.waitFor('OpenID Connect providers (0)');
      expect(frame).not.toContain('changed on the server');
      expect((await h.client.getConfiguration()).data.openid_connect_providers).toEqual([]);
      const afterDelete = app.frames.length;
      // The held refresh began before the delete and read the provider; it must not bring it back.
      // The delete's own refresh follows it (asked for while it was in flight).
      open();
      await vi.waitFor(() => expect(served).toBe(3), {timeout: 5000});
      frame = await app.waitFor('OpenID Connect providers (0)');
      expect(app.frames.slice(afterDelete).some((f) => f.includes('Google Workspace'))).toBe(false);
    } finally {
      open();
      await h.client.updateConfiguration({openid_connect_providers: []});
    }
  });

  it("Activity credits a save re-applied over another admin's change with its own change only", async () => {
    const app = await configScreen();
    await askMtu(app, '1400');
    await app.waitFor('MTU: 1280 → 1400');
    // Meanwhile another admin changes the DNS defaults; the save is refused, then re-applied over it.
    await h.client.updateConfiguration({default_client_dns: ['9.9.9.9']});
    await app.press('confirm', 'dialog');
    await app.waitFor('Nothing was saved');
    await app.press('reapply', 'dialog');
    await app.waitFor('Save these changes to the configuration?');
    await app.press('confirm', 'dialog');
    await app.waitFor(/Configuration saved \(1 change\)/);
    try {
      await app.press('refresh');
      await app.press('screen5');
      const frame = await app.waitFor(/(config changed.*\n.*){2}/);
      const rows = frame.split('\n').filter((l) => l.includes('config changed'));
      expect(rows).toHaveLength(2);
      // Newest first: this console's MTU, then the other admin's DNS (shown by the same poll).
      expect(rows.map((l) => /you\s*$/.test(l))).toEqual([true, false]);
      await app.press('open', 'list');
      expect(await app.waitFor('MTU: 1280 → 1400')).not.toContain('9.9.9.9');
    } finally {
      await h.client.updateConfiguration({default_client_mtu: 1280, default_client_dns: ['1.1.1.1', '1.0.0.1']});
    }
  });
});
