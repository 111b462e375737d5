// Smoke check of the caching that keeps a filter keystroke cheap at 50k items. Timing is the
// bench's job (README.md, "Performance"); this only asserts that haystacks are computed once per object.
import {describe, expect, it} from 'vitest';
import {buildListView} from '../../src/state/lists/list-view.js';
import {warmSearch} from '../../src/state/lists/search.js';
import {type ColumnSpec} from '../../src/state/lists/columns.js';

interface Item {
  id: string;
  name: string;
}

describe('buildListView caching', () => {
  it('calls searchText once per item object across keystrokes and polls that reuse objects', () => {
    let calls = 0;
    const columns: ColumnSpec<Item>[] = [{key: 'name', searchText: (i) => (calls++, i.name)}];
    const items = Array.from({length: 50_000}, (_, i) => ({id: String(i), name: `device-${i}`}));
    const opts = (filter: string) => ({getId: (i: Item) => i.id, filter, sort: null, columns});
    expect(buildListView(items, opts('device-4')).rows.length).toBe(11_111);
    expect(buildListView(items, opts('device-49')).rows.length).toBe(1_111);
    // Next poll: a new array, one object replaced.
    const next = items.slice();
    next[0] = {id: '0', name: 'renamed'};
    expect(buildListView(next, opts('renamed')).rows.map((i) => i.id)).toEqual(['0']);
    expect(calls).toBe(50_001);
  });

  it('sorts an items array once per sort key while the filter changes', () => {
    let calls = 0;
    const columns: ColumnSpec<Item>[] = [{key: 'name', sortValue: (i) => (calls++, i.name), searchText: (i) => i.name}];
    const items = Array.from({length: 1000}, (_, i) => ({id: String(i), name: `d${(i * 7) % 1000}`}));
    const opts = (filter: string, desc: boolean) => ({getId: (i: Item) => i.id, filter, sort: {key: 'name', desc}, columns});
    buildListView(items, opts('', false));
    buildListView(items, opts('d1', false));
    buildListView(items, opts('d12', false));
    expect(calls).toBe(1000);
    buildListView(items, opts('d12', true));
    expect(calls).toBe(2000);
  });
});

describe('buildListView filter reuse', () => {
  it('gives the same rows as a fresh scan while typing, deleting and pasting', () => {
    const names = ['alpha', 'alphabet', 'beta', 'alp', 'gamma-alpha', 'ALPHA-2', 'delta', 'lph'];
    const items = Array.from({length: 400}, (_, i) => ({id: String(i), name: `${names[i % names.length]!}-${i % 7}`}));
    const columns: ColumnSpec<Item>[] = [{key: 'name', searchText: (i) => i.name}];
    const view = (filter: string) => buildListView(items, {getId: (i: Item) => i.id, filter, sort: null, columns});
    const expected = (filter: string) => items.filter((i) => i.name.toLowerCase().includes(filter.toLowerCase())).map((i) => i.id);
    for (const filter of ['a', 'al', 'alp', 'alph', 'alpha', 'alph', 'al', 'l', 'lph', 'alpha-2', 'ALPHA', 'a-', 'zz', '', 'p', 'ph', 'pha-']) {
      const v = view(filter);
      expect(
        v.rows.map((i) => i.id),
        filter,
      ).toEqual(expected(filter));
      for (const id of ['0', '1', '5', '399']) expect(v.indexOf(id)).toBe(v.rows.findIndex((i) => i.id === id));
    }
  });
});

describe('warmSearch', () => {
  it('fills the haystack cache so the first keystroke does not call searchText', () => {
    let calls = 0;
    const columns: ColumnSpec<Item>[] = [{key: 'name', searchText: (i) => (calls++, i.name)}];
    const items = Array.from({length: 100}, (_, i) => ({id: String(i), name: `n${i}`}));
    warmSearch(items, columns);
    expect(calls).toBe(100);
    expect(buildListView(items, {getId: (i: Item) => i.id, filter: 'N9', sort: null, columns}).rows).toHaveLength(11);
    expect(calls).toBe(100);
  });
});
