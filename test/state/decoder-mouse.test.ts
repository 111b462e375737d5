// Mouse reports in the console's own decoder (src/state/input/decoder.ts): SGR 1006 reports are
// mouse events however the bytes are split, every number is bounds-checked, and a partial,
// over-long, hostile or legacy (X10) report never acts: it is `unknown`, never typed as text.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {InputDecoder, MOUSE_CELL_MAX, type InputEvent, type MouseEvent} from '../../src/state/input/decoder.js';

function decodeAll(...reads: string[]): InputEvent[] {
  const d = new InputDecoder();
  const events: InputEvent[] = [];
  for (const r of reads) events.push(...d.feed(r));
  events.push(...d.flush());
  return events;
}

/** Events as short strings; text cut to characters (a split read makes two runs of the same text). */
function shown(events: readonly InputEvent[]): string[] {
  const out: string[] = [];
  for (const e of events) {
    if (e.type === 'text') for (const ch of e.text) out.push(`key:${ch}`);
    else if (e.type === 'key') out.push(`key:${e.name}`);
    else if (e.type === 'paste') out.push(`paste:${e.text}`);
    else if (e.type === 'mouse')
      out.push(`mouse:${e.button} ${e.action} ${e.col},${e.row}${e.shift ? ' shift' : ''}${e.alt ? ' alt' : ''}${e.ctrl ? ' ctrl' : ''}`);
    else out.push('unknown');
  }
  return out;
}

const decoded = (...reads: string[]) => shown(decodeAll(...reads));

const sgr = (b: number, x: number, y: number, final: 'M' | 'm' = 'M') => `\x1b[<${b};${x};${y}${final}`;

describe('SGR 1006 mouse reports', () => {
  it('are mouse events: buttons, the wheel, releases, moves and modifiers, cells from 0', () => {
    expect(decoded(sgr(0, 10, 5), sgr(0, 10, 5, 'm'))).toEqual(['mouse:left press 9,4', 'mouse:left release 9,4']);
    expect(decoded(sgr(1, 1, 1), sgr(2, 120, 40))).toEqual(['mouse:middle press 0,0', 'mouse:right press 119,39']);
    expect(decoded(sgr(64, 3, 7), sgr(65, 3, 7), sgr(66, 1, 1), sgr(67, 1, 1))).toEqual([
      'mouse:wheelUp press 2,6',
      'mouse:wheelDown press 2,6',
      'mouse:wheelLeft press 0,0',
      'mouse:wheelRight press 0,0',
    ]);
    // 32: motion (a drag with the left button; 35: no button held); 4, 8, 16: Shift, Alt (Meta), Ctrl; 128: buttons 8–11.
    expect(decoded(sgr(32, 4, 4), sgr(35, 4, 4), sgr(4 + 8 + 16, 2, 2), sgr(128, 2, 2))).toEqual([
      'mouse:left move 3,3',
      'mouse:none move 3,3',
      'mouse:left press 1,1 shift alt ctrl',
      'mouse:extra press 1,1',
    ]);
    // The largest cell there is.
    expect(decoded(sgr(0, MOUSE_CELL_MAX, MOUSE_CELL_MAX))).toEqual([`mouse:left press ${MOUSE_CELL_MAX - 1},${MOUSE_CELL_MAX - 1}`]);
    // Among keys and text, in order; inside a paste it is data.
    expect(decoded(`j${sgr(0, 2, 3)}k\x1b[A`)).toEqual(['key:j', 'mouse:left press 1,2', 'key:k', 'key:up']);
    expect(decoded(`\x1b[200~${sgr(0, 2, 3)}\x1b[201~`)).toEqual([`paste:${sgr(0, 2, 3)}`]);
  });

  it('a report out of bounds or malformed is unknown, and none of its bytes is typed', () => {
    const bad = [
      sgr(0, 0, 5), // cells count from 1
      sgr(0, 5, 0),
      sgr(0, MOUSE_CELL_MAX + 1, 5),
      sgr(0, 5, 99999),
      sgr(256, 5, 5), // the button code is a byte
      '\x1b[<0;5M', // two fields
      '\x1b[<0;5;5;5M', // four
      '\x1b[<;5;5M', // an empty field
      '\x1b[<0;;5M',
      '\x1b[<000000;5;5M', // six digits
      '\x1b[<0;5:1;5M', // a colon sub-parameter
      '\x1b[<0;5;<5M',
      sgr(65, 5, 5, 'm'), // a wheel notch has no release
      sgr(96, 5, 5), // nor a move
      sgr(3, 5, 5), // no button and no motion: the legacy release, not SGR's
      '\x1b[<0;5;5 M', // an intermediate byte
    ];
    for (const report of bad) expect([report, decoded(`a${report}b`)]).toEqual([report, ['key:a', 'unknown', 'key:b']]);
  });

  it('a report split anywhere across reads is the same event', () => {
    const report = `x${sgr(65, 123, 45)}y${sgr(0, 7, 8, 'm')}`;
    const whole = decoded(report);
    expect(whole).toEqual(['key:x', 'mouse:wheelDown press 122,44', 'key:y', 'mouse:left release 6,7']);
    for (let a = 0; a <= report.length; a++)
      for (let b = a; b <= report.length; b++) expect(decoded(report.slice(0, a), report.slice(a, b), report.slice(b))).toEqual(whole);
  });

  it('holds a report begun as a sequence (the long wait), and gives up on it as unknown, never typed', () => {
    const d = new InputDecoder();
    for (const begun of ['\x1b[<', '\x1b[<0', '\x1b[<0;12', '\x1b[<0;12;5', '\x1b\x1b[<65;1']) {
      expect(d.feed(begun).filter((e) => e.type !== 'key' || e.name !== 'esc')).toEqual([]);
      expect([begun, d.held]).toEqual([begun, 'sequence']);
      const flushed = d.flush();
      expect(flushed.every((e) => e.type === 'unknown' || (e.type === 'key' && e.name === 'esc'))).toBe(true);
      // Its tail is dropped until the next flush: the decoder still says it waits.
      expect(d.held).toBe('sequence');
      expect(d.flush()).toEqual([]);
      expect(d.held).toBe(null);
    }
  });

  it('the tail of a report given up on, arriving late, is dropped, not typed (its digits would switch screens)', () => {
    const d = new InputDecoder();
    d.feed('\x1b[<0;12');
    expect(d.flush()).toEqual([{type: 'unknown', sequence: '\x1b[<0;12'}]);
    // The rest comes in the next read: dropped to its M, and what follows it is read as usual.
    expect(shown(d.feed(';5Mj'))).toEqual(['key:j']);
    expect(d.held).toBe(null);
    // Split again, and a key that is not part of a report ends the tail at once.
    d.feed('\x1b[<64;3');
    d.flush();
    expect(shown(d.feed('1'))).toEqual([]);
    expect(shown(d.feed(';2'))).toEqual([]);
    expect(shown(d.feed('m\x1b[B'))).toEqual(['key:down']);
    d.feed('\x1b[<0;1');
    d.flush();
    expect(shown(d.feed('q'))).toEqual(['key:q']);
    // Once the tail's own wait is over, digits are keys again.
    d.feed('\x1b[<0;1');
    d.flush();
    d.flush();
    expect(shown(d.feed('2'))).toEqual(['key:2']);
  });

  it('an over-long CSI is dropped to its final byte: none of its digits is typed', () => {
    // Before, the first CSI_MAX characters were dropped and the rest typed: 1111… switched screens.
    expect(decoded(`\x1b[<0;${'1'.repeat(100)};5Mx`)).toEqual(['unknown', 'key:x']);
    expect(decoded(`\x1b[${'1;'.repeat(60)}Ay`)).toEqual(['unknown', 'key:y']);
    // Split anywhere, the same; a control character ends it (and is the key it is).
    const long = `\x1b[<${'2'.repeat(80)}`;
    expect(decoded(long.slice(0, 30), long.slice(30, 70), long.slice(70), ';1;1M', 'z')).toEqual(['unknown', 'key:z']);
    expect(decoded(`${long}\rz`)).toEqual(['unknown', 'key:enter', 'key:z']);
    // The decoder waits for the rest (the long wait), then stops dropping.
    const d = new InputDecoder();
    d.feed(long);
    expect(d.held).toBe('sequence');
    expect(d.flush()).toEqual([]);
    expect(shown(d.feed('5'))).toEqual(['key:5']);
  });

  it('a legacy X10 report (never asked for) is dropped with its three bytes, never typed', () => {
    // A click at the top left: ESC [ M, then 32 + 0, 32 + 1, 32 + 1 (" !!"; the Space would mark a row).
    expect(decoded('\x1b[M !!j')).toEqual(['unknown', 'key:j']);
    expect(decoded('\x1b[Ma5(', 'k')).toEqual(['unknown', 'key:k']);
    // Split across reads, and held as a sequence until its bytes come.
    expect(decoded('\x1b[', 'M', ' ', '!!')).toEqual(['unknown']);
    const d = new InputDecoder();
    d.feed('\x1b[M !');
    expect(d.held).toBe('sequence');
    expect(d.flush()).toEqual([{type: 'unknown', sequence: '\x1b[M !'}]);
    // A control where a byte should be ends it: the control is a key.
    expect(decoded('\x1b[M \x1b[A')).toEqual(['unknown', 'key:up']);
  });
});

describe('mouse reports, whatever arrives (property)', () => {
  // Short ones (a report, broken or not) and long ones (past CSI_MAX, where the rest must be dropped too).
  const paramChar = fc.constantFrom(...'0123456789;;;:<=>');
  const numberish = fc.oneof(
    fc.stringMatching(/^[0-9;]{0,20}$/),
    fc.array(paramChar, {maxLength: 24}).map((a) => a.join('')),
    fc.array(paramChar, {minLength: 60, maxLength: 160}).map((a) => a.join('')),
  );

  it('ESC [ < anything M never types a character and never throws; a mouse event it gives is in bounds and is what the bytes say', () => {
    fc.assert(
      fc.property(numberish, fc.constantFrom('M', 'm'), fc.array(fc.nat(), {maxLength: 4}), (params, final, cuts) => {
        const bytes = `\x1b[<${params}${final}`;
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const reads: string[] = [];
        let from = 0;
        for (const cut of at) {
          reads.push(bytes.slice(from, cut));
          from = cut;
        }
        reads.push(bytes.slice(from));
        const events = decodeAll(...reads);
        for (const e of events) expect(e.type === 'mouse' || e.type === 'unknown').toBe(true);
        const mice = events.filter((e): e is MouseEvent => e.type === 'mouse');
        expect(mice.length).toBeLessThanOrEqual(1);
        for (const m of mice) {
          // Only three plain numbers make one, and then it is those numbers.
          const fields = params.split(';');
          expect(fields).toHaveLength(3);
          expect(fields.every((f) => /^\d{1,5}$/.test(f))).toBe(true);
          expect(m.col).toBe(Number(fields[1]) - 1);
          expect(m.row).toBe(Number(fields[2]) - 1);
          expect(m.col >= 0 && m.col < MOUSE_CELL_MAX && m.row >= 0 && m.row < MOUSE_CELL_MAX).toBe(true);
          expect(Number(fields[0])).toBeLessThanOrEqual(255);
        }
      }),
      {numRuns: 3000},
    );
  });

  it('a report cut off anywhere and given up on is unknown, and a late tail is not typed', () => {
    fc.assert(
      fc.property(fc.nat(255), fc.integer({min: 1, max: 400}), fc.integer({min: 1, max: 400}), fc.nat(), (b, x, y, cut) => {
        const report = sgr(b, x, y);
        // A proper prefix that has begun the report (ESC [ < at least).
        const at = 3 + (cut % (report.length - 3));
        const d = new InputDecoder();
        const events = [...d.feed(report.slice(0, at)), ...d.flush(), ...d.feed(report.slice(at)), ...d.flush()];
        expect(events.map((e) => e.type)).toEqual(['unknown']);
      }),
      {numRuns: 1000},
    );
  });

  it('gives the same events however a stream of keys, text and reports is split (property)', () => {
    const piece = fc.constantFrom(
      'a',
      '1',
      ';',
      'M',
      '\r',
      '\x1b',
      '\x1b[A',
      sgr(0, 12, 3),
      sgr(0, 12, 3, 'm'),
      sgr(65, 80, 24),
      '\x1b[M !!',
      '\x1b[<0;1;1;1M',
      `\x1b[<${'9'.repeat(70)}M`,
    );
    fc.assert(
      fc.property(fc.array(piece, {maxLength: 10}), fc.array(fc.nat(), {maxLength: 6}), (pieces, cuts) => {
        const bytes = pieces.join('');
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const reads: string[] = [];
        let from = 0;
        for (const cut of at) {
          reads.push(bytes.slice(from, cut));
          from = cut;
        }
        reads.push(bytes.slice(from));
        expect(decoded(...reads)).toEqual(decoded(bytes));
      }),
      {numRuns: 2000},
    );
  });
});
