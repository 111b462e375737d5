// A numeric series as a one-line chart of a fixed width: block characters on Unicode terminals,
// a few ASCII characters of rising height on plain ones (the glyph mode of src/state/core/glyphs.ts).
import {glyphs} from '../core/glyphs.js';

/** Zero first, then the levels of a positive value, lowest to highest. */
const UNICODE_LEVELS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
export const ASCII_LEVELS: readonly string[] = ['_', '.', '-', '=', '^', '#'];
const GAP = ' ';

export interface SparklineOptions {
  /** The value drawn as the full block; default the series' own maximum (pass one for rx and tx to share a scale). */
  max?: number;
  /** Default: the ASCII glyph set is active (its dialogs have classic borders). */
  ascii?: boolean;
}

/**
 * Buckets a series into `width` points, newest last. A longer series is averaged per bucket (a
 * bucket with no sample is a gap); a shorter one keeps one point per value and is padded on the
 * left with gaps, so the newest value is always at the right edge.
 */
export function resample(values: ArrayLike<number | null>, width: number): (number | null)[] {
  const n = values.length;
  if (width <= 0) return [];
  if (n <= width) {
    const out = new Array<number | null>(width).fill(null);
    for (let i = 0; i < n; i++) out[width - n + i] = usable(values[i]);
    return out;
  }
  const out = new Array<number | null>(width);
  for (let b = 0; b < width; b++) {
    const from = Math.floor((b * n) / width);
    const to = Math.floor(((b + 1) * n) / width);
    let sum = 0;
    let count = 0;
    for (let i = from; i < to; i++) {
      const v = usable(values[i]);
      if (v !== null) {
        sum += v;
        count++;
      }
    }
    out[b] = count === 0 ? null : sum / count;
  }
  return out;
}

function usable(v: number | null | undefined): number | null {
  return v === null || v === undefined || !Number.isFinite(v) || v < 0 ? null : v;
}

/**
 * Exactly `width` characters: a gap for no sample, the lowest mark for zero, and for a positive
 * value a level proportional to value / max, never lower than the first level above zero (so a
 * trickle is visibly not nothing). A flat positive series is a row of full blocks.
 */
export function sparkline(values: ArrayLike<number | null>, width: number, options: SparklineOptions = {}): string {
  const ascii = options.ascii ?? glyphs().border === 'classic';
  const levels = ascii ? ASCII_LEVELS : UNICODE_LEVELS;
  const points = resample(values, width);
  let max = options.max ?? 0;
  if (options.max === undefined) for (const p of points) if (p !== null && p > max) max = p;
  const top = levels.length - 1;
  let out = '';
  for (const p of points) {
    if (p === null) out += GAP;
    else if (p === 0 || max <= 0) out += levels[0];
    else out += levels[Math.min(top, Math.max(1, Math.ceil((p / max) * top)))];
  }
  return out;
}
