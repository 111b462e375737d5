import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {sampleClientConfig} from '../fixtures/client-config.js';
import {ECC_ORDER, qrTextSize, renderQr, type QrPolarity, type QrRendered} from '../../src/wireguard/qr.js';

// The encoder through its public entry point (qr.ts imports the core file directly), so the
// comparison also proves the deep import is the documented `create()`.
const qrcode = createRequire(import.meta.url)('qrcode') as {
  create(text: string, opts: {errorCorrectionLevel: string}): {version: number; modules: {size: number; data: Uint8Array}};
};

// A typical full-tunnel 0.7.36 config with real-length keys (docs/firezone-0.7.36.md, "The WireGuard client config"): 352 bytes.
const SAMPLE = sampleClientConfig();

const GLYPHS: Record<string, [boolean, boolean]> = {' ': [false, false], '\u2580': [true, false], '\u2584': [false, true], '\u2588': [true, true]};

/** Half-block lines back to a grid of "light" cells (quiet zone included), rows × cols. */
function parseLight(lines: string[], polarity: QrPolarity): boolean[][] {
  const grid: boolean[][] = [];
  for (const line of lines) {
    const top: boolean[] = [];
    const bottom: boolean[] = [];
    for (const ch of line) {
      const pair = GLYPHS[ch];
      if (!pair) throw new Error(`unexpected character U+${ch.codePointAt(0)!.toString(16)}`);
      // dark-terminal: glyph ink = light module; light-terminal: ink = dark module.
      top.push(polarity === 'dark-terminal' ? pair[0] : !pair[0]);
      bottom.push(polarity === 'dark-terminal' ? pair[1] : !pair[1]);
    }
    grid.push(top, bottom);
  }
  return grid;
}

/** Asserts the drawing is the encoder's matrix surrounded by a light quiet zone. */
function expectMatrixRoundTrip(text: string, result: QrRendered) {
  const symbol = qrcode.create(text, {errorCorrectionLevel: result.ecc});
  expect(symbol.version).toBe(result.version);
  const n = symbol.modules.size;
  expect(result.modules).toBe(n);
  const q = result.quietZone;
  const light = parseLight(result.lines, result.polarity);
  expect(light).toHaveLength(result.rows * 2);
  let compared = 0;
  for (let r = 0; r < light.length; r++) {
    expect(light[r]).toHaveLength(result.cols);
    for (let c = 0; c < result.cols; c++) {
      const inSymbol = r >= q && c >= q && r < q + n && c < q + n;
      const expectedLight = inSymbol ? symbol.modules.data[(r - q) * n + (c - q)] === 0 : true;
      if (light[r]![c] !== expectedLight) throw new Error(`module mismatch at row ${r}, col ${c}`);
      if (inSymbol) compared++;
    }
  }
  expect(compared).toBe(n * n);
}

describe('renderQr', () => {
  it('fits the typical full-tunnel config into 70 × 36 at ECC L (version 12: 69 cols × 35 rows)', () => {
    expect(Buffer.byteLength(SAMPLE)).toBe(352);
    const result = renderQr(SAMPLE, {maxRows: 36, maxCols: 70});
    if (!result.ok) throw new Error(result.message);
    expect(result).toMatchObject({ecc: 'L', version: 12, modules: 65, rows: 35, cols: 69, quietZone: 2, polarity: 'dark-terminal'});
    expect(result.lines).toHaveLength(35);
    for (const line of result.lines) {
      expect([...line]).toHaveLength(69);
      expect(line).toMatch(/^[ \u2580\u2584\u2588]+$/); // no ANSI, nothing Ink would mis-measure
    }
    expectMatrixRoundTrip(SAMPLE, result);
  });

  it('reports the size it needs on an 80 × 24 terminal', () => {
    const result = renderQr(SAMPLE, {maxRows: 24, maxCols: 80});
    expect(result).toMatchObject({ok: false, reason: 'too-small', needRows: 35, needCols: 69});
    if (result.ok) return;
    expect(result.message).toContain('69×35');
  });

  it('picks the highest error correction that fits, like wg-easy (H → Q → M → L)', () => {
    const sizes = Object.fromEntries(
      ECC_ORDER.map((ecc) => {
        const n = qrcode.create(SAMPLE, {errorCorrectionLevel: ecc}).modules.size;
        return [ecc, qrTextSize(n)];
      }),
    );
    // Measured: H v20 101×51, Q v17 89×45, M v14 77×39, L v12 69×35 (cols × rows).
    expect(sizes).toEqual({H: {rows: 51, cols: 101}, Q: {rows: 45, cols: 89}, M: {rows: 39, cols: 77}, L: {rows: 35, cols: 69}});
    expect(renderQr(SAMPLE)).toMatchObject({ok: true, ecc: 'H'});
    expect(renderQr(SAMPLE, {maxRows: 60, maxCols: 120})).toMatchObject({ok: true, ecc: 'H'});
    expect(renderQr(SAMPLE, {maxRows: 50, maxCols: 100})).toMatchObject({ok: true, ecc: 'Q'});
    expect(renderQr(SAMPLE, {maxRows: 40, maxCols: 80})).toMatchObject({ok: true, ecc: 'M'});
    expect(renderQr(SAMPLE, {maxRows: 200, maxCols: 70})).toMatchObject({ok: true, ecc: 'L'});
    expect(renderQr(SAMPLE, {maxRows: 34, maxCols: 200})).toMatchObject({ok: false, needRows: 35});
  });

  it.each(ECC_ORDER)("draws exactly the encoder's module matrix at ECC %s, in both polarities", (ecc) => {
    const space = qrTextSize(qrcode.create(SAMPLE, {errorCorrectionLevel: ecc}).modules.size);
    for (const polarity of ['dark-terminal', 'light-terminal'] as const) {
      const result = renderQr(SAMPLE, {maxRows: space.rows, maxCols: space.cols, polarity});
      if (!result.ok) throw new Error(result.message);
      expect(result.ecc).toBe(ecc);
      expectMatrixRoundTrip(SAMPLE, result);
    }
  });

  it('draws the quiet zone as glyphs on a dark terminal and as spaces on a light one', () => {
    const dark = renderQr('hello', {polarity: 'dark-terminal'});
    const light = renderQr('hello', {polarity: 'light-terminal'});
    if (!dark.ok || !light.ok) throw new Error('short text must fit');
    expect(dark.lines[0]).toBe('\u2588'.repeat(dark.cols));
    expect(light.lines[0]).toBe(' '.repeat(light.cols));
    expectMatrixRoundTrip('hello', dark);
  });

  it("honours a custom quiet zone (4 modules: the qrcode package's utf8 size, 73 × 37)", () => {
    const result = renderQr(SAMPLE, {quietZone: 4, maxRows: 37, maxCols: 73});
    if (!result.ok) throw new Error(result.message);
    expect(result).toMatchObject({ecc: 'L', rows: 37, cols: 73});
    expectMatrixRoundTrip(SAMPLE, result);
    expect(() => renderQr(SAMPLE, {quietZone: -1})).toThrow(RangeError);
  });

  it('says when no QR code can hold the text', () => {
    const result = renderQr('x'.repeat(3000));
    expect(result).toMatchObject({ok: false, reason: 'too-much-data', needRows: Infinity, needCols: Infinity});
    if (!result.ok) expect(result.message).toMatch(/too long for a QR code/);
    // Version 40 holds 1273 bytes at H, 1663 at Q, 2331 at M, 2953 at L: the ladder falls through.
    expect(renderQr('x'.repeat(2500))).toMatchObject({ok: true, ecc: 'L'});
    expect(renderQr('x'.repeat(1500))).toMatchObject({ok: true, ecc: 'Q'});
  });
});

// Optional end-to-end check with a real decoder (zbar-tools). Skipped, visibly, without it.
const hasZbar = spawnSync('zbarimg', ['--version']).status === 0;
describe(`QR decode with zbarimg${hasZbar ? '' : ' [SKIPPED: zbarimg not on PATH — apt-get install zbar-tools]'}`, () => {
  // Made when the test runs: a suite whose only test is skipped runs no afterAll.
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'fz-qr-'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, {recursive: true, force: true});
  });

  it.skipIf(!hasZbar)('decodes the half-block drawing back to the exact config text', () => {
    const result = renderQr(SAMPLE, {maxRows: 36, maxCols: 70});
    if (!result.ok) throw new Error(result.message);
    // Rebuild an image from the terminal text itself (not from the encoder), 4 px per module,
    // black = dark module, as a plain PBM (1 = black).
    const light = parseLight(result.lines, result.polarity);
    const scale = 4;
    const rows: string[] = [];
    for (const row of light) {
      const px = row.flatMap((l) => Array<string>(scale).fill(l ? '0' : '1')).join(' ');
      for (let i = 0; i < scale; i++) rows.push(px);
    }
    const file = join(dir, 'qr.pbm');
    writeFileSync(file, `P1\n${result.cols * scale} ${light.length * scale}\n${rows.join('\n')}\n`);
    const out = spawnSync('zbarimg', ['--raw', '-q', '-Sbinary', file], {encoding: 'utf8'});
    expect(out.status).toBe(0);
    expect(out.stdout).toBe(SAMPLE);
  });
});
