// The frame writer's pure half (src/ui/frame-diff.ts) against a virtual terminal
// (test/helpers/vt.ts): a full draw of frame A followed by the diff A → B must leave, cell by cell
// (character and attributes), what a fresh terminal shows after Ink's whole frame B — over random
// frames with SGR runs left open across lines, wide characters, combining marks, lines that grow
// and shrink, and frames of different heights.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {diffScreens, fullDraw, parseFrame, type Screen} from '../../src/ui/frame-diff.js';
import {OutputGuard} from '../../src/ui/output-guard.js';
import {VirtualTerminal} from '../helpers/vt.js';

const ESC = '\x1b';

/** What a terminal shows after Ink writes `frame` whole from the top-left cell (the reference). */
function fresh(frame: string, columns: number, rows: number): VirtualTerminal {
  const vt = new VirtualTerminal(columns, rows);
  vt.write(frame);
  return vt;
}

function parsed(frame: string, columns: number, rows: number): Screen {
  const screen = parseFrame(frame, columns, rows);
  if (!screen) throw new Error(`not modelled: ${JSON.stringify(frame)}`);
  return screen;
}

/** Full draw of A on a terminal holding `garbage`, then the diff to B. */
function applied(a: string, b: string, columns: number, rows: number, garbage = ''): {vt: VirtualTerminal; diff: string} {
  const vt = new VirtualTerminal(columns, rows);
  vt.write(garbage);
  const sa = parsed(a, columns, rows);
  vt.write(fullDraw(sa, columns));
  const diff = diffScreens(sa, parsed(b, columns, rows), columns);
  vt.write(diff);
  return {vt, diff};
}

// ------------------------------------------------------------------------------------------
// Random frames, built as Ink builds them: text segments, each in an SGR state (sometimes closed
// at the segment's end as chalk does, sometimes left open so the state runs on), every line no
// wider than the terminal.

const SGR_CODES = ['1', '2', '3', '4', '7', '9', '22', '23', '24', '27', '31', '32', '39', '42', '49', '90', '103', '38;5;208', '48;2;10;20;30', '0', ''];
const TEXTS: Array<[string, number]> = [
  ['a', 1],
  ['b', 1],
  ['x', 1],
  [' ', 1],
  ['●', 1],
  ['─', 1],
  ['é', 1],
  ['e\u0301', 1],
  ['漢', 2],
  ['字', 2],
  ['😀', 2],
  ['👍🏽', 2],
];

interface Segment {
  sgr: string[];
  text: Array<[string, number]>;
  close: boolean;
}

const segment = fc.record({
  sgr: fc.array(fc.constantFrom(...SGR_CODES), {maxLength: 3}),
  text: fc.array(fc.constantFrom(...TEXTS), {minLength: 0, maxLength: 8}),
  close: fc.boolean(),
});

function lineOf(segments: Segment[], columns: number): string {
  let width = 0;
  let out = '';
  for (const s of segments) {
    out += s.sgr.map((p) => `${ESC}[${p}m`).join('');
    for (const [t, w] of s.text) {
      if (width + w > columns) break;
      out += t;
      width += w;
    }
    if (s.close && s.sgr.length > 0) out += `${ESC}[0m`;
  }
  return out;
}

/** A terminal size and two frames for it; B is often A with a few lines changed (as most frames are). */
const framePair = fc.record({columns: fc.integer({min: 4, max: 24}), rows: fc.integer({min: 2, max: 9})}).chain(({columns, rows}) => {
  const line = fc.array(segment, {maxLength: 4}).map((segs) => lineOf(segs, columns));
  // Heights up to rows − 1 with Ink's trailing newline, or exactly `rows` without it (fullscreen).
  const frame = fc.oneof(
    fc.array(line, {minLength: 0, maxLength: rows - 1}).map((lines) => lines.map((l) => `${l}\n`).join('')),
    fc.array(line, {minLength: rows, maxLength: rows}).map((lines) => lines.join('\n')),
  );
  const edited = (a: string) =>
    fc.array(fc.tuple(fc.nat(), line), {maxLength: 3}).map((edits) => {
      const trailing = a.endsWith('\n');
      const lines = (trailing ? a.slice(0, -1) : a).split('\n');
      for (const [at, l] of edits) lines[at % lines.length] = l;
      return lines.join('\n') + (trailing ? '\n' : '');
    });
  return frame.chain((a) => fc.record({columns: fc.constant(columns), rows: fc.constant(rows), a: fc.constant(a), b: fc.oneof(frame, edited(a))}));
});

describe('frame diff against a virtual terminal', () => {
  it('a full draw of A then the diff A → B shows what a fresh draw of B shows, cell by cell', () => {
    fc.assert(
      fc.property(framePair, ({columns, rows, a, b}) => {
        const {vt, diff} = applied(a, b, columns, rows);
        expect(vt.unknown).toEqual([]);
        // The writer's own sequences are all ones the output guard passes (it filters them next).
        const guard = new OutputGuard();
        const full = fullDraw(parsed(a, columns, rows), columns);
        expect(guard.filter(full + diff)).toBe(full + diff);
        expect(guard.stats.dropped).toEqual({});
        expect(vt.dump()).toEqual(fresh(b, columns, rows).dump());
        // No colour bleeds past the update: the terminal is left in the default state.
        expect(vt.attrs).toEqual(new VirtualTerminal(1, 1).attrs);
      }),
      {numRuns: 600},
    );
  });

  it('a full draw covers whatever the screen held before', () => {
    fc.assert(
      fc.property(framePair, ({columns, rows, a, b}) => {
        const vt = new VirtualTerminal(columns, rows);
        // Another frame, with a colour left on and the cursor somewhere else.
        vt.write(`${a}${ESC}[41m${ESC}[2;2H`);
        vt.write(fullDraw(parsed(b, columns, rows), columns));
        expect(vt.dump()).toEqual(fresh(b, columns, rows).dump());
      }),
      {numRuns: 300},
    );
  });

  it('a diff of a frame with itself is empty', () => {
    fc.assert(
      fc.property(framePair, ({columns, rows, a}) => {
        expect(diffScreens(parsed(a, columns, rows), parsed(a, columns, rows), columns)).toBe('');
      }),
    );
  });

  it('a cursor move rewrites only the two rows whose highlight moved', () => {
    const rowText = (i: number) => `device-${String(i).padStart(2, '0')}  10.3.2.${i}  online  ${'x'.repeat(60)}`;
    const frame = (selected: number) =>
      Array.from({length: 30}, (_, i) => (i === selected ? `${ESC}[7m${rowText(i)}${ESC}[27m\n` : `${ESC}[32m${rowText(i)}${ESC}[39m\n`)).join('');
    const a = parsed(frame(3), 120, 40);
    const b = parsed(frame(4), 120, 40);
    const diff = diffScreens(a, b, 120);
    // Row 4 (1-based) from its first column, then the next row (\r\n): nothing else.
    expect(diff.startsWith(`${ESC}[4H`)).toBe(true);
    // eslint-disable-next-line no-control-regex -- cursor positioning is what it counts
    expect(diff.match(/\x1b\[\d+(;\d+)?H|\r\n/g)).toEqual([`${ESC}[4H`, '\r\n']);
    // Two rows of text and a few bytes of positioning and SGR each.
    expect(diff.length).toBeLessThanOrEqual(2 * (rowText(0).length + 12));
    expect(diff.length * 10).toBeLessThan(fullDraw(b, 120).length);
  });

  it('a span written mid-line starts with the SGR state in effect at its column and ends in the default state', () => {
    const diff = diffScreens(parsed(`${ESC}[1;31mabcdefghij${ESC}[0m\n`, 20, 5), parsed(`${ESC}[1;31mabcdeXghij${ESC}[0m\n`, 20, 5), 20);
    expect(diff).toBe(`${ESC}[1;6H${ESC}[0;1;31mX${ESC}[m`);
  });

  it('a row that got shorter is erased to its end in the default state, rows below a shorter frame at once', () => {
    const diff = diffScreens(parsed(`abcdef\n${ESC}[44mxyz${ESC}[49m\nqqq\n`, 20, 5), parsed('abc\n', 20, 5), 20);
    expect(diff).toBe(`${ESC}[1;4H${ESC}[K\r\n${ESC}[J`);
  });

  it('never writes half of a wide character: a change next to one rewrites it whole', () => {
    // 漢 takes columns 3–4; 'b' becomes 字 over columns 2–3 in B.
    const {vt, diff} = applied('ab漢c\n', 'a字 c\n', 10, 3);
    expect(vt.text()[0]).toBe('a字 c');
    expect(diff).toBe(`${ESC}[1;2H字 `);
  });

  it('one wide character replaced by another in the same place: the cells after it land where they should', () => {
    // 字 and 😀 both take columns 1–2; their right halves look alike, their left halves do not.
    const {vt} = applied('字 same old\n', '😀 same new\n', 20, 3);
    expect(vt.text()[0]).toBe('😀 same new');
    expect(JSON.stringify(vt.dump())).toBe(JSON.stringify(fresh('😀 same new\n', 20, 3).dump()));
  });

  it('does not model what it cannot account for', () => {
    expect(parseFrame(`${ESC}]8;;http://x${ESC}\\link\n`, 20, 5)).toBeNull(); // OSC
    expect(parseFrame(`a${ESC}[2Cb\n`, 20, 5)).toBeNull(); // cursor movement inside a frame
    expect(parseFrame('a\tb\n', 20, 5)).toBeNull(); // a control character
    expect(parseFrame(`${ESC}[38:2::1:2:3mx\n`, 20, 5)).toBeNull(); // colon parameters
    expect(parseFrame(`${ESC}[6mx\n`, 20, 5)).toBeNull(); // an SGR code it does not know
    expect(parseFrame('abcdef\n', 5, 5)).toBeNull(); // wider than the terminal
    expect(parseFrame('漢字漢\n', 5, 5)).toBeNull();
    // Trailing blanks count (the terminal would wrap them), also for a line parsed before at a wider size.
    expect(parseFrame('abc   \n', 8, 5)).not.toBeNull();
    expect(parseFrame('abc   \n', 5, 5)).toBeNull();
    expect(parseFrame('1\n2\n3\n4\n5\n', 20, 5)).toBeNull(); // would scroll
    expect(parseFrame('1\n2\n3\n4\n5', 20, 5)).not.toBeNull(); // fills it exactly
    expect(parseFrame('\u0301x\n', 20, 5)).toBeNull(); // a combining mark with nothing to join
  });
});
