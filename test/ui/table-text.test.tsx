import {describe, expect, it} from 'vitest';
import fc from 'fast-check';
import {graphemes} from '../../src/common/graphemes.js';
import {displayWidth, fitCell, padEnd, padStart, truncate, wrapLines} from '../../src/ui/text.js';
import {ESCAPE_CLOSE as C, ESCAPE_OPEN as O} from '../../src/common/display-safe.js';

describe('displayWidth', () => {
  it('counts ASCII by length and CJK/emoji as two cells', () => {
    expect(displayWidth('')).toBe(0);
    expect(displayWidth('laptop-01')).toBe(9);
    expect(displayWidth('日本語')).toBe(6);
    expect(displayWidth('ノートPC')).toBe(8);
    expect(displayWidth('📱 phone')).toBe(8);
    expect(displayWidth('e\u0301')).toBe(1); // combining accent
    expect(displayWidth('● ○ · ▲ …')).toBe(9);
    // Raw escape sequences are not ours: they are measured as the visible escapes they are drawn as.
    expect(displayWidth('\x1b[31mred\x1b[39m')).toBe('\\e[31mred\\e[39m'.length);
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

describe('untrusted text', () => {
  it('escapes controls before measuring, cutting and padding', () => {
    expect(truncate('a\nb', 10)).toBe(`a${O}\\n${C}b`);
    expect(displayWidth('a\nb')).toBe(4);
    expect(displayWidth(padEnd('a\x1bb', 6))).toBe(6);
    expect(fitCell('\u202eevil', 8)).toBe(`${O}\\u202e${C}e…`);
    expect(fitCell('\u202eevil', 6)).toBe('…     ');
  });
  it('never splits an escape token: it goes whole or not at all', () => {
    // "ab" + \u202e (6 cells) does not fit in 7 with the ellipsis: the token is dropped whole.
    expect(truncate('ab\u202ecdef', 7)).toBe('ab…');
    expect(truncate('ab\u202ecdef', 9)).toBe(`ab${O}\\u202e${C}…`);
    // An OSC 52 payload cannot be cut into something a terminal would run.
    const osc = 'x\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07y';
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    for (let w = 1; w < 40; w++) expect(truncate(osc, w)).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
  });
  it('wraps long text at spaces within the width, escapes included', () => {
    expect(wrapLines('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(wrapLines('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    for (const line of wrapLines('x\ny '.repeat(20), 10)) expect(displayWidth(line)).toBeLessThanOrEqual(10);
  });
});

describe('grapheme clusters of long text, segmented a slice at a time', () => {
  it('are the clusters Intl.Segmenter finds in the whole string', () => {
    const segmenter = new Intl.Segmenter();
    const alphabet = ['a', ' ', 'é', 'e\u0301', '中', '😀', '👩‍💻', '🇩🇪', '\r\n', '\u0301', '각', '\u1100', '\u1161', '\ud83d'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), {maxLength: 3000}), (parts) => {
        const text = parts.join('');
        expect([...graphemes(text)]).toEqual([...segmenter.segment(text)].map((s) => s.segment));
      }),
      {numRuns: 200},
    );
  });
});
