// Times packed as microseconds since 1970 in a double (src/api/packed-time.ts): exact for every
// timestamp 0.7.36 writes, and anything else kept as text.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {packTime, packTimeBytes, unpackTime} from '../../src/api/device-columns.js';

describe('times packed as microseconds', () => {
  it('round-trips 0.7.36 timestamps exactly, and agrees with Date.parse to the millisecond (property)', () => {
    fc.assert(
      fc.property(fc.integer({min: 0, max: 9_000_000_000_000}), fc.nat(999_999), (ms, us) => {
        const text = `${new Date(ms).toISOString().slice(0, 19)}.${String(us).padStart(6, '0')}Z`;
        const packed = packTime(text);
        expect(unpackTime(packed)).toBe(text);
        // Read from a body's bytes (the stats-only path), at any offset: the same.
        const bytes = Buffer.from(`x"${text}"`, 'latin1');
        expect(packTimeBytes(bytes, 2, 29)).toBe(packed);
        expect(Math.floor(packed / 1000)).toBe(Date.parse(text));
      }),
      {numRuns: 1000},
    );
  });

  it('keeps anything else as text', () => {
    for (const text of [
      '2026/01/01T00:00:00.000000Z',
      '2026-01/01T00:00:00.000000Z',
      '2026-01-01T00-00:00.000000Z',
      '2026-01-01T00:00-00.000000Z',
      '2026-01-01T00:00:00,000000Z',
      '2026-01-01T00:00:00.000000z',
      '2026-01-00T00:00:00.000000Z',
      '2026-01-32T00:00:00.000000Z',
      '2026-01-01T00:60:00.000000Z',
      '2026-01-01T00:00:60.000000Z',
      '2023-02-29T00:00:00.000000Z',
      '2100-02-29T00:00:00.000000Z',
      '1969-01-01T00:00:00.000000Z',
      '202a-01-01T00:00:00.000000Z',
      '2026-01-01T00:00:00Z',
      '2026-01-01T00:00:00.123Z',
      '2026-01-01T00:00:00.000000+00:00',
      '2026-02-29T00:00:00.000000Z',
      '2026-04-31T00:00:00.000000Z',
      '2026-00-10T00:00:00.000000Z',
      '2026-01-01T24:00:00.000000Z',
      '1969-12-31T23:59:59.000000Z',
      '2256-01-01T00:00:00.000000Z',
      // Past 2^53 microseconds a double holds no longer every one of them.
      '2255-06-05T23:47:34.740992Z',
      '2255-12-31T23:59:59.999999Z',
      '2026-01-01T00:00:00.00000aZ',
      '2026-01-01 00:00:00.000000Z',
      // U+0130 and U+0132 are '0' and '2' in their low byte: no digit for all that.
      '2026-01-01T00:00:00.00000\u0130Z',
      '\u0132026-01-01T00:00:00.000000Z',
    ]) {
      expect(packTime(text), text).toBeNaN();
      // As a body holds it: UTF-8.
      const bytes = Buffer.from(` ${text} `);
      expect(packTimeBytes(bytes, 1, bytes.length - 1), text).toBeNaN();
    }
    expect(packTime('2024-02-29T00:00:00.000000Z')).toBe(Date.UTC(2024, 1, 29) * 1000);
    expect(packTime('2000-02-29T00:00:00.000000Z')).toBe(Date.UTC(2000, 1, 29) * 1000);
    expect(packTime('1970-01-01T00:00:00.000000Z')).toBe(0);
    expect(packTime('2026-12-31T23:59:59.000000Z')).toBe(Date.UTC(2026, 11, 31, 23, 59, 59) * 1000);
    // The last microsecond a double holds exactly, and back.
    expect(packTime('2255-06-05T23:47:34.740991Z')).toBe(Number.MAX_SAFE_INTEGER);
    expect(unpackTime(Number.MAX_SAFE_INTEGER)).toBe('2255-06-05T23:47:34.740991Z');
  });
});
