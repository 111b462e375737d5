// The Controller without Ink: built directly with an in-memory client (no HTTP here; the client
// itself is tested against the sandbox in test/api), keys driven by name through every scope the
// keymap has, and the state read back from the store. What these hold is the dispatch: which
// handler a key reaches, what read-only mode refuses, how modals stack, what a 422 leaves behind,
// and that marks outlive a refresh.
import {describe, expect, it} from 'vitest';
import {topModal} from '../../src/state/core/state.js';
import {Controller} from '../../src/state/controller.js';
import {BINDINGS, displayKey, type Scope} from '../../src/state/input/keymap.js';
import {InputDecoder} from '../../src/state/input/decoder.js';

/** A binding's keys as the help names them. */
const keysOf = (scope: Scope, action: string) => BINDINGS.find((b) => b.scope === scope && b.action === action)?.keys.map(displayKey);
import {scopes} from '../../src/state/input/scopes.js';
import {sharedListAction} from '../../src/state/lists/actions.js';
import {SCREEN_SPECS} from '../../src/state/screens/index.js';
import {generateKeyPair} from '../../src/wireguard/index.js';
import {finishedReport, open, running, seeded, until} from '../helpers/fake-console.js';
import {user} from '../fixtures/data.js';
import {ApiError} from '../../src/api/index.js';

describe('the Controller, driven by key names without Ink', () => {
  it('routes each scope of the keymap to its handler', async () => {
    const {c, press, type, message} = await open(seeded());
    const seen = new Set<Scope>();
    const note = () => scopes(c.state).forEach((s) => seen.add(s));

    // global: screens and help
    note();
    press('2');
    expect(c.state.screen).toBe('users');
    press('tab');
    expect(c.state.screen).toBe('rules');
    press('?');
    note();
    expect(c.state.help.open).toBe(true);
    c.measuredHelp(3);
    press('j', 'j', 'j', 'j');
    expect(c.state.help.scroll).toBe(3); // clamped to what the UI measured
    press('esc');
    expect(c.state.help.open).toBe(false);

    // helpSearch: / in the help, typed text, Enter keeps it
    press('?', '/');
    note();
    type('sort');
    press('enter');
    expect(c.state.help).toMatchObject({open: true, search: 'sort', searching: false});
    press('esc', 'esc');
    expect(c.state.help.open).toBe(false);

    // sortPick: s, then a column's letter
    press('s');
    note();
    press('esc');
    expect(c.state.lists.rules.sortPicking).toBe(false);

    // command: the bar takes the line, Enter runs it
    press(':');
    note();
    type('users');
    press('enter');
    expect(c.state).toMatchObject({screen: 'users', command: null});
    press('3');

    // list, filter, detail
    press('1');
    note();
    expect(c.activeList()!.selection.id).toBe('d-1');
    press('j');
    expect(c.activeList()!.selection.id).toBe('d-2');
    press('/');
    note();
    type('bob');
    expect(c.state.lists.devices.filter).toBe('bob');
    press('enter');
    expect(c.activeList()!.selection.id).toBe('d-3');
    press('esc');
    expect(c.state.lists.devices.filter).toBe('');
    press('enter');
    note();
    expect(c.state.lists.devices.detailId).toBe('d-3');
    press('v');
    expect(c.state.lists.devices.reveal).toBe(true);
    press('enter');
    expect(c.state.message?.text).toBe("Enter opens a device from a user's detail; nothing to open in this device's detail");
    press('esc');
    expect(c.state.lists.devices.detailId).toBeNull();

    // a user's detail: its device cursor opens the device, and Esc comes back to the user; Enter
    // before the cursor is on a device says how to get there
    press('2', 'enter', 'enter');
    expect(c.state.screen).toBe('users');
    expect(c.state.message?.text).toBe('j/↓ moves onto a device first; Enter then opens it');
    press('j', 'enter');
    expect(c.state.screen).toBe('devices');
    press('esc');
    expect(c.state.screen).toBe('users');
    press('esc');

    // configuration
    press('4');
    note();
    const entry = c.state.configuration.entry;
    press('j');
    expect(c.state.configuration.entry).not.toBe(entry);

    // form › picker: a new device's owner is picked by typing on the field
    press('1', 'n');
    note();
    expect(topModal(c.state)?.kind).toBe('form');
    type('bob');
    note();
    expect(topModal(c.state)).toMatchObject({kind: 'picker', filter: 'bob'});
    press('enter');
    const form = topModal(c.state);
    expect(form?.kind === 'form' && form.form.values.owner).toBe('u-2');

    // form › dialog: Esc on a changed form asks, n goes back to it, y discards
    press('esc');
    note();
    expect(c.state.modals.map((m) => m.kind)).toEqual(['form', 'dialog']);
    press('n');
    expect(c.state.modals.map((m) => m.kind)).toEqual(['form']);
    press('esc', 'y');
    await until(() => c.state.modals.length === 0, 'the discarded form to close');
    expect(message()).toBe('Changes discarded');

    // prompt: x asks where to export
    press('x');
    note();
    expect(topModal(c.state)).toMatchObject({kind: 'prompt', label: 'Export to file'});
    press('esc');
    expect(c.state.modals).toEqual([]);

    // result: a device made here shows its client config once; Q flips to the QR code, Esc asks first
    press('n');
    type('bob');
    press('enter', 'ctrl+s');
    await until(() => topModal(c.state)?.kind === 'result', 'the new device result');
    note();
    expect(topModal(c.state)).toMatchObject({kind: 'result', refused: null});
    press('Q');
    expect(topModal(c.state)).toMatchObject({kind: 'result', view: 'qr'});
    press('esc', 'y');
    await until(() => c.state.modals.length === 0, 'the result to close');

    // report: marks, then d deletes them after one question
    press('home', ' ', ' ', 'd');
    expect(topModal(c.state)).toMatchObject({kind: 'dialog', title: 'Delete 2 devices of 1 user?'});
    press('y');
    await until(() => topModal(c.state)?.kind === 'report', 'the report');
    note();
    await until(() => {
      const m = topModal(c.state);
      return m?.kind === 'report' && m.phase === 'finished';
    }, 'the bulk delete to finish');
    press('esc');
    expect(c.state.modals).toEqual([]);

    // raw: y on the list, the device's JSON
    press('y');
    note();
    expect(topModal(c.state)).toMatchObject({kind: 'raw'});
    press('esc');

    // every scope of the keymap was reached
    expect([...seen].sort()).toEqual([...new Set(BINDINGS.map((b) => b.scope))].sort());
  });

  it('refuses every write in read-only mode, by the verb of the screen, and sends nothing', async () => {
    const server = seeded();
    const {c, press, message} = await open(server, {readOnly: true});
    const refused = (keys: string[], verb: string) => {
      press(...keys);
      expect(message()).toBe(`Read-only mode: ${verb} is disabled (started with --read-only)`);
      expect(c.state.modals).toEqual([]);
    };
    // Every write key on every screen, written out by hand (not read from the keymap's flags).
    refused(['n'], 'creating devices');
    refused(['e'], 'editing devices');
    refused(['d'], 'deleting devices');
    refused(['K'], 'making new keys');
    refused(['enter', 'e'], 'editing devices');
    refused(['d'], 'deleting devices');
    refused(['K'], 'making new keys');
    refused(['esc', '2', 'n'], 'creating users');
    refused(['e'], 'editing users');
    refused(['d'], 'deleting users');
    refused(['R'], 'changing roles');
    refused(['I'], 'importing users');
    refused(['enter', 'n'], 'creating devices');
    refused(['e'], 'editing users');
    refused(['R'], 'changing roles');
    refused(['d'], 'deleting users');
    refused(['esc', '3', 'n'], 'creating rules');
    refused(['e'], 'editing rules');
    refused(['d'], 'deleting rules');
    refused(['enter', 'e'], 'editing rules');
    refused(['d'], 'deleting rules');
    refused(['esc', '4', 'e'], 'changing the configuration');
    refused(['enter'], 'changing the configuration');
    refused(['n'], 'changing the configuration');
    refused(['d'], 'changing the configuration');
    // marks and bulk delete: marking is not a write, deleting them is
    press('1', ' ', 'd');
    expect(message()).toBe('Read-only mode: deleting devices is disabled (started with --read-only)');
    press('K');
    expect(message()).toBe('Read-only mode: making new keys is disabled (started with --read-only)');
    expect(c.state.modals).toEqual([]);
    expect(c.state.marks.devices.size).toBe(1);
    // reading goes on: move, filter, sort, open, copy
    press('esc', 'j', '>', 'enter', 'c');
    expect(c.state.lists.devices.detailId).not.toBeNull();
    expect(message()).toMatch(/^Copied public key/);
    expect(c.hints()).not.toMatch(/\bdelete\b|\bedit\b/);
    expect(server.calls).toEqual([]);
  });

  it('keeps the form and everything typed when the server answers 422, the error on its field', async () => {
    const server = seeded();
    server.rejectNextUser = {email: ['has already been taken']};
    const {c, press, type, message} = await open(server);
    press('2', 'n');
    type('ann@example.com');
    press('tab', 'right');
    press('ctrl+s');
    await until(() => message() !== 'Saving…', 'the answer');
    const m = topModal(c.state);
    expect(m?.kind).toBe('form');
    if (m?.kind !== 'form') return;
    expect(m.form.values).toMatchObject({email: 'ann@example.com', role: 'admin'});
    expect(m.form.errors.email).toEqual(['has already been taken']);
    expect(m.form.submitting).toBe(false);
    expect(message()).toBe('Email: has already been taken');
    expect(server.calls).toEqual(['createUser ann@example.com']);
    // the cursor is back on the field in error: corrected and saved again, it goes through and
    // the list's cursor lands on the new user
    expect(m.form.specs[m.form.focus]!.key).toBe('email');
    press('ctrl+u');
    type('cy@example.com');
    press('ctrl+s');
    await until(() => c.state.modals.length === 0, 'the form to close');
    await until(() => c.activeList()!.selection.id === server.users.at(-1)!.id, 'the new user under the cursor');
  });

  it('keeps marks through refreshes, and drops (saying so) those whose item is gone', async () => {
    const server = seeded();
    const {c, press, polled, message} = await open(server);
    press(' ', ' ');
    expect([...c.state.marks.devices].sort()).toEqual(['d-1', 'd-2']);
    await polled();
    press('>');
    await polled();
    expect([...c.state.marks.devices].sort()).toEqual(['d-1', 'd-2']);
    server.devices = server.devices.filter((d) => d.id !== 'd-1');
    await polled();
    expect([...c.state.marks.devices]).toEqual(['d-2']);
    expect(message()).toBe('1 marked device no longer exists on the server and was unmarked');
  });

  it("Enter on a user's device that is gone since says so, and opens no detail of nothing", async () => {
    const server = seeded();
    const {c, press, polled, message} = await open(server);
    press('2', 'enter', 'j');
    const entry = c.state.lists.users.detailEntry!;
    expect(entry).toMatch(/^device:/);
    server.devices = server.devices.filter((d) => `device:${d.id}` !== entry);
    await polled();
    press('enter');
    expect(c.state.screen).toBe('users');
    expect(c.state.lists.devices.detailId).toBeNull();
    expect(message()).toBe('The device under the cursor is not on the server any more; j/k moves onto the devices listed');
  });

  it("bulk delete asks the screen's question and sends the screen's delete for each marked item", async () => {
    const server = seeded();
    const {c, press} = await open(server);
    press('2', '*');
    expect(c.state.marks.users.size).toBe(2);
    press('d');
    expect(topModal(c.state)).toMatchObject({kind: 'dialog', title: 'Delete 2 users? This also deletes 3 devices and 1 rule.'});
    // What u cannot bring back is said before, as for one user.
    expect((topModal(c.state) as {lines: ReadonlyArray<{text: string}>}).lines.map((l) => l.text)).toContain(
      'u can bring the users back, but not their passwords: the hash never leaves the server.',
    );
    press('y');
    // While it runs, the hints offer what works then: y applies nothing, Esc stops.
    expect(topModal(c.state)).toMatchObject({kind: 'report', phase: 'running'});
    expect(c.hints(c.state)).toBe('Esc stop  ↑/↓ scroll');
    await until(() => {
      const m = topModal(c.state);
      return m?.kind === 'report' && m.phase === 'finished';
    }, 'the bulk delete');
    expect(c.hints(c.state)).toBe('Esc close  ↑/↓ scroll');
    expect(server.calls.sort()).toEqual(['deleteUser u-1', 'deleteUser u-2']);
    expect(c.state.marks.users.size).toBe(0);
  });

  it('says why a key does nothing: another screen’s key, and an action the screen cannot take yet', async () => {
    const server = seeded();
    server.users = [];
    server.devices = [];
    const {c, press, polled, message} = await open(server);
    press('n');
    expect(message()).toBe('No users yet: a device belongs to a user, so add one first (2, then n)');
    expect(c.state.modals).toEqual([]);
    press('R');
    expect(message()).toBe('R does nothing here (Users only: promote to admin / demote to unprivileged)');
    // events are observations, not objects to act on: no marks on Activity
    server.users = [user({id: 'u-9', email: 'new@example.com'})];
    await polled();
    press('5');
    expect(c.activeList()!.view.rows).toHaveLength(1);
    press(' ');
    expect(c.state.marks.activity.size).toBe(0);
    expect(message()).toBe('Space does nothing here (mark / unmark the row (marks stay through refreshes, sorting and filtering))');
  });

  it("a list's key in a detail or on Configuration says so (what is typed after / must not run unannounced), and such a hint goes once the keys are elsewhere", async () => {
    const {c, press, message} = await open(seeded());
    press('enter');
    expect(c.state.lists.devices.detailId).toBe('d-1');
    press('/');
    expect(c.state.lists.devices.filtering).toBe(false);
    expect(message()).toBe('/ does nothing here (filter is on the list; Esc goes back to it)');
    // Scrolling the same detail keeps it; leaving the detail takes it away.
    press('j');
    expect(message()).toBe('/ does nothing here (filter is on the list; Esc goes back to it)');
    press('esc');
    expect(c.state.message).toBeNull();
    press('4', 's');
    expect(message()).toBe('s does nothing here (sort by a column is on the lists: 1–3 and 5)');
    press('1');
    expect(c.state.message).toBeNull();
    // Another screen's key: said in a detail, gone on the screen where the key works.
    press('enter', 'n');
    expect(message()).toBe('n does nothing here (Users only: new device for this user)');
    press('esc', '2');
    expect(c.state.message).toBeNull();
    // A message that is not about the place stays through a change of place.
    press('1', 'c');
    expect(message()).toMatch(/^Copied public key/);
    press('2');
    expect(message()).toMatch(/^Copied public key/);
  });

  it('a row deleted a moment ago (shown ×) is never under the cursor, and a detail left open on one acts on nothing', async () => {
    const server = seeded();
    const {c, press, polled, message} = await open(server);
    press('j');
    expect(c.activeList()!.selection.id).toBe('d-2');
    press('d', 'y');
    await until(() => server.calls.includes('deleteDevice d-2'), 'the delete');
    await until(() => c.activeList()!.deleted === 1, 'the deleted row shown');
    const list = () => c.activeList()!;
    // The deleted row is at the list's end, marked; the cursor is on the row that took its place.
    expect(list().view.rows.map((r) => (r as {id: string}).id)).toEqual(['d-1', 'd-3', 'd-2']);
    expect(list().selection).toEqual({id: 'd-3', index: 1});
    // The end of the list is its last live row; moving back up works from there.
    press('G');
    expect(list().selection.id).toBe('d-3');
    press('k');
    expect(list().selection.id).toBe('d-1');
    press('j', 'enter');
    expect(c.state.lists.devices.detailId).toBe('d-3');
    // Someone else deletes the device whose detail is open: e and d act on nothing.
    server.devices = server.devices.filter((d) => d.id !== 'd-3');
    await polled();
    press('e');
    expect(message()).toBe('This device was deleted a moment ago: nothing to act on (Esc goes back to the list)');
    expect(c.state.modals).toEqual([]);
    press('d');
    expect(c.state.modals).toEqual([]);
    expect(server.calls).toEqual(['deleteDevice d-2']);
  });

  it('a single delete whose answer never came: said to be unknown, its undo kept, and the poll that shows it gone credits this console', async () => {
    const server = seeded();
    // The server deletes it, then the connection breaks before the answer.
    server.breakDelete.set('d-1', 'after');
    const {c, press, message} = await open(server);
    press('d', 'y');
    await until(() => message().startsWith('No answer to the delete'), 'the unknown outcome');
    expect(message()).toMatch(
      /connection closed unexpectedly\. It may have been applied: the list shows whether once it is read again \(if it was, u takes it back\)$/,
    );
    expect(c.undo.list().map((e) => e.label)).toEqual(['device ann-laptop (ann@example.com) (no answer came: deleted, if the list no longer shows it)']);
    // The refresh it asked for shows it gone: by this console, not "another client or the server".
    await until(() => !c.state.snapshot!.devices.some((d) => d.id === 'd-1'), 'the poll without it');
    press('5');
    const events = c.activeList()!.view.rows as Array<{kind: string; by: string | null}>;
    expect(events.find((e) => e.kind === 'device.deleted')).toMatchObject({by: 'you'});
    // A delete the server refused outright is a failure, not unknown: no undo, nothing noted.
    server.breakDelete.set('d-2', 'refused');
    press('1', 'home');
    await until(() => c.activeList()!.selection.id === 'd-2', 'd-2 under the cursor');
    press('d', 'y');
    await until(() => /Server error 500/.test(message()), 'the refusal');
    expect(c.undo.list()).toHaveLength(1);
  });

  it('tells an admin whose token sees no users why no device can be added', async () => {
    const server = seeded();
    server.listUsers = () => Promise.reject(new ApiError({kind: 'forbidden', message: '403 Forbidden', method: 'GET', path: '/v0/users', status: 403}));
    const {c, press, message} = await open(server);
    press('n');
    expect(message()).toBe('Cannot add a device: this token cannot list users (its user is not an admin), so there is no owner to pick');
    expect(c.state.modals).toEqual([]);
  });

  it('has no screen action that the shared list handling would shadow', () => {
    for (const spec of Object.values(SCREEN_SPECS)) {
      for (const [action, own] of Object.entries(spec.actions)) {
        for (const where of own?.where ?? (['list', 'detail'] as const)) {
          expect(sharedListAction(action as Parameters<typeof sharedListAction>[0], where), `${spec.id}.${action} in ${where}`).toBe(false);
        }
      }
    }
  });

  it('type-ahead never answers a question: a y in the same terminal read as the key that opened it is refused', async () => {
    const server = seeded();
    const {c, press, message} = await open(server);
    c.beginRead(7, 2);
    press('d', 'y');
    expect(topModal(c.state)).toMatchObject({kind: 'dialog', title: 'Delete device ann-laptop of ann@example.com?'});
    expect(message()).toBe('Not done: that key came in with the keys that opened this question (typed ahead or pasted); press it again to answer');
    expect(server.calls).toEqual([]);
    c.beginRead(8, 1);
    press('y');
    await until(() => server.calls.length > 0, 'the delete');
    expect(server.calls).toEqual(['deleteDevice d-1']);
  });

  it('c on the new device copies its client config line by line, as the file holds it', async () => {
    const {c, io, press, type} = await open(seeded());
    press('n');
    type('bob');
    press('enter', 'ctrl+s');
    await until(() => topModal(c.state)?.kind === 'result', 'the new device result');
    const result = topModal(c.state);
    if (result?.kind !== 'result' || result.config === null) throw new Error('no config');
    press('c');
    const copied = Buffer.from(/52;c;([A-Za-z0-9+/=]+)/.exec(io.raw.at(-1) ?? '')![1]!, 'base64').toString('utf8');
    expect(copied).toBe(result.config);
    expect(copied.split('\n').length).toBeGreaterThan(5);
    expect(copied).not.toContain('\\n');
  });

  it('a paste that holds control characters is refused with the true reason, into a field and a prompt', async () => {
    const {c, press, message} = await open(seeded());
    press('2', 'n');
    c.paste('ann\x1b[31m\x01@example.com');
    expect(message()).toBe('Paste ignored: it holds 2 control characters (such as ESC), which Email does not take; nothing was inserted');
    const form = topModal(c.state);
    expect(form?.kind === 'form' && form.form.values.email).toBe('');
    press('tab');
    c.paste('admin');
    expect(message()).toBe('Paste ignored: Role does not take text');
    press('esc', 'x');
    c.paste('a\x07b.csv');
    expect(message()).toBe('Paste ignored: it holds 1 control character, which Export to file does not take; nothing was inserted');
  });

  it('edits text at a caret in a form field, a prompt and the filter, with word moves and undo', async () => {
    const {c, press, type} = await open(seeded());
    const field = () => {
      const m = topModal(c.state);
      return m?.kind === 'form' ? {value: m.form.values[m.form.specs[m.form.focus]!.key], cursor: m.form.cursor} : null;
    };
    // Users › new: Email is a text field; ← moved nothing before (it cycled a choice that is not there).
    press('2', 'n');
    type('abcdef');
    press('left', 'left');
    type('X');
    expect(field()).toEqual({value: 'abcdXef', cursor: 5});
    press('home', 'alt+f');
    expect(field()).toEqual({value: 'abcdXef', cursor: 7});
    type(' two three');
    press('ctrl+w');
    expect(field()?.value).toBe('abcdXef two ');
    press('ctrl+_');
    expect(field()?.value).toBe('abcdXef two three');
    press('ctrl+a', 'delete', 'ctrl+e', 'backspace');
    expect(field()?.value).toBe('bcdXef two thre');
    // On the Role choice ← still picks the previous value.
    press('tab');
    const role = () => (topModal(c.state) as {form: {values: Record<string, unknown>}}).form.values.role;
    const before = role();
    press('left');
    expect(role()).not.toBe(before);
    press('esc', 'y');
    await until(() => c.state.modals.length === 0, 'the discarded form to close');

    // A prompt: the export path.
    press('x');
    const prompt = () => topModal(c.state) as {value: string; cursor: number};
    press('ctrl+u');
    type('users.csv');
    press('ctrl+left', 'ctrl+left');
    type('all-');
    expect(prompt()).toMatchObject({value: 'all-users.csv', cursor: 4});
    press('ctrl+_');
    expect(prompt().value).toBe('users.csv');
    press('esc');

    // The filter: the caret moves, typing lands there, and the info line draws the caret there.
    press('1', '/');
    type('bop');
    press('left', 'backspace');
    type('b');
    expect(c.state.lists.devices.filter).toBe('bbp');
    press('ctrl+_', 'ctrl+_');
    expect(c.state.lists.devices.filter).toBe('bop');
    press('ctrl+e', 'backspace');
    type('b');
    expect(c.state.lists.devices.filter).toBe('bob');
    expect(c.activeList()!.view.rows.map((d) => (d as {id: string}).id)).toEqual(['d-3']);
    c.paste('ann');
    press('home');
    c.paste('x');
    expect(c.state.lists.devices).toMatchObject({filter: 'xbobann', filterEdit: {cursor: 1}});
  });

  it('Ctrl-Z suspends wherever the keys are, a form included, or says it cannot', async () => {
    const server = seeded();
    const {press, message} = await open(server);
    press('ctrl+z');
    expect(message()).toBe(
      'Ctrl-Z: nothing to suspend to here: no shell with job control started this console (run it from an interactive shell for Ctrl-Z and fg); q quits',
    );
    let suspended = 0;
    const c2 = new Controller(
      server,
      {label: 't', refreshSeconds: 0, readOnly: false, insecure: false, demo: false},
      {writeRaw: () => {}, exit: () => {}, suspend: () => suspended++},
    );
    running.push(c2);
    c2.start();
    await until(() => c2.state.snapshot !== null, 'the first poll');
    c2.key('2', '2');
    c2.key('n', 'n');
    c2.key('ctrl+z', 'z');
    expect(suspended).toBe(1);
    expect(topModal(c2.state)?.kind).toBe('form');
  });

  it('while the terminal is too small no key acts (d y deletes nothing) and q quits only with nothing open', async () => {
    const server = seeded();
    const {c, io, press} = await open(server);
    press('2');
    c.setViewport(60, 20);
    press('d', 'y', 'n', 'j', '/');
    c.paste('ann');
    expect(c.state.modals).toEqual([]);
    expect(c.state.lists.users.filtering).toBe(false);
    expect(server.calls).toEqual([]);
    c.setViewport(80, 24);
    press('n');
    expect(topModal(c.state)?.kind).toBe('form');
    c.setViewport(79, 24);
    press('q');
    expect(io.exited).toBe(false);
    c.setViewport(80, 23);
    press('esc', 'q');
    expect(io.exited).toBe(false);
    expect(topModal(c.state)?.kind).toBe('form');
    c.setViewport(80, 24);
    press('esc');
    c.setViewport(80, 23);
    press('q');
    expect(io.exited).toBe(true);
  });

  it('a pasted `wg show` line (peer: KEY) filters by the key', async () => {
    const server = seeded();
    const key = generateKeyPair().publicKey;
    server.devices[2] = {...server.devices[2]!, public_key: key};
    const {c, message} = await open(server);
    c.paste(`peer: ${key}\n`);
    expect(c.state.lists.devices.filter).toBe(key);
    expect(c.activeList()!.view.rows.map((d) => (d as {id: string}).id)).toEqual(['d-3']);
    expect(message()).toBe('Filtering by the key of the pasted "peer:" line');
    // Typed into an open filter, a config's key line replaces what was there.
    c.paste(`PublicKey = ${key}`);
    expect(c.state.lists.devices.filter).toBe(key);
    c.key('esc', '');
    c.paste(`  public key: ${key}`);
    expect(c.state.lists.devices.filter).toBe(key);
    expect(message()).toBe('Filtering by the key of the pasted "public key:" line');
    // A whole `wg show` stanza: its peer line.
    c.key('esc', '');
    c.paste(`peer: ${key}\n  endpoint: 198.51.100.7:51820\n  allowed ips: 10.3.2.4/32\n  latest handshake: 1 minute ago\n`);
    expect(c.state.lists.devices.filter).toBe(key);
    expect(message()).toBe('Filtering by the key of the pasted "peer:" line');
    // Anything else is taken as it is.
    c.key('esc', '');
    c.paste('peer: not-a-key');
    expect(c.state.lists.devices.filter).toBe('peer: not-a-key');
  });

  it("deleting the token's own user says first that it locks the console out; demoting them is refused at once; others' are asked plainly", async () => {
    const server = seeded();
    server.tokenUser = 'u-2';
    const {c, press} = await open(server);
    const dialogLines = () => {
      const m = topModal(c.state);
      return m?.kind === 'dialog' ? m.lines.map((l) => l.text) : [];
    };
    press('2');
    // Users sort by email: ann, bob.
    press('d');
    expect(dialogLines().join(' ')).not.toContain('API token');
    press('n', 'j', 'd');
    expect(dialogLines()[0]).toMatch(/^This is the user of this console's API token: deleting them deletes the token too, and this console is locked out/);
    press('n', 'R');
    // 0.7.36 refuses a change of one's own role: no question, the reason at once.
    expect(topModal(c.state)).toBeNull();
    expect(c.state.message?.text).toMatch(/^bob@example.com is the user of this console's API token: Firezone 0.7.36 refuses a change of one's own role/);
    press('k', 'R');
    expect(dialogLines().join(' ')).not.toContain('API token');
    press('n');
    // Marked among others, the warning comes before the names (which "… and N more" may cut).
    press(' ', 'j', ' ', 'd');
    expect(dialogLines()[0]).toMatch(/^bob@example.com is the user of this console's API token: deleting them/);
    press('n');
    expect(server.calls).toEqual([]);
  });

  it('a bulk delete whose answer never came is checked with a read, not called failed', async () => {
    const server = seeded();
    server.breakDelete.set('d-1', 'after').set('d-2', 'before');
    const {c, press} = await open(server);
    const report = () => finishedReport(c);
    press('*', 'd', 'y');
    let lines = await report();
    // d-1 was deleted before its connection broke: the read shows it gone. d-2 is still there.
    expect(lines[0]).toBe('Deleted 2 of 3 devices; 1 failed. u takes them back.');
    expect(lines).toContain('1 answer never came (the connection broke); reading the devices again showed it deleted.');
    expect(lines.some((l) => /ann-phone.*not deleted \(.*connection closed unexpectedly; it is still there\)/.test(l))).toBe(true);
    expect(lines.some((l) => /ann-laptop \(ann@example.com\) \(checked after the connection broke\)/.test(l))).toBe(true);
    press('esc');
    await until(() => c.state.modals.length === 0, 'the report to close');

    // When reading again fails too, the outcome is said to be unknown.
    server.breakDelete.clear();
    server.breakDelete.set('d-2', 'after');
    server.listsFail = true;
    press('d', 'y');
    lines = await report();
    expect(lines[0]).toMatch(/^Deleted 0 of \d+ devices?; 0 failed; 1 unknown\.$/);
    expect(lines.some((l) => /outcome unknown: .*connection closed unexpectedly; reading the list again failed too/.test(l))).toBe(true);
  });

  it('a list over the body limit is not downloaded again by the back-off: r retries', async () => {
    const server = seeded();
    const {c, message} = await open(server, {refreshSeconds: 1});
    server.listsTooLarge = true;
    c.refresh();
    await until(() => c.state.poll.failures > 0 && !c.state.poll.inFlight, 'the failed refresh');
    expect(c.state.poll).toMatchObject({retryStopped: true, nextAt: null});
    expect(message()).toBe('Refresh failed: Response too large from GET /v0/devices: more than 256 MiB; aborted (not retried by itself: r tries again)');
    server.listsTooLarge = false;
    c.key('r', 'r');
    await until(() => c.state.poll.failures === 0 && !c.state.poll.inFlight, 'the refresh after r');
  });

  it("htop's function keys, from the bytes terminals send: F1 help, F3 filter (and help search), F5 refresh, F10 quit", async () => {
    const {c, io} = await open(seeded());
    const decoder = new InputDecoder();
    let reads = 0;
    const send = (bytes: string) => c.read(decoder.feed(bytes), ++reads);
    // F3 as xterm sends it (ESC O R) opens the list's filter, and types nothing into it.
    send('\x1bOR');
    expect(c.state.lists.devices.filtering).toBe(true);
    expect(c.state.lists.devices.filter).toBe('');
    send('\x1b');
    // F5 (ESC [15~) polls now.
    const before = c.state.snapshot;
    send('\x1b[15~');
    await until(() => c.state.snapshot !== before, 'the refresh F5 asked for');
    // F1 (ESC O P) opens the help, which lists them by their names; F3 there searches it.
    send('\x1bOP');
    expect(c.state.help.open).toBe(true);
    send('\x1bOR');
    expect(c.state.help.searching).toBe(true);
    expect(keysOf('list', 'filter')).toEqual(['/', 'F3']);
    expect(keysOf('global', 'refresh')).toEqual(['r', 'F5']);
    expect(keysOf('global', 'quit')).toEqual(['q', 'F10']);
    send('\x1b');
    send('\x1b');
    // F10 (ESC [21~) quits, as q does.
    send('\x1b[21~');
    expect(io.exited).toBe(true);
  });

  it('U goes from a device to its owner, and Esc walks back the way it came', async () => {
    const server = seeded();
    const {c, press, message} = await open(server);
    const devicesNamed = () => c.list('devices')!.view.rows.map((r) => (r as {name: string}).name);
    // The list (sorted by name): bob-desktop is the third row.
    press('j', 'j');
    expect(devicesNamed()[2]).toBe('bob-desktop');
    press('U');
    expect(c.state.screen).toBe('users');
    expect(c.state.lists.users.detailId).toBe('u-2');
    press('esc');
    expect(c.state.screen).toBe('devices');
    expect(c.state.lists.devices.detailId).toBeNull();
    // From a device's detail: the owner's detail, then back to the device's.
    press('k', 'enter');
    const device = c.state.lists.devices.detailId;
    press('U');
    expect(c.state.lists.users.detailId).toBe(server.devices.find((d) => d.id === device)!.user_id);
    press('esc');
    expect(c.state.screen).toBe('devices');
    expect(c.state.lists.devices.detailId).toBe(device);
    press('esc');
    // An owner the Users list does not have: said, nothing opened.
    server.users = server.users.filter((u) => u.id !== 'u-2');
    c.refresh();
    await until(() => c.state.snapshot!.users.length === 1, 'the poll without bob');
    press('G', 'U');
    expect(c.state.screen).toBe('devices');
    expect(message()).toMatch(/^The owner \(.*\) is not on the Users list/);
  });
});
