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
