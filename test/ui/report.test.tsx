// The report panel (:trace, :reach, an import's preview, a bulk job's summary): long lines wrap
// under their own indent, a page is filled to the footer, and End shows a whole last page.
import React from 'react';
import {describe, expect, it} from 'vitest';
import {render} from 'ink-testing-library';
import type {ReportModal} from '../../src/state/core/modals.js';
import {lastPageStart, Report, reportRows} from '../../src/ui/views/Report.js';
import {open, seeded} from '../helpers/fake-console.js';

const names = Array.from({length: 9}, (_, i) => `user${i}@example.com`).join(', ');

function report(lines: string[], scroll = 0): ReportModal {
  return {
    kind: 'report',
    id: 1,
    title: 'Reach: 10.10.20.16',
    lines: lines.map((text) => ({text})),
    scroll,
    phase: 'finished',
    progress: null,
  } as unknown as ReportModal;
}

describe('the report panel', () => {
  it('wraps a long line under its own indent, not at column 0', () => {
    const rows = reportRows(`    ${names}`, 40);
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) expect(row).toMatch(/^ {4}\S/);
    expect(rows.map((r) => r.trim()).join(' ')).toBe(names);
    // A line without an indent wraps as a paragraph; a deep indent on a narrow panel does not eat it.
    expect(reportRows(names, 40)[1]).toMatch(/^\S/);
    expect(reportRows(`${' '.repeat(20)}${names}`, 40).every((r) => r.length <= 40)).toBe(true);
  });

  it('fills the page to the footer with what fits of a line that does not fit whole, and counts it as not shown', () => {
    const lines = ['DROP: 40 users', '  by DROP 10.10.0.0/16 all ports · global — 40 users', `    ${names}`, '', 'Next group'];
    let shown = 0;
    const ui = render(<Report report={report(lines)} width={40} height={8} onShown={(n) => (shown = n)} />);
    const frame = ui.lastFrame()!.split('\n');
    // Title, 4 rows of lines (8 less the title, the footer and spacing), the footer.
    const body = frame.slice(1, frame.length - 1).filter((l) => l.trim() !== '');
    expect(body).toHaveLength(4);
    // The rule's line wraps under its indent; the names' line shows what fits.
    expect(body[2]).toMatch(/^ {2}global — 40 users/);
    expect(body[3]).toMatch(/^ {4}user0@example\.com/);
    expect(shown).toBe(2);
    expect(frame.at(-1)).toMatch(/↓ 3 more/);
    ui.unmount();
  });

  it('End goes to the first line of the last whole page, and scrolling stops there', async () => {
    const lines = Array.from({length: 20}, (_, i) => `line ${i}`);
    expect(
      lastPageStart(
        lines.map((text) => ({text})),
        40,
        4,
      ),
    ).toBe(16);
    expect(lastPageStart([{text: 'one'}], 40, 4)).toBe(0);
    const {c, press} = await open(seeded());
    c.push({...report(lines), lines: lines.map((text) => ({text}))});
    c.measuredReport(4, 16);
    press('end');
    expect((c.state.modals.at(-1) as ReportModal).scroll).toBe(16);
    press('down');
    expect((c.state.modals.at(-1) as ReportModal).scroll).toBe(16);
    press('up');
    expect((c.state.modals.at(-1) as ReportModal).scroll).toBe(15);
  });
});
