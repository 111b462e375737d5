// Plain terminals (LC_ALL=C): no ASCII stand-in may look like a key. The down arrow once fell back
// to `v`, a detail's footer read `v 11 more lines (j / v)`, and `v` reveals the preshared key.
// The keys are read from the keymap table (BINDINGS and the line editor's), the stand-ins from the
// tables the console draws them from, so a new binding or a new fallback is checked without a
// change here.
import React from 'react';
import {afterEach, describe, expect, it} from 'vitest';
import {render} from 'ink-testing-library';
import {ASCII_FOLD, ASCII_GLYPHS, ASCII_UNKNOWN, moreBelow, useGlyphs} from '../../src/state/core/glyphs.js';
import {BINDINGS, displayKey} from '../../src/state/input/keymap.js';
import {EDIT_KEYS} from '../../src/state/input/textedit.js';
import {CHANGE_ASCII} from '../../src/state/tracking/highlights.js';
import {ASCII_LEVELS} from '../../src/state/tracking/sparkline.js';
import {PROGRESS_ASCII} from '../../src/state/interactions/jobs.js';
import {DetailView} from '../../src/ui/views/DetailView.js';

afterEach(() => useGlyphs(false));

/** Every key a press of one printable character triggers somewhere, from the tables. */
const boundChars = new Set([...BINDINGS.flatMap((b) => b.keys), ...EDIT_KEYS.flatMap((k) => k.keys)].filter((k) => [...k].length === 1 && k !== ' '));

/** The one-cell stand-ins, named by where they come from. */
const KEY_WORDS = new Set(['keyUp', 'keyDown', 'keyLeft', 'keyRight']);
const symbols: Array<[string, string]> = [
  ...Object.entries(ASCII_GLYPHS).flatMap(([name, v]): Array<[string, string]> =>
    typeof v === 'string' && !KEY_WORDS.has(name) && name !== 'border' ? [[`glyph ${name}`, v]] : [],
  ),
  ...Object.entries(ASCII_FOLD).map(([from, to]): [string, string] => [`fold ${from}`, to]),
  ['fold of any other character', ASCII_UNKNOWN],
  ...Object.entries(CHANGE_ASCII).map(([name, v]): [string, string] => [`change mark ${name}`, v]),
  ...ASCII_LEVELS.map((v, i): [string, string] => [`sparkline level ${i}`, v]),
  ...PROGRESS_ASCII.map((v, i): [string, string] => [`progress bar ${i === 0 ? 'full' : 'empty'}`, v]),
];

describe('ASCII fallbacks', () => {
  it('the keymap binds the characters the old fallbacks used (the check below has teeth)', () => {
    for (const ch of ['v', '>', '<', '*', 'x', 'o', '?']) expect(boundChars, ch).toContain(ch);
  });

  it.each(symbols)('%s (%j) is no key, letter or digit', (_where, value) => {
    for (const ch of value) {
      expect(boundChars.has(ch), `"${ch}" is a key the keymap binds`).toBe(false);
      expect(ch).not.toMatch(/[A-Za-z0-9]/);
    }
  });

  it('arrow keys are named by words, which no key is', () => {
    useGlyphs(true);
    expect([displayKey('up'), displayKey('down'), displayKey('left'), displayKey('right')]).toEqual(['Up', 'Down', 'Left', 'Right']);
    expect(displayKey('alt+left')).toBe('Alt-Left');
    useGlyphs(false);
    expect([displayKey('up'), displayKey('down'), displayKey('left'), displayKey('right')]).toEqual(['↑', '↓', '←', '→']);
  });

  it('"more below" is said in words on a plain terminal', () => {
    useGlyphs(true);
    expect(moreBelow(11, 'line')).toBe('11 more lines below');
    expect(moreBelow(1, 'line')).toBe('1 more line below');
    useGlyphs(false);
    expect(moreBelow(11, 'line')).toBe('↓ 11 more lines');
  });

  it("a detail's footer on a plain terminal names no key it does not mean", () => {
    useGlyphs(true);
    const lines = Array.from({length: 20}, (_, i) => ({label: `Field ${i}`, value: `value ${i}`}));
    const ui = render(<DetailView lines={lines} scroll={0} width={80} height={10} />);
    const footer = ui.lastFrame()!.split('\n').at(-1)!.trimEnd();
    ui.unmount();
    expect(footer).toBe('11 more lines below (j / Down)');
  });
});
