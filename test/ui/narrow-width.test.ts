import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
import fc from 'fast-check';
import {narrowWidth, narrowWidthStyled} from '../../src/ui/narrow-width.js';

describe('narrowWidth', () => {
  it('agrees with string-width on every BMP character it answers for, alone and between others', () => {
    const answered: number[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      if (narrowWidth(ch) === null) continue;
      answered.push(c);
      expect(stringWidth(ch), `U+${c.toString(16)}`).toBe(1);
      // No neighbour it accepts joins it into another cluster.
      expect(stringWidth(`a${ch}●${ch}→`), `U+${c.toString(16)} in a line`).toBe(5);
    }
    expect(answered.length).toBeGreaterThan(1000);
  });

  it('leaves escapes, wide, zero-width and combining text to string-width', () => {
    for (const s of ['\x1b[31mred', 'e\u0301', '日本', 'a\u200bb', '✔\ufe0f', '👍', '\u00ad', '◽', 'tab\t'])
      expect(narrowWidth(s), JSON.stringify(s)).toBeNull();
    expect(narrowWidth('● laptop  hana@example.com  10.3.2.1 – 3m ↑ ✓ ▁▂▃')).toBe(stringWidth('● laptop  hana@example.com  10.3.2.1 – 3m ↑ ✓ ▁▂▃'));
    expect(narrowWidth('')).toBe(0);
  });
});

describe('narrowWidthStyled', () => {
  const sgr = fc.array(fc.constantFrom('0', '1', '31', '38', '5', '2', '255', '39', ''), {maxLength: 5}).map((ps) => `\x1b[${ps.join(';')}m`);
  const plain = ['a', 'm', ' ', '~', '●', '○', '·', '–', '…', '↑', '✓', '▁', '│', 'é', 'x'];
  // With the characters of an SGR sequence on their own, after an SGR sequence or before one.
  const narrow = fc.constantFrom(...plain, '[', '1', ';');
  const other = fc.constantFrom(
    '日',
    '\u0301',
    '\u200b',
    '👍',
    '\ufe0f',
    '\x1b]8;;x\x07',
    '\x1b[1 ',
    '\x1b[2K',
    '\x1b[?25l',
    '\x1b[38:5:1m',
    '\x1bc',
    '\x1b',
    '\t',
    '\x9b31m',
    '◽',
  );

  it('agrees with string-width on narrow text with SGR sequences anywhere (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(narrow, sgr), {maxLength: 30}), (parts) => {
        const text = parts.join('');
        expect(narrowWidthStyled(text)).toBe(stringWidth(text));
      }),
      {numRuns: 2000},
    );
  });

  it('leaves anything else to string-width: other escapes, cut sequences, wide, zero-width and combining text (property)', () => {
    fc.assert(
      // No `[` after the odd one out: a lone ESC and `[1m` make an SGR sequence.
      fc.property(
        fc.array(fc.oneof(narrow, sgr), {maxLength: 10}),
        other,
        fc.array(fc.oneof(fc.constantFrom(...plain), sgr), {maxLength: 10}),
        (before, odd, after) => {
          expect(narrowWidthStyled(before.join('') + odd + after.join(''))).toBeNull();
        },
      ),
      {numRuns: 2000},
    );
  });

  it('a sequence cut off at the end of the text', () => {
    for (const cut of ['\x1b', '\x1b[', '\x1b[1', '\x1b[1;']) expect(narrowWidthStyled(`abc${cut}`), JSON.stringify(cut)).toBeNull();
  });

  it('a coloured table row as Ink measures it', () => {
    const row = '\x1b[32m   ●\x1b[39m vault  mei.coelho@example…  \x1b[2m–\x1b[22m';
    expect(narrowWidthStyled(row)).toBe(stringWidth(row));
    expect(narrowWidthStyled(row)).toBe(34);
  });
});
