// `E` (#47): an item's editable fields as JSON in the admin's editor, against a sandbox. The editor
// is played by a function of the file's text (the real one, a process in the terminal, is
// test/config/external-editor.test.ts and test/e2e/editor.e2e.test.ts): what it is handed, what it
// gives back, and what the server has after.
import {describe, expect, it} from 'vitest';
import {ApiError, type DeviceUpdate} from '../../src/api/index.js';
import {clientWith} from '../helpers/client-with.js';
import {renderApp, useSandbox} from '../helpers/rig.js';
import {publicKey} from '../sandbox/helpers.js';

const fx = useSandbox({seed: 'empty', env: {DEFAULT_CLIENT_MTU: '1400'}});

/** An editor that answers each round with `edits[i]` of what it was handed, and keeps what it saw. */
function editor(...edits: Array<(text: string) => string | Promise<string>>) {
  const seen: string[] = [];
  const editText = () => async (request: {stem: string; text: string}) => {
    seen.push(request.text);
    const edit = edits[seen.length - 1];
    if (!edit) throw new Error(`the editor was opened ${seen.length} times, ${edits.length} expected`);
    return {ok: true as const, text: await edit(request.text)};
  };
  return {seen, editText, edits};
}

async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !ready(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(ready()).toBe(true);
}

/** The JSON part of an editor file, parsed. */
const json = (text: string) => JSON.parse(text.replace(/^#.*$/gm, '')) as Record<string, unknown>;
const replaceJson = (text: string, change: (o: Record<string, unknown>) => void) => {
  const o = json(text);
  change(o);
  return JSON.stringify(o, null, 2);
};

async function aDevice(name: string, description = '') {
  const owner = (await fx.client.listUsers()).data[0]!;
  return (await fx.client.createDevice({user_id: owner.id, public_key: publicKey(), name, description})).data;
}

describe('E: edit in $EDITOR', () => {
  it('writes the name and description with what the server ignores, shows the change, and y sends only it', async () => {
    const device = await aDevice('ed-laptop', 'before');
    const sent: DeviceUpdate[] = [];
    const client = clientWith(fx.client, {
      updateDevice: (id: string, body: DeviceUpdate) => {
        sent.push(body);
        return fx.client.updateDevice(id, body);
      },
    });
    const ed = editor((t) => replaceJson(t, (o) => (o.description = 'after the editor')));
    const app = await renderApp({fixture: fx, client, editText: ed.editText});
    await app.waitFor('ed-laptop');
    await app.keys('/', 'ed-laptop', '\r');
    await app.keys('E');
    await app.waitFor('Apply these changes to device ed-laptop');
    expect(json(ed.seen[0]!)).toEqual({name: 'ed-laptop', description: 'before'});
    expect(ed.seen[0]).toMatch(/^# Edit device ed-laptop of \S+\.\n/);
    expect(ed.seen[0]).toContain('# Firezone 0.7 applies only name and description to an existing device;\n# addresses, keys');
    await app.waitFor('description: "before" → "after the editor"');
    expect(sent).toEqual([]);
    await app.keys('y');
    await app.waitFor('Device updated: ed-laptop');
    expect(sent).toEqual([{description: 'after the editor'}]);
    expect((await fx.client.getDevice(device.id)).data.description).toBe('after the editor');
  });

  it("a 422 opens the editor again with the server's words at the top and the admin's text kept; left as it was, nothing is sent", async () => {
    await aDevice('ed-one');
    await aDevice('ed-two');
    const ed = editor(
      (t) => replaceJson(t, (o) => (o.name = 'ed-two')),
      (t) => t,
    );
    const app = await renderApp({fixture: fx, editText: ed.editText});
    await app.keys('/', 'ed-one', '\r');
    await app.keys('E');
    await app.waitFor('name: "ed-one" → "ed-two"');
    await app.keys('y');
    await app.waitFor('The file was left as it was: nothing sent');
    expect(ed.seen).toHaveLength(2);
    // 0.7.36 says a duplicate name under user_id; the file says it on the name, as the form does.
    expect(ed.seen[1]).toContain('#   name: has already been taken (this user already has a device with this name)');
    expect(json(ed.seen[1]!)).toEqual({name: 'ed-two', description: ''});
  });

  it('a file that is not JSON, a value the form refuses, or an unknown member reopens the editor with what is wrong', async () => {
    const device = await aDevice('ed-checks');
    const ed = editor(
      (t) => t.replace('"name"', 'name'),
      (t) => t.replace(/name: "ed-checks"/, '"public_key": "k", "name": "ed-checks"'),
      () => '',
    );
    const app = await renderApp({fixture: fx, editText: ed.editText});
    await app.keys('/', 'ed-checks', '\r');
    await app.keys('E');
    await app.waitFor('The file was emptied: nothing sent');
    // The line is the saved file's: where the unquoted name stands in it.
    const saved = ed.seen[0]!.replace('"name"', 'name').split('\n');
    const line = saved.findIndex((l) => l.startsWith('  name:')) + 1;
    expect(line).toBeGreaterThan(5);
    expect(ed.seen[1]).toMatch(new RegExp(`# {3}not JSON: .*\\(line ${line}, column 3 of the file you saved\\)`));
    // The admin's text is kept as they left it, not the console's first version.
    expect(ed.seen[1]).toContain('  name: "ed-checks"');
    expect(ed.seen[2]).toContain('#   "public_key": not a field that can be edited here (the fields are name, description)');
    expect(ed.seen[2]).not.toContain('not JSON');
    expect((await fx.client.getDevice(device.id)).data.description).toBeNull();
  });

  it('a member written twice is refused with its line, never taken as the last one; fixed, the one left is sent', async () => {
    const device = await aDevice('ed-twice');
    const ed = editor(
      // The first "name" would be dropped by JSON.parse without a word.
      (t) => t.replace('"name": "ed-twice"', '"name": "kept-by-nobody",\n  "name": "ed-twice"'),
      (t) => t.replace(/^ {2}"name": "kept-by-nobody",\n/m, '').replace('"description": ""', '"description": "once"'),
    );
    const app = await renderApp({fixture: fx, editText: ed.editText});
    await app.keys('/', 'ed-twice', '\r');
    await app.keys('E');
    await until(() => ed.seen.length === 2);
    const saved = ed.seen[1]!.split('\n');
    const line =
      ed.seen[0]!.replace('"name": "ed-twice"', '"name": "kept-by-nobody",\n  "name": "ed-twice"')
        .split('\n')
        .findIndex((l) => l.includes('"name": "ed-twice"')) + 1;
    expect(saved).toContain(`#   "name" is written twice in one object (line ${line} of the file you saved); JSON would keep only the last: keep one`);
    await app.waitFor('description: "" → "once"');
    await app.keys('y');
    await app.waitFor('Device updated: ed-twice');
    expect((await fx.client.getDevice(device.id)).data).toMatchObject({name: 'ed-twice', description: 'once'});
  });

  it('the length limit is the form’s: a description over 2048 characters is refused before any request', async () => {
    await aDevice('ed-long');
    const ed = editor(
      (t) => replaceJson(t, (o) => (o.description = 'x'.repeat(2049))),
      () => '',
    );
    const app = await renderApp({fixture: fx, editText: ed.editText});
    await app.keys('/', 'ed-long', '\r');
    await app.keys('E');
    await app.waitFor('The file was emptied');
    expect(ed.seen[1]).toContain('#   description: should be at most 2048 character(s)');
  });

  it('saved without a change: said, and nothing sent', async () => {
    await aDevice('ed-same');
    const sent: string[] = [];
    const client = clientWith(fx.client, {
      updateDevice: (id: string, body: DeviceUpdate) => {
        sent.push(id);
        return fx.client.updateDevice(id, body);
      },
    });
    const ed = editor((t) => `${t}\n`);
    const app = await renderApp({fixture: fx, client, editText: ed.editText});
    await app.keys('/', 'ed-same', '\r');
    await app.keys('E');
    await app.waitFor('Nothing changed: nothing sent for device ed-same');
    expect(sent).toEqual([]);
  });

  it('a send without an answer is said to be unknown (it may have been applied) and the data read again', async () => {
    await aDevice('ed-lost');
    const client = clientWith(fx.client, {
      updateDevice: (id: string, body: DeviceUpdate) =>
        fx.client.updateDevice(id, body).then(() => {
          throw new ApiError({kind: 'network', method: 'PUT', path: `/v0/devices/${id}`, message: 'connection closed unexpectedly'});
        }),
    });
    const ed = editor((t) => replaceJson(t, (o) => (o.description = 'maybe')));
    const app = await renderApp({fixture: fx, client, editText: ed.editText});
    await app.keys('/', 'ed-lost', '\r');
    await app.keys('E');
    await app.waitFor('description: "" → "maybe"');
    await app.keys('y');
    await app.waitFor(/No answer to the save: .*It may have been applied/);
    expect(ed.seen).toHaveLength(1);
  });

  it('a field the admin changed that the server changed too meanwhile is not sent over it unasked; y then sends only theirs', async () => {
    const device = await aDevice('ed-race', 'first');
    const sent: DeviceUpdate[] = [];
    const client = clientWith(fx.client, {
      updateDevice: (id: string, body: DeviceUpdate) => {
        sent.push(body);
        return fx.client.updateDevice(id, body);
      },
    });
    // While the file is open, another admin renames the device and changes its description.
    const ed = editor(async (t) => {
      await fx.client.updateDevice(device.id, {name: 'ed-race-theirs', description: 'server desc'});
      return replaceJson(t, (o) => (o.description = 'mine'));
    });
    const app = await renderApp({fixture: fx, client, editText: ed.editText});
    await app.keys('/', 'ed-race', '\r');
    await app.keys('E');
    await app.waitFor('description: "first" → "mine"');
    await app.keys('y');
    await app.waitFor('description changed on the server since the file was written: nothing was sent');
    await app.waitFor('description: "server desc" → "mine" (was "first" when the file was written)');
    expect(sent).toEqual([]);
    await app.keys('y');
    await app.waitFor('Device updated: ed-race-theirs');
    // Only the admin's change was sent: the other admin's rename stands.
    expect(sent).toEqual([{description: 'mine'}]);
    expect((await fx.client.getDevice(device.id)).data).toMatchObject({name: 'ed-race-theirs', description: 'mine'});
  });

  it('read-only mode refuses E and opens no editor', async () => {
    const ed = editor();
    const app = await renderApp({fixture: fx, settings: {readOnly: true}, editText: ed.editText});
    await app.keys('E');
    await app.waitFor(/Read-only mode: editing devices is disabled/);
    expect(ed.seen).toEqual([]);
  });

  it("a user's email and role; a rule with its user as an email", async () => {
    const user = (await fx.client.createUser({email: 'ed-user@example.com', role: 'unprivileged'})).data;
    const rule = (await fx.client.createRule({action: 'drop', destination: '10.9.9.0/24', user_id: user.id})).data;
    const ed = editor(
      (t) => replaceJson(t, (o) => ((o.role = 'admin'), (o.email = 'ed-user2@example.com'))),
      (t) => replaceJson(t, (o) => ((o.destination = '10.9.8.0/24'), (o.user = ''))),
    );
    const app = await renderApp({fixture: fx, editText: ed.editText});
    await app.keys('2', '/', 'ed-user@', '\r');
    await app.keys('E');
    expect(json(ed.seen[0]!)).toEqual({email: 'ed-user@example.com', role: 'unprivileged'});
    await app.waitFor('role: "unprivileged" → "admin"');
    await app.keys('y');
    await app.waitFor('User updated successfully: ed-user2@example.com (admin)');
    expect((await fx.client.getUser(user.id)).data).toMatchObject({email: 'ed-user2@example.com', role: 'admin'});
    await app.keys('3', '/', '10.9.9', '\r');
    await app.keys('E');
    await app.waitFor('user: "ed-user2@example.com" → ""');
    expect(json(ed.seen[1]!)).toEqual({action: 'drop', destination: '10.9.9.0/24', port_type: '', port_range: '', user: 'ed-user2@example.com'});
    await app.keys('y');
    await app.waitFor('Rule updated');
    expect((await fx.client.listRules()).data.find((r) => r.id === rule.id)).toMatchObject({destination: '10.9.8.0/24', user_id: null});
  });

  it('the configuration: the review and the write of the forms; a value the server’s environment holds reopens with why', async () => {
    const ed = editor(
      (t) => replaceJson(t, (o) => ((o.default_client_dns = ['9.9.9.9']), (o.default_client_mtu = 1300))),
      // Back to what the server has: only the DNS change is left.
      (t) => replaceJson(t, (o) => (o.default_client_mtu = json(ed.seen[0]!).default_client_mtu)),
    );
    const app = await renderApp({fixture: fx, editText: ed.editText});
    await app.keys('4');
    await app.waitFor('Client defaults');
    await app.keys('E');
    const first = json(ed.seen[0]!);
    expect(Object.keys(first)).toEqual([
      'default_client_allowed_ips',
      'default_client_dns',
      'default_client_endpoint',
      'default_client_mtu',
      'default_client_persistent_keepalive',
      'local_auth_enabled',
      'allow_unprivileged_device_management',
      'allow_unprivileged_device_configuration',
      'disable_vpn_on_oidc_error',
      'vpn_session_duration',
      'openid_connect_providers',
      'saml_identity_providers',
    ]);
    await app.waitFor('Save these changes to the configuration?');
    await app.waitFor('DNS servers:');
    await app.keys('y');
    // DEFAULT_CLIENT_MTU is set in the server's environment: 0.7.36 refuses the change, and the
    // editor opens again with the server's words and what to do.
    await until(() => ed.seen.length === 2);
    await app.waitFor('Save these changes to the configuration?');
    expect(ed.seen[1]).toMatch(/# {3}default_client_mtu: .*overridden by DEFAULT_CLIENT_MTU environment variable\. Set by the server's DEFAULT_CLIENT_MTU/);
    await app.keys('y');
    await app.waitFor(/Configuration saved \(1 change\)/);
    expect((await fx.client.getConfiguration()).data.default_client_dns).toEqual(['9.9.9.9']);
  });
});
