// Where the device decoder looks for an item's end first: where the last body's item at the same
// place ended (src/api/listcache.ts, ItemCutter.lengthHint). A separator found there that is not
// the first after the item's start must still give what a full parse gives: the separator may lie
// in a nested list of objects (`},{"id":` inside the item), or the place may fall on the end of
// the next item.
import {describe, expect, it} from 'vitest';
import {DeviceColumns, DevicePools} from '../../src/api/device-columns.js';
import {device} from '../fixtures/data.js';
import {fullParse, poll} from '../fixtures/device-store.js';

const item = (overrides: Parameters<typeof device>[0]) => JSON.stringify(device(overrides));
const body = (items: string[]) => `{"data":[${items.join(',')}]}`;

/** `a` with `"x":[{"id":"n1","p":"…"},{"id":"n2"}]` as its last member, padded so that the nested separator's `}` is at offset `at`. */
function withNestedSeparatorAt(a: string, at: number): string {
  const head = `${a.slice(0, -1)},"x":[{"id":"n1","p":"`;
  const pad = at - head.length - 1;
  if (pad < 0) throw new Error('the item is too long for that place');
  const out = `${head}${'p'.repeat(pad)}"},{"id":"n2"}]}`;
  expect(out.slice(at, at + 8)).toBe('},{"id":');
  return out;
}

/** Each body decoded after the one before it, from every split of the second into two chunks, equals a full parse. */
function expectFullParse(first: string, second: string): boolean[] {
  const incremental: boolean[] = [];
  for (const cut of [0, 0.13, 0.5, 0.77]) {
    const pools = new DevicePools();
    const last = poll(DeviceColumns.EMPTY, pools, Buffer.from(first), []).table;
    expect(last.itemLengths, 'the first decode keeps its items’ lengths').not.toBeNull();
    const next = poll(last, pools, Buffer.from(second), cut === 0 ? [] : [cut]);
    expect(next.table.materialiseAll(), `cut at ${cut}`).toEqual(fullParse(second).data);
    incremental.push(next.incremental);
  }
  return incremental;
}

describe("an item's end looked for where the last body's item ended", () => {
  it('the place falls on a separator inside the item (a nested list): a full parse', () => {
    const long = item({id: 'a', name: 'a-name-long-enough-to-make-room-for-a-nested-list-of-objects-xxxxxxxxxxxxx'});
    const first = body([long, item({id: 'b'})]);
    const nested = withNestedSeparatorAt(item({id: 'a', name: 'a'}), long.length - 1);
    expectFullParse(first, body([nested, item({id: 'b'})]));
  });

  it('the place falls on the item’s own end past a separator inside it: the item, as a full parse gives it', () => {
    const long = item({id: 'a', description: 'd'.repeat(200)});
    const first = body([long, item({id: 'b'})]);
    // The same length as before, the nested separator inside it: the remembered place is its end.
    let nested = withNestedSeparatorAt(item({id: 'a'}), item({id: 'a'}).length + 40);
    nested = nested.replace('"description":null', `"description":"${'d'.repeat(long.length - nested.length + 2)}"`);
    expect(nested.length).toBe(long.length);
    // In one chunk it is decoded without giving up: the remembered place cut it where it ends. Cut
    // across two chunks, its end is searched for (the separator inside it is found first, the item
    // does not parse) and the body is parsed whole.
    expect(expectFullParse(first, body([nested, item({id: 'b'})]))).toEqual([true, false, false, true]);
  });

  it('the place falls on the end of the next item (this one shorter by the next one and a comma): a full parse', () => {
    const b = item({id: 'b'});
    const long = item({id: 'a', description: 'd'.repeat(b.length + 1 + 20)});
    const first = body([long, b, item({id: 'c'})]);
    const short = item({id: 'a', description: 'd'.repeat(20)});
    expect(short.length + 1 + b.length).toBe(long.length);
    expectFullParse(first, body([short, b, item({id: 'c'})]));
  });

  it('items that kept their length are cut where they were; the others where a search finds their end', () => {
    const first = body(['a', 'b', 'c', 'd'].map((id) => item({id, rx_bytes: 1})));
    const second = body(['a', 'b', 'c', 'd'].map((id, i) => item({id, rx_bytes: i % 2 === 0 ? 1 : 123456789})));
    expect(expectFullParse(first, second)).toEqual([true, true, true, true]);
  });
});
