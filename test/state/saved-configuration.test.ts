// The record a save returned is shown until a poll that began after the save says otherwise
// (src/state/data/saved-configuration.ts).
import {describe, expect, it} from 'vitest';
import {asRead, SavedConfiguration} from '../../src/state/data/saved-configuration.js';
import {configuration} from '../fixtures/data.js';

const before = configuration({updated_at: '2026-11-26T10:00:00.000000Z', default_client_mtu: 1280});
const saved = configuration({updated_at: '2026-11-26T10:00:05.000000Z', default_client_mtu: 1400});
const later = configuration({updated_at: '2026-11-26T10:00:09.000000Z', default_client_mtu: 1500});

describe('SavedConfiguration', () => {
  it('without a save, every poll shows what it read', () => {
    const held = new SavedConfiguration();
    expect(held.over(before, held.mark)).toBe(before);
    expect(held.over(null, held.mark)).toBeNull();
  });

  it('a poll that began before the save shows the saved record instead of an older one', () => {
    const held = new SavedConfiguration();
    const began = held.mark;
    held.saved(saved);
    expect(held.over(before, began)).toBe(saved);
    // The same record, read after the write was served: what the poll read.
    const same = configuration({updated_at: saved.updated_at, default_client_mtu: 1400});
    expect(held.over(same, began)).toBe(same);
    // Someone saved after this console did: the newer record wins.
    expect(held.over(later, began)).toBe(later);
    // A time that cannot be read cannot be newer.
    expect(held.over(configuration({updated_at: 'yesterday'}), began)).toBe(saved);
  });

  it('a poll that began after the save shows what it read, and ends the hold', () => {
    const held = new SavedConfiguration();
    const first = held.mark;
    held.saved(saved);
    const second = held.mark;
    expect(held.over(before, second)).toBe(before);
    // Polls run one at a time, so no earlier poll can come after it; nothing is held any more.
    expect(held.over(before, first)).toBe(before);
  });

  it('a second save holds the newer record over a poll that began between the two', () => {
    const held = new SavedConfiguration();
    held.saved(saved);
    const between = held.mark;
    held.saved(later);
    expect(held.over(saved, between)).toBe(later);
    expect(held.over(null, between)).toBeNull();
  });

  it('holds the record as later reads give it: a full-length mask the answer echoed is dropped', () => {
    const answer = configuration({default_client_allowed_ips: ['10.0.0.1/32', 'fd00::1/128', '10.0.0.0/8', '0.0.0.0/0', '::/0', '10.0.0.3']});
    expect(asRead(answer).default_client_allowed_ips).toEqual(['10.0.0.1', 'fd00::1', '10.0.0.0/8', '0.0.0.0/0', '::/0', '10.0.0.3']);
    const plain = configuration({default_client_allowed_ips: ['10.0.0.0/8']});
    expect(asRead(plain)).toBe(plain);
  });
});
