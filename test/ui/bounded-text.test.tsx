// Any text, of any script and up to a megabyte, costs time linear in its length to measure and
// draw, and the costly part (grapheme segmentation, which V8 does in time far worse than linear)
// examines no more than what can show (docs/architecture.md, "Untrusted text"). A 120 KB field
// error made each key take 93 s: string-width segmented the whole message on every frame.
//
// The work is counted where it is done, not timed: every call of Intl.Segmenter's segment() —
// ours and string-width's, Ink's included — is spied on, and the units it was handed are summed.
// Bounds: one call never sees more than a slice (so no call costs more than a slice's worth), and
// the sum is bounded by the cells shown (status line, field) or linear in the text (a detail,
// which wraps a long value once to scroll through it).
import React from 'react';
import fc from 'fast-check';
import {render} from 'ink-testing-library';
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {SEGMENT_SLICE} from '../../src/common/graphemes.js';
import {StatusBar} from '../../src/ui/StatusBar.js';
import {TextField} from '../../src/ui/TextField.js';
import {DetailView} from '../../src/ui/views/DetailView.js';
import {displayWidth, padEnd, truncate, wrapLines} from '../../src/ui/text.js';

/** Pieces of text from many scripts, and the hostile shapes: marks, joiners, controls, jamo. */
const PIECES = [
  'a',
  'plain ascii words ',
  'é',
  'e\u0301',
  'x\u0301\u0302\u0303',
  '\u0301'.repeat(40),
  '漢字',
  'ｶﾞ',
  '한국어',
  '\u1100\u1161\u11a8',
  '\u1100'.repeat(30),
  '👩‍💻',
  '🇫🇷',
  '❤️‍🔥',
  'ع',
  'שלום ',
  '\u202e',
  '\u200d',
  '\x1b[31m',
  '\n',
  '\t',
  '\u0085',
  '\ud800',
  ' ',
] as const;

/** A text of `pieces` repeated up to about `length` UTF-16 units. */
function textOf(pieces: readonly string[], length: number): string {
  const unit = pieces.join('');
  return unit.repeat(Math.max(1, Math.ceil(length / Math.max(1, unit.length)))).slice(0, length);
}

const texts = fc.record({
  pieces: fc.array(fc.constantFrom(...PIECES), {minLength: 1, maxLength: 6}),
  length: fc.constantFrom(2_000, 60_000, 250_000, 1_000_000),
});

/** The segment() calls since the last reset: how many units they were handed, in all and at most. */
let calls = {total: 0, largest: 0};
const resetCalls = () => {
  calls = {total: 0, largest: 0};
};
beforeEach(() => {
  resetCalls();
  const original = Intl.Segmenter.prototype.segment;
  vi.spyOn(Intl.Segmenter.prototype, 'segment').mockImplementation(function (this: Intl.Segmenter, input: string) {
    calls.total += input.length;
    calls.largest = Math.max(calls.largest, input.length);
    return original.call(this, input);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const examined = () => calls.total;
const largestCall = () => calls.largest;
/** A slice, and the cluster carried into it (at most 256 units) and a surrogate pair's half. */
const SLICE_BOUND = SEGMENT_SLICE + 256 + 2;

describe('text of any size costs what is visible', () => {
  it('measuring, cutting, padding and wrapping for a line examine a bounded prefix', () => {
    fc.assert(
      fc.property(texts, fc.integer({min: 1, max: 300}), ({pieces, length}, width) => {
        const text = textOf(pieces, length);
        resetCalls();
        displayWidth(text, width);
        truncate(text, width);
        padEnd(text, width);
        wrapLines(text, width, 3);
        expect(largestCall()).toBeLessThanOrEqual(SLICE_BOUND);
        // A cell is drawn from 64 units at most (a cluster of 13 code points, an escape token, a
        // piece of a joined emoji sequence as long as the text): measuring, cutting and padding
        // read the prefix of (width + 1) × 64 units and a slice past it; wrapping three lines,
        // four lines' worth and two slices.
        expect(examined()).toBeLessThanOrEqual(7 * (width + 1) * 64 + 5 * SLICE_BOUND);
      }),
      {numRuns: 25, examples: [[{pieces: ['\u200d', '👩‍💻'], length: 1_000_000}, 8]]},
    );
  }, 60_000);

  it('a status line and a focused field draw a megabyte by what fits', () => {
    fc.assert(
      fc.property(texts, fc.constantFrom(80, 120, 200), ({pieces, length}, width) => {
        const text = textOf(pieces, length);
        resetCalls();
        const bar = render(<StatusBar message={{tone: 'error', text}} hints="q quit" width={width} />);
        const twoLines = render(<StatusBar message={{tone: 'error', text}} hints="q quit" width={width} lines={2} />);
        const field = render(<TextField value={text} cursor={0} focused width={width - 30} />);
        bar.unmount();
        twoLines.unmount();
        field.unmount();
        // Ink measures each line it writes whole; a line holds at most width cells of 64 units
        // (a joined emoji sequence as long as the text draws as many short pieces), so one call
        // sees a slice or a line, whichever is longer, never the text.
        expect(largestCall()).toBeLessThanOrEqual(Math.max(SLICE_BOUND, 64 * (width + 1)));
        expect(examined()).toBeLessThanOrEqual(64 * (width + 1) * 12);
      }),
      {numRuns: 12, examples: [[{pieces: ['\u200d', '❤️‍🔥'], length: 2_000}, 80]]},
    );
  }, 60_000);

  it('a detail wraps a long value in slices: linear in the value, no call over a slice or a line', () => {
    fc.assert(
      fc.property(texts, ({pieces, length}) => {
        const text = textOf(pieces, length);
        resetCalls();
        const view = render(<DetailView lines={[{label: 'Description', value: text}]} scroll={0} width={100} height={20} />);
        view.unmount();
        // As above: Ink measures a drawn line whole, and a line is at most 101 cells of 64 units.
        expect(largestCall()).toBeLessThanOrEqual(Math.max(SLICE_BOUND, 64 * 101));
        expect(examined()).toBeLessThanOrEqual(3 * text.length + 64 * 101 * 40);
      }),
      {numRuns: 8, examples: [[{pieces: ['\u200d', '❤️‍🔥'], length: 60_000}]]},
    );
  }, 60_000);

  it('the old measure is what this guards against: one string-width call over 60 KB is one segment() of all of it', () => {
    // The spy sees whole-string segmentation when it happens: displayWidth once handed the whole
    // message to string-width. Without the limit, the width is exact and the work is the text's.
    const text = '漢'.repeat(60_000);
    resetCalls();
    expect(displayWidth(text)).toBe(120_000);
    expect(largestCall()).toBeLessThanOrEqual(SLICE_BOUND);
    resetCalls();
    expect(displayWidth(text, 80)).toBeGreaterThan(80);
    expect(examined()).toBeLessThanOrEqual(81 * 64 + SLICE_BOUND);
  });
});
