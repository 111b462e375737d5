// A screen's actions (src/state/screens/spec.ts): an action on an item gets the item, never null —
// with nothing under the cursor the list says so and the action is not called — and `d` deletes one
// item or every marked one from the one delete action of the screen (src/state/lists/delete.ts).
// Expected texts and tables are written out here, not read from the code under test.
import {describe, expect, it} from 'vitest';
import {topModal} from '../../src/state/core/state.js';
import {SCREEN_SPECS} from '../../src/state/screens/index.js';
import {FakeServer, open, seeded, until} from '../helpers/fake-console.js';
import {user} from '../fixtures/data.js';

/** The keys of each screen that act on one item, by place: written out, not read from the specs. */
const ITEM_KEYS = {
  devices: {list: ['t', 'U', 'e', 'K', 'd'], detail: ['t', 'U', 'e', 'K', 'd']},
  users: {list: ['t', 'e', 'R', 'd'], detail: ['t', 'n', 'e', 'R', 'd']},
  rules: {list: ['e', 'd'], detail: ['e', 'd']},
  activity: {list: [], detail: []},
} as const;

/** The same, by action name. */
const ITEM_ACTIONS: Record<string, readonly string[]> = {
  devices: ['delete', 'edit', 'editor', 'newKey', 'owner', 'trace'],
  users: ['delete', 'edit', 'editor', 'newDevice', 'role', 'trace'],
  rules: ['delete', 'edit', 'editor'],
  activity: [],
};

describe('item actions', () => {
  it('each screen has exactly these item actions (the delete among them), and the others act on the list', () => {
    for (const spec of Object.values(SCREEN_SPECS)) {
      const onItems = Object.entries(spec.actions)
        .filter(([name, action]) => name === 'delete' || (action !== undefined && 'needs' in action && action.needs === 'item'))
        .map(([name]) => name)
        .sort();
      expect(onItems, spec.id).toEqual(ITEM_ACTIONS[spec.id] ?? []);
      for (const [name, action] of Object.entries(spec.actions)) {
        if (name !== 'delete' && !(ITEM_ACTIONS[spec.id] ?? []).includes(name))
          expect(action && 'needs' in action && action.needs, `${spec.id}.${name}`).toBe('nothing');
      }
    }
  });

  it('with no row under the cursor an item key says so, and nothing runs: no form, no question, no command bar, no request', async () => {
    const server = new FakeServer();
    // One user, so that the Users list has a row to open a detail from; Devices and Rules are empty.
    server.users = [user({id: 'u-1', email: 'ann@example.com'})];
    const {c, press, message} = await open(server);
    const empty = {devices: '1', rules: '3'} as const;
    for (const [screen, key] of Object.entries(empty) as [keyof typeof empty, string][]) {
      press(key);
      for (const k of ITEM_KEYS[screen].list) {
        c.message(null);
        press(k);
        expect(message(), `${screen} ${k}`).toBe(`No ${screen === 'devices' ? 'device' : 'rule'} under the cursor: the list shows none`);
        expect(c.state.modals, `${screen} ${k}`).toEqual([]);
        expect(c.state.command, `${screen} ${k}`).toBeNull();
      }
    }
    expect(server.calls).toEqual([]);
  });

  it("in a detail, an item key acts on the detail's item", async () => {
    const server = seeded();
    const {c, press} = await open(server);
    press('2', 'enter', 'n');
    // The user's detail: `n` is a new device for that user (the form's owner is fixed).
    expect(topModal(c.state)).toMatchObject({kind: 'form', title: 'Add device for ann@example.com'});
    press('esc');
    expect(c.state.lists.users.detailId).toBe('u-1');
    press('t');
    expect(c.state.command?.value).toBe('trace ann@example.com ');
  });
});

describe('one delete path', () => {
  it('d on one rule asks its question; y sends its delete, leaves nothing marked, says it, and keeps it for u under its label', async () => {
    const server = seeded();
    const {c, press, message} = await open(server);
    press('3', 'd');
    expect(topModal(c.state)).toMatchObject({kind: 'dialog', title: 'Delete rule DROP 10.0.0.0/8 all ports?', lines: []});
    press('y');
    await until(() => server.calls.length > 0, 'the delete');
    expect(server.calls).toEqual(['deleteRule r-1']);
    await until(() => message() !== '', 'the message');
    expect(message()).toBe('Deleted rule DROP 10.0.0.0/8 all ports (u takes it back)');
    expect(c.undo.list().map((e) => e.label)).toEqual(['rule DROP 10.0.0.0/8 all ports']);
  });

  it('d in a user’s detail asks the question with its lines, and y deletes the user and keeps their devices and rules for u', async () => {
    const server = seeded();
    const {c, press, message} = await open(server);
    press('2', 'j', 'enter', 'd');
    const m = topModal(c.state);
    expect(m).toMatchObject({kind: 'dialog', title: 'Delete user bob@example.com? This also deletes 1 device and 1 rule.'});
    expect(m?.kind === 'dialog' ? m.lines.map((l) => l.text) : []).toEqual([
      'Their active VPN sessions drop at once.',
      'u can bring them back, but not their password: its hash never leaves the server.',
    ]);
    press('y');
    await until(() => message().startsWith('User deleted'), 'the delete');
    expect(server.calls).toEqual(['deleteUser u-2']);
    expect(message()).toBe('User deleted successfully: bob@example.com (u takes it back)');
    expect(c.state.lists.users.detailId).toBeNull();
    const [entry] = c.undo.list();
    expect(entry?.label).toBe('user bob@example.com');
    expect(entry && {users: entry.items.users.length, devices: entry.items.devices.length, rules: entry.items.rules.length}).toEqual({
      users: 1,
      devices: 1,
      rules: 1,
    });
  });
});
