// A poll's sorted view is built from the previous poll's sort (src/state/lists/column-order.ts, ColumnValues and resortValues);
// it must be exactly the sort from scratch, whatever changed in between.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {buildListView} from '../../src/state/lists/list-view.js';
import {warmSortOrder} from '../../src/state/lists/column-order.js';
import {type ColumnSpec} from '../../src/state/lists/columns.js';
import {ipSortKey} from '../../src/common/ip-literal.js';

interface Item {
  id: string;
  v: string | number | null;
}

const value = fc.oneof(
  fc.constantFrom('a', 'b', 'B', 'ä', 'a\u00ad', 'z', '', 'fd00::1', 'fd00::10'),
  fc.string({maxLength: 3}),
  fc.integer({min: -3, max: 3}),
  fc.constantFrom(0, -0, Number.NaN, 1.5, null),
);

const edit = fc.oneof(
  fc.record({kind: fc.constant('value' as const), at: fc.nat(), v: value}),
  fc.record({kind: fc.constant('same' as const), at: fc.nat()}),
  fc.record({kind: fc.constant('insert' as const), at: fc.nat(), v: value}),
  fc.record({kind: fc.constant('delete' as const), at: fc.nat()}),
  fc.record({kind: fc.constant('swap' as const), at: fc.nat(), with: fc.nat()}),
);

function columns(rowOnly = false): ColumnSpec<Item>[] {
  // A new closure per poll, as a new snapshot's columns are. Items are never mutated, so a kept
  // object keeps its value: what sortValueFromRowOnly promises.
  return [{key: 'v', sortValue: (r) => r.v, ...(rowOnly ? {sortValueFromRowOnly: true} : {})}];
}

describe('sorting a poll from the previous sort', () => {
  it('gives exactly the rows and positions of a sort from scratch (property)', () => {
    let serial = 0;
    fc.assert(
      fc.property(
        fc.array(value, {maxLength: 12}),
        fc.array(fc.array(edit, {maxLength: 4}), {minLength: 1, maxLength: 6}),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (initial, polls, desc, rowOnly, warm) => {
          const getId = (r: Item) => r.id;
          let items: Item[] = initial.map((v) => ({id: `i${serial++}`, v}));
          buildListView(items, {getId, filter: '', sort: {key: 'v', desc}, columns: columns(rowOnly)});
          for (const edits of polls) {
            items = [...items];
            for (const e of edits) {
              const at = items.length === 0 ? 0 : e.at % items.length;
              if (e.kind === 'value' && items.length > 0) items[at] = {id: items[at]!.id, v: e.v};
              if (e.kind === 'same' && items.length > 0) items[at] = {...items[at]!};
              if (e.kind === 'insert') items.splice(e.at % (items.length + 1), 0, {id: `i${serial++}`, v: e.v});
              if (e.kind === 'delete') items.splice(at, 1);
              if (e.kind === 'swap' && items.length > 0) {
                const other = e.with % items.length;
                [items[at], items[other]] = [items[other]!, items[at]!];
              }
            }
            const cols = columns(rowOnly);
            // Ordered ahead of time (as the console does in idle time) or at the sort itself.
            if (warm) while (!warmSortOrder(items, cols, getId));
            const incremental = buildListView(items, {getId, filter: '', sort: {key: 'v', desc}, columns: cols});
            const fresh = buildListView([...items], {getId: (r: Item) => r.id, filter: '', sort: {key: 'v', desc}, columns: columns()});
            expect(incremental.rows).toEqual(fresh.rows);
            incremental.rows.forEach((row, k) => expect(row).toBe(fresh.rows[k]));
            for (const item of items) expect(incremental.indexOf(item.id)).toBe(fresh.indexOf(item.id));
          }
        },
      ),
      {numRuns: 1500},
    );
  });
});

describe('ordering ahead of time a step at a time', () => {
  it('gives the sort from scratch when polls and sort keys come between the steps (property)', () => {
    // Lists longer than a step's batch of rows (1024), so that a step stops inside a column.
    const action = fc.oneof(
      fc.record({kind: fc.constant('step' as const), steps: fc.integer({min: 1, max: 4})}),
      fc.record({kind: fc.constant('sort' as const), desc: fc.boolean()}),
      fc.record({kind: fc.constant('poll' as const), changes: fc.array(fc.tuple(fc.nat(), fc.integer({min: 0, max: 40})), {maxLength: 300})}),
    );
    fc.assert(
      fc.property(fc.integer({min: 1000, max: 3000}), fc.array(action, {minLength: 1, maxLength: 8}), fc.boolean(), (n, actions, rowOnly) => {
        const getId = (r: Item) => r.id;
        let items: Item[] = Array.from({length: n}, (_, i) => ({id: `w${i}`, v: (i * 7919) % 50}));
        let cols = columns(rowOnly);
        const check = (desc: boolean) => {
          const view = buildListView(items, {getId, filter: '', sort: {key: 'v', desc}, columns: cols});
          const fresh = buildListView([...items], {getId: (r: Item) => r.id, filter: '', sort: {key: 'v', desc}, columns: columns()});
          expect(view.rows.map(getId)).toEqual(fresh.rows.map(getId));
        };
        for (const a of actions) {
          if (a.kind === 'step') for (let k = 0; k < a.steps; k++) warmSortOrder(items, cols, getId, 0);
          if (a.kind === 'sort') check(a.desc);
          if (a.kind === 'poll') {
            items = [...items];
            for (const [at, v] of a.changes) items[at % n] = {id: items[at % n]!.id, v};
            cols = columns(rowOnly);
          }
        }
        while (!warmSortOrder(items, cols, getId, 0));
        check(false);
        check(true);
      }),
      {numRuns: 150},
    );
  });
});

describe('sorting numbers and ASCII strings that mostly differ (radix sorts)', () => {
  const reference = (values: Array<string | number>, desc: boolean) =>
    values
      .map((v, i) => ({v, i}))
      .sort((a, b) => {
        const d = typeof a.v === 'number' ? (a.v as number) - (b.v as number) : a.v < b.v ? -1 : a.v > b.v ? 1 : 0;
        return (desc ? -d : d) || a.i - b.i;
      })
      .map((x) => x.i);

  /** The list view sorts `values` exactly as the plain comparator sort does. */
  const sortsLikeReference = (values: Array<string | number>, desc: boolean) => {
    const items = values.map((v, i) => ({id: `#${i}`, v}));
    const view = buildListView(items, {getId: (r) => r.id, filter: '', sort: {key: 'v', desc}, columns: columns()});
    expect(view.rows.map((r) => Number(r.id.slice(1)))).toEqual(reference(values, desc));
  };

  it('numbers: negative, ±0, fractions, infinities, huge (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({noNaN: true}), fc.integer(), fc.constantFrom(0, -0, 1e300, -1e-300, Infinity, -Infinity)), {minLength: 1, maxLength: 300}),
        fc.boolean(),
        sortsLikeReference,
      ),
      {numRuns: 500},
    );
  });

  it('ASCII strings with repeats and long shared prefixes (property)', () => {
    const piece = fc.constantFrom('fd00:0000:0000:', 'user-laptop', 'user-', 'a', 'A', 'z', '0', '');
    fc.assert(
      fc.property(
        fc.array(
          fc.array(piece, {maxLength: 4}).map((p) => p.join('')),
          {minLength: 1, maxLength: 400},
        ),
        fc.boolean(),
        sortsLikeReference,
      ),
      {numRuns: 300},
    );
  });

  it('ASCII strings of any length (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({unit: fc.integer({min: 1, max: 127}).map((c) => String.fromCharCode(c)), maxLength: 60}), {minLength: 1, maxLength: 300}),
        fc.boolean(),
        sortsLikeReference,
      ),
      {numRuns: 500},
    );
  });
});

describe('addresses sort as addresses', () => {
  const v6 = fc.array(fc.integer({min: 0, max: 0xffff}), {minLength: 8, maxLength: 8});
  const asBig = (g: number[]) => g.reduce((a, x) => (a << 16n) | BigInt(x), 0n);
  const write = (g: number[], compress: boolean) => {
    const text = g.map((x) => x.toString(16)).join(':');
    // The longest run of zero groups as `::`, as inet_ntoa writes it.
    return compress ? text.replace(/(^|:)0(:0)+(:|$)/, '::') : text;
  };

  it('IPv6 keys are in address order however the address is written (property)', () => {
    fc.assert(
      fc.property(v6, v6, fc.boolean(), fc.boolean(), (a, b, ca, cb) => {
        const ka = ipSortKey(write(a, ca));
        const kb = ipSortKey(write(b, cb));
        expect(typeof ka).toBe('string');
        const big = asBig(a) < asBig(b) ? -1 : asBig(a) > asBig(b) ? 1 : 0;
        expect((ka as string) < (kb as string) ? -1 : (ka as string) > (kb as string) ? 1 : 0).toBe(big);
      }),
      {numRuns: 1000},
    );
  });

  it('IPv4 as its number, before every IPv6; anything else as written', () => {
    expect(ipSortKey('10.3.2.9')).toBeLessThan(ipSortKey('10.3.2.10') as number);
    expect(ipSortKey('255.255.255.255')).toBe(2 ** 32 - 1);
    expect(ipSortKey('::ffff:10.0.0.1')).toBe('00000000000000000000ffff0a000001');
    expect(ipSortKey('fd00::3:2:9')! < ipSortKey('fd00::3:2:10')!).toBe(true);
    for (const bad of ['256.1.1.1', '1.2.3', '1.2.3.4.', 'fe80::1%eth0', '1::2::3', '12345::1', '1:2:3:4:5:6:7:8:9', 'laptop'])
      expect(ipSortKey(bad)).toBe(bad);
    expect(ipSortKey(null)).toBeNull();
  });
});

describe('sorting ahead skips volatile columns (src/state/lists/column-order.ts)', () => {
  interface Row {
    id: string;
    name: string;
    rx: number;
  }
  it('a column whose values change on most rows every poll is not ordered ahead; a steady one is; the volatile one is tried again after 8 polls', () => {
    const getId = (r: Row) => r.id;
    const reads = {name: 0, rx: 0};
    const cols = (): ColumnSpec<Row>[] => [
      {key: 'name', sortValue: (r) => (reads.name++, r.name)},
      {key: 'rx', sortValue: (r) => (reads.rx++, r.rx)},
    ];
    const n = 6000;
    let items: Row[] = Array.from({length: n}, (_, i) => ({id: `d${i}`, name: `device-${(i * 7919) % n}`, rx: i}));
    const poll = (p: number) => {
      // Every row's traffic moves; a few rows are renamed.
      items = items.map((r, i) => ({...r, rx: (r.rx * 31 + i + p) % 100_000, ...(i % 1000 === 0 ? {name: `renamed-${p}-${i}`} : {})}));
    };
    const warmAll = (c: ColumnSpec<Row>[]) => {
      reads.name = 0;
      reads.rx = 0;
      while (!warmSortOrder(items, c, getId, Infinity));
    };
    // The first poll orders both; the second finds rx volatile (it changed everywhere).
    warmAll(cols());
    expect(reads.rx).toBe(n);
    poll(1);
    warmAll(cols());
    expect(reads.rx).toBe(n);
    for (let p = 2; p < 9; p++) {
      poll(p);
      warmAll(cols());
      expect(reads.name).toBe(n);
      expect(reads.rx).toBe(0);
      // A sort by it is made on the key, and it is exactly the sort from scratch.
      const c = cols();
      const view = buildListView(items, {getId, filter: '', sort: {key: 'rx', desc: p % 2 === 0}, columns: c});
      const fresh = [...items].sort((a, b) => (p % 2 === 0 ? b.rx - a.rx : a.rx - b.rx) || Number(a.id.slice(1)) - Number(b.id.slice(1)));
      expect(view.rows.map(getId)).toEqual(fresh.map(getId));
    }
    // Eight polls later it is read again (and found volatile again).
    poll(9);
    warmAll(cols());
    expect(reads.rx).toBe(n);
    poll(10);
    warmAll(cols());
    expect(reads.rx).toBe(0);
  });
});
