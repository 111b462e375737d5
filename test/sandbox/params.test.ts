// The sandbox's query-string and form decoder (src/sandbox/http/params.ts): Plug 1.14's
// Plug.Conn.Query semantics, in time linear in the text, within its bounds (docs/firezone-0.7.36.md,
// "Request parsing"; src/sandbox/README.md, "Deviations from 0.7.36").
import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import fc from 'fast-check';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {decodeMultipart, decodeQuery, MalformedRequest, QUERY_LIMITS, QueryLimitExceeded, type QueryLimits} from '../../src/sandbox/http/params.js';
import {bundleModule} from '../helpers/bundle.js';

/**
 * Plug 1.14's Plug.Conn.Query.decode, clause for clause and immutable, as the oracle: every pair
 * split with `:binary.split` (first match only) and each container rebuilt, prepending to lists.
 */
const NONE = Symbol('none');
type Value = string | Value[] | {[key: string]: Value};
type Acc = Value | typeof NONE;
const isMap = (v: unknown): v is {[key: string]: Value} => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (map: object, key: string) => Object.prototype.hasOwnProperty.call(map, key);
const split1 = (text: string, pattern: string) => {
  const at = text.indexOf(pattern);
  return at < 0 ? [text] : [text.slice(0, at), text.slice(at + pattern.length)];
};
const put = (map: {[key: string]: Value}, key: string, value: Value) => Object.defineProperty({...map}, key, {value, enumerable: true});
function assignMap(acc: Acc, key: string, value: Value): Value {
  if (isMap(acc) && has(acc, key)) return acc;
  return put(isMap(acc) ? acc : {}, key, value);
}
function assignSplit(parts: string[], value: Value, acc: Acc): Value {
  if (parts.length === 2) {
    const [key, rest] = parts as [string, string];
    const next = split1(rest, '][');
    if (key === '') {
      if (Array.isArray(acc) && acc.length > 0) return [assignSplit(next, value, NONE), ...acc];
      return acc === NONE ? [assignSplit(next, value, NONE)] : acc;
    }
    if (isMap(acc) && has(acc, key)) {
      const current = acc[key]!;
      return Array.isArray(current) || isMap(current) ? put(acc, key, assignSplit(next, value, current)) : acc;
    }
    return put(isMap(acc) ? acc : {}, key, assignSplit(next, value, NONE));
  }
  const key = parts[0]!;
  if (key === '') {
    if (Array.isArray(acc) && acc.length > 0) return [value, ...acc];
    return acc === NONE ? [value] : (acc as Value);
  }
  return assignMap(acc, key, value);
}
function plugDecode(query: string): Value {
  let acc: Value = {};
  for (const part of query.split('&').reverse()) {
    if (part === '') continue;
    const [rawKey, rawValue = ''] = split1(part, '=');
    const [key, value] = [rawKey!, rawValue].map((t) => decodeURIComponent(t.replace(/\+/g, ' '))) as [string, string];
    acc = key !== '' && key.endsWith(']') ? assignSplit(split1(key.slice(0, -1), '['), value, acc) : assignMap(acc, key, value);
  }
  return acc;
}

const LOOSE: QueryLimits = {maxBytes: 100_000_000, maxDepth: 10_000_000, maxPairs: 10_000_000};

describe('decodeQuery: Plug 1.14', () => {
  it("decodes Plug's own test cases (test/plug/conn/query_test.exs) to what Plug does", () => {
    expect(decodeQuery('foo=bar&baz=bat')).toEqual({foo: 'bar', baz: 'bat'});
    expect(decodeQuery('users[name]=hello&users[age]=17')).toEqual({users: {name: 'hello', age: '17'}});
    expect(decodeQuery('my+weird+field=q1%212%22%27w%245%267%2Fz8%29%3F')).toEqual({'my weird field': 'q1!2"\'w$5&7/z8)?'});
    expect(decodeQuery('=')).toEqual({'': ''});
    expect(decodeQuery('key')).toEqual({key: ''});
    expect(decodeQuery('=value')).toEqual({'': 'value'});
    expect(decodeQuery('foo[]')).toEqual({foo: ['']});
    expect(decodeQuery('foo[]=bar&foo[]=baz&bat[]=1&bat[]=2')).toEqual({foo: ['bar', 'baz'], bat: ['1', '2']});
    expect(decodeQuery('x[y][z]=1&x[y][z]=2')).toEqual({x: {y: {z: '2'}}});
    expect(decodeQuery('x[y][z][]=1&x[y][z][]=2')).toEqual({x: {y: {z: ['1', '2']}}});
    expect(decodeQuery('x[y][][z][]=1')).toEqual({x: {y: [{z: ['1']}]}});
    expect(decodeQuery('x[][][]=1')).toEqual({x: [[['1']]]});
    expect(decodeQuery('&x=1&&y=2&')).toEqual({x: '1', y: '2'});
    // "last always wins on bad queries"
    expect(decodeQuery('x[]=1&x[y]=1')).toEqual({x: {y: '1'}});
    expect(decodeQuery('x[y][][w]=2&x[y]=1')).toEqual({x: {y: '1'}});
    expect(decodeQuery('x=1&x[y]=1')).toEqual({x: {y: '1'}});
    expect(decodeQuery('x[y][0][w]=2&x[y]=1')).toEqual({x: {y: '1'}});
  });

  it('takes a leading [ as Plug does (dropped), keeps a decoded byte-order mark, and refuses bad escapes and bad UTF-8', () => {
    expect(decodeQuery('[a]=1&[]=2&b=3')).toEqual({b: '3'});
    expect(decodeQuery('a]=1&]=2')).toEqual({a: '1'});
    expect(decodeQuery('k=%EF%BB%BFx')).toEqual({k: '\ufeffx'});
    expect(decodeQuery('k=%C3%A9')).toEqual({k: 'é'});
    for (const bad of ['k=%zz', 'k=%4', 'k=%', '%g1=1', 'k=%C3', 'k=%FF']) expect(() => decodeQuery(bad), bad).toThrow(MalformedRequest);
  });

  it('is Plug.Conn.Query.decode for any query over brackets, escapes and separators (property)', () => {
    const token = fc.constantFrom('a', 'b', '[', ']', '[]', '][', '=', '&', '+', '%5B', '%5D', '%41', '%C3%A9', 'x');
    fc.assert(
      fc.property(fc.array(token, {maxLength: 40}), (tokens) => {
        const query = tokens.join('');
        expect(decodeQuery(query, LOOSE)).toEqual(plugDecode(query));
      }),
      {numRuns: 2000},
    );
  });
});

describe('decodeQuery: bounds', () => {
  it('refuses a key nested deeper than 32 levels, a 4,097th pair and a text over 1,000,000 bytes, before decoding it', () => {
    expect(QUERY_LIMITS).toEqual({maxBytes: 1_000_000, maxDepth: 32, maxPairs: 4096});
    expect(decodeQuery(`a${'[b]'.repeat(32)}=1`)).toHaveProperty('a.b');
    expect(() => decodeQuery(`a${'[b]'.repeat(33)}=1`)).toThrow(QueryLimitExceeded);
    expect(() => decodeQuery(`a${'[]'.repeat(33)}=1`)).toThrow(QueryLimitExceeded);
    expect(Object.keys(decodeQuery(Array.from({length: 4096}, (_, i) => `k${i}=1`).join('&')))).toHaveLength(4096);
    expect(() => decodeQuery(Array.from({length: 4097}, (_, i) => `k${i}=1`).join('&'))).toThrow(QueryLimitExceeded);
    // empty pairs are not parameters
    expect(decodeQuery(`${'&'.repeat(10_000)}a=1`)).toEqual({a: '1'});
    expect(decodeQuery(`a=${'x'.repeat(999_998)}`).a).toHaveLength(999_998);
    // past the length, nothing is looked at: not even the bad escape at its start
    expect(() => decodeQuery(`a=%zz${'x'.repeat(999_996)}`)).toThrow(QueryLimitExceeded);
  });

  it('bounds a multipart body by the same depth and field count', () => {
    const part = (name: string) => `--B\r\nContent-Disposition: form-data; name="${name}"\r\n\r\nv\r\n`;
    expect(decodeMultipart(Buffer.from(`${part('a[]')}${part('a[]')}--B--\r\n`), 'B')).toEqual({a: ['v', 'v']});
    expect(() => decodeMultipart(Buffer.from(`${part(`a${'[b]'.repeat(33)}`)}--B--\r\n`), 'B')).toThrow(QueryLimitExceeded);
    expect(() => decodeMultipart(Buffer.from(`${part('k').repeat(4097)}--B--\r\n`), 'B')).toThrow(QueryLimitExceeded);
  });
});

// Twice the text should cost twice the work. Wall time on a shared machine says little about
// that, so each shape is decoded in a child process of its own, single-threaded (no collector
// threads), and measured in CPU time: four times the text costs about four times as much when
// the work is linear and sixteen times when it is quadratic; the factor allowed (10) is far from
// both. Every shape is within the default bounds, and the deep key past them is refused.
const SHAPES: Record<string, number> = {
  'a key nested 8,000 levels deep (refused past 32)': 2000,
  'a list of 4,000 items': 1000,
  'a list of 2,000 lists': 500,
  '4,000 keys under one key 32 levels deep': 1000,
  'an escaped value of 800 KB': 25_000,
  '400,000 empty pairs': 100_000,
};

const RUNNER = `
const {decodeQuery} = await import(process.argv[2]);
const shapes = {
  'a key nested 8,000 levels deep (refused past 32)': (n) => 'a' + '[b]'.repeat(n) + '=1',
  'a list of 4,000 items': (n) => 'a[]=1&'.repeat(n),
  'a list of 2,000 lists': (n) => 'a[][b][]=1&'.repeat(n),
  '4,000 keys under one key 32 levels deep': (n) => Array.from({length: n}, (_, i) => 'a' + '[b]'.repeat(31) + '[k' + i + ']=%41').join('&'),
  'an escaped value of 800 KB': (n) => 'a=' + '%C3%A9+'.repeat(n),
  '400,000 empty pairs': (n) => '&&'.repeat(n) + 'b=1',
};
const [make, n] = [shapes[process.argv[3]], Number(process.argv[4])];
const decode = (q) => { try { decodeQuery(q); } catch {} };
const cpu = (q, reps) => { const s = process.cpuUsage(); for (let i = 0; i < reps; i++) decode(q); const u = process.cpuUsage(s); return u.user + u.system; };
const [once, four] = [make(n), make(4 * n)];
for (let i = 0; i < 3; i++) { decode(once); decode(four); }
// enough repetitions for a sample of a few milliseconds at the smaller size
let reps = 1;
while (cpu(once, reps) < 3000 && reps < 1e6) reps *= 2;
let [a, b] = [Infinity, Infinity];
for (let i = 0; i < 5; i++) { a = Math.min(a, cpu(once, reps)); b = Math.min(b, cpu(four, reps)); }
process.stdout.write(JSON.stringify({ratio: b / a, lengths: [once.length, four.length]}));
`;

describe('decodeQuery: work linear in the text', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fzc-params-'));
    await bundleModule('sandbox/http/params.ts', dir, 'params');
    writeFileSync(join(dir, 'runner.mjs'), RUNNER);
  }, 30_000);
  afterAll(() => rmSync(dir, {recursive: true, force: true}));

  it.each(Object.entries(SHAPES))('%s', (name, n) => {
    const module = pathToFileURL(join(dir, 'params.mjs')).href;
    const r = spawnSync(process.execPath, ['--single-threaded', join(dir, 'runner.mjs'), module, name, String(n)], {encoding: 'utf8'});
    expect(r.stderr).toBe('');
    const {ratio, lengths} = JSON.parse(r.stdout) as {ratio: number; lengths: [number, number]};
    expect(lengths[1]).toBeLessThanOrEqual(QUERY_LIMITS.maxBytes);
    expect(ratio).toBeLessThan(10);
  });
});
