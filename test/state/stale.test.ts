import {describe, expect, it} from 'vitest';
import {buildSnapshot} from '../../src/state/data/snapshot.js';
import {staleDevices} from '../../src/state/data/stale.js';
import {device, iso, user} from '../fixtures/data.js';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const DAY = 86_400_000;

describe('staleDevices', () => {
  it('no handshake for N days, or never connected and created more than N days ago; oldest first, with owner and age', () => {
    const s = buildSnapshot(
      {
        devices: [
          device({id: 'fresh', latest_handshake: iso(NOW - 1000)}),
          device({id: 'idle-40', latest_handshake: iso(NOW - 40 * DAY)}),
          device({id: 'never-new', inserted_at: iso(NOW - 2 * DAY)}),
          device({id: 'never-minutes', inserted_at: iso(NOW - 3 * 60_000)}),
          device({id: 'never-31', inserted_at: iso(NOW - 31 * DAY)}),
          device({id: 'never-old', inserted_at: iso(NOW - 400 * DAY)}),
          device({id: 'idle-29', latest_handshake: iso(NOW - 29 * DAY)}),
        ],
        users: [user()],
        rules: [],
        configuration: null,
        issues: [],
      },
      null,
      NOW,
    );
    const stale = staleDevices(s, NOW, 30);
    // A device made minutes (or two days) ago that has not connected yet is new, not stale.
    expect(stale.map((d) => d.row.id)).toEqual(['never-old', 'idle-40', 'never-31']);
    expect(stale.map((d) => d.age)).toEqual(['never connected · created 1y ago', 'last handshake 40d ago', 'never connected · created 31d ago']);
    expect(stale[0]!.ownerEmail).toBe('ann@example.com');
    expect(staleDevices(s, NOW, 20).map((d) => d.row.id)).toEqual(['never-old', 'idle-40', 'never-31', 'idle-29']);
    expect(staleDevices(s, NOW, 1).map((d) => d.row.id)).toContain('never-new');
  });
});
