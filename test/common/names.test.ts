import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {generateDeviceName, NAME_WORDS, phash2Binary, shortenDeviceName} from '../../src/common/names.js';

// See docs/firezone-0.7.36.md, "Device names".
describe('device names', () => {
  it('shortens like upstream: first 11 characters + phash2(name, 65536) as 4 upper-case hex digits', () => {
    // the upstream test case (apps/fz_http/test/fz_http/devices_test.exs)
    expect(shortenDeviceName('1234567890ABCDEF')).toBe('1234567890A4772');
    expect(phash2Binary(new TextEncoder().encode('1234567890ABCDEF'), 65536)).toBe(0x4772);
  });

  it('keeps names of at most 15 characters unchanged', () => {
    expect(shortenDeviceName('brave-falcon')).toBe('brave-falcon');
    expect(shortenDeviceName('123456789012345')).toBe('123456789012345');
  });

  it('generates "<adjective>-<noun>" of at most 15 characters, deterministically for a given random source', () => {
    fc.assert(
      fc.property(fc.array(fc.double({min: 0, max: 1, maxExcluded: true, noNaN: true}), {minLength: 2, maxLength: 2}), (draws) => {
        let i = 0;
        const random = (): number => draws[i++ % draws.length]!;
        const name = generateDeviceName(random);
        expect([...name].length).toBeLessThanOrEqual(15);
        const [adjective, noun] = [
          NAME_WORDS.adjectives[Math.floor(draws[0]! * NAME_WORDS.adjectives.length)]!,
          NAME_WORDS.nouns[Math.floor(draws[1]! * NAME_WORDS.nouns.length)]!,
        ];
        expect(name).toBe(shortenDeviceName(`${adjective}-${noun}`));
      }),
    );
  });

  it('a shortened name ends in 4 upper-case hex digits after the first 11 characters', () => {
    fc.assert(
      fc.property(fc.string({minLength: 16, maxLength: 60, unit: 'grapheme-ascii'}), (name) => {
        const short = shortenDeviceName(name);
        expect(short.slice(0, 11)).toBe(name.slice(0, 11));
        expect(short.slice(11)).toMatch(/^[0-9A-F]{4}$/);
      }),
    );
  });
});
