import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {finished} from '../helpers/finish.js';
import {ListCache, NEEDS_SCHEMA, type DecodedList} from '../../src/api/listcache.js';
import {Device, Rule, User} from '../../src/api/schemas.js';
import {isDeviceFast, isRuleFast, isUserFast} from '../../src/api/guards.js';
import {salvageList, type SchemaIssue} from '../../src/api/validate.js';
import {device, iso, rule, user} from '../fixtures/data.js';

/** What the client does without the cache: the whole body through JSON.parse and salvageList. */
function fullParse(body: string): DecodedList<Device> | 'malformed' | 'no-list' {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'malformed';
  }
  if (parsed === null || typeof parsed !== 'object' || !('data' in parsed)) return 'no-list';
  const issues: SchemaIssue[] = [];
  const data = salvageList(Device, (parsed as {data: unknown}).data, 'data', issues, isDeviceFast);
  return data ? {data, issues} : 'no-list';
}

/** The client's path: the decoder over the chunks, the full parse when it gives up. */
function decode(cache: ListCache<Device>, body: Buffer, cuts: number[]): {result: ReturnType<typeof fullParse>; incremental: boolean} {
  const decoder = cache.begin();
  let at = 0;
  for (const cut of [...cuts.map((c) => Math.floor(c * body.length)).sort((a, b) => a - b), body.length]) {
    if (cut > at) decoder.push(body.subarray(at, cut));
    at = Math.max(at, cut);
  }
  const decoded = finished(decoder);
  return decoded ? {result: decoded, incremental: true} : {result: fullParse(body.toString('utf8')), incremental: false};
}

// Text that needs escaping or looks like JSON structure, in names and descriptions.
const nasty = fc.oneof(
  fc.string({unit: 'binary', maxLength: 12}),
  fc.constantFrom('"', '\\', '\\"', '{', '}', '[', ']', '","', '\u2028', '\n', 'é', '😀', '\u0000', '"data":[', '\\u0022'),
);
const deviceArb = fc
  .record({
    n: fc.nat(1_000_000),
    name: nasty,
    description: fc.option(nasty),
    rx: fc.option(fc.nat()),
    dns: fc.option(fc.array(nasty, {maxLength: 2})),
    bad: fc.nat(20),
  })
  .map(({n, name, description, rx, dns, bad}) => {
    const d: Record<string, unknown> = {...device({id: `d-${n}`, name, description, rx_bytes: rx, dns, updated_at: iso(n)})};
    // Now and then an item the fast guard refuses: salvaged, or dropped (no usable id).
    if (bad === 0) d.rx_bytes = 'lots';
    if (bad === 1) d.id = 7;
    if (bad === 2) d.extra = {nested: ['x', {y: '}'}]};
    return d;
  });

type Edit =
  | {kind: 'change'; at: number; device: Record<string, unknown>}
  | {kind: 'delete'; at: number}
  | {kind: 'insert'; at: number; device: Record<string, unknown>}
  | {kind: 'swap'; at: number; with: number}
  | {kind: 'duplicate'; at: number};

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({kind: fc.constant('change' as const), at: fc.nat(), device: deviceArb}),
  fc.record({kind: fc.constant('delete' as const), at: fc.nat()}),
  fc.record({kind: fc.constant('insert' as const), at: fc.nat(), device: deviceArb}),
  fc.record({kind: fc.constant('swap' as const), at: fc.nat(), with: fc.nat()}),
  fc.record({kind: fc.constant('duplicate' as const), at: fc.nat()}),
);

function apply(list: Record<string, unknown>[], edit: Edit): Record<string, unknown>[] {
  const next = [...list];
  const at = next.length === 0 ? 0 : edit.at % next.length;
  switch (edit.kind) {
    case 'change':
      if (next.length > 0) next[at] = {...edit.device, id: next[at]!.id};
      break;
    case 'delete':
      next.splice(at, 1);
      break;
    case 'insert':
      next.splice(edit.at % (next.length + 1), 0, edit.device);
      break;
    case 'swap':
      if (next.length > 0) {
        const other = edit.with % next.length;
        [next[at], next[other]] = [next[other]!, next[at]!];
      }
      break;
    case 'duplicate':
      if (next.length > 0) next.splice(at, 0, next[at]!);
      break;
  }
  return next;
}

const formats: Array<(v: unknown) => string> = [(v) => JSON.stringify(v), (v) => JSON.stringify(v, null, 2), (v) => `\r\n ${JSON.stringify(v, null, '\t')} \n`];

describe('ListCache: incremental decoding of a list body', () => {
  it('gives exactly the rows of a full parse, poll after poll, and keeps the objects of unchanged items (property)', () => {
    fc.assert(
      fc.property(
        fc.array(deviceArb, {maxLength: 8}),
        fc.array(fc.tuple(fc.array(editArb, {maxLength: 4}), fc.array(fc.double({min: 0, max: 1, noNaN: true}), {maxLength: 6})), {minLength: 1, maxLength: 5}),
        fc.nat(formats.length - 1),
        (initial, polls, format) => {
          const cache = new ListCache<Device>(() => Device, isDeviceFast);
          let list = initial;
          let previous: {texts: Map<string, number>; data: Device[]} | null = null;
          for (const [edits, cuts] of polls) {
            for (const edit of edits) list = apply(list, edit);
            const body = formats[format]!({data: list});
            const {result, incremental} = decode(cache, Buffer.from(body, 'utf8'), cuts);
            const reference = fullParse(body);
            // 0.7.36's compact JSON is decoded incrementally; with whitespace between items the full parse decides.
            if (format === 0) expect(incremental).toBe(true);
            expect(result).toEqual(reference);
            const decoded = result as DecodedList<Device>;
            // An item whose id is listed once, with the same bytes as last poll's only item of that id, is that poll's object.
            const texts = new Map<string, number>();
            const raw = list.map((d) => JSON.stringify(d));
            for (const [i, t] of raw.entries()) {
              texts.set(t, (texts.get(t) ?? 0) + 1);
              texts.set(`id:${String(list[i]!.id)}`, (texts.get(`id:${String(list[i]!.id)}`) ?? 0) + 1);
            }
            const once = (m: Map<string, number>, i: number) => m.get(raw[i]!) === 1 && m.get(`id:${String(list[i]!.id)}`) === 1;
            if (incremental && previous && decoded.issues.length === 0 && decoded.data.length === list.length) {
              for (let i = 0; i < raw.length; i++) {
                if (!once(texts, i) || !once(previous.texts, i)) continue;
                expect(previous.data).toContain(decoded.data[i]);
              }
            }
            previous = incremental && decoded.issues.length === 0 && decoded.data.length === list.length ? {texts, data: decoded.data} : null;
          }
        },
      ),
      {numRuns: 400},
    );
  });

  it('cuts items and separators that span chunks of any size, and finds them again next poll (property)', () => {
    fc.assert(
      fc.property(fc.array(deviceArb, {maxLength: 5}), fc.integer({min: 1, max: 40}), fc.integer({min: 1, max: 700}), (list, size, size2) => {
        const cache = new ListCache<Device>(() => Device, isDeviceFast);
        const body = Buffer.from(JSON.stringify({data: list}));
        const run = (n: number) => {
          const decoder = cache.begin();
          for (let i = 0; i < body.length; i += n) decoder.push(body.subarray(i, i + n));
          return finished(decoder);
        };
        const first = run(size);
        expect(first).toEqual(fullParse(body.toString('utf8')));
        const second = run(size2);
        expect(second).toEqual(first);
        const ids = list.map((d) => d.id);
        second!.data.forEach((d, i) => {
          if (ids.filter((x) => x === d.id).length === 1 && typeof d.id === 'string' && first!.issues.length === 0) expect(d).toBe(first!.data[i]);
        });
      }),
      {numRuns: 300},
    );
  });

  it('a body repeated unchanged gives the same array; one changed item, a new array with the others kept', () => {
    const cache = new ListCache<Device>(() => Device, isDeviceFast);
    const body = Buffer.from(JSON.stringify({data: [device({id: 'a'}), device({id: 'b'})]}));
    const first = decode(cache, body, [0.3]).result as DecodedList<Device>;
    const second = decode(cache, body, [0.7]).result as DecodedList<Device>;
    expect(second.data).toBe(first.data);
    const changed = decode(cache, Buffer.from(JSON.stringify({data: [device({id: 'a'}), device({id: 'b', name: 'other'})]})), []).result as DecodedList<Device>;
    expect(changed.data).not.toBe(first.data);
    expect(changed.data[0]).toBe(first.data[0]);
    expect(changed.data[1]!.name).toBe('other');
    expect(first.data.map((d) => d.name)).toEqual([device().name, device().name]);
    // The same items in another order, or one fewer: a new array.
    const swapped = decode(cache, Buffer.from(JSON.stringify({data: [device({id: 'b', name: 'other'}), device({id: 'a'})]})), []).result as DecodedList<Device>;
    expect(swapped.data).not.toBe(changed.data);
    expect(swapped.data).toEqual([changed.data[1], changed.data[0]]);
    const fewer = decode(cache, Buffer.from(JSON.stringify({data: [device({id: 'b', name: 'other'})]})), []).result as DecodedList<Device>;
    expect(fewer.data).toEqual([swapped.data[0]]);
    expect(fewer.data).not.toBe(swapped.data);
  });

  it('two identical items in one body are two objects', () => {
    const cache = new ListCache<Device>(() => Device, isDeviceFast);
    const body = Buffer.from(JSON.stringify({data: [device(), device()]}));
    for (let i = 0; i < 3; i++) {
      const {data} = decode(cache, body, []).result as DecodedList<Device>;
      expect(data[0]).toEqual(data[1]);
      expect(data[0]).not.toBe(data[1]);
    }
  });

  it('gives up on anything but the plain shape, so the full parse decides (property over cut bodies and odd shapes)', () => {
    const good = JSON.stringify({data: [device({id: 'a'}), device({id: 'b', name: 'x"}]'})]});
    const odd = [
      '',
      ' ',
      '{}',
      '{"data":null}',
      '{"data":{}}',
      '{"data":[1,2]}',
      '{"data":[{"id":"a"},null]}',
      '{"data":[],"more":1}',
      '{"more":1,"data":[]}',
      '{"data":[]}{',
      '\ufeff{"data":[]}',
      '{"data":[{}],}',
      '{"data":[{},]}',
      '{"data" : [ ] }',
      '{"data":[{"a":[}]}',
      '{"data":[{"a":"\u0001"}]}',
      '{"data":[{"a":1}}]}',
      '{"data":[{"a":1]]}',
      '{"data":[{"a":"x\\"}]}',
      '[{"data":[]}]',
      '<html>502 Bad Gateway</html>',
    ];
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constantFrom(...odd),
          fc.nat(good.length).map((n) => good.slice(0, n)),
        ),
        fc.array(fc.double({min: 0, max: 1, noNaN: true}), {maxLength: 4}),
        (body, cuts) => {
          const cache = new ListCache<Device>(() => Device, isDeviceFast);
          expect(decode(cache, Buffer.from(body, 'utf8'), cuts).result).toEqual(fullParse(body));
        },
      ),
      {numRuns: 600},
    );
  });

  it('a body it gave up on leaves the cache of the last complete decode', () => {
    const cache = new ListCache<Device>(() => Device, isDeviceFast);
    const body = JSON.stringify({data: [device({id: 'a'})]});
    const first = decode(cache, Buffer.from(body), []).result as DecodedList<Device>;
    decode(cache, Buffer.from(body.slice(0, -3)), []);
    decode(cache, Buffer.from(`${body.slice(0, -1)},"x":1}`), []);
    const again = decode(cache, Buffer.from(body), []).result as DecodedList<Device>;
    expect(again.data[0]).toBe(first.data[0]);
  });

  it('users and rules decode through their own fast guards', () => {
    const users = new ListCache<User>(() => User, isUserFast);
    const rules = new ListCache<Rule>(() => Rule, isRuleFast);
    const u = users.begin();
    u.push(Buffer.from(JSON.stringify({data: [user(), {...user({id: 'u-2'}), role: 'root'}]})));
    expect(finished(u)).toEqual({data: [user()], issues: [{path: 'data[1].role', message: expect.any(String) as string}]});
    const r = rules.begin();
    r.push(Buffer.from(JSON.stringify({data: [rule()]})));
    expect(finished(r)?.data).toEqual([rule()]);
  });
});

describe('salvage waits for the schema', () => {
  const good = device();
  const body = Buffer.from(JSON.stringify({data: [good, {...device({id: 'd-2'}), rx_bytes: 'lots'}, {...device({id: 'd-3'}), id: 7}, device({id: 'd-4'})]}));

  it('a list the guard accepts whole never asks for the schema', () => {
    let asked = 0;
    const cache = new ListCache<Device>(() => {
      asked++;
      return null;
    }, isDeviceFast);
    const decoder = cache.begin();
    decoder.push(Buffer.from(JSON.stringify({data: [good, device({id: 'd-2'})]})));
    expect(decoder.finish()).toEqual({data: [good, device({id: 'd-2'})], issues: []});
    expect(asked).toBe(0);
  });

  it('items to salvage make finish() ask for it, and finish again once it is there gives what a full parse gives', () => {
    let schema: typeof Device | null = null;
    const cache = new ListCache<Device>(() => schema, isDeviceFast);
    const decoder = cache.begin();
    decoder.push(body);
    expect(decoder.finish()).toBe(NEEDS_SCHEMA);
    schema = Device;
    expect(finished(decoder)).toEqual(fullParse(body.toString('utf8')));
    // The salvaged item is not cached; the next poll decodes the same way.
    const next = cache.begin();
    next.push(body);
    expect(finished(next)).toEqual(fullParse(body.toString('utf8')));
  });
});
