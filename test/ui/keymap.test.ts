import {readFileSync, writeFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {actionFor, BINDINGS, keymapMarkdown} from '../../src/state/input/keymap.js';

const README = new URL('../../README.md', import.meta.url);
const START = /<!-- keymap:start[^>]*-->\n/;
const END = '<!-- keymap:end -->';

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

  it('scopes are searched in order', () => {
    expect(actionFor(['list', 'global'], 'j')).toBe('down');
    expect(actionFor(['filter'], 'j')).toBeUndefined();
    expect(actionFor(['dialog'], 'esc')).toBe('cancel');
    expect(actionFor(['list', 'global'], '?')).toBe('help');
  });
});
