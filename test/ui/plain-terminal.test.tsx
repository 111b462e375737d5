// Plain terminals: a non-UTF-8 locale or a console TERM gets ASCII symbols everywhere (state,
// borders, ellipsis, arrows, markers) and a QR code drawn two characters per module.
import React from 'react';
import {afterEach, describe, expect, it} from 'vitest';
import {render} from 'ink-testing-library';
import {plainTerminal, useGlyphs} from '../../src/state/core/glyphs.js';
import {qrResult, sampleClientConfig} from '../fixtures/client-config.js';
import {DeviceResult} from '../../src/ui/views/DeviceResult.js';
import {cleanupRigs, renderApp, useSandbox} from '../helpers/rig.js';

const fx = useSandbox({seed: 'demo'});
afterEach(async () => {
  useGlyphs(false);
  await cleanupRigs();
});

// eslint-disable-next-line no-control-regex -- SGR codes, which are ASCII anyway
const visible = (frame: string) => frame.replace(/\x1b\[[0-9;]*m/g, '');

describe('plain terminals', () => {
  it.each([
    [{LANG: 'C'}, true],
    [{LC_ALL: 'C', LANG: 'en_US.UTF-8'}, true],
    [{LC_ALL: 'POSIX'}, true],
    [{LANG: 'en_US.ISO-8859-1'}, true],
    [{TERM: 'linux', LANG: 'C.UTF-8'}, true],
    [{TERM: 'vt100'}, true],
    [{LANG: 'en_US.UTF-8', TERM: 'xterm-256color'}, false],
    [{LC_CTYPE: 'de_DE.utf8'}, false],
    [{}, false],
    [{FZ_ASCII: '1', LANG: 'C.UTF-8'}, true],
    [{FZ_ASCII: '0', LANG: 'C'}, false],
  ])('%j → ASCII %s', (env, ascii) => {
    expect(plainTerminal(env)).toBe(ascii);
  });

  it('every screen, the help and a dialog draw in ASCII only', async () => {
    useGlyphs(true);
    const app = await renderApp({fixture: fx});
    await app.press('sortNext', 'list');
    await app.press('screen2');
    await app.waitFor('EMAIL');
    await app.press('open', 'list');
    await app.waitFor(/Devices \(\d+\)/);
    await app.press('delete', 'detail');
    await app.waitFor('This also deletes');
    await app.press('cancel', 'dialog');
    await app.press('screen4');
    await app.waitFor('Client defaults');
    await app.press('help');
    await app.waitFor('Keys');
    // eslint-disable-next-line no-control-regex -- ASCII is 0x00–0x7f
    for (const frame of app.frames) expect(visible(frame)).toMatch(/^[\x00-\x7f]*$/);
  });

  it('the QR code is drawn with ## and spaces, two characters per module', () => {
    useGlyphs(true);
    const config = sampleClientConfig();
    const result = qrResult(config);
    const ui = render(<DeviceResult result={result} prompt={null} width={200} height={90} />);
    const lines = visible(ui.lastFrame()!)
      .split('\n')
      .filter((l) => l.includes('##'));
    expect(lines.length).toBeGreaterThan(50);
    for (const line of lines) expect(line).toMatch(/^(##| {2})+\s*$/);
  });
});
