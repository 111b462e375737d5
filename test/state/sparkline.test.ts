import {afterEach, describe, expect, it} from 'vitest';
import {useGlyphs} from '../../src/state/core/glyphs.js';
import {resample, sparkline} from '../../src/state/tracking/sparkline.js';

afterEach(() => useGlyphs(false));

describe('sparkline', () => {
  it('is always exactly the width asked for', () => {
    for (const width of [1, 5, 20]) {
      for (const series of [[], [1], [1, 2, 3], Array.from({length: 100}, (_, i) => i)]) {
        expect([...sparkline(series, width)]).toHaveLength(width);
      }
    }
    expect(sparkline([1, 2, 3], 0)).toBe('');
  });

  it('flat: a positive constant is full blocks, zero is the baseline', () => {
    expect(sparkline([5, 5, 5, 5], 4)).toBe('████');
    expect(sparkline([0, 0, 0, 0], 4)).toBe('▁▁▁▁');
  });

  it('rising: one level per step, newest on the right', () => {
    expect(sparkline([1, 2, 3, 4, 5, 6, 7], 7)).toBe('▂▃▄▅▆▇█');
    expect(sparkline([0, 7], 2)).toBe('▁█');
  });

  it('a trickle next to a burst is still above zero', () => {
    expect(sparkline([0, 1, 1_000_000], 3)).toBe('▁▂█');
  });

  it('gaps (null, NaN, negative) are blank; a short series is padded on the left', () => {
    expect(sparkline([3, null, 3], 3)).toBe('█ █');
    expect(sparkline([3, Number.NaN, -1], 3)).toBe('█  ');
    expect(sparkline([1, 2], 4)).toBe('  ▅█');
    expect(sparkline([], 3)).toBe('   ');
  });

  it('a shared max scales two series alike', () => {
    expect(sparkline([7, 7], 2, {max: 14})).toBe('▅▅');
  });

  it('ASCII when the glyph set is ASCII, or when asked', () => {
    useGlyphs(true);
    expect(sparkline([0, 1, 2, 3, 4, 5], 6)).toBe('_.-=^#');
    expect(sparkline([0, 0], 2)).toBe('__');
    expect(sparkline([4, 4], 2)).toBe('##');
    useGlyphs(false);
    expect(sparkline([0, 5], 2, {ascii: true})).toBe('_#');
    expect(sparkline([0, 5], 2)).toBe('▁█');
  });

  it('a long series is averaged into buckets', () => {
    expect(resample([1, 3, 5, 7], 2)).toEqual([2, 6]);
    expect(resample([null, null, 4, null], 2)).toEqual([null, 4]);
    expect(
      sparkline(
        Array.from({length: 1000}, (_, i) => i),
        10,
      ),
    ).toBe('▂▃▃▄▅▆▆▇██');
  });
});
