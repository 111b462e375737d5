// Where keys go and what the status bar offers, place by place, read-write and read-only: whether
// printable keys are text there (acceptsText) and the hints. The expected hints are written out by
// hand: they are what an admin reads, and a change to them should be a decision.
import {describe, expect, it} from 'vitest';
import {topModal} from '../../src/state/core/state.js';
import {acceptsText} from '../../src/state/input/scopes.js';
import {isTypedKey as typed} from '../../src/state/input/textedit.js';
import {open, seeded} from '../helpers/fake-console.js';

describe('scopes and hints', () => {
  it('read-write: text goes where a field, filter or prompt is; the hints offer what works there', async () => {
    const {c, press} = await open(seeded());
    const here = () => ({text: acceptsText(c.state), hints: c.hints(c.state)});
    expect(here()).toEqual({text: false, hints: '/ filter  s sort  Enter details  n new  Space mark  ? help  : command  p pause'});
    press(' ');
    expect(here().hints).toBe('1 marked: d delete · K new keys · Esc unmark  / filter  s sort  Enter details  n new  Space mark  ? help  : command  p pause');
    // Users have no new key: their marked rows are offered the delete alone.
    press('2', ' ');
    expect(here().hints).toMatch(/^1 marked: d delete · Esc unmark {2}\/ filter/);
    press('esc', '1');
    press('esc', '/');
    expect(here()).toEqual({text: true, hints: 'Enter keep  Esc clear'});
    press('esc', 'enter');
    expect(here()).toEqual({text: false, hints: 'e edit  d delete  v reveal  c copy  Esc back  ? help  : command  p pause'});
    press('esc', '?');
    expect(here()).toEqual({text: false, hints: '/ search  Esc close  ? help  : command  p pause'});
    press('esc', '2', 'n');
    expect(here()).toEqual({text: true, hints: 'Tab next  Ctrl-S save  Esc cancel'});
    // The Role field is a choice: keys are not text there.
    press('tab');
    expect(here()).toEqual({text: false, hints: 'Tab next  Ctrl-S save  Esc cancel'});
    // The Owner picker of a new device takes text (typing opens the picker).
    press('esc', '1', 'n');
    expect(topModal(c.state)?.kind).toBe('form');
    expect(here().text).toBe(true);
    press('esc', '4');
    expect(here()).toEqual({text: false, hints: '↑ move  Enter edit  n add provider  d delete provider  v reveal  ? help  : command  p pause'});
    press('1', 'x');
    expect(here()).toEqual({text: true, hints: 'Enter accept  Esc cancel'});
    press('esc');
    expect(here().text).toBe(false);
  });

  it('read-only: no write is offered, marked rows included', async () => {
    const {c, press} = await open(seeded(), {readOnly: true});
    const hints = () => c.hints(c.state);
    expect(hints()).toBe('/ filter  s sort  Enter details  Space mark  ? help  : command  p pause');
    press(' ');
    expect(hints()).toBe('1 marked: Esc unmark  / filter  s sort  Enter details  Space mark  ? help  : command  p pause');
    press('esc', 'enter');
    expect(hints()).toBe('v reveal  c copy  Esc back  ? help  : command  p pause');
    press('esc', '4');
    expect(hints()).toBe('↑ move  v reveal  ? help  : command  p pause');
  });

  it('before the first data only the keys that work everywhere are offered', async () => {
    const server = seeded();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const list = server.listDevices.bind(server);
    server.listDevices = async () => {
      await held;
      return list();
    };
    const {Controller} = await import('../../src/state/controller.js');
    const c = new Controller(server, {label: 't', refreshSeconds: 0, readOnly: false, insecure: false, demo: false}, {writeRaw: () => {}, exit: () => {}});
    c.start();
    expect(c.hints(c.state)).toBe('? help  : command  p pause');
    release();
    c.stop();
  });

  it('a typed key is printable text its name spells, never a named key', () => {
    expect(typed('a', 'a')).toBe(true);
    expect(typed('abc', 'abc')).toBe(true);
    expect(typed('enter', '\r')).toBe(false);
    expect(typed('tab', '\t')).toBe(false);
    expect(typed('a\tb', 'a\tb')).toBe(false);
    expect(typed('ctrl+a', 'a')).toBe(false);
    expect(typed('\x01', '\x01')).toBe(false);
    expect(typed('esc', '')).toBe(false);
  });
});
