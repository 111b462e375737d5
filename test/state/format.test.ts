import {describe, expect, it} from 'vitest';
import {formatAge, formatBytes, formatKeepalive, formatList, formatRate, formatRateCompact, formatSessionDuration} from '../../src/state/data/format.js';

describe('format', () => {
  it('bytes like the 0.7.36 web UI (IEC, 2 decimals, nil = 0)', () => {
    expect(formatBytes(null)).toBe('0.00 B');
    expect(formatBytes(1023)).toBe('1023.00 B');
    expect(formatBytes(1115)).toBe('1.09 KiB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.00 GiB');
    expect(formatBytes(2 ** 62)).toBe('4.00 EiB');
  });
  it('rates', () => {
    expect(formatRate(null)).toBe('–');
    expect(formatRate(0)).toBe('0 B/s');
    expect(formatRate(2048)).toBe('2.00 KiB/s');
    // every rate fits the 12-cell rate columns: one decimal from 100 up
    expect(formatRate(1006.78 * 1024)).toBe('1006.8 KiB/s');
    expect(formatRate(1023.99 * 1024 * 1024)).toBe('1024.0 MiB/s');
    for (let exp = 0; exp < 60; exp += 0.37) expect(formatRate(2 ** exp).length, String(2 ** exp)).toBeLessThanOrEqual(12);
    // a count no server can mean is not shown as one
    expect(formatBytes(-1)).toBe('?');
    expect(formatBytes(Number.NaN)).toBe('?');
    expect(formatRate(-5)).toBe('?');
  });
  it('ages', () => {
    const now = 1_000_000_000;
    expect(formatAge(null, now)).toBe('never');
    expect(formatAge(now - 42_000, now)).toBe('42s');
    expect(formatAge(now - 3 * 3600_000, now)).toBe('3h');
    expect(formatAge(now - 3 * 86400_000, now)).toBe('3d');
    expect(formatAge(now + 5000, now)).toBe('0s');
  });
  it('web UI wording', () => {
    expect(formatList([])).toBe('None');
    expect(formatList(['1.1.1.1', '1.0.0.1'])).toBe('1.1.1.1, 1.0.0.1');
    expect(formatKeepalive(0)).toBe('Disabled');
    expect(formatKeepalive(25)).toBe('Every 25 seconds');
    expect(formatSessionDuration(0)).toBe('Never');
    expect(formatSessionDuration(2147483647)).toBe('Once');
    expect(formatSessionDuration(86400)).toBe('Every Day');
    expect(formatSessionDuration(100)).toBe('Every 100 seconds');
  });
});

describe('formatRateCompact (the header when formatRate has no room)', () => {
  it('is a few cells: the value and the letter of its binary unit, from the number', () => {
    expect(formatRateCompact(null)).toBe('–');
    expect(formatRateCompact(-1)).toBe('?');
    expect(formatRateCompact(Number.NaN)).toBe('?');
    expect(formatRateCompact(0)).toBe('0');
    expect(formatRateCompact(512)).toBe('512');
    expect(formatRateCompact(1024)).toBe('1K');
    expect(formatRateCompact(1536)).toBe('1.5K');
    expect(formatRateCompact(9.96 * 1024)).toBe('10K');
    expect(formatRateCompact(12.3 * 1024 * 1024)).toBe('12M');
    expect(formatRateCompact(1.25 * 1024 ** 3)).toBe('1.3G');
    expect(formatRateCompact(1023.9 * 1024)).toBe('1024K');
  });
});
