// Pure column fitting and line text of the table (no Ink).
import {describe, expect, it} from 'vitest';
import {fitColumns, fittedWidth, headerText, rowSegments, rowText, type TableColumn} from '../../src/ui/table/Table.js';
import {displayWidth} from '../../src/ui/text.js';
import {formatRate} from '../../src/state/data/format.js';
import {buildSnapshot} from '../../src/state/data/snapshot.js';
import {devices} from '../../src/state/screens/devices/screen.js';
import {rules} from '../../src/state/screens/rules/screen.js';
import {rule, user} from '../fixtures/data.js';

interface Row {
  name: string;
  owner: string;
  ip: string;
  rx: string;
}

const col = (key: string, priority: number, width: TableColumn<Row>['width'], extra: Partial<TableColumn<Row>> = {}): TableColumn<Row> => ({
  key,
  header: key.toUpperCase(),
  priority,
  width,
  cell: (r) => String(r[key as keyof Row] ?? ''),
  ...extra,
});

const widths = (cols: TableColumn<Row>[], width: number) => Object.fromEntries(fitColumns(cols, width).map((f) => [f.column.key, f.width]));

describe('fitColumns', () => {
  const columns = [
    col('state', 1, 1),
    col('name', 1, {min: 12, max: 32, flex: 2}),
    col('owner', 2, {min: 14, max: 34, flex: 2}),
    col('ip', 3, 15),
    col('rx', 5, 11, {align: 'right'}),
    col('tx', 5, 11, {align: 'right'}),
    col('remote', 7, {min: 15, max: 39, flex: 1}),
    col('created', 9, 10),
  ];

  it('keeps columns in priority order while they fit, one gap between columns', () => {
    // state 1 + name 12 + owner 14 + ip 15 + rx 11 + tx 11 + 5 gaps = 69.
    expect(Object.keys(widths(columns, 69))).toEqual(['state', 'name', 'owner', 'ip', 'rx', 'tx']);
    // One cell less: rx and tx (same priority) go together.
    expect(Object.keys(widths(columns, 68))).toEqual(['state', 'name', 'owner', 'ip']);
    expect(Object.keys(widths(columns, 200))).toEqual(['state', 'name', 'owner', 'ip', 'rx', 'tx', 'remote', 'created']);
  });

  it('never exceeds the width and keeps declared order', () => {
    for (let w = 0; w <= 220; w++) {
      const fitted = fitColumns(columns, w);
      expect(fittedWidth(fitted)).toBeLessThanOrEqual(w);
      const keys = fitted.map((f) => f.column.key);
      expect(keys).toEqual(columns.map((c) => c.key).filter((k) => keys.includes(k)));
    }
  });

  it('stops at the first priority level that does not fit (no gaps in priority)', () => {
    // At 84 "remote" (priority 7, min 15 + gap) does not fit after the 69 cells above; "created" (10 + gap) would, but is dropped too.
    expect(Object.keys(widths(columns, 84))).toEqual(['state', 'name', 'owner', 'ip', 'rx', 'tx']);
  });

  it('gives the spare width to flexible columns by flex, capped at max', () => {
    // 69 needed at 79: 10 spare shared 2:2 by name and owner.
    expect(widths(columns, 79)).toMatchObject({name: 17, owner: 19, ip: 15, rx: 11});
    // Huge width: name and owner capped at their max, remote at 39, the rest stays unused.
    const wide = widths(columns, 300);
    expect(wide).toMatchObject({name: 32, owner: 34, remote: 39, created: 10});
    // An odd spare cell goes to the most important flexible column.
    expect(widths(columns, 70)).toMatchObject({name: 13, owner: 14});
  });

  it('shows what it can of the first level in a very narrow table', () => {
    expect(widths(columns, 10)).toEqual({state: 1});
    expect(widths([col('name', 1, 40)], 10)).toEqual({name: 10});
    expect(fitColumns(columns, 0)).toEqual([]);
  });
});

describe('line text', () => {
  const columns = [col('name', 1, 8), col('rx', 1, 6, {align: 'right'}), col('owner', 2, 5, {tone: () => 'ok'})];
  const fitted = fitColumns(columns, 40);
  const row: Row = {name: 'a-very-long-name', owner: 'ann', ip: '', rx: '1.0 K'};

  it('truncates cells with … and aligns', () => {
    expect(rowText(row, fitted)).toBe('a-very-…  1.0 K ann');
    expect(displayWidth(rowText(row, fitted, 40))).toBe(40);
  });

  it('splits coloured cells into their own segment', () => {
    expect(rowSegments(row, fitted)).toEqual([{text: 'a-very-…  1.0 K '}, {text: 'ann  ', color: 'green'}]);
    expect(rowSegments(row, fitted, false)).toEqual([{text: 'a-very-…  1.0 K ann'}]);
  });

  it("a cell's ↑/↓ sits in its own padding, next to the value; only a full cell lends it the gap", () => {
    const marks = (key: string) => (key === 'rx' || key === 'name' ? '↑' : undefined);
    // rx "1.0 K" right-aligned in 6 cells: the arrow before the number; name is full: the gap after it.
    expect(rowText(row, fitted, undefined)).toBe('a-very-…  1.0 K ann');
    expect(rowSegments(row, fitted, false, marks)).toEqual([{text: 'a-very-…↑↑1.0 K ann'}]);
    const short = {...row, name: 'lap'};
    expect(rowSegments(short, fitted, false, marks)).toEqual([{text: 'lap↑     ↑1.0 K ann'}]);
    // A full right-aligned cell (the widest rate): the arrow takes the gap after it, never its digits.
    const full = {...row, rx: '1023.9'};
    expect(rowSegments(full, fitted, false, marks)[0]!.text).toBe('a-very-…↑1023.9↑ann');
  });

  it('the Devices rate columns keep a cell for ↑/↓ after the widest rate (never against REMOTE IP)', () => {
    const snapshot = buildSnapshot({devices: [], users: [], rules: [], configuration: null, issues: []}, null, 0);
    const widths = new Map(devices.columns(snapshot, () => 0).map((c) => [c.key, c.width]));
    let widest = 0;
    for (let e = 0; e < 50; e++) for (const m of [1, 1.5, 9.99, 99.95, 999.95, 1023.9, 1023.96]) widest = Math.max(widest, formatRate(m * 2 ** e).length);
    expect(widest).toBe(12);
    expect(widths.get('rxRate')).toBeGreaterThan(widest);
    expect(widths.get('txRate')).toBeGreaterThan(widest);
  });

  it('the Rules NOTE column takes room only when some rule never decides; SCOPE has it otherwise', () => {
    const owner = user({id: 'u-1', email: 'henrik.nakamura@example.com'});
    const accept = rule({id: 'r-1', action: 'accept', destination: '10.0.0.0/8', user_id: 'u-1'});
    const shadowed = rule({id: 'r-2', action: 'drop', destination: '10.1.0.0/16', user_id: 'u-1'});
    const fitted = (list: ReturnType<typeof rule>[], width: number) => {
      const snapshot = buildSnapshot({devices: [], users: [owner], rules: list, configuration: null, issues: []}, null, 0);
      return new Map(fitColumns(rules.columns(snapshot, () => 0) as TableColumn<unknown>[], width).map((f) => [f.column.key, f.width]));
    };
    const plain = fitted([accept], 120);
    expect(plain.get('note')).toBe(4);
    expect(plain.get('scope')).toBeGreaterThanOrEqual(owner.email.length);
    const noted = fitted([accept, shadowed], 120);
    expect(noted.get('note')).toBeGreaterThanOrEqual(12);
    expect(noted.get('scope')).toBeLessThan(plain.get('scope')!);
  });

  it('shows control characters as escapes so a row stays one line', () => {
    expect(rowText({...row, name: 'x\ny'}, fitted, 0)).toMatch(/^x\uE000\\n\uE001y {5}/);
  });

  it('keeps a full-width title whole: the arrow takes the gap before (right-aligned) or after (left-aligned)', () => {
    const wide = fitColumns([col('name', 1, 4), col('handshake', 1, 9, {align: 'right'}), col('action', 1, 6), col('owner', 1, 5)], 40);
    const named = (key: string, title: string) => ({
      ...wide.find((f) => f.column.key === key)!,
      column: {...wide.find((f) => f.column.key === key)!.column, header: title},
    });
    const columns = [named('name', 'NAME'), named('handshake', 'HANDSHAKE'), named('action', 'ACTION'), named('owner', 'OWNER')];
    expect(headerText(columns, {key: 'handshake', desc: true})).toBe('NAME▼HANDSHAKE ACTION OWNER');
    expect(headerText(columns, {key: 'action', desc: false})).toBe('NAME HANDSHAKE ACTION▲OWNER');
  });

  it('marks the sorted column, even when its title is cut', () => {
    expect(headerText(fitted, {key: 'name', desc: false})).toBe('NAME▲        RX OWNER');
    expect(headerText(fitted, {key: 'rx', desc: true})).toBe('NAME        RX▼ OWNER');
    const narrow = fitColumns([col('owner', 1, 3)], 3);
    expect(headerText(narrow, {key: 'owner', desc: false})).toBe('O…▲');
    expect(headerText(narrow, null)).toBe('OW…');
  });
});
