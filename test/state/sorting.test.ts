import {describe, expect, it} from 'vitest';
import {flipSortDirection, stepSort} from '../../src/state/lists/sort-by-column.js';

const columns = [{key: 'name'}, {key: 'owner'}, {key: 'rx', defaultDesc: true}];

describe('sort keys', () => {
  it('> / o step through the columns in their default direction, then unsorted', () => {
    expect(stepSort(null, columns, 1)).toEqual({key: 'name', desc: false});
    expect(stepSort({key: 'name', desc: true}, columns, 1)).toEqual({key: 'owner', desc: false});
    expect(stepSort({key: 'owner', desc: false}, columns, 1)).toEqual({key: 'rx', desc: true});
    expect(stepSort({key: 'rx', desc: true}, columns, 1)).toBeNull();
    expect(stepSort({key: 'gone', desc: false}, columns, 1)).toEqual({key: 'name', desc: false});
    expect(stepSort(null, [], 1)).toBeNull();
  });
  it('< steps backwards, from unsorted to the last column', () => {
    expect(stepSort(null, columns, -1)).toEqual({key: 'rx', desc: true});
    expect(stepSort({key: 'owner', desc: false}, columns, -1)).toEqual({key: 'name', desc: false});
    expect(stepSort({key: 'name', desc: false}, columns, -1)).toBeNull();
  });
  it('O reverses the direction; from unsorted, the first column the other way', () => {
    expect(flipSortDirection({key: 'owner', desc: false}, columns)).toEqual({key: 'owner', desc: true});
    expect(flipSortDirection({key: 'owner', desc: true}, columns)).toEqual({key: 'owner', desc: false});
    expect(flipSortDirection(null, columns)).toEqual({key: 'name', desc: true});
    expect(flipSortDirection(null, [])).toBeNull();
  });
});
