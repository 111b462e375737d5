// The reader's timers, with real time between reads: a lone ESC is the Esc key after the short
// escape delay, but a sequence begun waits longer for its end, so that its halves coming apart on
// a slow link (more than the escape delay between them) still make one key, not a dropped
// sequence whose tail is read as keys.
import React from 'react';
import {Text} from 'ink';
import {render} from 'ink-testing-library';
import {afterEach, describe, expect, it} from 'vitest';
import {ESCAPE_DELAY_MS, SEQUENCE_DELAY_MS, useTerminalInput} from '../../src/ui/keys.js';
import type {InputEvent} from '../../src/state/input/decoder.js';

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function Reader({events}: {events: string[]}): React.JSX.Element {
  useTerminalInput((got: InputEvent[]) => {
    for (const e of got) events.push(e.type === 'key' ? e.name : e.type === 'text' ? `text:${e.text}` : e.type);
  });
  return <Text>reading</Text>;
}

async function until(events: string[], count: number, timeoutMs = 3000): Promise<void> {
  const start = Date.now();
  while (events.length < count) {
    if (Date.now() - start > timeoutMs) throw new Error(`only ${JSON.stringify(events)} after ${timeoutMs} ms`);
    await pause(5);
  }
}

let unmount: (() => void) | null = null;
afterEach(() => {
  unmount?.();
  unmount = null;
});

function start(): {events: string[]; write: (s: string) => void} {
  const events: string[] = [];
  const ui = render(<Reader events={events} />);
  unmount = ui.unmount;
  return {events, write: (s) => ui.stdin.write(s)};
}

describe('useTerminalInput', () => {
  it('a sequence whose halves come three escape delays apart is still one key', async () => {
    const {events, write} = start();
    write('\x1b[3');
    await pause(ESCAPE_DELAY_MS * 3);
    write('~');
    write('\x1b[1;');
    await pause(ESCAPE_DELAY_MS * 3);
    write('5B');
    await until(events, 2);
    await pause(ESCAPE_DELAY_MS * 2);
    // Given up on at the escape delay, these were `unknown` and then `~`, `5` and `B` typed.
    expect(events).toEqual(['delete', 'ctrl+down']);
  });

  it('Alt+] (the start of a string sequence) is given up on after the short delay: the keys typed after it are keys', async () => {
    const {events, write} = start();
    write('\x1b]');
    await pause(ESCAPE_DELAY_MS * 2);
    write('j');
    await pause(ESCAPE_DELAY_MS);
    write('\r');
    await until(events, 3);
    expect(events).toEqual(['unknown', 'text:j', 'enter']);
  });

  // What comes after a lone ESC or a sequence left unfinished is read as keys, once the delay for
  // what was begun has passed: the short one for ESC, the longer one for a CSI sequence.
  for (const {what, sent, event, waited} of [
    {what: 'a lone ESC is Esc after the short delay', sent: '\x1b', event: 'esc', waited: (ms: number) => expect(ms).toBeLessThan(SEQUENCE_DELAY_MS)},
    {
      what: 'a broken sequence is dropped once the longer delay passes',
      sent: '\x1b[12',
      event: 'unknown',
      waited: (ms: number) => expect(ms).toBeGreaterThanOrEqual(SEQUENCE_DELAY_MS - 20),
    },
  ]) {
    it(`${what}, and a key after it is a key (not Alt, not the sequence's end)`, async () => {
      const {events, write} = start();
      const at = Date.now();
      write(sent);
      await until(events, 1);
      expect(events).toEqual([event]);
      waited(Date.now() - at);
      write('j');
      await until(events, 2);
      expect(events).toEqual([event, 'text:j']);
    });
  }

  it('a mouse report given up on: its late tail is dropped, and once the tail has had its own wait, digits are keys again', async () => {
    const {events, write} = start();
    write('\x1b[<0;12');
    await until(events, 1, SEQUENCE_DELAY_MS * 3);
    // The tail, late: not typed (its 5 would switch to Activity).
    write(';5M');
    write('\x1b[<0;1');
    await until(events, 2, SEQUENCE_DELAY_MS * 3);
    // Nothing came for the sequence delay after the tail's wait began: a digit now is a key.
    await pause(SEQUENCE_DELAY_MS + 100);
    write('5');
    await until(events, 3, SEQUENCE_DELAY_MS * 3);
    expect(events).toEqual(['unknown', 'unknown', 'text:5']);
  });
});
