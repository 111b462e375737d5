import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {buildListView, computeWindow, moveSelection, reconcileSelection, type ListView} from '../../src/state/lists/list-view.js';
import {type ColumnSpec} from '../../src/state/lists/columns.js';

interface Dev {
  id: string;
  name: string;
  owner: string;
  rx: number | null;
}

const columns: ColumnSpec<Dev>[] = [
  {key: 'name', sortValue: (d) => d.name, searchText: (d) => d.name},
  {key: 'owner', sortValue: (d) => d.owner, searchText: (d) => d.owner},
  {key: 'rx', sortValue: (d) => d.rx},
];
const getId = (d: Dev) => d.id;

function dev(id: string, name: string, owner = 'ann@example.com', rx: number | null = 0): Dev {
  return {id, name, owner, rx};
}

function view(items: readonly Dev[], filter = '', sort: {key: string; desc: boolean} | null = null): ListView<Dev> {
  return buildListView(items, {getId, filter, sort, columns});
}

const ids = (v: ListView<Dev>) => v.rows.map((d) => d.id);

describe('buildListView: filter', () => {
  const items = [dev('1', 'Laptop-ANN', 'ann@example.com'), dev('2', 'phone', 'Bob@Example.com'), dev('3', 'router', 'carl@x.org')];

  it('gives the same rows whatever was typed before: a shorter or different text is not searched in the last matches', () => {
    const same = [dev('1', 'laptop', 'x'), dev('2', 'tablet', 'x'), dev('3', 'phone', 'x'), dev('4', 'lab-pc', 'x')];
    expect(ids(view(same, 'lap'))).toEqual(['1']);
    expect(ids(view(same, 'a'))).toEqual(['1', '2', '4']);
    expect(ids(view(same, 'la'))).toEqual(['1', '4']);
    expect(ids(view(same, 'lab'))).toEqual(['4']);
    expect(ids(view(same, 'ab'))).toEqual(['2', '4']);
  });

  it('typing, backspacing and retyping on one list gives what a fresh list gives (property)', () => {
    const word = fc.stringMatching(/^[abl]{0,4}$/);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({unit: fc.constantFrom('a', 'b', 'l', 'x'), maxLength: 6}), fc.constant(0)), {minLength: 3, maxLength: 6}),
        fc.array(word, {minLength: 1, maxLength: 12}),
        (names, typed) => {
          const list = names.map(([name], i) => dev(String(i), name, 'x'));
          for (const text of typed) expect(ids(view(list, text)), text).toEqual(ids(view([...list], text)));
        },
      ),
    );
  });

  it('is a case-insensitive substring over every searchable column', () => {
    expect(ids(view(items, 'laptop'))).toEqual(['1']);
    expect(ids(view(items, 'LAPTOP-a'))).toEqual(['1']);
    expect(ids(view(items, 'bob@'))).toEqual(['2']);
    expect(ids(view(items, 'EXAMPLE.COM'))).toEqual(['1', '2']);
    expect(ids(view(items, ''))).toEqual(['1', '2', '3']);
    expect(ids(view(items, 'nothing'))).toEqual([]);
  });

  it('does not match across a column boundary', () => {
    // name "phone" + owner "Bob…": "phonebob" must not match.
    expect(ids(view(items, 'phonebob'))).toEqual([]);
  });

  it('does not search columns without searchText', () => {
    const withRx = [dev('1', 'a', 'a@x', 12345)];
    expect(ids(view(withRx, '12345'))).toEqual([]);
  });

  it('reuses the cached haystack of an unchanged object and rebuilds for a replaced one', () => {
    const a = dev('1', 'alpha');
    const b = dev('2', 'beta');
    expect(ids(view([a, b], 'alp'))).toEqual(['1']);
    // Next poll: `a` renamed (new object), `b` unchanged (same object).
    const a2 = {...a, name: 'gamma'};
    expect(ids(view([a2, b], 'alp'))).toEqual([]);
    expect(ids(view([a2, b], 'gam'))).toEqual(['1']);
  });

  it('keeps the sort order when filtering', () => {
    const list = [dev('1', 'b-x'), dev('2', 'a-x'), dev('3', 'c-y'), dev('4', 'd-x')];
    expect(ids(view(list, '-x', {key: 'name', desc: true}))).toEqual(['4', '1', '2']);
  });
});

describe('buildListView: sort', () => {
  it('sorts numbers numerically with nulls last in both directions', () => {
    const list = [dev('a', 'a', 'o', 10), dev('b', 'b', 'o', null), dev('c', 'c', 'o', 9), dev('d', 'd', 'o', 100), dev('e', 'e', 'o', null)];
    expect(ids(view(list, '', {key: 'rx', desc: false}))).toEqual(['c', 'a', 'd', 'b', 'e']);
    expect(ids(view(list, '', {key: 'rx', desc: true}))).toEqual(['d', 'a', 'c', 'b', 'e']);
  });

  it('is stable in both directions', () => {
    const list = [dev('1', 'x', 'bob'), dev('2', 'y', 'ann'), dev('3', 'z', 'bob'), dev('4', 'w', 'ann'), dev('5', 'v', 'bob')];
    expect(ids(view(list, '', {key: 'owner', desc: false}))).toEqual(['2', '4', '1', '3', '5']);
    // Reversing reverses the groups, not the equal runs inside them.
    expect(ids(view(list, '', {key: 'owner', desc: true}))).toEqual(['1', '3', '5', '2', '4']);
  });

  it('sorts strings with the collator (case and accents are not code-unit order)', () => {
    const list = [dev('1', 'banana'), dev('2', 'Apple'), dev('3', 'cherry'), dev('4', 'apple'), dev('5', 'Émile')];
    expect(view(list, '', {key: 'name', desc: false}).rows.map((d) => d.name)).toEqual(['apple', 'Apple', 'banana', 'cherry', 'Émile']);
  });

  it('leaves the order alone for an unknown or unsortable key', () => {
    const list = [dev('2', 'b'), dev('1', 'a')];
    expect(ids(view(list, '', {key: 'nope', desc: false}))).toEqual(['2', '1']);
    const cols: ColumnSpec<Dev>[] = [{key: 'name'}];
    expect(buildListView(list, {getId, filter: '', sort: {key: 'name', desc: false}, columns: cols}).rows.map(getId)).toEqual(['2', '1']);
  });

  it('re-sorts when the sortValue function changes for the same items array', () => {
    const list = [dev('1', 'a', 'o', 1), dev('2', 'b', 'o', 2)];
    expect(ids(view(list, '', {key: 'rx', desc: false}))).toEqual(['1', '2']);
    const negated: ColumnSpec<Dev>[] = [{key: 'rx', sortValue: (d) => (d.rx === null ? null : -d.rx)}];
    expect(buildListView(list, {getId, filter: '', sort: {key: 'rx', desc: false}, columns: negated}).rows.map(getId)).toEqual(['2', '1']);
  });

  it('indexOf is by id and -1 when absent', () => {
    const v = view([dev('x', 'b'), dev('y', 'a')], '', {key: 'name', desc: false});
    expect(v.indexOf('y')).toBe(0);
    expect(v.indexOf('x')).toBe(1);
    expect(v.indexOf('z')).toBe(-1);
    expect(v.idAt(1)).toBe('x');
  });
});

describe('selection by id', () => {
  const five = ['a', 'b', 'c', 'd', 'e'].map((id) => dev(id, id));

  it('keeps the same id across a refresh that reorders rows', () => {
    const before = view(five);
    const selected = moveSelection(before, 'a', 2); // → 'c', index 2
    expect(selected).toBe('c');
    const reordered = view([five[4]!, five[2]!, five[0]!, five[3]!, five[1]!]);
    expect(reconcileSelection(reordered, selected, before.indexOf('c'))).toBe('c');
    expect(reordered.indexOf('c')).toBe(1);
  });

  it('falls back to the row now at the previous index when the selected row is removed', () => {
    const before = view(five);
    const after = view(five.filter((d) => d.id !== 'c'));
    expect(reconcileSelection(after, 'c', before.indexOf('c'))).toBe('d');
    // Removed at the end: clamps to the new last row.
    const shorter = view(five.slice(0, 3));
    expect(reconcileSelection(shorter, 'e', 4)).toBe('c');
    // Filtered out by a filter: same rule.
    expect(reconcileSelection(view(five, 'b'), 'e', 4)).toBe('b');
  });

  it('selects the first row when nothing was selected and null for an empty view', () => {
    expect(reconcileSelection(view(five), null, 0)).toBe('a');
    expect(reconcileSelection(view([]), 'a', 3)).toBeNull();
    expect(moveSelection(view([]), 'a', 1)).toBeNull();
  });

  it('moves by delta, clamped, without wrapping', () => {
    const v = view(five);
    expect(moveSelection(v, 'a', 1)).toBe('b');
    expect(moveSelection(v, 'a', -1)).toBe('a');
    expect(moveSelection(v, 'e', 1)).toBe('e');
    expect(moveSelection(v, 'b', 10)).toBe('e');
    expect(moveSelection(v, null, 1)).toBe('a');
    expect(moveSelection(v, 'gone', -1)).toBe('a');
  });

  it('pages, and goes home and end', () => {
    const many = Array.from({length: 100}, (_, i) => dev(String(i), `d${i}`));
    const v = view(many);
    expect(moveSelection(v, '10', {page: 1, pageSize: 20})).toBe('30');
    expect(moveSelection(v, '10', {page: -1, pageSize: 20})).toBe('0');
    expect(moveSelection(v, '95', {page: 1, pageSize: 20})).toBe('99');
    expect(moveSelection(v, '50', 'home')).toBe('0');
    expect(moveSelection(v, '50', 'end')).toBe('99');
    expect(moveSelection(v, null, 'end')).toBe('99');
  });
});

describe('computeWindow', () => {
  const w = (selectedIndex: number, top: number, total = 100, height = 10, scrollOff?: number) =>
    computeWindow({total, selectedIndex, height, top, ...(scrollOff === undefined ? {} : {scrollOff})});

  it('shows everything from the top when the list fits', () => {
    expect(w(5, 3, 8)).toBe(0);
    expect(w(0, 0, 0)).toBe(0);
  });

  it('does not move while the cursor stays inside the margins', () => {
    for (let sel = 2; sel <= 7; sel++) expect(w(sel, 0)).toBe(0);
    for (let sel = 22; sel <= 27; sel++) expect(w(sel, 20)).toBe(20);
  });

  it('scrolls by the least amount to keep scroll-off rows below and above the cursor', () => {
    expect(w(8, 0)).toBe(1); // cursor at row 8 of 0..9 would leave 1 row below: scroll 1
    expect(w(9, 1)).toBe(2);
    expect(w(21, 20)).toBe(19);
    expect(w(50, 0)).toBe(43); // jump far down: cursor lands 2 rows above the bottom
    expect(w(50, 90)).toBe(48); // jump far up: cursor lands 2 rows below the top
  });

  it('lets the cursor reach the first and last rows (the margin shrinks at the ends)', () => {
    expect(w(0, 5)).toBe(0);
    expect(w(99, 0)).toBe(90);
    expect(w(98, 90)).toBe(90);
  });

  it('clamps a top left past the end (rows removed by a refresh)', () => {
    expect(w(3, 95, 20)).toBe(1);
    expect(w(-1, 95, 20)).toBe(10);
  });

  it('is idempotent and honours scrollOff 0 and oversized margins', () => {
    for (const [sel, top] of [
      [8, 0],
      [50, 0],
      [50, 90],
      [0, 7],
    ] as const) {
      const t = w(sel, top);
      expect(w(sel, t)).toBe(t);
    }
    expect(w(9, 0, 100, 10, 0)).toBe(0);
    expect(w(10, 0, 100, 10, 0)).toBe(1);
    // A margin of 10 in a 5-row window is capped to 2: the cursor sits in the middle row.
    expect(w(10, 0, 100, 5, 10)).toBe(8);
  });
});

describe('sorting, property', () => {
  it('equals a reference stable sort for any mix of strings, numbers and nulls, both directions, and indexOf agrees', async () => {
    const fc = (await import('fast-check')).default;
    const value = fc.oneof(fc.constant(null), fc.integer({min: -5, max: 5}), fc.string({maxLength: 3}), fc.constantFrom('a', 'b', 'ab', 'B', 'é', 'a\u0000'));
    fc.assert(
      fc.property(fc.array(value, {maxLength: 60}), fc.boolean(), (values, desc) => {
        const items = values.map((v, i) => ({id: `i${i}`, v}));
        const columns: ColumnSpec<(typeof items)[number]>[] = [{key: 'v', sortValue: (r) => r.v}];
        const view = buildListView(items, {getId: (r) => r.id, filter: '', sort: {key: 'v', desc}, columns});
        const nums = items
          .filter((r) => typeof r.v === 'number')
          .sort((a, b) => ((a.v as number) - (b.v as number)) * (desc ? -1 : 1) || Number(a.id.slice(1)) - Number(b.id.slice(1)));
        const strsAll = items.filter((r) => typeof r.v === 'string');
        // eslint-disable-next-line no-control-regex -- the console's fast path: ASCII without NUL
        const ascii = strsAll.every((r) => /^[\x01-\x7f]*$/.test(r.v as string));
        const cmp = ascii ? (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0) : new Intl.Collator().compare;
        const strs = strsAll.sort((a, b) => cmp(a.v as string, b.v as string) * (desc ? -1 : 1) || Number(a.id.slice(1)) - Number(b.id.slice(1)));
        const nulls = items.filter((r) => r.v === null);
        const expected = [...nums, ...strs, ...nulls].map((r) => r.id);
        expect(view.rows.map((r) => r.id)).toEqual(expected);
        for (const [i, id] of expected.entries()) expect(view.indexOf(id)).toBe(i);
      }),
      {numRuns: 300},
    );
  });
});
