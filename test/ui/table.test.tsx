// The Table component rendered with ink-testing-library (stdout 100 columns, no rows: width and
// height are always passed explicitly).
import {afterAll, afterEach, describe, expect, it, vi} from 'vitest';

// Colours on, so the selected row's inverse (SGR 7) is visible in frames. Hoisted above the
// imports because chalk reads the level when Ink loads it.
const previousForceColor = vi.hoisted(() => {
  const previous = process.env.FORCE_COLOR;
  process.env.FORCE_COLOR = '1';
  return previous;
});

import React from 'react';
import {stripVTControlCharacters} from 'node:util';
import {cleanup, render} from 'ink-testing-library';
import {Table, type TableColumn} from '../../src/ui/table/Table.js';
import {buildListView, moveSelection, reconcileSelection} from '../../src/state/lists/list-view.js';
import {type ColumnSpec} from '../../src/state/lists/columns.js';
import {sortLetters} from '../../src/state/lists/sort-letters.js';

afterEach(() => cleanup());
afterAll(() => {
  if (previousForceColor === undefined) delete process.env.FORCE_COLOR;
  else process.env.FORCE_COLOR = previousForceColor;
});

interface Dev {
  id: string;
  name: string;
  owner: string;
  ip: string;
  rx: number;
  remote: string;
  created: string;
}

const INVERSE = '\x1b[7m';

const columns: Array<TableColumn<Dev> & ColumnSpec<Dev>> = [
  {key: 'state', header: ' ', priority: 1, width: 1, cell: (d) => (d.rx > 0 ? '●' : '·'), tone: (d) => (d.rx > 0 ? 'online' : undefined)},
  {key: 'name', header: 'NAME', priority: 1, width: {min: 12, max: 32, flex: 2}, cell: (d) => d.name, sortValue: (d) => d.name, searchText: (d) => d.name},
  {key: 'owner', header: 'OWNER', priority: 2, width: {min: 14, max: 34, flex: 2}, cell: (d) => d.owner, sortValue: (d) => d.owner, searchText: (d) => d.owner},
  {key: 'ip', header: 'IPV4', priority: 3, width: 15, cell: (d) => d.ip},
  {key: 'rx', header: 'RX', priority: 5, width: 11, align: 'right', cell: (d) => `${d.rx} B`, sortValue: (d) => d.rx},
  {key: 'tx', header: 'TX', priority: 5, width: 11, align: 'right', cell: (d) => `${d.rx * 2} B`},
  {key: 'remote', header: 'REMOTE IP', priority: 7, width: {min: 15, max: 39, flex: 1}, cell: (d) => d.remote},
  {key: 'created', header: 'CREATED', priority: 9, width: 10, cell: (d) => d.created},
];

function makeDevs(n: number): Dev[] {
  return Array.from({length: n}, (_, i) => ({
    id: `id-${i}`,
    name: `device-${String(i).padStart(5, '0')}`,
    owner: `user${i % 50}@example.com`,
    ip: `10.3.${(i >> 8) & 255}.${i & 255}`,
    rx: i % 3 === 0 ? 0 : i * 10,
    remote: `203.0.113.${i % 250}`,
    created: '2024-01-02',
  }));
}

const getId = (d: Dev) => d.id;

function lines(frame: string | undefined): string[] {
  return (frame ?? '').split('\n');
}

function plainLines(frame: string | undefined): string[] {
  return lines(frame).map((l) => stripVTControlCharacters(l));
}

/** The plain text of the highlighted (inverse) line, or undefined. */
function selectedLine(frame: string | undefined): string | undefined {
  const line = lines(frame).find((l) => l.includes(INVERSE));
  return line === undefined ? undefined : stripVTControlCharacters(line);
}

describe('Table', () => {
  it('renders only the visible window of 10,000 rows and follows the cursor to the end', () => {
    const rows = makeDevs(10_000);
    const props = {rows, columns, getId, width: 100, height: 12};
    const ui = render(<Table {...props} selectedId="id-0" />);
    let frame = plainLines(ui.lastFrame());
    expect(frame).toHaveLength(12);
    expect(frame[0]).toMatch(/^ +NAME +OWNER/);
    expect(frame[1]).toContain('device-00000');
    expect(frame[11]).toContain('device-00010');
    expect(ui.lastFrame()).not.toContain('device-00011');
    expect(selectedLine(ui.lastFrame())).toContain('device-00000');

    ui.rerender(<Table {...props} selectedId="id-9999" />);
    frame = plainLines(ui.lastFrame());
    expect(frame).toHaveLength(12);
    expect(frame[11]).toContain('device-09999');
    expect(frame[1]).toContain('device-09989');
    expect(ui.lastFrame()).not.toContain('device-00000');
    expect(selectedLine(ui.lastFrame())).toContain('device-09999');
    // The inverse bar spans the whole width.
    expect(selectedLine(ui.lastFrame())).toHaveLength(100);
  });

  it('scrolls with a scroll-off margin and does not re-centre', () => {
    const rows = makeDevs(100);
    const props = {rows, columns, getId, width: 100, height: 11}; // 10 body rows
    const ui = render(<Table {...props} selectedId="id-0" />);
    const firstRow = () => plainLines(ui.lastFrame())[1]!;
    // Moving down inside the window keeps it still until two rows are left below the cursor.
    for (let i = 1; i <= 7; i++) {
      ui.rerender(<Table {...props} selectedId={`id-${i}`} />);
      expect(firstRow()).toContain('device-00000');
    }
    ui.rerender(<Table {...props} selectedId="id-8" />);
    expect(firstRow()).toContain('device-00001');
    // Moving back up does not scroll until the top margin is reached.
    ui.rerender(<Table {...props} selectedId="id-4" />);
    expect(firstRow()).toContain('device-00001');
    ui.rerender(<Table {...props} selectedId="id-2" />);
    expect(firstRow()).toContain('device-00000');
  });

  it('fits columns to the width: low-priority columns dropped at 80, present at 160, long text cut with …', () => {
    const rows = makeDevs(3);
    rows[1] = {...rows[1]!, name: 'a-device-name-that-is-much-longer-than-any-column-allows'};
    const ui = render(<Table rows={rows} columns={columns} getId={getId} selectedId={null} width={80} height={5} />);
    let header = plainLines(ui.lastFrame())[0]!;
    expect(header).toContain('IPV4');
    expect(header).toContain('RX');
    expect(header).not.toContain('REMOTE IP');
    expect(header).not.toContain('CREATED');
    expect(plainLines(ui.lastFrame())[2]).toMatch(/a-device-name-th\S*…/);
    for (const line of plainLines(ui.lastFrame())) expect(line.length).toBeLessThanOrEqual(80);

    ui.rerender(<Table rows={rows} columns={columns} getId={getId} selectedId={null} width={160} height={5} />);
    header = plainLines(ui.lastFrame())[0]!;
    expect(header).toContain('REMOTE IP');
    expect(header).toContain('CREATED');
    expect(plainLines(ui.lastFrame())[2]).toContain('a-device-name-that-is-much-long…');
  });

  it('keeps the highlight on the same id when a refresh reorders the rows', () => {
    const items = makeDevs(30);
    const opts = {getId, filter: '', columns};
    let view = buildListView(items, {...opts, sort: null});
    const selected = moveSelection(view, 'id-0', 5)!; // device-00005
    const props = {columns, getId, width: 100, height: 12};
    const ui = render(<Table {...props} rows={view.rows} selectedId={selected} indexOf={view.indexOf} />);
    expect(selectedLine(ui.lastFrame())).toContain('device-00005');

    // Next poll: same objects, reversed order and one other device removed.
    const reordered = items
      .slice()
      .reverse()
      .filter((d) => d.id !== 'id-7');
    view = buildListView(reordered, {...opts, sort: null});
    const kept = reconcileSelection(view, selected, 5);
    expect(kept).toBe(selected);
    ui.rerender(<Table {...props} rows={view.rows} selectedId={kept} indexOf={view.indexOf} />);
    expect(selectedLine(ui.lastFrame())).toContain('device-00005');
    expect(lines(ui.lastFrame()).filter((l) => l.includes(INVERSE))).toHaveLength(1);
    expect(plainLines(ui.lastFrame())).toHaveLength(12);
  });

  it('shows ▲/▼ on the sorted column header', () => {
    const rows = makeDevs(5);
    const ui = render(<Table rows={rows} columns={columns} getId={getId} selectedId={null} width={100} height={4} sort={{key: 'name', desc: false}} />);
    expect(plainLines(ui.lastFrame())[0]).toMatch(/NAME▲/);
    ui.rerender(<Table rows={rows} columns={columns} getId={getId} selectedId={null} width={100} height={4} sort={{key: 'rx', desc: true}} />);
    const header = plainLines(ui.lastFrame())[0]!;
    expect(header).toMatch(/RX▼/);
    expect(header).not.toContain('▲');
  });

  it('after s: each sort letter underlined in the header, the text unchanged', () => {
    const rows = makeDevs(5);
    const letters = sortLetters(columns);
    const ui = render(<Table rows={rows} columns={columns} getId={getId} selectedId={null} width={100} height={4} sortLetters={letters} />);
    const header = lines(ui.lastFrame())[0]!;
    // eslint-disable-next-line no-control-regex -- SGR codes are what the test looks for
    const underlined = [...header.matchAll(/\x1b\[4m(?:\x1b\[[0-9;]*m)*([^\x1b])/g)].map((m) => m[1]);
    expect(underlined).toEqual(['N', 'O', 'R']);
    const plain = stripVTControlCharacters(header);
    ui.rerender(<Table rows={rows} columns={columns} getId={getId} selectedId={null} width={100} height={4} />);
    expect(plainLines(ui.lastFrame())[0]).toBe(plain);
    expect(lines(ui.lastFrame())[0]).not.toContain('\x1b[4m');
  });

  it('shows the empty text under the header, within the height', () => {
    const ui = render(<Table rows={[]} columns={columns} getId={getId} selectedId={null} width={100} height={6} emptyText='No devices match "zzz".' />);
    const frame = plainLines(ui.lastFrame());
    expect(frame[0]).toContain('NAME');
    expect(frame[1]).toBe('No devices match "zzz".');
    expect(frame.length).toBeLessThanOrEqual(6);
  });

  it('never exceeds the height, even for a one-line table or rows with newlines', () => {
    const rows = makeDevs(5).map((d) => ({...d, name: `multi\nline\r\n${d.name}`}));
    for (const height of [1, 2, 3, 8]) {
      const ui = render(<Table rows={rows} columns={columns} getId={getId} selectedId="id-4" width={100} height={height} />);
      const frame = plainLines(ui.lastFrame());
      expect(frame.length).toBeLessThanOrEqual(height);
      if (height >= 2) expect(selectedLine(ui.lastFrame())).toContain('multi\\nline\\r');
      cleanup();
    }
  });

  it('keeps blank rows one line high', () => {
    const blank: TableColumn<Dev>[] = [{key: 'name', header: 'NAME', priority: 1, width: 12, cell: (d) => (d.id === 'id-1' ? '' : d.name)}];
    const ui = render(<Table rows={makeDevs(3)} columns={blank} getId={getId} selectedId="id-0" width={40} height={4} />);
    const frame = plainLines(ui.lastFrame());
    expect(frame).toHaveLength(4);
    expect(frame[2]!.trim()).toBe('');
    expect(frame[3]).toContain('device-00002');
  });

  it('supports a controlled top and reports changes through onTopChange', () => {
    const rows = makeDevs(100);
    const onTopChange = vi.fn();
    const props = {rows, columns, getId, width: 100, height: 6, onTopChange};
    const ui = render(<Table {...props} selectedId="id-50" top={0} />);
    // Shown correctly at once (5 body rows, cursor 2 rows above the bottom), then reported.
    expect(plainLines(ui.lastFrame())[1]).toContain('device-00048');
    expect(onTopChange).toHaveBeenLastCalledWith(48);
    ui.rerender(<Table {...props} selectedId="id-50" top={48} />);
    expect(onTopChange).toHaveBeenCalledTimes(1);
  });

  it('rebuilds a row line only when its row object or the columns change', () => {
    let calls = 0;
    const counted: TableColumn<Dev>[] = [{key: 'name', header: 'NAME', priority: 1, width: 20, cell: (d) => (calls++, d.name)}];
    const rows = makeDevs(1000);
    const props = {columns: counted, getId, width: 100, height: 11};
    const ui = render(<Table {...props} rows={rows} selectedId="id-0" />);
    expect(calls).toBe(10);
    // Same props: the memoised component does nothing.
    ui.rerender(<Table {...props} rows={rows} selectedId="id-0" />);
    // Cursor moves inside the window: no cell is recomputed.
    ui.rerender(<Table {...props} rows={rows} selectedId="id-3" />);
    expect(calls).toBe(10);
    // A poll: new array, one visible object replaced.
    const next = rows.slice();
    next[2] = {...next[2]!, name: 'renamed'};
    ui.rerender(<Table {...props} rows={next} selectedId="id-3" />);
    expect(calls).toBe(11);
    expect(plainLines(ui.lastFrame())[3]).toContain('renamed');
    // Scrolling one row computes the one new row.
    ui.rerender(<Table {...props} rows={next} selectedId="id-8" />);
    expect(calls).toBe(12);
    // New columns (e.g. a new `now` for ages): the visible rows are rebuilt.
    ui.rerender(<Table {...props} columns={[...counted]} rows={next} selectedId="id-8" />);
    expect(calls).toBe(22);
  });

  it('colours cells through the column colour function', () => {
    const rows = makeDevs(3);
    const ui = render(<Table rows={rows} columns={columns} getId={getId} selectedId="id-2" width={100} height={4} />);
    const frame = lines(ui.lastFrame());
    // Row 1 has rx > 0: its state cell is green (SGR 32); the selected row 2 is inverse without colours.
    expect(frame[2]).toContain('\x1b[32m●');
    expect(frame[3]).toContain(INVERSE);
    expect(frame[3]).not.toContain('\x1b[32m');
  });
});
