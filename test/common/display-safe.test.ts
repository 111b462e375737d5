import {describe, expect, it} from 'vitest';
import {
  displaySafe,
  escapeCodePoint,
  ESCAPE_CLOSE as C,
  ESCAPE_OPEN as O,
  isDisplaySafe,
  MAX_MARKS,
  plainSafe,
  safeSegments,
} from '../../src/common/display-safe.js';

import {HOSTILE} from '../fixtures/hostile.js';

const RAW_UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

describe('displaySafe', () => {
  it('passes safe text through unchanged (and is idempotent)', () => {
    for (const s of ['laptop', '日本語', '📱 phone', 'e\u0301', '👩‍💻 dev', '❤️‍🔥', '']) {
      expect(displaySafe(s)).toBe(s);
    }
    for (const s of ['laptop', '日本語', '📱 phone', '']) expect(isDisplaySafe(s)).toBe(true);
    for (const [, s] of HOSTILE) expect(displaySafe(displaySafe(s))).toBe(displaySafe(s));
  });

  it.each(HOSTILE)('%s: every unsafe character becomes a visible escape, nothing is dropped', (_name, s) => {
    const safe = displaySafe(s);
    expect(safe).not.toMatch(RAW_UNSAFE);
    const plain = plainSafe(s);
    expect(plain.text).not.toMatch(RAW_UNSAFE);
    expect(plain.escaped).toBeGreaterThan(0);
    // Every printable character of the input is still there, in order.
    const printable = [...s].filter((ch) => !RAW_UNSAFE.test(ch)).join('');
    expect(
      safeSegments(safe)
        .filter((g) => !g.escape)
        .map((g) => g.text)
        .join(''),
    ).toBe(printable);
  });

  it('keeps a zero-width joiner only between two pictographs, and escapes it beside plain text', () => {
    // Inside an emoji it is part of the character; beside plain text it hides a boundary (a name
    // that looks like another), so it must show.
    expect(displaySafe('👨\u200d💻')).toBe('👨\u200d💻');
    expect(displaySafe('❤️\u200d🔥')).toBe('❤️\u200d🔥');
    for (const s of ['👨\u200dabc', 'abc\u200d💻', 'a\u200db', '\u200d👨', '👨\u200d', '👨\u200d\u200d💻']) {
      const safe = displaySafe(s);
      expect(plainSafe(s).escaped, JSON.stringify(s)).toBeGreaterThan(0);
      expect(
        safeSegments(safe).some((g) => g.escape && g.text === '\\u200d'),
        JSON.stringify(s),
      ).toBe(true);
    }
  });

  it('names the usual controls and spells out the rest', () => {
    expect(displaySafe('a\x1bb')).toBe(`a${O}\\e${C}b`);
    expect(plainSafe('a\nb\tc\x00\x07\x08\r').text).toBe('a\\nb\\tc\\0\\a\\b\\r');
    expect(escapeCodePoint(0x85)).toBe('\\x85');
    expect(escapeCodePoint(0x202e)).toBe('\\u202e');
    expect(escapeCodePoint(0xe0041)).toBe('\\u{e0041}');
  });

  it('markers a hostile string brings along are harmless: at most styling, never control bytes', () => {
    const fake = `${O}\\e${C}`;
    expect(safeSegments(displaySafe(fake))).toEqual([{text: '\\e', escape: true}]);
    expect(safeSegments(displaySafe(`${C}x${O}`))).toEqual([{text: 'x', escape: false}]);
  });
});

describe('a flood of combining marks', () => {
  it(`keeps ${MAX_MARKS} marks on a character and counts the rest in one token`, () => {
    const mark = '\u0301';
    expect(MAX_MARKS).toBe(12);
    expect(isDisplaySafe(`e${mark.repeat(MAX_MARKS)}`)).toBe(true);
    expect(displaySafe(`e${mark.repeat(MAX_MARKS)}`)).toBe(`e${mark.repeat(MAX_MARKS)}`);
    expect(isDisplaySafe(`e${mark.repeat(MAX_MARKS + 1)}`)).toBe(false);
    expect(displaySafe(`x${mark.repeat(100_000)}y`)).toBe(`x${mark.repeat(MAX_MARKS)}${O}+${100_000 - MAX_MARKS} marks${C}y`);
    // Marks of different kinds count together; a Vietnamese word is untouched.
    expect(displaySafe(`a${'\u0300\u0323'.repeat(7)}`)).toBe(`a${'\u0300\u0323'.repeat(6)}${O}+2 marks${C}`);
    expect(displaySafe('Nguyễn Thị Ánh')).toBe('Nguyễn Thị Ánh');
    expect(plainSafe(`x${mark.repeat(20)}`)).toEqual({text: `x${mark.repeat(MAX_MARKS)}+8 marks`, escaped: 1});
    const once = displaySafe(`x${mark.repeat(50)}\x1b`);
    expect(displaySafe(once)).toBe(once);
  });
});

describe('the edges of the boundary', () => {
  it('keeps a joiner only between two pictographs, astral or not', () => {
    expect(displaySafe('\u2764\u200d\ud83d\udd25')).toBe('\u2764\u200d\ud83d\udd25'); // ❤‍🔥, no VS16
    expect(displaySafe('\ud83d\udc68\u200d\ud83d\udcbb')).toBe('\ud83d\udc68\u200d\ud83d\udcbb'); // 👨‍💻
    // Low surrogates at the edges of their range: 🐀 (…\udc00) and U+1F7FF (…\udfff), both pictographs.
    expect(displaySafe('\ud83d\udc00\u200d\ud83d\udd25')).toBe('\ud83d\udc00\u200d\ud83d\udd25');
    expect(displaySafe('\ud83d\udfff\u200d\ud83d\udd25')).toBe('\ud83d\udfff\u200d\ud83d\udd25');
    expect(displaySafe('a\u200d\ud83d\ude00')).toBe(`a${O}\\u200d${C}\ud83d\ude00`);
    expect(displaySafe('\ud83d\ude00\u200da')).toBe(`\ud83d\ude00${O}\\u200d${C}a`);
    expect(displaySafe('\u200d\ud83d\ude00')).toBe(`${O}\\u200d${C}\ud83d\ude00`);
    // A lone low surrogate before the joiner is no pictograph (and is escaped itself).
    expect(displaySafe('x\udc00\u200d\ud83d\ude00')).toBe(`x${O}\\udc00${C}${O}\\u200d${C}\ud83d\ude00`);
    // A high surrogate two before a BMP pictograph does not make a pair with it.
    expect(displaySafe('\ud83d\u2764\u200d\ud83d\udd25')).toBe(`${O}\\ud83d${C}\u2764\u200d\ud83d\udd25`);
  });

  it('names code points at the edges of each escape form', () => {
    expect(escapeCodePoint(0xff)).toBe('\\xff');
    expect(escapeCodePoint(0x100)).toBe('\\u0100');
    expect(escapeCodePoint(0xffff)).toBe('\\uffff');
    expect(escapeCodePoint(0x10000)).toBe('\\u{10000}');
  });

  it('splits into segments without losing or inventing any', () => {
    expect(safeSegments('')).toEqual([{text: '', escape: false}]);
    expect(safeSegments('plain')).toEqual([{text: 'plain', escape: false}]);
    expect(safeSegments(`a${C}b`)).toEqual([{text: 'ab', escape: false}]);
    expect(safeSegments(`a${O}b`)).toEqual([{text: 'ab', escape: false}]);
    expect(safeSegments(`${C}${O}\\e${C}`)).toEqual([{text: '\\e', escape: true}]);
    expect(safeSegments(`${O}\\e${C}${O}\\a${C}`)).toEqual([
      {text: '\\e', escape: true},
      {text: '\\a', escape: true},
    ]);
    expect(plainSafe(`a${O}b${C}`)).toEqual({text: 'ab', escaped: 0});
  });
});
