import {describe, expect, it} from 'vitest';
import {OSC52_DEFAULT_LIMIT, osc52Copy, osc52Mode} from '../../src/wireguard/osc52.js';

const ESC = '\x1b';
const BEL = '\x07';
const TEXT = '[Interface]\nPrivateKey = abc\n';
const B64 = Buffer.from(TEXT).toString('base64');
const PLAIN = `${ESC}]52;c;${B64}${BEL}`;

function sequenceOf(result: ReturnType<typeof osc52Copy>): string {
  if (!result.ok) throw new Error(result.message);
  return result.sequence;
}

describe('osc52Copy', () => {
  it('frames a plain OSC 52 with BEL outside multiplexers', () => {
    const result = osc52Copy(TEXT, {TERM: 'xterm-256color'});
    expect(result).toMatchObject({ok: true, mode: 'plain', base64Length: B64.length});
    expect(sequenceOf(result)).toBe(PLAIN);
  });

  it('encodes UTF-8', () => {
    expect(sequenceOf(osc52Copy('é€', {}))).toBe(`${ESC}]52;c;${Buffer.from('é€', 'utf8').toString('base64')}${BEL}`);
  });

  it('wraps for tmux passthrough with every ESC doubled', () => {
    const seq = sequenceOf(osc52Copy(TEXT, {TMUX: '/tmp/tmux-0/default,123,0', TERM: 'screen-256color'}));
    expect(seq).toBe(`${ESC}Ptmux;${ESC}${ESC}]52;c;${B64}${BEL}${ESC}\\`);
    // Unwrapping as tmux does gives back the plain sequence.
    expect(seq.slice(`${ESC}Ptmux;`.length, -2).replaceAll(`${ESC}${ESC}`, ESC)).toBe(PLAIN);
  });

  it('wraps for GNU screen in DCS chunks that concatenate to the plain sequence', () => {
    const long = 'x'.repeat(500);
    const plain = `${ESC}]52;c;${Buffer.from(long).toString('base64')}${BEL}`;
    for (const env of [{TERM: 'screen'}, {TERM: 'screen.xterm-256color'}, {TERM: 'xterm', STY: '1234.pts-0.host'}]) {
      const seq = sequenceOf(osc52Copy(long, env));
      expect(osc52Mode(env)).toBe('screen');
      expect(seq.startsWith(`${ESC}P`)).toBe(true);
      expect(seq.endsWith(`${ESC}\\`)).toBe(true);
      // Split on the DCS terminator, then drop each chunk's DCS introducer.
      const chunks = seq
        .split(`${ESC}\\`)
        .slice(0, -1)
        .map((c) => {
          expect(c.startsWith(`${ESC}P`)).toBe(true);
          return c.slice(2);
        });
      expect(chunks.join('')).toBe(plain);
      expect(chunks.map((c) => `${ESC}P${c}${ESC}\\`).join('')).toBe(seq);
      // Each DCS body stays far below screen's 768-byte string limit.
      expect(Math.max(...chunks.map((c) => c.length))).toBeLessThanOrEqual(76);
    }
  });

  it('prefers tmux when both tmux and a screen TERM are present', () => {
    expect(osc52Mode({TMUX: 'x', TERM: 'screen'})).toBe('tmux');
    expect(osc52Mode({TERM: 'xterm-kitty'})).toBe('plain');
    expect(osc52Mode({})).toBe('plain');
  });

  it('refuses, instead of truncating, text whose base64 exceeds the cap', () => {
    const atLimit = 'a'.repeat((OSC52_DEFAULT_LIMIT / 4) * 3 - 3); // base64 length = 74992
    expect(osc52Copy(atLimit, {})).toMatchObject({ok: true});
    const tooLarge = 'a'.repeat(60_000); // 80000 base64 characters
    const result = osc52Copy(tooLarge, {TMUX: 'x'});
    expect(result).toMatchObject({ok: false, reason: 'too-large', base64Length: 80000, limit: OSC52_DEFAULT_LIMIT});
    if (!result.ok) expect(result.message).toMatch(/^Not copied: 60000 bytes make 80000 base64 characters, over the 74994-character OSC 52 limit/);
    expect(osc52Copy(TEXT, {}, {limit: 8})).toMatchObject({ok: false, reason: 'too-large', limit: 8});
  });

  it('refuses empty text', () => {
    expect(osc52Copy('', {})).toMatchObject({ok: false, reason: 'empty'});
  });
});
