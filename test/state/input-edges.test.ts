// The edges of text entry and of a terminal read, through the real decoder and router: what a
// read carried (pastes, unknown sequences, text runs), what a key that stops a read is called, how
// many keys after it were not run; each modal kind's text (a form's secret and yes/no fields, the
// picker, a dialog that takes none); the filter's limits and its undo steps. What is said about a
// moment fades (`fades`), and is marked as a refused paste where it is one (`kind`).
import {describe, expect, it} from 'vitest';
import {topModal} from '../../src/state/core/state.js';
import {InputDecoder} from '../../src/state/input/decoder.js';
import {FILTER_TERMS_MAX} from '../../src/state/input/limits.js';
import {open, seeded} from '../helpers/fake-console.js';

const PASTE = (text: string) => `\x1b[200~${text}\x1b[201~`;

async function terminal() {
  const opened = await open(seeded());
  const decoder = new InputDecoder();
  let reads = 0;
  /** One read of the terminal, holding exactly these bytes. */
  const read = (bytes: string) => opened.c.read(decoder.feed(bytes), ++reads);
  const shown = () => opened.c.state.message;
  return {...opened, read, shown};
}

describe('a read and what it carried', () => {
  it('a paste in a read is one insertion; a run of text in the filter is typed whole, an unknown sequence types nothing', async () => {
    const {c, read} = await terminal();
    read(PASTE('ann'));
    expect(c.state.lists.devices).toMatchObject({filtering: true, filter: 'ann'});
    read('\x1b[31m');
    expect(c.state.lists.devices.filter).toBe('ann');
    read('-lap');
    expect(c.state.lists.devices.filter).toBe('ann-lap');
    // Typed as one run: one step of undo takes it all back.
    read('\x1f');
    expect(c.state.lists.devices.filter).toBe('ann');
  });

  it('on a list each character of a run is a key of its own', async () => {
    const {c, read} = await terminal();
    read('jj');
    expect(c.state.lists.devices.selectedId).toBe('d-3');
  });

  it('one key after the one that did nothing is "the key … was not run"; a paste after it counts as one', async () => {
    const {read, shown} = await terminal();
    read('\r');
    read('/e');
    expect(shown()?.text).toBe('/ does nothing here (filter is on the list; Esc goes back to it); the key that came after it in the same read was not run');
    read(`/${PASTE('anything at all')}`);
    expect(shown()?.text).toMatch(/; the key that came after it in the same read was not run$/);
  });

  it('a run of text after a key that did nothing counts its characters (Ctrl-X in the filter, then "abc")', async () => {
    const {c, read, shown} = await terminal();
    read('/');
    read('\x18abc');
    expect(c.state.lists.devices.filter).toBe('');
    expect(shown()?.text).toBe('Ctrl-X does nothing here, and the 3 keys that came after it in the same read were not run');
  });

  it('the key that stopped a read is named: a letter quoted, Space and Tab by name; an earlier message is not taken for its own', async () => {
    const {c, read, shown} = await terminal();
    c.message({tone: 'warning', text: 'an earlier warning'});
    read('d');
    read('hx');
    expect(shown()?.text).toBe('"h" does nothing here, and the key that came after it in the same read was not run');
    read(' x');
    expect(shown()?.text).toBe('Space does nothing here, and the key that came after it in the same read was not run');
    read('\tx');
    expect(shown()?.text).toBe('Tab does nothing here, and the key that came after it in the same read was not run');
    expect(topModal(c.state)).toMatchObject({kind: 'dialog'});
  });
});

describe('each kind of modal and its text', () => {
  it('a secret field takes printable keys as text: q is a letter of the password, not "quit"', async () => {
    const {c, io, read} = await terminal();
    read('2');
    read('n');
    // Email, Role, then Password.
    read('\t');
    read('\t');
    read('q');
    const m = topModal(c.state);
    expect(m?.kind === 'form' && m.form.values.password).toBe('q');
    expect(io.exited).toBe(false);
  });

  it('a yes/no field says Space sets it, a choice says its keys; q there asks before quitting (a clean form quits)', async () => {
    const {c, io, read, shown} = await terminal();
    read('2');
    read('n');
    read('\t');
    read('x');
    expect(shown()?.text).toBe('Role: ←/→ choose a value');
    read('xq');
    // The x did nothing: the q after it in the same read is not run.
    expect(io.exited).toBe(false);
    read('q');
    expect(io.exited).toBe(true);
    void c;
  });

  it('a paste refused for its control characters names the field without its indent, and fades', async () => {
    const {c, read, shown} = await terminal();
    read('n');
    // Owner, Name, Description, then "Use default Allowed IPs": Space turns it off, Tab to "  Allowed IPs".
    for (let i = 0; i < 3; i++) read('\t');
    read(' ');
    read('\t');
    const m = topModal(c.state);
    expect(m?.kind === 'form' && m.form.specs[m.form.focus]!.label).toBe('  Allowed IPs');
    read(PASTE('10.0.0.0/8\x1b[31m'));
    expect(shown()).toMatchObject({
      tone: 'warning',
      fades: true,
      kind: 'paste-refused',
      text: 'Paste ignored: it holds 1 control character (such as ESC), which Allowed IPs does not take; nothing was inserted',
    });
  });

  it("a refusal for a field's limit fades, typed or pasted", async () => {
    const {read, shown} = await terminal();
    read('e');
    read(PASTE('n'.repeat(256)));
    expect(shown()).toMatchObject({fades: true, kind: 'paste-refused'});
    read('\x15');
    read(PASTE('n'.repeat(255)));
    read('n');
    expect(shown()).toMatchObject({fades: true, text: "Name holds at most 255 characters (0.7.36's limit): what was typed was not inserted"});
  });

  it('the picker takes letters as its filter (j is not "down" there)', async () => {
    const {c, read} = await terminal();
    read('n');
    read('j');
    expect(topModal(c.state)).toMatchObject({kind: 'picker', filter: 'j'});
    read('o');
    expect(topModal(c.state)).toMatchObject({kind: 'picker', filter: 'jo'});
  });

  it('a dialog takes no paste, and says so in a note that fades', async () => {
    const {c, read, shown} = await terminal();
    read('d');
    read(PASTE('yes'));
    expect(topModal(c.state)).toMatchObject({kind: 'dialog'});
    expect(shown()).toMatchObject({tone: 'warning', fades: true, kind: 'paste-refused', text: 'Paste ignored: nothing here takes text'});
  });
});

describe('the filter as typed', () => {
  it('says its limits in words that fade: typed, without "Paste ignored"', async () => {
    const {c, read, shown} = await terminal();
    read('/');
    read(PASTE('x'.repeat(1024)));
    read('y');
    expect(shown()).toMatchObject({fades: true, text: 'The filter holds at most 1,024 characters: what was typed was not inserted'});
    read('\x15');
    read(PASTE(Array.from({length: FILTER_TERMS_MAX}, (_, i) => `t${i}`).join(' ')));
    read(' ');
    read('z');
    expect(shown()).toMatchObject({
      fades: true,
      text: `the filter takes at most ${FILTER_TERMS_MAX} terms, and this would make ${FILTER_TERMS_MAX + 1}; nothing was inserted`,
    });
    expect(c.state.lists.devices.filter.endsWith(' ')).toBe(true);
  });

  it('a filter already past its terms (set elsewhere) can still be edited down, and typed into without adding a term', async () => {
    const {c, read} = await terminal();
    const many = Array.from({length: FILTER_TERMS_MAX + 8}, (_, i) => `t${i}`).join(' ');
    c.updateList('devices', (st) => ({...st, filtering: true, filter: many, filterEdit: {cursor: [...many].length}}));
    read('x');
    expect(c.state.lists.devices.filter).toBe(`${many}x`);
    read('\x7f');
    expect(c.state.lists.devices.filter).toBe(many);
  });
});
