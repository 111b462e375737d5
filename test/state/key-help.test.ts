// The words of each key (src/state/input/key-help.ts): the key table's, with what each screen's spec
// says of its keys. The table names no screen; the rows the help, README and man page show, and a
// key's "does nothing here", are put together from the specs. Expected texts are written out.
import {describe, expect, it} from 'vitest';
import {bindingFor, BINDINGS, type Binding} from '../../src/state/input/keymap.js';
import {keyHelp, onlyElsewhere, onTheList} from '../../src/state/input/key-help.js';
import {SCREEN_SPECS} from '../../src/state/screens/index.js';
import {listKeyAvailable, sharedListAction} from '../../src/state/lists/actions.js';
import {open, seeded} from '../helpers/fake-console.js';

const SCREEN_IDS = ['devices', 'users', 'rules', 'activity', 'configuration'];

function binding(scope: 'list' | 'detail', key: string): Binding {
  const b = bindingFor([scope], key);
  if (!b) throw new Error(`no ${scope} ${key}`);
  return b;
}

describe('key help', () => {
  it('the key table names no screen: what a key does on one screen is in that screen’s spec', () => {
    for (const b of BINDINGS.filter((x) => x.scope === 'list' || x.scope === 'detail')) {
      for (const text of [b.help, b.name]) {
        if (text === undefined) continue;
        for (const id of SCREEN_IDS) expect(text, `${b.scope} ${b.action}`).not.toMatch(new RegExp(`(^|[(;] ?)${id}( and \\w+)?:`, 'i'));
      }
    }
  });

  it('every key has words, and a screen’s own action the table leaves to the screens is described by every screen that has it', () => {
    for (const b of BINDINGS) {
      expect(keyHelp(b), `${b.scope} ${b.action}`).not.toBe('');
      if (b.help !== undefined || (b.scope !== 'list' && b.scope !== 'detail') || sharedListAction(b.action, b.scope)) continue;
      const place = b.scope;
      for (const spec of Object.values(SCREEN_SPECS)) {
        if (listKeyAvailable(spec, b.action, place)) expect(spec.keyHelp?.[place]?.[b.action], `${spec.id} ${place} ${b.action}`).toBeDefined();
      }
    }
  });

  it('rows: the screens’ words alone, or after the table’s, screens with the same words named together in the screens’ order', () => {
    expect(keyHelp(binding('list', 'R'))).toBe('users: promote to admin / demote to unprivileged');
    expect(keyHelp(binding('list', 't'))).toBe('devices and users: trace traffic from the row (opens :trace with it filled in; type DEST)');
    expect(keyHelp(binding('detail', 'k'))).toBe('scroll up (users: the previous of their devices)');
    expect(keyHelp(binding('detail', 'e'))).toBe('edit (devices: name/description; users: email/password)');
    expect(keyHelp(binding('list', 's'))).toMatch(/; s 0: the list in its own order \(rules: the firewall order\)$/);
    expect(keyHelp(binding('list', 'd'))).toBe('delete the selected item, or every marked one (asks once; progress, Esc stops)');
    // Not a list or detail key: the table's words as they are.
    expect(keyHelp(BINDINGS.find((b) => b.scope === 'dialog' && b.action === 'cancel')!)).toBe('cancel (the default)');
  });

  it('does nothing here: a key of some screens says which; one every list has says what it does', () => {
    expect(onlyElsewhere(binding('list', 'R'))).toBe('Users only: promote to admin / demote to unprivileged');
    expect(onlyElsewhere(binding('list', 'S'))).toBe(
      'Devices only: only stale devices (no handshake for --stale-days, default 30, or never connected in that time), oldest first; again: all',
    );
    expect(onlyElsewhere(binding('list', 't'))).toBe('Devices and Users only: trace traffic from the row (opens :trace with it filled in; type DEST)');
    expect(onlyElsewhere(binding('list', ' '))).toBe('mark / unmark the row (marks stay through refreshes, sorting and filtering)');
  });

  it('a list’s key in a detail or on Configuration: on this list, on the lists, or on other screens only', () => {
    expect(onTheList(binding('list', '/'), 'devices')).toBe('filter is on the list; Esc goes back to it');
    expect(onTheList(binding('list', 'S'), 'devices')).toBe('showing stale devices is on the list; Esc goes back to it');
    expect(onTheList(binding('list', 'x'), 'rules')).toBe('export the list as shown is on the list; Esc goes back to it');
    expect(onTheList(binding('list', 'S'), 'users')).toMatch(/^Devices only: only stale devices/);
    expect(onTheList(binding('list', 's'), null)).toBe('sort by a column is on the lists: 1–3 and 5');
    expect(onTheList(binding('list', 'R'), null)).toBe('Users only: promote to admin / demote to unprivileged');
  });

  it('the console says so when the key is pressed', async () => {
    const {press, message} = await open(seeded());
    press('enter', 'S');
    expect(message()).toBe('S does nothing here (showing stale devices is on the list; Esc goes back to it)');
    press('esc', '2', 'enter', 'S');
    expect(message()).toMatch(/^S does nothing here \(Devices only: only stale devices \(no handshake/);
    press('esc', '4', 'R');
    expect(message()).toBe('R does nothing here (Users only: promote to admin / demote to unprivileged)');
    press('t');
    expect(message()).toBe('t does nothing here (Devices and Users only: trace traffic from the row (opens :trace with it filled in; type DEST))');
  });
});
