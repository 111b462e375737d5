// The help where you are (src/state/input/help.ts, help-sections.ts `helpSections`): it opens on the keys
// of the place it was opened from, F1 opens it over a form or a dialog, `/` searches it, and keys
// pressed while it is open never reach what is under it.
import {describe, expect, it} from 'vitest';
import {SCOPE_TITLES} from '../../src/state/input/keymap.js';
import {helpSections, LINE_EDITOR_TITLE, COMMANDS_TITLE} from '../../src/state/input/help-sections.js';
import {topModal} from '../../src/state/core/state.js';
import {open, seeded} from '../helpers/fake-console.js';

const titles = (context: Parameters<typeof helpSections>[0]) => helpSections(context).map((s) => (s.here ? `${s.title} (here)` : s.title));

describe('helpSections', () => {
  it('without a place: the reference order (the README table)', () => {
    const all = titles([]);
    expect(all[0]).toBe(SCOPE_TITLES.global);
    expect(all.indexOf(LINE_EDITOR_TITLE)).toBe(all.indexOf(SCOPE_TITLES.form) + 1);
    expect(all.indexOf(COMMANDS_TITLE)).toBe(all.indexOf(SCOPE_TITLES.command) + 1);
  });

  it('from a place: its keys first, then the keys that work everywhere, then every other section once', () => {
    expect(titles(['detail', 'global']).slice(0, 2)).toEqual(['Detail views (here)', 'Everywhere']);
    expect(titles(['form']).slice(0, 3)).toEqual(['Forms (here)', `${LINE_EDITOR_TITLE} (here)`, 'Everywhere']);
    expect(titles(['command']).slice(0, 4)).toEqual(['Command bar (:) (here)', `${LINE_EDITOR_TITLE} (here)`, `${COMMANDS_TITLE} (here)`, 'Everywhere']);
    for (const place of [['list', 'global'], ['form'], ['command'], ['dialog']] as const) {
      const list = helpSections(place).map((s) => s.title);
      expect(new Set(list).size, place.join()).toBe(list.length);
      expect(list.slice().sort()).toEqual(
        helpSections([])
          .map((s) => s.title)
          .sort(),
      );
    }
  });
});

describe('the help in the console', () => {
  it('? on a list opens on the list keys; on a detail, the detail keys', async () => {
    const {c, press} = await open(seeded());
    press('?');
    expect(c.state.help).toMatchObject({open: true, context: ['list', 'global']});
    press('esc');
    expect(c.state.help.open).toBe(false);
    press('enter', '?');
    expect(c.state.help.context).toEqual(['detail', 'global']);
  });

  it('F1 opens it over a form; keys then are the help’s, never the form’s; Esc comes back to the form as it was', async () => {
    const {c, io, press, type} = await open(seeded());
    press('2', 'n');
    type('ann?');
    // In a text field ? is text.
    expect(topModal(c.state)).toMatchObject({kind: 'form', form: {values: {email: 'ann?'}}});
    press('f1');
    expect(c.state.help).toMatchObject({open: true, context: ['form']});
    press('q', 'x', 'ctrl+s', 'enter');
    expect(io.exited).toBe(false);
    press('esc');
    expect(c.state.help.open).toBe(false);
    expect(topModal(c.state)).toMatchObject({kind: 'form', form: {values: {email: 'ann?'}}});
  });

  it('F1 over a dialog, and the dialog still waits for its answer', async () => {
    const server = seeded();
    const {c, press} = await open(server);
    press('d');
    expect(topModal(c.state)?.kind).toBe('dialog');
    press('f1');
    expect(c.state.help.context).toEqual(['dialog']);
    press('y');
    expect(server.calls).toEqual([]);
    press('esc');
    expect(topModal(c.state)?.kind).toBe('dialog');
  });

  it('/ searches: typed text filters, Enter keeps it, Esc clears it, Esc again closes', async () => {
    const {c, press, type} = await open(seeded());
    press('?', '/');
    expect(c.state.help.searching).toBe(true);
    type('delete');
    expect(c.state.help).toMatchObject({search: 'delete', searching: true});
    // q is text here, not quit.
    type('q');
    press('backspace', 'enter');
    expect(c.state.help).toMatchObject({search: 'delete', searching: false, open: true});
    press('esc');
    expect(c.state.help).toMatchObject({search: '', open: true});
    press('esc');
    expect(c.state.help.open).toBe(false);
  });

  it('a paste goes into the search, else is refused with a reason', async () => {
    const {c, press, message} = await open(seeded());
    press('?');
    c.paste('role');
    expect(message()).toBe('Paste ignored: the help is open (/ searches it)');
    press('/');
    c.paste('role\n');
    expect(c.state.help.search).toBe('role');
    expect(c.state.lists.devices.filter).toBe('');
  });
});

describe('more ways in and around', () => {
  it('? where nothing takes it (a dialog) opens the help; g and G go to its ends', async () => {
    const {c, press} = await open(seeded());
    press('d', '?');
    expect(c.state.help).toMatchObject({open: true, context: ['dialog']});
    c.measuredHelp(40);
    press('G');
    expect(c.state.help.scroll).toBe(40);
    press('g');
    expect(c.state.help.scroll).toBe(0);
  });
});
