// The QR code on the new-device result screen of an ordinary 120×40 terminal: it gets the whole
// body, shows, and a real decoder (zbarimg, installed by .ci/run) reads the exact config back from
// the characters drawn. A terminal too small for it is told exactly how many columns and rows.
import React from 'react';
import {spawnSync} from 'node:child_process';
import {writeFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {render} from 'ink-testing-library';
import {qrResult, sampleClientConfig} from '../fixtures/client-config.js';
import {DeviceResult} from '../../src/ui/views/DeviceResult.js';
import {CHROME_ROWS} from '../../src/state/core/layout.js';
import {strip} from '../helpers/ink.js';

const CONFIG = sampleClientConfig();

const result = qrResult(CONFIG);

/** The body height the console gives a screen in a terminal of `rows` rows. */
const body = (rows: number) => rows - 1 - CHROME_ROWS;

const GLYPHS: Record<string, [boolean, boolean]> = {' ': [false, false], '\u2580': [true, false], '\u2584': [false, true], '\u2588': [true, true]};
const hasZbar = spawnSync('zbarimg', ['--version']).status === 0;

describe('QR on the result screen', () => {
  it.skipIf(!hasZbar)('fits a 120×40 terminal and decodes back to the exact config (zbarimg)', () => {
    const ui = render(<DeviceResult result={result} prompt={null} width={120} height={body(40)} />);
    const lines = strip(ui.lastFrame())
      .split('\n')
      .filter((l) => /^[ \u2580\u2584\u2588]+$/.test(l) && /[\u2580\u2584\u2588]/.test(l));
    expect(lines.length).toBeGreaterThan(30);
    expect(lines.length).toBeLessThanOrEqual(body(40) - 1);
    // Light modules are drawn as ink on a dark terminal: rebuild a PBM (1 = black) at 4 px per module.
    const width = Math.max(...lines.map((l) => [...l].length));
    const grid: boolean[][] = [];
    for (const line of lines) {
      const chars = [...line.padEnd(width, ' ')];
      grid.push(
        chars.map((c) => GLYPHS[c]![0]),
        chars.map((c) => GLYPHS[c]![1]),
      );
    }
    const scale = 4;
    const margin = 4; // the terminal's own (dark) background around what the console draws
    const cols = (width + margin * 2) * scale;
    const rows: string[] = [];
    const darkRow = Array<string>(cols).fill('1').join(' ');
    for (let i = 0; i < margin * scale; i++) rows.push(darkRow);
    for (const row of grid) {
      const px = [...Array<boolean>(margin).fill(false), ...row, ...Array<boolean>(margin).fill(false)]
        .flatMap((light) => Array<string>(scale).fill(light ? '0' : '1'))
        .join(' ');
      for (let i = 0; i < scale; i++) rows.push(px);
    }
    for (let i = 0; i < margin * scale; i++) rows.push(darkRow);
    const file = 'qr-120x40.pbm';
    writeFileSync(file, `P1\n${cols} ${rows.length}\n${rows.join('\n')}\n`);
    const out = spawnSync('zbarimg', ['--raw', '-q', '-Sbinary', file], {encoding: 'utf8'});
    expect(out.status).toBe(0);
    expect(out.stdout).toBe(CONFIG);
  });

  it('says exactly what size it needs on an 80×24 terminal', () => {
    const ui = render(<DeviceResult result={result} prompt={null} width={80} height={body(24)} />);
    const frame = strip(ui.lastFrame()).replace(/\s+/g, ' ');
    expect(frame).toMatch(/The QR code needs a terminal of at least \d+ columns and \d+ rows \(this one has 80 and 24\)/);
    const [, cols, rows] = /at least (\d+) columns and (\d+) rows/.exec(frame)!;
    // At that size it does fit.
    const fits = render(<DeviceResult result={result} prompt={null} width={Number(cols)} height={body(Number(rows))} />);
    expect(strip(fits.lastFrame())).not.toContain('needs a terminal');
  });
});
