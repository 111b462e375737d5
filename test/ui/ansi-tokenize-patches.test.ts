// The bundle's patches of ansi-tokenize (scripts/esbuild-common.mjs): styledCharsToString must
// turn Ink's cells into exactly the string the original makes (styledCharsSameStyles), and
// tokenize must give exactly the original's tokens (tokenizeNarrowLines).
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import * as original from '@alcalzone/ansi-tokenize';
import {build} from 'esbuild';
import fc from 'fast-check';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {styledCharsSameStyles, tokenizeNarrowLines} from '../../scripts/esbuild-common.mjs';
import {isNarrow} from '../../src/ui/narrow-width.js';

type Tokenizer = typeof original;
type StyledChar = ReturnType<Tokenizer['styledCharsFromTokens']>[number];

let patched: Tokenizer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fzc-styled-'));
  const outfile = join(dir, 'patched.mjs');
  await build({
    stdin: {contents: "export * from '@alcalzone/ansi-tokenize';", resolveDir: fileURLToPath(new URL('../..', import.meta.url)), loader: 'js'},
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    plugins: [styledCharsSameStyles, tokenizeNarrowLines],
    logLevel: 'silent',
  });
  patched = (await import(pathToFileURL(outfile).href)) as Tokenizer;
}, 30_000);

afterAll(() => rmSync(dir, {recursive: true, force: true}));

const ESC = '\u001b';
const sgr = fc.constantFrom(
  '0',
  '1',
  '2',
  '22',
  '3',
  '23',
  '4',
  '24',
  '7',
  '27',
  '31',
  '32',
  '39',
  '41',
  '49',
  '90',
  '38;5;208',
  '48;2;10;20;30',
  '1;31',
  '2;4;32',
);
const piece = fc.oneof(
  sgr.map((code) => `${ESC}[${code}m`),
  fc.string({unit: fc.constantFrom('a', 'B', ' ', '●', '○', '·', '–', '…', '↑', '▂', '✓', 'é', '日', '🙂', 'e\u0301', '\u200d', '\r\n', '🇫🇷'), maxLength: 6}),
);
const line = fc.array(piece, {maxLength: 14}).map((parts) => parts.join(''));

/** Cells as Ink's Output.get lays them out: pieces of several lines, between blank cells. */
function cells(tokenizer: Tokenizer, lines: string[], blanks: number[]): StyledChar[] {
  const out: StyledChar[] = [];
  lines.forEach((text, k) => {
    for (let b = 0; b < (blanks[k] ?? 0); b++) out.push({type: 'char', value: ' ', fullWidth: false, styles: []});
    out.push(...tokenizer.styledCharsFromTokens(tokenizer.tokenize(text)));
  });
  return out;
}

describe('the patched styledCharsToString', () => {
  it('is applied to the bundle', () => {
    expect(patched.styledCharsToString.toString()).toContain('sameCodes');
  });

  it('gives the string the original gives, for any cells (property)', () => {
    fc.assert(
      fc.property(fc.array(line, {maxLength: 5}), fc.array(fc.nat({max: 3}), {maxLength: 5}), (lines, blanks) => {
        const want = original.styledCharsToString(cells(original, lines, blanks));
        expect(patched.styledCharsToString(cells(patched, lines, blanks))).toBe(want);
        // Cells made by one tokenizer and written by the other: the patch reads only code and endCode.
        expect(patched.styledCharsToString(cells(original, lines, blanks))).toBe(want);
      }),
      {numRuns: 2000},
    );
  });

  it('keeps the styles of a table row (a styled run, a reset, a run of another colour)', () => {
    const row = `${ESC}[7m${ESC}[1m● laptop${ESC}[22m  10.3.2.7${ESC}[27m  ${ESC}[32m↑ 1.2 MB/s${ESC}[39m`;
    const want = original.styledCharsToString(original.styledCharsFromTokens(original.tokenize(row)));
    expect(patched.styledCharsToString(patched.styledCharsFromTokens(patched.tokenize(row)))).toBe(want);
    expect(want).toContain(`${ESC}[32m`);
  });
});

describe('the patched tokenize', () => {
  it('is applied to the bundle', () => {
    expect(patched.tokenize.toString()).toContain('graphemesOf');
  });

  it('gives the tokens the original gives, for any line (property)', () => {
    fc.assert(
      fc.property(line, (text) => {
        expect(patched.tokenize(text)).toEqual(original.tokenize(text));
      }),
      {numRuns: 3000},
    );
  });

  it('relies on a fact of Unicode: ESC and one-cell characters never join a neighbour into one grapheme', () => {
    // Grapheme breaks between these characters are decided pairwise (the rules that look further,
    // emoji sequences and flags, involve none of them), so every pair split apart proves that a
    // line made only of them is one grapheme per code unit, as the patch assumes.
    const units: string[] = ['\u001b'];
    for (let c = 0; c < 0x10000; c++) if (isNarrow(c)) units.push(String.fromCharCode(c));
    const segmenter = new Intl.Segmenter(undefined, {granularity: 'grapheme'});
    // A text per first character: the segmenter slows down badly on one text of millions of units.
    let joined = 0;
    for (const x of units) {
      const text = units.map((y) => x + y).join('');
      for (const {segment} of segmenter.segment(text)) if (segment.length !== 1) joined++;
    }
    expect(joined).toBe(0);
  }, 30_000);
});
