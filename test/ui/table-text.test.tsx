import {describe, expect, it} from 'vitest';
import {displayWidth, fitCell, padEnd, padStart, sanitizeLine, truncate} from '../../src/ui/text.js';

describe('displayWidth', () => {
  it('counts ASCII by length and CJK/emoji as two cells', () => {
    expect(displayWidth('')).toBe(0);
    expect(displayWidth('laptop-01')).toBe(9);
    expect(displayWidth('日本語')).toBe(6);
    expect(displayWidth('ノートPC')).toBe(8);
    expect(displayWidth('📱 phone')).toBe(8);
    expect(displayWidth('e\u0301')).toBe(1); // combining accent
    expect(displayWidth('● ○ · ▲ …')).toBe(9);
    expect(displayWidth('\x1b[31mred\x1b[39m')).toBe(3);
  });
});

describe('truncate', () => {
  it('leaves text that fits alone', () => {
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('日本', 4)).toBe('日本');
  });
  it('cuts ASCII with an ellipsis within the width', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abcdef', 1)).toBe('…');
    expect(truncate('abcdef', 0)).toBe('');
    expect(truncate('abcdef', -3)).toBe('');
  });
  it('cuts by display width and never splits a wide character or a grapheme', () => {
    expect(truncate('日本語テキスト', 7)).toBe('日本語…');
    expect(displayWidth(truncate('日本語テキスト', 7))).toBe(7);
    // 6 cells: 2+2 = 4, the third character would reach 6 leaving no room for the ellipsis.
    expect(truncate('日本語テキスト', 6)).toBe('日本…');
    expect(displayWidth(truncate('日本語テキスト', 6))).toBe(5);
    expect(truncate('👩‍💻👩‍💻👩‍💻', 5)).toBe('👩‍💻👩‍💻…');
    expect(truncate('cafe\u0301 noir', 5)).toBe('cafe\u0301…');
  });
});

describe('padding', () => {
  it('pads by display width', () => {
    expect(padEnd('日本', 6)).toBe('日本  ');
    expect(padStart('日本', 6)).toBe('  日本');
    expect(padEnd('abc', 2)).toBe('abc');
    expect(padStart('abc', 5)).toBe('  abc');
  });
  it('fitCell gives exactly the width', () => {
    for (const s of ['', 'abc', '日本語テキスト', 'a日b本', 'long ascii text']) {
      for (const w of [1, 2, 3, 5, 8]) {
        expect(displayWidth(fitCell(s, w))).toBe(w);
        expect(displayWidth(fitCell(s, w, 'right'))).toBe(w);
      }
    }
    expect(fitCell('12', 5, 'right')).toBe('   12');
  });
});

describe('sanitizeLine', () => {
  it('turns control characters (newline, tab, ESC) into spaces', () => {
    expect(sanitizeLine('a\nb\tc\x1b[2Jd')).toBe('a b c [2Jd');
    const plain = 'plain';
    expect(sanitizeLine(plain)).toBe(plain);
  });
});
