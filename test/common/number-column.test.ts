// Number columns (src/common/number-column.ts): NaN slots, each column its own, and — in a process
// started with V8's natives syntax — arrays of unboxed doubles without holes, which is what makes
// them as fast to read as the Float64Arrays they replaced (docs/performance-poll.md, "Where a poll's
// numbers live").
import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {cutColumn, numberColumn} from '../../src/common/number-column.js';
import {bundleModule} from '../helpers/bundle.js';

let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fzc-numcol-'));
  await bundleModule('common/number-column.ts', dir, 'number-column');
}, 30_000);

afterAll(() => rmSync(dir, {recursive: true, force: true}));

describe('number columns', () => {
  it('are NaN in every slot, and each is its own', () => {
    const a = numberColumn(70_000);
    expect(a).toHaveLength(70_000);
    expect(a.every((v) => Number.isNaN(v))).toBe(true);
    a[0] = 1;
    a[69_999] = 2;
    const b = numberColumn(70_000);
    expect(Number.isNaN(b[0]!)).toBe(true);
    expect(Number.isNaN(b[69_999]!)).toBe(true);
    expect(numberColumn(0)).toEqual([]);
  });

  it('are cut in place, and grow by the slot after the last', () => {
    const a = numberColumn(10);
    a[3] = 7;
    expect(cutColumn(a, 4)).toBe(a);
    expect(a).toEqual([NaN, NaN, NaN, 7]);
    expect(cutColumn(a, 9)).toHaveLength(4);
    a[4] = 8;
    expect(a).toHaveLength(5);
  });

  it('hold unboxed doubles without holes, as made, after writes, a cut and an append', () => {
    const script = join(dir, 'kinds.mjs');
    writeFileSync(
      script,
      `const {numberColumn, cutColumn} = await import(${JSON.stringify(pathToFileURL(join(dir, 'number-column.mjs')).href)});
const kinds = (a) => ({double: %HasDoubleElements(a), holey: %HasHoleyElements(a)});
const out = {};
const a = numberColumn(50000);
out.made = kinds(a);
a[0] = 0; a[1] = -Infinity; a[2] = 1.5e12; a[49999] = 3;
out.written = kinds(a);
cutColumn(a, 100); a[100] = 1;
out.cutAndAppended = kinds(a);
out.empty = kinds(numberColumn(0));
process.stdout.write(JSON.stringify(out));`,
    );
    const r = spawnSync(process.execPath, ['--allow-natives-syntax', script], {encoding: 'utf8'});
    expect(r.stderr).toBe('');
    const packedDoubles = {double: true, holey: false};
    expect(JSON.parse(r.stdout)).toEqual({made: packedDoubles, written: packedDoubles, cutAndAppended: packedDoubles, empty: packedDoubles});
  });
});
