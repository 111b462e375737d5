// Where a key or a paste lands, place by place (src/state/input/dispatch.ts), without Ink: a paste
// into a form field, a picker, a prompt, the filter and places that take no text; what a key says
// where it does nothing; typing while a save waits. Messages are written out: they are what an
// admin reads.
import {describe, expect, it, vi} from 'vitest';
import {Controller} from '../../src/state/controller.js';
import {topModal} from '../../src/state/core/state.js';
import {open, seeded, until} from '../helpers/fake-console.js';

const formValue = (c: Awaited<ReturnType<typeof open>>['c'], key: string) => {
  const m = topModal(c.state);
  return m?.kind === 'form' ? m.form.values[key] : undefined;
};

describe('pastes', () => {
  it('into a form field: one line, without the line breaks a copy adds at either end', async () => {
    const {c, press} = await open(seeded());
    press('2', 'n');
    c.paste('\r\n\nann@\r\nexample.com\n\n');
    expect(formValue(c, 'email')).toBe('ann@ example.com');
    press('ctrl+u');
    c.paste('a\tb');
    expect(formValue(c, 'email')).toBe('a b');
  });

  it('onto a picker field it opens the picker filtered by the text, trimmed', async () => {
    const {c, press} = await open(seeded());
    press('n');
    c.paste('  bob \n');
    expect(topModal(c.state)).toMatchObject({kind: 'picker', filter: 'bob'});
    // In the picker it is added to the filter, as one line.
    c.paste('x\ny');
    expect(topModal(c.state)).toMatchObject({kind: 'picker', filter: 'bobx y', index: 0});
    c.paste('\x1b[A');
    expect(topModal(c.state)).toMatchObject({kind: 'picker', filter: 'bobx y'});
    expect(c.state.message?.text).toBe('Paste ignored: it holds 1 control character (such as ESC), which the picker does not take; nothing was inserted');
    // Typing edits the filter at its end: Backspace, Ctrl-W; a caret move is not a picker key.
    c.key('backspace', '');
    expect(topModal(c.state)).toMatchObject({filter: 'bobx '});
    c.key('ctrl+w', 'w');
    expect(topModal(c.state)).toMatchObject({filter: ''});
    c.key('q', 'q');
    expect(topModal(c.state)).toMatchObject({filter: 'q'});
    c.key('left', '');
    expect(topModal(c.state)).toMatchObject({filter: 'q'});
  });

  it('into a prompt at its caret', async () => {
    const {c, press} = await open(seeded());
    press('x', 'ctrl+u');
    c.paste('devices.csv\n');
    press('home');
    c.paste('all-');
    expect(topModal(c.state)).toMatchObject({kind: 'prompt', value: 'all-devices.csv', cursor: 4});
  });

  it('on a list it opens the filter with the text; in the filter it goes in at the caret', async () => {
    const {c, press} = await open(seeded());
    c.paste('  ann\r\n');
    expect(c.state.lists.devices).toMatchObject({filtering: true, filter: 'ann', filterEdit: {cursor: 3}});
    press('home');
    c.paste('x\ny');
    expect(c.state.lists.devices).toMatchObject({filter: 'x yann', filterEdit: {cursor: 3}});
    c.paste('\x07');
    expect(c.state.lists.devices.filter).toBe('x yann');
    expect(c.state.message?.text).toBe('Paste ignored: it holds 1 control character, which the filter does not take; nothing was inserted');
  });

  it('a refused paste fades like a note, so the key hints come back; an error stays', async () => {
    const {c, press} = await open(seeded());
    press('enter');
    vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']});
    try {
      c.paste('bob');
      expect(c.state.message?.text).toBe('Paste ignored: nothing here takes text');
      vi.advanceTimersByTime(Controller.MESSAGE_FADE_MS - 1);
      expect(c.state.message?.text).toBe('Paste ignored: nothing here takes text');
      vi.advanceTimersByTime(1);
      expect(c.state.message).toBeNull();
      c.message({tone: 'error', text: 'an error'});
      vi.advanceTimersByTime(10 * Controller.MESSAGE_FADE_MS);
      expect(c.state.message?.text).toBe('an error');
    } finally {
      vi.useRealTimers();
    }
  });

  it('where nothing takes text it says so: the help, a detail, a dialog', async () => {
    const {c, press} = await open(seeded());
    press('?');
    c.paste('ann');
    expect(c.state.message?.text).toBe('Paste ignored: the help is open (/ searches it)');
    expect(c.state.lists.devices.filtering).toBe(false);
    press('esc', 'enter');
    c.paste('bob');
    expect(c.state.message?.text).toBe('Paste ignored: nothing here takes text');
    expect(c.state.lists.devices.filter).toBe('');
  });
});

describe('keys', () => {
  it('Ctrl-C quits from anywhere, a form included', async () => {
    const {io, press} = await open(seeded());
    press('2', 'n', 'a', 'ctrl+c');
    expect(io.exited).toBe(true);
  });

  it('a key a form field does not take says why: a choice, a toggle', async () => {
    const {c, press} = await open(seeded());
    press('2', 'n', 'tab');
    press('z');
    expect(c.state.message?.text).toBe('Role: ←/→ choose a value');
    press('esc', '1', 'n');
    // Owner, Name, Description, then "Use default Allowed IPs" (a toggle).
    press('tab', 'tab', 'tab', 'z');
    expect(c.state.message?.text).toBe('Use default Allowed IPs: Space toggles it');
  });

  it('q on a form asks first when something was typed, and quits at once when not', async () => {
    const {c, io, press} = await open(seeded());
    press('2', 'n', 'tab', 'q');
    expect(io.exited).toBe(true);
    io.exited = false;
    press('esc', 'n', 'a', 'tab', 'q');
    expect(io.exited).toBe(false);
    expect(topModal(c.state)?.kind).toBe('dialog');
  });

  it('typing while a save waits for the server says so, and changes nothing', async () => {
    const server = seeded();
    let answer: () => void = () => undefined;
    const create = server.createUser.bind(server);
    server.createUser = (body) =>
      new Promise((resolve, reject) => {
        answer = () => create(body).then(resolve, reject);
      });
    const {c, press, type} = await open(server);
    press('2', 'n');
    type('new@example.com');
    press('tab', 'tab');
    type('correct horse battery');
    press('tab');
    type('correct horse battery');
    press('ctrl+s');
    await until(() => (topModal(c.state) as {form?: {submitting: boolean}})?.form?.submitting === true, 'the save to start');
    const focusBefore = (topModal(c.state) as {form: {focus: number}}).form.focus;
    press('x');
    expect(c.state.message?.text).toBe('Saving… the server has not answered yet: "x" was not taken (Esc cancels the save)');
    press('backspace');
    expect(c.state.message?.text).toBe('Saving… the server has not answered yet: Backspace was not taken (Esc cancels the save)');
    // A bound key of the form (Tab) and one of the screen behind it (`e`, after the form closes) alike.
    press('tab');
    expect(c.state.message?.text).toBe('Saving… the server has not answered yet: Tab was not taken (Esc cancels the save)');
    c.paste('pasted');
    expect(c.state.message?.text).toBe('Paste ignored: saving… the server has not answered yet; nothing was inserted (Esc cancels the save)');
    expect(formValue(c, 'email')).toBe('new@example.com');
    expect((topModal(c.state) as {form: {focus: number}}).form.focus).toBe(focusBefore);
    answer();
    await until(() => c.state.modals.length === 0, 'the save to finish');
  });
});

describe('a refusal that is no longer true', () => {
  it('a paste refused, then one that goes in: the refusal is cleared', async () => {
    const {c, press} = await open(seeded());
    press('/');
    c.paste('lap\x1b[31mtop\x07');
    expect(c.state.message?.text).toMatch(/^Paste ignored/);
    c.paste('lap');
    expect(c.state.lists.devices.filter).toBe('lap');
    expect(c.state.message).toBeNull();
  });
});
