// The bundle's patch of Ink's Output.get() (scripts/ink-output-rows.mjs): frames made row by row,
// rows whose writes did not change taken from a memo, must be exactly Ink's frames. Both are
// built from node_modules' ink/build/output.js, and given the same frames one after another:
// writes of styled, wide and plain text anywhere (off the grid too), clips, transformers, and
// widths that change.
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {build, type Plugin} from 'esbuild';
import fc from 'fast-check';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {inkOutputRows, INK_OUTPUT_SHA256} from '../../scripts/ink-output-rows.mjs';

interface Clip {
  x1?: number;
  x2?: number;
  y1?: number;
  y2?: number;
}
interface OutputLike {
  write(x: number, y: number, text: string, options: {transformers: ((line: string, index: number) => string)[]}): void;
  clip(clip: Clip): void;
  unclip(): void;
  get(): {output: string; height: number};
}
type OutputClass = new (options: {width: number; height: number}) => OutputLike;

const root = fileURLToPath(new URL('../..', import.meta.url));
const OUTPUT_JS = join(root, 'node_modules', 'ink', 'build', 'output.js');
let dir: string;
let Original: OutputClass;
let Patched: OutputClass;

async function bundle(name: string, plugins: Plugin[]): Promise<OutputClass> {
  const outfile = join(dir, `${name}.mjs`);
  await build({
    stdin: {contents: `export {default} from ${JSON.stringify(OUTPUT_JS)};`, resolveDir: root, loader: 'js'},
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    plugins,
    logLevel: 'silent',
  });
  return ((await import(pathToFileURL(outfile).href)) as {default: OutputClass}).default;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fzc-rows-'));
  Original = await bundle('original', []);
  const rows: Plugin = {
    name: 'rows',
    setup(b) {
      b.onLoad({filter: /[\\/]ink[\\/]build[\\/]output\.js$/}, async (args) => {
        const {readFile} = await import('node:fs/promises');
        return {contents: inkOutputRows(await readFile(args.path, 'utf8')), loader: 'js'};
      });
    },
  };
  Patched = await bundle('patched', [rows]);
}, 30_000);

afterAll(() => rmSync(dir, {recursive: true, force: true}));

const ESC = '\u001b';
const piece = fc.oneof(
  fc.constantFrom('a', 'b', 'Z', ' ', '·', '●', '–', '…', '日', '本', '😀', 'é', 'e\u0301', '│', '\t'),
  fc.constantFrom('0', '1', '2', '22', '31', '32', '39', '41', '49', '1;4;33', '38;5;208', '48;2;1;2;3').map((c) => `${ESC}[${c}m`),
);
const line = fc.array(piece, {maxLength: 14}).map((p) => p.join(''));
const text = fc.array(line, {minLength: 1, maxLength: 3}).map((l) => l.join('\n'));
const transformer = fc.constantFrom<((line: string, index: number) => string)[]>([], [(l) => l.toUpperCase()], [(l, i) => `${i}>${l}`]);
const op = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      type: fc.constant('write' as const),
      x: fc.integer({min: -3, max: 24}),
      y: fc.integer({min: -2, max: 8}),
      text,
      transformers: transformer,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        type: fc.constant('clip' as const),
        x1: fc.integer({min: 0, max: 10}),
        x2: fc.integer({min: 0, max: 24}),
        y1: fc.integer({min: 0, max: 4}),
        y2: fc.integer({min: 0, max: 8}),
      },
      {requiredKeys: ['type']},
    ),
  },
  {weight: 1, arbitrary: fc.constant({type: 'unclip' as const})},
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;
const frame = fc.record({width: fc.integer({min: 1, max: 20}), height: fc.integer({min: 1, max: 6}), ops: fc.array(op, {maxLength: 10})});

function draw(Output: OutputClass, f: {width: number; height: number; ops: Op[]}): {output: string; height: number} {
  const out = new Output({width: f.width, height: f.height});
  let depth = 0;
  for (const o of f.ops) {
    if (o.type === 'write') out.write(o.x, o.y, o.text, {transformers: o.transformers});
    else if (o.type === 'clip') {
      const {type: _, ...clip} = o;
      out.clip(clip);
      depth++;
    } else if (depth > 0) {
      out.unclip();
      depth--;
    }
  }
  return out.get();
}

describe('Ink output made row by row', () => {
  it('is pinned to the output.js it was written for', async () => {
    const {readFile} = await import('node:fs/promises');
    const code = await readFile(OUTPUT_JS, 'utf8');
    expect(() => inkOutputRows(code)).not.toThrow();
    expect(() => inkOutputRows(code.replace('fullWidth: false', 'fullWidth: true'))).toThrow(/review scripts\/ink-output-rows\.mjs/);
    expect(INK_OUTPUT_SHA256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("gives Ink's frames, frame after frame, rows remade or taken from the memo (property)", () => {
    fc.assert(
      fc.property(fc.array(frame, {minLength: 1, maxLength: 5}), fc.array(fc.nat(4), {maxLength: 5}), (frames, repeats) => {
        // Frames again with some writes repeated, so that rows come from the memo.
        const sequence = [...frames, ...repeats.map((k) => frames[k % frames.length]!), ...frames.map((f) => ({...f, ops: f.ops.slice(1)}))];
        for (const f of sequence) expect(draw(Patched, f)).toEqual(draw(Original, f));
      }),
      {numRuns: 600},
    );
  });

  it('a row whose writes are the same at another width is made again for that width', () => {
    const write = {type: 'write' as const, x: 4, y: 0, text: 'ab', transformers: []};
    for (const width of [3, 8, 3]) {
      const f = {width, height: 1, ops: [write]};
      expect(draw(Patched, f)).toEqual(draw(Original, f));
    }
  });
});
