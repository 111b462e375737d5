import {describe, expect, it} from 'vitest';
import {OutputGuard} from '../../src/ui/output-guard.js';

describe("OutputGuard: only the console's own sequences reach the terminal", () => {
  it('passes SGR, cursor/erase, cursor visibility, alt screen, bracketed paste and synchronized output', () => {
    const g = new OutputGuard();
    const own = '\x1b[2K\x1b[1A\x1b[G\x1b[31;1mred\x1b[39;22m\x1b[?25l\x1b[?25h\x1b[?1049h\x1b[?2004h\x1b[?2026h\x1b[2J\x1b[3J\x1b[H\r\nok';
    expect(g.filter(own)).toBe(own);
    expect(g.stats.dropped).toEqual({});
  });

  it.each([
    ['OSC 52 with BEL', 'a\x1b]52;c;Y3VybA==\x07b', 'ab', 'OSC'],
    ['OSC 8 with ST', 'a\x1b]8;;https://evil\x1b\\link\x1b]8;;\x1b\\b', 'alinkb', 'OSC'],
    ['DCS', 'a\x1bPtmux;\x1b\x1b]52;c;x\x07\x1b\\b', 'ab', 'DCS'],
    ['APC', 'a\x1b_Gf=100;xyz\x1b\\b', 'ab', 'APC'],
    ['PM', 'a\x1b^secret\x1b\\b', 'ab', 'PM'],
    ['8-bit OSC', 'a\x9d52;c;eA==\x9cb', 'ab', 'OSC'],
    ['8-bit CSI', 'a\x9b2Jb', 'a2Jb', 'C1'],
    ['BEL, BS, TAB, NUL', 'a\x07b\x08c\td\x00e', 'abcde', 'C0 0x07'],
    ['RIS (ESC c)', 'a\x1bcb', 'ab', 'ESC c'],
    ['a CSI we never send (device status report)', 'a\x1b[6nb', 'ab', 'CSI 6n'],
    ['a private mode we never set (mouse tracking)', 'a\x1b[?1000hb', 'ab', 'CSI ?1000h'],
  ])('drops %s and counts it', (_name, input, output, kind) => {
    const g = new OutputGuard();
    expect(g.filter(input)).toBe(output);
    expect(g.stats.dropped[kind]).toBeGreaterThan(0);
  });

  it('drops a control that comes alone in a chunk (the fast path for plain text must not pass it)', () => {
    for (const [chunk, want] of [
      ['a\x7fb', 'ab'],
      ['\x7f', ''],
      ['name\x85', 'name'],
      ['x\x9by', 'xy'],
      ['tab\there', 'tabhere'],
      ['bell\x07', 'bell'],
    ] as const) {
      const g = new OutputGuard();
      expect(g.filter(chunk), JSON.stringify(chunk)).toBe(want);
    }
    // Line breaks and plain text are the console's own: they pass as they are.
    expect(new OutputGuard().filter('a\r\nb')).toBe('a\r\nb');
  });

  it('an escape string split across two writes is dropped whole', () => {
    const drops: string[] = [];
    const g = new OutputGuard((k) => drops.push(k));
    expect(g.filter('x\x1b]52;c;Y3Vy')).toBe('x');
    expect(g.filter('bA==\x07y')).toBe('y');
    expect(drops).toEqual(['OSC']);
  });
});
