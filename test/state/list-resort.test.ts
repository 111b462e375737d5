// A poll's sorted view is built from the previous poll's sort (src/state/list.ts, resortItems);
// it must be exactly the sort from scratch, whatever changed in between.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {buildListView, type ColumnSpec} from '../../src/state/list.js';

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

function columns(): ColumnSpec<Item>[] {
  // A new closure per poll, as a new snapshot's columns are.
  return [{key: 'v', sortValue: (r) => r.v}];
}

describe('sorting a poll from the previous sort', () => {
  it('gives exactly the rows and positions of a sort from scratch (property)', () => {
    let serial = 0;
    fc.assert(
      fc.property(
        fc.array(value, {maxLength: 12}),
        fc.array(fc.array(edit, {maxLength: 4}), {minLength: 1, maxLength: 6}),
        fc.boolean(),
        (initial, polls, desc) => {
          const getId = (r: Item) => r.id;
          let items: Item[] = initial.map((v) => ({id: `i${serial++}`, v}));
          buildListView(items, {getId, filter: '', sort: {key: 'v', desc}, columns: columns()});
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
            const incremental = buildListView(items, {getId, filter: '', sort: {key: 'v', desc}, columns: columns()});
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

describe('sorting numbers and ASCII strings that mostly differ (radix sorts)', () => {
  const reference = (values: Array<string | number>, desc: boolean) =>
    values
      .map((v, i) => ({v, i}))
      .sort((a, b) => {
        const d = typeof a.v === 'number' ? (a.v as number) - (b.v as number) : a.v < b.v ? -1 : a.v > b.v ? 1 : 0;
        return (desc ? -d : d) || a.i - b.i;
      })
      .map((x) => x.i);

  it('numbers: negative, ±0, fractions, infinities, huge (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({noNaN: true}), fc.integer(), fc.constantFrom(0, -0, 1e300, -1e-300, Infinity, -Infinity)), {minLength: 1, maxLength: 300}),
        fc.boolean(),
        (values, desc) => {
          const items = values.map((v, i) => ({id: `n${i}`, v}));
          const view = buildListView(items, {getId: (r) => r.id, filter: '', sort: {key: 'v', desc}, columns: columns()});
          expect(view.rows.map((r) => Number(r.id.slice(1)))).toEqual(reference(values, desc));
        },
      ),
      {numRuns: 500},
    );
  });

  it('ASCII strings of any length (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({unit: fc.integer({min: 1, max: 127}).map((c) => String.fromCharCode(c)), maxLength: 60}), {minLength: 1, maxLength: 300}),
        fc.boolean(),
        (values, desc) => {
          const items = values.map((v, i) => ({id: `s${i}`, v}));
          const view = buildListView(items, {getId: (r) => r.id, filter: '', sort: {key: 'v', desc}, columns: columns()});
          expect(view.rows.map((r) => Number(r.id.slice(1)))).toEqual(reference(values, desc));
        },
      ),
      {numRuns: 500},
    );
  });
});
