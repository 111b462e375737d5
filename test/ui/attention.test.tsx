// The cursor goes where the admin's attention is: onto what was just created, and onto the first
// match of a filter when it was not on one. Provider IDs are unique.
import {afterEach, describe, expect, it} from 'vitest';
import {cleanupRigs, renderApp, useSandbox} from '../helpers/rig.js';

const fx = useSandbox({seed: 'demo'});
afterEach(() => cleanupRigs());

describe('the cursor follows the admin', () => {
  it('after creating a user, the cursor is on the new user', async () => {
    const app = await renderApp({fixture: fx});
    await app.press('screen2');
    await app.press('new', 'list');
    await app.waitFor('Add user');
    await app.type('zz-new-hire@example.com');
    await app.press('save');
    await app.waitFor('User created successfully: zz-new-hire@example.com');
    // Sorted by email, the new user is the last row; Enter opens the row under the cursor.
    await app.waitFor(/(\d+)\/\1 users/);
    await app.press('open', 'list');
    await app.waitFor('User › zz-new-hire@example.com');
  });

  it('after creating a rule, the cursor is on the new rule', async () => {
    const app = await renderApp({fixture: fx});
    await app.press('screen3');
    await app.press('new', 'list');
    await app.waitFor('Add rule');
    await app.press('nextField', 'form');
    await app.type('203.0.113.77/32');
    await app.press('save');
    await app.waitFor('Rule added: ACCEPT 203.0.113.77/32');
    await app.waitFor(/3 Rules 26/);
    await app.press('open', 'list');
    // 0.7.36 drops the /32 on reads.
    await app.waitFor('Rule › ACCEPT 203.0.113.77 all ports');
  });

  it('after /text Enter, the cursor lands on the first match if it was not on one', async () => {
    const app = await renderApp({fixture: fx});
    await app.press('end', 'list');
    await app.press('filter', 'list');
    await app.type('laptop');
    await app.press('filterAccept', 'filter');
    const frame = await app.waitFor(/filter "laptop"/);
    expect(frame).toMatch(/ 1\/\d+ of \d+ devices/);
  });
});

describe("a user's devices", () => {
  it('↓ moves onto a device listed in the user detail and Enter opens it', async () => {
    const devices = (await fx.api('GET', '/v0/devices')).json.data as Array<{id: string; name: string; user_id: string}>;
    const users = (await fx.api('GET', '/v0/users')).json.data as Array<{id: string; email: string}>;
    const owner = users.find((u) => devices.filter((d) => d.user_id === u.id).length >= 2)!;
    const second = devices.filter((d) => d.user_id === owner.id)[1]!;
    const app = await renderApp({fixture: fx});
    await app.press('screen2');
    await app.press('filter', 'list');
    await app.type(owner.email);
    await app.press('filterAccept', 'filter');
    await app.press('open', 'list');
    await app.waitFor(`User › ${owner.email}`);
    await app.press('down', 'detail', 2);
    await app.press('open', 'detail');
    await app.waitFor(`Device › ${second.name} (${owner.email})`);
    // Esc goes back one level: to the user it came from.
    await app.press('back', 'detail');
    await app.waitFor(`User › ${owner.email}`);
  });
});

describe('keys that do nothing here say so', () => {
  it('R on the Devices list names where it works; a long detail says there is more below', async () => {
    const app = await renderApp({fixture: fx});
    await app.press('role', 'list');
    await app.waitFor('R does nothing here (Users only: promote to admin / demote to unprivileged)');
    app.resize(80, 24);
    await app.press('open', 'list');
    await app.waitFor(/↓ \d+ more lines \(j \/ ↓\)/);
  });
});

describe('provider IDs', () => {
  it('adding a provider with an ID that exists is refused, naming the provider', async () => {
    const app = await renderApp({fixture: fx});
    const config = (await fx.api('GET', '/v0/configuration')).json.data as {openid_connect_providers: Array<{id: string; label: string}>};
    const existing = config.openid_connect_providers[0]!;
    await app.press('screen4');
    await app.waitFor('Client defaults');
    // defaults → security → the existing OIDC provider → + add an OpenID Connect provider
    await app.press('down', 'configuration', 3);
    await app.press('new', 'configuration');
    await app.waitFor('Add OpenID Connect provider');
    await app.named('ctrl+u');
    await app.type(existing.id);
    await app.press('nextField', 'form');
    await app.type('Duplicate');
    // Scope, then Client ID (Response type is fixed and skipped).
    await app.press('nextField', 'form', 2);
    await app.type('client-x');
    await app.press('nextField', 'form');
    await app.type('secret-x');
    await app.press('nextField', 'form');
    await app.type('https://idp.example/.well-known/openid-configuration');
    await app.press('save');
    const frame = await app.waitFor(`already used by ${existing.label} — edit it instead`);
    expect(frame).toContain('Add OpenID Connect provider');
    const after = (await fx.api('GET', '/v0/configuration')).json.data as {openid_connect_providers: Array<{id: string}>};
    expect(after.openid_connect_providers.length).toBe(config.openid_connect_providers.length);
  });
});
