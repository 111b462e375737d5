// The import-cycle check of `npm run lint` (scripts/check-cycles.mjs): it must find a cycle made
// only of type imports, name its files, and leave a dynamic import() alone.
import {execFileSync} from 'node:child_process';
import {mkdtempSync, mkdirSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';

const script = join(import.meta.dirname, '../../scripts/check-cycles.mjs');
let dir = '';

function tree(files: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), 'fz-cycles-'));
  const src = join(dir, 'src');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(src, name, '..'), {recursive: true});
    writeFileSync(join(src, name), text);
  }
  return src;
}

function check(src: string): {code: number; out: string} {
  try {
    return {code: 0, out: execFileSync(process.execPath, [script, src], {encoding: 'utf8', stdio: 'pipe'})};
  } catch (err) {
    const e = err as {status: number; stdout: string; stderr: string};
    return {code: e.status, out: `${e.stdout}${e.stderr}`};
  }
}

afterEach(() => {
  if (dir) rmSync(dir, {recursive: true, force: true});
  dir = '';
});

describe('the import-cycle check', () => {
  it('passes this repository', () => {
    expect(check(join(import.meta.dirname, '../../src')).code).toBe(0);
  });

  it('fails on a cycle of type-only imports and names it', () => {
    const src = tree({
      'core/a.ts': "import type {B} from '../lists/b.js';\nexport interface A {b: B}\n",
      'lists/b.ts': "import type {A} from '../core/a.js';\nexport interface B {a?: A}\n",
      'c.ts': "import type {A} from './core/a.js';\nexport type C = A;\n",
    });
    const {code, out} = check(src);
    expect(code).toBe(1);
    expect(out).toMatch(/src\/core\/a\.ts → src\/lists\/b\.ts → src\/core\/a\.ts/);
    expect(out).not.toContain('c.ts');
  });

  it('finds a longer knot through a re-export, and leaves a dynamic import() alone', () => {
    const knot = check(
      tree({
        'a.ts': "export {b} from './b.js';\nexport const a = 1;\n",
        'b.ts': "import {c} from './c.js';\nexport const b = c;\n",
        'c.ts': "import {a} from './a.js';\nexport const c = a;\n",
      }),
    );
    expect(knot.code).toBe(1);
    expect(knot.out).toContain('3 files in this knot');
    rmSync(dir, {recursive: true, force: true});
    const lazy = check(
      tree({
        'a.ts': "export const a = async () => (await import('./b.js')).b;\n",
        'b.ts': "import {a} from './a.js';\nexport const b = a;\n",
      }),
    );
    expect(lazy.code).toBe(0);
  });
});
