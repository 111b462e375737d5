// Input as terminals deliver it, through the rig: a burst of keys across field changes, a
// bracketed paste into a multi-line and a one-line field, and typing on a picker field. Each
// result is checked on the server (the sandbox), not only on screen.
import {generateKeyPairSync} from 'node:crypto';
import {beforeAll, describe, expect, it} from 'vitest';
import type {UserCreate} from '../../src/api/index.js';
import type {ConsoleClient} from '../../src/ui/App.js';
import {clientWith} from '../helpers/client-with.js';
import {renderApp, useSandbox, type TestSandbox} from '../helpers/rig.js';

const fx = useSandbox({seed: 'empty'});

function publicKey(): string {
  // Encoded by the key-generation job itself: a JWK export of a generated key can hang Node 20 (src/wireguard/keys.ts).
  const {publicKey: der} = generateKeyPairSync('x25519', {
    publicKeyEncoding: {type: 'spki', format: 'der'},
    privateKeyEncoding: {type: 'pkcs8', format: 'der'},
  });
  return der.subarray(12).toString('base64');
}

/** The sandbox's admin client, with every createUser body recorded (the password never reaches the screen). */
function recordingClient(sandbox: TestSandbox, bodies: UserCreate[]): ConsoleClient {
  const client = sandbox.client;
  return clientWith(client, {
    createUser: (body: UserCreate) => {
      bodies.push(body);
      return client.createUser(body);
    },
  });
}

interface Row {
  id: string;
  email: string;
  role: string;
}

let zed: Row;
let yves: Row;

beforeAll(async () => {
  zed = (await fx.api('POST', '/v0/users', {user: {email: 'zed-owner@example.com', role: 'unprivileged'}})).json.data;
  yves = (await fx.api('POST', '/v0/users', {user: {email: 'yves-scope@example.com', role: 'unprivileged'}})).json.data;
});

async function usersByEmail(email: string): Promise<Row[]> {
  return ((await fx.api('GET', '/v0/users')).json.data as Row[]).filter((u) => u.email === email);
}

describe('a burst of keys across field changes', () => {
  it('email, Tab, Tab (over Role), password, Tab, confirmation in ONE write: each part lands in its field', async () => {
    const bodies: UserCreate[] = [];
    const password = 'burst-Pass-1234';
    const app = await renderApp({fixture: fx, client: recordingClient(fx, bodies)});
    await app.press('screen2');
    await app.waitFor('EMAIL');
    await app.press('new', 'list');
    await app.waitFor('Add user');
    await app.burst(`ann@example.com\t\t${password}\t${password}`);
    const frame = await app.waitFor(/Email\s+ann@example\.com/);
    // Role kept its value (printable keys are not typed into a choice), the secrets are masked.
    expect(frame).toMatch(/Role\s+‹ unprivileged ›/);
    expect(frame).toMatch(new RegExp(`Password\\s+${'•'.repeat(password.length)}`));
    expect(frame).toMatch(new RegExp(`Confirm password\\s+${'•'.repeat(password.length)}`));
    expect(frame).not.toContain(password);
    await app.press('save');
    const saved = await app.waitFor('User created successfully: ann@example.com (unprivileged)');
    expect(saved).not.toMatch(/does not match|Fix the form/);
    expect(bodies).toEqual([expect.objectContaining({email: 'ann@example.com', role: 'unprivileged', password, password_confirmation: password})]);
    expect(await usersByEmail('ann@example.com')).toEqual([expect.objectContaining({role: 'unprivileged'})]);
  });

  it('the same with → on Role and Ctrl-S, all in ONE write: the escape sequence splits the chunk, the keys stay in order', async () => {
    const bodies: UserCreate[] = [];
    const password = 'burst-Pass-5678';
    const app = await renderApp({fixture: fx, client: recordingClient(fx, bodies)});
    await app.press('screen2');
    await app.waitFor('EMAIL');
    await app.press('new', 'list');
    await app.waitFor('Add user');
    await app.burst(`bea@example.com\t\x1b[C\t${password}\t${password}\x13`);
    await app.waitFor('User created successfully: bea@example.com (admin)');
    expect(bodies).toEqual([expect.objectContaining({email: 'bea@example.com', role: 'admin', password, password_confirmation: password})]);
    expect(await usersByEmail('bea@example.com')).toEqual([expect.objectContaining({role: 'admin'})]);
  });
});

// Six lines of IdP metadata, as an admin copies them from the IdP's download.
const METADATA = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="http://www.okta.com/exkPASTE6LINES">',
  '  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">',
  '    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://example.okta.com/app/x/sso/saml"/>',
  '  </md:IDPSSODescriptor>',
  '</md:EntityDescriptor>',
].join('\n');

describe('bracketed paste', () => {
  it('a 6-line paste into the SAML metadata field arrives whole, newlines included', async () => {
    expect(METADATA.split('\n')).toHaveLength(6);
    const app = await renderApp({fixture: fx});
    await app.press('screen4');
    await app.waitFor('Client defaults');
    // defaults → security → + add OIDC → + add SAML
    await app.press('down', 'configuration', 3);
    await app.press('new', 'configuration');
    await app.waitFor('Add SAML identity provider');
    // Config ID → Label → Base URL → Metadata XML
    await app.press('nextField', 'form', 3);
    await app.waitFor(/› Metadata XML/);
    await app.paste(METADATA);
    const pasted = await app.waitFor(/Metadata XML .*<\/md:EntityDescriptor>/);
    // back to the ID and the label
    await app.press('prevField', 'form', 3);
    await app.named('ctrl+u');
    await app.type('pasted');
    await app.press('nextField', 'form');
    await app.type('Pasted-IdP');
    await app.press('save');
    await app.waitFor('Save these changes to the configuration?');
    await app.press('confirm', 'dialog');
    await app.waitFor('Configuration saved');
    const saml = (await fx.client.getConfiguration()).data.saml_identity_providers;
    expect(saml).toEqual([expect.objectContaining({id: 'pasted', label: 'Pasted-IdP'})]);
    expect(saml[0]!.metadata).toBe(METADATA);
    // the field showed the line breaks as ↵
    expect(pasted).toMatch(/Metadata XML .*↵<\/md:EntityDescriptor>/);
    await fx.client.updateConfiguration({saml_identity_providers: []});
  });

  it('a paste into a one-line field: newlines become spaces', async () => {
    const device = (await fx.api('POST', '/v0/devices', {device: {user_id: zed.id, public_key: publicKey(), name: 'paste-target'}})).json.data;
    const app = await renderApp({fixture: fx});
    await app.press('filter', 'list');
    await app.type('paste-target');
    await app.press('filterAccept', 'filter');
    await app.waitFor('filter "paste-target"');
    await app.press('edit', 'list');
    await app.waitFor('Edit device paste-target');
    // Name → Description
    await app.press('nextField', 'form');
    await app.paste('a\nb');
    await app.waitFor(/Description\s+a b/);
    await app.press('save');
    await app.waitFor('Device updated: paste-target');
    expect((await fx.client.listDevices()).data.find((d) => d.id === device.id)!.description).toBe('a b');
  });
});

describe('typing one key at a time', () => {
  it('a space typed into a text field is a space (Space toggles only yes/no fields)', async () => {
    const device = (await fx.api('POST', '/v0/devices', {device: {user_id: zed.id, public_key: publicKey(), name: 'space-target'}})).json.data;
    const app = await renderApp({fixture: fx});
    await app.press('filter', 'list');
    await app.type('space-target');
    await app.press('filterAccept', 'filter');
    await app.waitFor('filter "space-target"');
    await app.press('edit', 'list');
    await app.waitFor('Edit device space-target');
    // Name → Description
    await app.press('nextField', 'form');
    await app.type('my laptop');
    await app.waitFor(/Description\s+my/);
    await app.press('save');
    await app.waitFor('Device updated: space-target');
    expect((await fx.client.listDevices()).data.find((d) => d.id === device.id)!.description).toBe('my laptop');
  });
});

describe('typing on a picker field', () => {
  it('Devices: letters on Owner open the picker filtered by them; Enter picks the match; the device is created for that user', async () => {
    const app = await renderApp({fixture: fx});
    await app.press('new', 'list');
    await app.waitFor('Add device');
    await app.type('zed');
    let frame = await app.waitFor('pick a user');
    expect(frame).toContain('zed');
    expect(frame).toContain('zed-owner@example.com');
    expect(frame).not.toContain('yves-scope@example.com');
    expect(frame).not.toContain('admin@sandbox.test');
    await app.press('pick', 'picker');
    frame = await app.waitFor(/Owner\s+zed-owner@example\.com/);
    expect(frame).not.toContain('pick a user');
    await app.press('save');
    await app.waitFor('PrivateKey = ');
    const mine = (await fx.client.listDevices()).data.filter((d) => d.user_id === zed.id);
    expect(mine.length).toBeGreaterThan(0);
    await app.press('done', 'result');
    await app.press('confirm', 'dialog');
    await app.waitFor(/Device .* created/);
  });

  it('Rules: a burst of letters on User opens the picker filtered by them; Enter picks the match; the rule is scoped to that user', async () => {
    const app = await renderApp({fixture: fx});
    await app.press('screen3');
    await app.waitFor('DESTINATION');
    await app.press('new', 'list');
    await app.waitFor('Add rule');
    // Action → Destination; then Port type → (Port range is off with all protocols) → User
    await app.press('nextField', 'form');
    await app.type('10.77.0.0/16');
    await app.press('nextField', 'form', 2);
    await app.waitFor('Enter opens the user picker; none = all users.');
    await app.burst('yves');
    let frame = await app.waitFor('pick a user');
    expect(frame).toContain('yves-scope@example.com');
    expect(frame).not.toContain('zed-owner@example.com');
    await app.press('pick', 'picker');
    frame = await app.waitFor(/User\s+yves-scope@example\.com/);
    await app.press('save');
    await app.waitFor('Rule added: ACCEPT 10.77.0.0/16');
    const rules = (await fx.client.listRules()).data.filter((r) => r.destination === '10.77.0.0/16');
    expect(rules).toEqual([expect.objectContaining({user_id: yves.id, action: 'accept'})]);
  });
});
