import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {compareKeys, encodeJson, JsonFloat, JsonSyntaxError, parseJson} from '../../src/sandbox/json.js';

/**
 * The keys of every object in JSON text, in wire order. Scanned from the text because JS objects
 * (and so JSON.parse) put integer-like keys first whatever the text says.
 */
function wireKeyOrders(text: string): string[][] {
  const orders: string[][] = [];
  const stack: Array<{keys: string[] | null; expectKey: boolean}> = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const top = stack.at(-1);
      if (top?.keys && top.expectKey) {
        top.keys.push(JSON.parse(text.slice(i, j + 1)) as string);
        top.expectKey = false;
      }
      i = j;
    } else if (c === '{') {
      stack.push({keys: [], expectKey: true});
    } else if (c === '[') {
      stack.push({keys: null, expectKey: false});
    } else if (c === '}' || c === ']') {
      const frame = stack.pop()!;
      if (frame.keys) orders.push(frame.keys);
    } else if (c === ',') {
      const top = stack.at(-1);
      if (top?.keys) top.expectKey = true;
    }
  }
  return orders;
}

describe('encodeJson', () => {
  it('(the wire-order scanner sees what JSON.parse hides)', () => {
    expect(wireKeyOrders('{"b":1,"a":{"10":"}","9":[{"y":1,"x":2}]}}')).toEqual([
      ['y', 'x'],
      ['10', '9'],
      ['b', 'a'],
    ]);
  });

  it('sorts object keys at every depth (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const encoded = encodeJson(value);
        for (const keys of wireKeyOrders(encoded)) expect(keys).toEqual([...keys].sort(compareKeys));
        expect(JSON.parse(encoded)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      {numRuns: 300},
    );
  });

  // See docs/firezone-0.7.36.md, "Key order and JSON shapes".
  it('orders "_" before letters and keeps the wire example of the doc', () => {
    expect(encodeJson({user_id: 1, use_default_dns: true, b: {z: 1, a: [{d: 1, c: 2}]}})).toBe(
      '{"b":{"a":[{"c":2,"d":1}],"z":1},"use_default_dns":true,"user_id":1}',
    );
  });

  it('sorts by UTF-8 bytes: astral characters after U+E000–U+FFFF', () => {
    expect(encodeJson({'\u{1F600}': 1, '\uFFFD': 2})).toBe('{"\uFFFD":2,"\u{1F600}":1}');
  });

  it('passes "/" and non-ASCII through like Jason', () => {
    expect(encodeJson({url: 'https://x/y', name: 'Zoë'})).toBe('{"name":"Zoë","url":"https://x/y"}');
  });
});

describe('parseJson', () => {
  it('keeps floats distinct from integers (Ecto rejects 1400.0 for an integer field)', () => {
    expect(parseJson('1400')).toBe(1400);
    expect(parseJson('1400.0')).toEqual(new JsonFloat(1400));
    expect(parseJson('1e3')).toEqual(new JsonFloat(1000));
  });

  it('rejects what Jason rejects', () => {
    for (const bad of ['', ' ', '{', '{"a":1,}', "{'a':1}", '[1,]', '01', 'NaN', '"\\x"', '{"a" 1}', '"\u0001"', '"\\ud800"']) {
      expect(() => parseJson(bad), bad).toThrow(JsonSyntaxError);
    }
  });

  it('treats __proto__ as an ordinary key', () => {
    const parsed = parseJson('{"__proto__":{"x":1}}') as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['__proto__']);
  });

  it('round-trips arbitrary JSON (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const normalise = (v: unknown): unknown =>
          v instanceof JsonFloat
            ? v.value
            : Array.isArray(v)
              ? v.map(normalise)
              : v && typeof v === 'object'
                ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalise(x)]))
                : v;
        expect(normalise(parseJson(text))).toEqual(JSON.parse(text));
      }),
      {numRuns: 300},
    );
  });
});
