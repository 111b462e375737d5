// Grapheme clusters at a linear cost (src/common/graphemes.ts): the same clusters as one
// Intl.Segmenter pass over the whole text, which is the reference (on short texts, where its cost
// does not matter), and counts that stop at their cap.
import fc from 'fast-check';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {countGraphemes, firstGraphemes, graphemes, SEGMENT_SLICE} from '../../src/common/graphemes.js';

const reference = (text: string) => [...new Intl.Segmenter('en', {granularity: 'grapheme'}).segment(text)].map((s) => s.segment);

/** Text that crosses slice boundaries with clusters of every shape: pairs, marks, joiners, CR LF, flags. */
const PIECES = ['a', 'é', 'e\u0301', '\r\n', '\r', '\n', '👩‍💻', '🇫🇷', '漢', '\u1100\u1161\u11a8', 'x\u0301\u0302', '\ud800', '\udc00', ' '];
const texts = fc.array(fc.constantFrom(...PIECES), {maxLength: 1500}).map((parts) => parts.join(''));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('graphemes', () => {
  it('gives the clusters one segmenter pass gives, across slice boundaries', () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect([...graphemes(text)]).toEqual(reference(text));
      }),
      {numRuns: 150},
    );
  });

  it('keeps a surrogate pair whole when a slice ends between its halves', () => {
    const text = `${'a'.repeat(SEGMENT_SLICE - 1)}👩b`;
    expect([...graphemes(text)].slice(-2)).toEqual(['👩', 'b']);
  });

  it('lets a cluster longer than 256 units go in pieces instead of carrying it (the work stays linear)', () => {
    const text = `a${'\u0301'.repeat(5 * SEGMENT_SLICE)}`;
    const seen: number[] = [];
    const original = Intl.Segmenter.prototype.segment;
    vi.spyOn(Intl.Segmenter.prototype, 'segment').mockImplementation(function (this: Intl.Segmenter, input: string) {
      seen.push(input.length);
      return original.call(this, input);
    });
    const clusters = [...graphemes(text)];
    expect(clusters.join('')).toBe(text);
    expect(Math.max(...seen)).toBeLessThanOrEqual(SEGMENT_SLICE + 256);
    expect(seen.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(text.length + 256 * seen.length);
  });
});

describe('countGraphemes', () => {
  it('counts as the segmenter does, up to the cap, and says cap + 1 beyond it', () => {
    fc.assert(
      fc.property(texts, fc.integer({min: 0, max: 2000}), (text, cap) => {
        const n = reference(text).length;
        expect(countGraphemes(text, cap)).toBe(Math.min(n, cap + 1));
        expect(countGraphemes(text)).toBe(n);
      }),
      {numRuns: 150},
    );
  });

  it('reads no further than the cap: a megabyte over a cap of 2048 is not segmented whole', () => {
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    expect(countGraphemes('é'.repeat(1_000_000), 2048)).toBe(2049);
    const handed = segment.mock.calls.reduce((sum, [input]) => sum + input.length, 0);
    expect(handed).toBeLessThanOrEqual(2049 + 2 * SEGMENT_SLICE);
  });

  it('counts ASCII without the segmenter, CR LF as one', () => {
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    expect(countGraphemes('abc', 10)).toBe(3);
    expect(countGraphemes('abcdef', 3)).toBe(4);
    expect(segment).not.toHaveBeenCalled();
    expect(countGraphemes('a\r\nb')).toBe(3);
  });
});

describe('firstGraphemes', () => {
  it('is the first clusters of the text, whole', () => {
    fc.assert(
      fc.property(texts, fc.integer({min: 0, max: 50}), (text, count) => {
        expect(firstGraphemes(text, count)).toBe(reference(text).slice(0, count).join(''));
      }),
      {numRuns: 150},
    );
  });
});
