// From the terminal's bytes to the controller. The console reads stdin itself (Ink's own input
// parser is not used: it crashed on a colour code typed and ran keys out of a paste) and decodes it
// with InputDecoder (src/state/input/decoder.ts); this file holds the React side: raw mode, the
// reads, the Esc timer, and the router that hands each event to the controller.
import {useEffect, useRef} from 'react';
import {useStdin} from 'ink';
import type {Controller} from '../state/controller.js';
import {InputDecoder, type InputEvent} from '../state/input/decoder.js';

/** How long a lone ESC waits for the rest of a sequence (over SSH a sequence can arrive in two reads). */
export const ESCAPE_DELAY_MS = 50;
/**
 * How long a key's sequence begun (`ESC [ 1 ;`) waits for the rest. Longer than a lone ESC: Esc
 * must answer at once, but a sequence's halves can come apart by more than 50 ms on a slow or
 * jittery link, and a sequence given up on too soon has its tail read as keys. Half a second,
 * tmux's default escape-time; the cost is that a key typed within it after a broken sequence (or
 * after Alt+[ or Alt+O, bound to nothing) is taken as that sequence's end (docs/terminal-notes.md).
 */
export const SEQUENCE_DELAY_MS = 500;

/**
 * Reads stdin in raw mode and calls `onEvents` with each read's events and the read's number (the
 * number lets a dialog tell keys that arrived with the one that opened it from keys typed after).
 * A held ESC becomes the Esc key after `escapeDelayMs` of silence; a sequence begun is given up on
 * (dropped as unknown) after `sequenceDelayMs`, and so is the tail of a mouse report given up on.
 */
export function useTerminalInput(
  onEvents: (events: InputEvent[], read: number) => void,
  escapeDelayMs = ESCAPE_DELAY_MS,
  sequenceDelayMs = Math.max(escapeDelayMs, SEQUENCE_DELAY_MS),
): void {
  const {stdin, isRawModeSupported} = useStdin();
  const handler = useRef(onEvents);
  handler.current = onEvents;
  useEffect(() => {
    const decoder = new InputDecoder();
    let timer: ReturnType<typeof setTimeout> | null = null;
    let reads = 0;
    const deliver = (events: InputEvent[], read: number) => {
      if (events.length > 0) handler.current(events, read);
    };
    /** Waits for the rest of what the decoder holds, if anything; a flush may leave a tail to wait for (a mouse report's). */
    const wait = (read: number) => {
      const held = decoder.held;
      if (held !== 'esc' && held !== 'sequence') return;
      timer = setTimeout(
        () => {
          timer = null;
          deliver(decoder.flush(), read);
          wait(read);
        },
        held === 'esc' ? escapeDelayMs : sequenceDelayMs,
      );
    };
    const onData = (data: string | Buffer) => {
      if (timer) clearTimeout(timer);
      timer = null;
      const read = ++reads;
      deliver(decoder.feed(typeof data === 'string' ? data : data.toString('utf8')), read);
      wait(read);
    };
    // Raw mode straight on the stream: Ink's setRawMode would start Ink's own reader too.
    if (isRawModeSupported) stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    // A 'data' listener does not restart a stream paused on purpose: after a console was
    // replaced by another (`:profile`), the new one's reader would wait on a paused stdin, and with
    // nothing else holding the event loop the process would end.
    stdin.resume();
    return () => {
      stdin.off('data', onData);
      // Nobody reads now: stop the flow (the next reader, or the exit, takes it from here).
      if (stdin.listenerCount('data') === 0) stdin.pause();
      if (timer) clearTimeout(timer);
    };
  }, [stdin, isRawModeSupported, escapeDelayMs, sequenceDelayMs]);
}

/** Hands each read's decoded events to the controller (src/state/input/reads.ts routes them). */
export class InputRouter {
  constructor(private readonly controller: Controller) {}

  handle(events: readonly InputEvent[], read: number): void {
    this.controller.read(events, read);
  }
}
