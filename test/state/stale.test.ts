import {describe, expect, it} from 'vitest';
import {buildSnapshot} from '../../src/state/data/snapshot.js';
import {staleDevices} from '../../src/state/data/stale.js';
import {device, iso, user} from '../fixtures/data.js';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const DAY = 86_400_000;

describe('staleDevices', () => {
  it('never connected or last handshake older than N days, oldest first, with owner and age', () => {
    const s = buildSnapshot(
      {
        devices: [
          device({id: 'fresh', latest_handshake: iso(NOW - 1000)}),
          device({id: 'idle-40', latest_handshake: iso(NOW - 40 * DAY)}),
          device({id: 'never-new', inserted_at: iso(NOW - 2 * DAY)}),
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
    expect(stale.map((d) => d.row.id)).toEqual(['never-old', 'idle-40', 'never-new']);
    expect(stale.map((d) => d.age)).toEqual(['never connected · created 1y ago', 'last handshake 40d ago', 'never connected · created 2d ago']);
    expect(stale[0]!.ownerEmail).toBe('ann@example.com');
    expect(staleDevices(s, NOW, 20).map((d) => d.row.id)).toContain('idle-29');
  });
});
