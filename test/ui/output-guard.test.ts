import {describe, expect, it} from 'vitest';
import {guardedStream, OutputGuard} from '../../src/ui/output-guard.js';

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

describe('the output guard, sequence by sequence', () => {
  // [input, what reaches the terminal, the kinds dropped]. Written out by hand from ECMA-48.
  const CASES: Array<[string, string, string[]]> = [
    ['a\x1b[0;1;31mb', 'a\x1b[0;1;31mb', []],
    ['\x1b[2J\x1b[H\x1b[10;5f\x1b[K', '\x1b[2J\x1b[H\x1b[10;5f\x1b[K', []],
    ['\x1b[?25l\x1b[?1049h\x1b[?2004l\x1b[?2026h', '\x1b[?25l\x1b[?1049h\x1b[?2004l\x1b[?2026h', []],
    // A private mode the console does not use, or another final: dropped.
    ['\x1b[?1000h\x1b[?25m', '', ['CSI ?1000h', 'CSI ?25m']],
    // Parameters that are not digits and semicolons (a colon, a <), intermediates (DECSCUSR), other finals.
    ['\x1b[38:5:1m\x1b[<0;1;1M\x1b[2 q\x1b[6n', '', ['CSI 38:5:1m', 'CSI <0;1;1M', 'CSI 2q', 'CSI 6n']],
    // A CSI cut at the end of the chunk: dropped, and what came before kept.
    ['ok\x1b[3', 'ok', ['CSI (cut)']],
    ['ok\x1b[', 'ok', ['CSI (cut)']],
    // Strings: OSC ends at BEL or ST; DCS/APC/PM/SOS only at ST (a BEL inside them is swallowed).
    ['1\x1b]52;c;eA==\x072', '12', ['OSC']],
    ['1\x1b]8;;x\x1b\\2', '12', ['OSC']],
    ['1\x1bPq\x07still\x1b\\2', '12', ['DCS']],
    ['1\x1b_a\x1b\\2\x1b^b\x1b\\3\x1bXc\x1b\\4', '1234', ['APC', 'PM', 'SOS']],
    // A backslash right after the introducer is not an ST: the string goes on.
    ['a\x1b]\\b', 'a', ['OSC']],
    ['\x9d\\x\x07y', 'y', ['OSC']],
    // Latin-1 letters are text, not C1 (a control elsewhere in the chunk takes it off the fast path).
    ['é\x07ü', 'éü', ['C0 0x07']],
    // ESC inside a string that is not ST: the string goes on.
    ['1\x1b]0;a\x1bb\x072', '12', ['OSC']],
    // Other escapes, and a lone ESC at the end.
    ['a\x1bcb\x1b', 'ab', ['ESC c', 'ESC']],
    // C1 controls: the string introducers open a string; others are dropped alone.
    ['1\x9dtitle\x072', '12', ['OSC']],
    ['1\x90x\x9c2\x9fy\x9c3\x9ez\x9c4\x98w\x9c5', '12345', ['DCS', 'APC', 'PM', 'SOS']],
    ['1\x80\x852\x9b3', '123', ['C1', 'C1', 'C1']],
    // C0: only LF and CR pass; space and tilde are text, DEL is not.
    ['a\tb\x00c\x07d\x08e\x7ff g~\r\n', 'abcdef g~\r\n', ['C0 0x09', 'C0 0x00', 'C0 0x07', 'C0 0x08', 'C0 0x7f']],
  ];

  it.each(CASES)('%j', (input, output, dropped) => {
    const kinds: string[] = [];
    const guard = new OutputGuard((k) => kinds.push(k));
    expect(guard.filter(input)).toBe(output);
    expect(kinds).toEqual(dropped);
    const counted: Record<string, number> = {};
    for (const k of dropped) counted[k] = (counted[k] ?? 0) + 1;
    expect(guard.stats.dropped).toEqual(counted);
  });

  it('a string that runs on into the next write swallows a plain chunk whole, and ends on a split ST', () => {
    const guard = new OutputGuard();
    expect(guard.filter('a\x1b]0;')).toBe('a');
    expect(guard.filter('plain text')).toBe('');
    expect(guard.filter('more\x1b')).toBe('');
    expect(guard.filter('\\b')).toBe('b');
    expect(guard.filter('c')).toBe('c');
  });

  it('guardedStream filters writes of strings, buffers and anything else, and leaves the rest of the stream as it is', () => {
    const written: string[] = [];
    const target = {
      columns: 120,
      rows: 40,
      write(chunk: string, cb?: () => void) {
        written.push(chunk);
        cb?.();
        return true;
      },
      size(this: {columns: number; rows: number}) {
        return [this.columns, this.rows];
      },
    };
    const guard = new OutputGuard();
    const stream = guardedStream(target as unknown as NodeJS.WriteStream, guard);
    let called = false;
    expect(stream.write('a\x1b]0;t\x07b', () => (called = true))).toBe(true);
    stream.write(Buffer.from('c\x07d'));
    (stream.write as (chunk: unknown) => boolean)(42);
    expect(written).toEqual(['ab', 'cd', '42']);
    expect(called).toBe(true);
    expect(stream.columns).toBe(120);
    // Methods run on the real stream (bound to it), not on the proxy.
    expect((stream as unknown as {size(): number[]}).size()).toEqual([120, 40]);
    expect(guard.stats.dropped).toEqual({OSC: 1, 'C0 0x07': 1});
  });
});
