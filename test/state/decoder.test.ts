// The console's own input decoder (src/state/input/decoder.ts): what bytes mean, that a read split
// anywhere gives the same events, that pasted content is data, and that no input throws.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {InputDecoder, type InputEvent} from '../../src/state/input/decoder.js';

/** Decodes reads in order, then flushes (nothing more came): the events, text runs cut to characters. */
function decode(...reads: string[]): Array<{type: string; name?: string; text?: string}> {
  const d = new InputDecoder();
  const events: InputEvent[] = [];
  for (const r of reads) events.push(...d.feed(r));
  events.push(...d.flush());
  return normal(events);
}

function normal(events: readonly InputEvent[]): Array<{type: string; name?: string; text?: string}> {
  const out: Array<{type: string; name?: string; text?: string}> = [];
  for (const e of events) {
    if (e.type === 'text') for (const ch of e.text) out.push({type: 'key', name: ch});
    else if (e.type === 'key') out.push({type: 'key', name: e.name});
    else if (e.type === 'paste') out.push({type: 'paste', text: e.text});
    else out.push({type: 'unknown'});
  }
  return out;
}

const names = (...reads: string[]) => decode(...reads).map((e) => (e.type === 'key' ? e.name : e.type === 'paste' ? `paste:${e.text}` : 'unknown'));

describe('InputDecoder', () => {
  it('names keys as the keymap does', () => {
    expect(names('jG\r\t\x1b[Z\x7f\x13\x03')).toEqual(['j', 'G', 'enter', 'tab', 'shift+tab', 'backspace', 'ctrl+s', 'ctrl+c']);
    expect(names('\x1b[A\x1b[B\x1b[C\x1b[D\x1bOA\x1b[H\x1b[F\x1b[1~\x1b[4~\x1b[5~\x1b[6~\x1b[3~')).toEqual([
      'up',
      'down',
      'right',
      'left',
      'up',
      'home',
      'end',
      'home',
      'end',
      'pageup',
      'pagedown',
      'delete',
    ]);
    expect(names('\x1b')).toEqual(['esc']);
  });

  it('reads modifiers in any CSI parameters, and Alt as a modifier', () => {
    expect(names('\x1b[1;5B', '\x1b[1;2A', '\x1b[1;3D', '\x1b[3;5~', '\x1b[1;6C')).toEqual([
      'ctrl+down',
      'shift+up',
      'alt+left',
      'ctrl+delete',
      'ctrl+shift+right',
    ]);
    expect(names('\x1bx', '\x1bb', '\x1bF', '\x1b\x7f')).toEqual(['alt+x', 'alt+b', 'alt+F', 'alt+backspace']);
  });

  it('a colour code or another unknown sequence typed or pasted is ignored, never typed, never a crash', () => {
    expect(names('a\x1b[31mb\x1b[0mc\x1b[1;5mdz')).toEqual(['a', 'unknown', 'b', 'unknown', 'c', 'unknown', 'd', 'z']);
    expect(names('\x1b[?1004h\x1b[Ix')).toEqual(['unknown', 'unknown', 'x']);
    // OSC, DCS, APC strings are swallowed whole to their terminator
    expect(names('a\x1b]52;c;aGk=\x07b\x1bPtmux;\x1b\\c\x1b_G=1\x1b\\d')).toEqual(['a', 'unknown', 'b', 'unknown', 'c', 'unknown', 'd']);
    // C1 controls are not text
    expect(names('a\u009bb\u0085c')).toEqual(['a', 'unknown', 'b', 'unknown', 'c']);
  });

  it('a bracketed paste is one event whose content is data, never keys', () => {
    expect(names('\x1b[200~ab\x1b[Dc\rd\x03\x1b[201~x')).toEqual(['paste:ab\x1b[Dc\rd\x03', 'x']);
    expect(names('\x1b[200~', 'part one ', 'part two\x1b[2', '01~')).toEqual(['paste:part one part two']);
    // a paste with no end yet is held, not typed
    const d = new InputDecoder();
    expect(d.feed('\x1b[200~d y')).toEqual([]);
    expect(d.flush()).toEqual([]);
    expect(d.feed('\x1b[201~')).toEqual([{type: 'paste', text: 'd y'}]);
  });

  it('a sequence split across reads is one key, wherever it is split', () => {
    expect(names('\x1b', '[B')).toEqual(['down']);
    expect(names('\x1b[1;', '5B')).toEqual(['ctrl+down']);
    expect(names('\x1b]52;c;', 'aGk=\x07x')).toEqual(['unknown', 'x']);
  });

  it('says what it holds, so that a begun sequence waits longer than a lone ESC', () => {
    const d = new InputDecoder();
    expect(d.held).toBe(null);
    d.feed('\x1b');
    expect(d.held).toBe('esc');
    d.feed('\x1b');
    expect(d.held).toBe('esc');
    expect(d.flush().map((e) => (e.type === 'key' ? e.name : e.type))).toEqual(['esc', 'esc']);
    for (const begun of ['\x1b[', '\x1b[1;', '\x1b[3', '\x1bO', '\x1b\x1b[']) {
      d.feed(begun);
      expect([begun, d.held]).toEqual([begun, 'sequence']);
      expect(d.flush()).toEqual([{type: 'unknown', sequence: begun}]);
      expect(d.held).toBe(null);
    }
    // Alt+] and its kind, or Alt with half a character: the short delay (a string sequence would
    // take every key after it until its terminator).
    for (const begun of ['\x1b]', '\x1b]0;title', '\x1bP', '\x1b_', '\x1b\ud83d']) {
      d.feed(begun);
      expect([begun, d.held]).toEqual([begun, 'esc']);
      expect(d.flush()).toEqual([{type: 'unknown', sequence: begun}]);
    }
    d.feed('\x1b[200~abc\x1b[20');
    expect(d.held).toBe('paste');
    d.feed('1~');
    expect(d.held).toBe(null);
  });

  it('gives the same events however the bytes are split across reads (property)', () => {
    const piece = fc.constantFrom(
      'a',
      'Zé',
      '日',
      '😀',
      '\r',
      '\t',
      '\x7f',
      '\x13',
      '\x1b',
      '\x1b[A',
      '\x1b[1;5B',
      '\x1b[3~',
      '\x1b[Z',
      '\x1bOP',
      '\x1b[31m',
      '\x1b]0;title\x07',
      '\x1bPq\x1b\\',
      '\x1b[200~pasted \x1b[A text\x1b[201~',
      '\x1bx',
      '\u009b',
    );
    fc.assert(
      fc.property(fc.array(piece, {maxLength: 12}), fc.array(fc.nat(), {maxLength: 6}), (pieces, cuts) => {
        const bytes = pieces.join('');
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const reads: string[] = [];
        let from = 0;
        for (const cut of at) {
          reads.push(bytes.slice(from, cut));
          from = cut;
        }
        reads.push(bytes.slice(from));
        expect(decode(...reads)).toEqual(decode(bytes));
      }),
    );
  });

  it('never throws and never types an escape byte, whatever arrives (fuzz)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({unit: fc.integer({min: 0, max: 0x2ff}).map((c) => String.fromCharCode(c)), maxLength: 40}), {maxLength: 8}), (reads) => {
        const d = new InputDecoder();
        const events: InputEvent[] = [];
        for (const r of reads) events.push(...d.feed(r));
        events.push(...d.flush());
        for (const e of events) {
          // eslint-disable-next-line no-control-regex -- control bytes are what must never be typed
          if (e.type === 'text') expect(e.text).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
          // eslint-disable-next-line no-control-regex -- the same for a one-character key
          if (e.type === 'key' && e.name.length === 1) expect(e.name).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
        }
      }),
      {numRuns: 2000},
    );
  });
});
