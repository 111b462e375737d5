// A device's traffic history in its detail: the sparkline and its peak on one row at 80 columns,
// and narrower (the side panel). With the widest rate, `peak 1024.0 KiB/s`, a 40-cell sparkline
// pushed the peak onto a row of its own at 80 columns.
import React from 'react';
import {afterEach, describe, expect, it} from 'vitest';
import {render} from 'ink-testing-library';
import {buildSnapshot} from '../../src/state/data/snapshot.js';
import {devices} from '../../src/state/screens/devices/screen.js';
import {TrafficHistory} from '../../src/state/tracking/traffic-history.js';
import {DetailView} from '../../src/ui/views/DetailView.js';
import {device, iso, user} from '../fixtures/data.js';
import {strip} from '../helpers/ink.js';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

/** A history whose series are given: 1048575 B/s reads `1024.0 KiB/s`, the widest rate there is. */
class GivenHistory extends TrafficHistory {
  constructor(private readonly given: Record<'rx' | 'tx', (number | null)[]>) {
    super();
  }
  override series(_id: string, which: 'rx' | 'tx'): (number | null)[] {
    return this.given[which];
  }
}

const rendered: Array<{unmount(): void}> = [];
afterEach(() => {
  for (const ui of rendered.splice(0)) ui.unmount();
});

function detailRows(width: number): string[] {
  const snapshot = buildSnapshot(
    {devices: [device({latest_handshake: iso(NOW - 10_000)})], users: [user()], rules: [], configuration: null, issues: []},
    null,
    NOW,
  );
  // Longer than the sparkline, so it is drawn whole (a shorter series is padded with blanks).
  const series = (k: number) => Array.from({length: 60}, (_, i) => (i % 7 === k ? 1048575 : 1000 * (i + 1)));
  const history = new GivenHistory({rx: series(3), tx: series(5)});
  const lines = devices.detail(snapshot.devices[0]!, {snapshot, now: NOW, reveal: false, history});
  const ui = render(<DetailView lines={lines} scroll={0} width={width} height={80} />);
  rendered.push(ui);
  return strip(ui.lastFrame()).split('\n');
}

describe("a device's traffic history", () => {
  it.each([80, 79, 60, 45])('at %i columns the sparkline and the widest peak share one row', (width) => {
    const rows = detailRows(width);
    for (const label of ['rx/s history', 'tx/s history']) {
      const row = rows.find((r) => r.startsWith(label));
      expect(row, rows.join('\n')).toBeDefined();
      expect(row!.trimEnd()).toMatch(/peak 1024\.0 KiB\/s$/);
      expect(row!.trimEnd().length).toBeLessThanOrEqual(width);
    }
    // No row holds the peak alone.
    expect(rows.filter((r) => /^\s+peak\b|^\s+1024\.0/.test(r))).toEqual([]);
  });

  it('keeps the full 40-cell sparkline where it fits', () => {
    const row = detailRows(120).find((r) => r.startsWith('rx/s history'))!;
    const spark = /history\s+(.*?)\s{2}peak/.exec(row)![1]!;
    expect([...spark]).toHaveLength(40);
  });
});
