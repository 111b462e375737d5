import {readFileSync, writeFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import type {Key} from 'ink';
import {actionFor, BINDINGS, keymapMarkdown} from '../../src/state/input/keymap.js';
import {keyName} from '../../src/ui/keys.js';

const README = new URL('../../README.md', import.meta.url);
const START = /<!-- keymap:start[^>]*-->\n/;
const END = '<!-- keymap:end -->';

const noKey: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
} as Key;

describe('keymap', () => {
  it('the README key table is generated from the keymap (UPDATE_README=1 rewrites it)', () => {
    const text = readFileSync(README, 'utf8');
    const start = START.exec(text);
    expect(start).not.toBeNull();
    const from = start!.index + start![0].length;
    const to = text.indexOf(END);
    const expected = `${keymapMarkdown()}\n`;
    if (process.env.UPDATE_README === '1') {
      writeFileSync(README, text.slice(0, from) + expected + text.slice(to));
      return;
    }
    expect(text.slice(from, to)).toBe(expected);
  });

  it('no key is bound twice within a scope', () => {
    const seen = new Set<string>();
    for (const b of BINDINGS) {
      for (const k of b.keys) {
        const id = `${b.scope}:${k}`;
        expect(seen.has(id), id).toBe(false);
        seen.add(id);
      }
    }
  });

  it('normalises Ink key events (Ink 6 reports backspace as delete)', () => {
    expect(keyName('', {...noKey, delete: true})).toBe('backspace');
    expect(keyName('', {...noKey, tab: true, shift: true})).toBe('shift+tab');
    expect(keyName('c', {...noKey, ctrl: true})).toBe('ctrl+c');
    expect(keyName('G', noKey)).toBe('G');
    expect(keyName('', {...noKey, escape: true, meta: true})).toBe('esc');
  });

  it('scopes are searched in order', () => {
    expect(actionFor(['list', 'global'], 'j')).toBe('down');
    expect(actionFor(['filter'], 'j')).toBeUndefined();
    expect(actionFor(['dialog'], 'esc')).toBe('cancel');
    expect(actionFor(['list', 'global'], '?')).toBe('help');
  });
});

describe('splitChunk', () => {
  it('splits control characters out of a chunk and keeps printable runs together', async () => {
    const {splitChunk} = await import('../../src/ui/keys.js');
    expect(splitChunk('\t\tab\x13\x7f\r')).toEqual([
      {input: '\t', name: 'tab'},
      {input: '\t', name: 'tab'},
      {input: 'ab', name: 'ab'},
      {input: 's', name: 'ctrl+s'},
      {input: '\x7f', name: 'backspace'},
      {input: '\r', name: 'enter'},
    ]);
  });
});
