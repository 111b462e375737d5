import stringWidth from 'string-width';
import {describe, expect, it} from 'vitest';
import {narrowWidth} from '../../src/ui/narrow-width.js';

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
