// The console's frame writer: between Ink and the output guard, it turns each whole frame Ink
// writes into the bytes that change what the terminal shows (src/ui/frame-diff.ts) — over SSH a
// cursor move costs two rows, not the whole screen. It recognises Ink 6.8's non-incremental
// writes, and anything else passes through unchanged and makes it forget what the screen holds,
// so the next frame is drawn whole (docs/terminal-notes.md, "Frames that send only what changed").

import {diffScreens, fullDraw, parseFrame, type Screen} from './frame-diff.js';

const ESC = '\x1b';

// Mode switches Ink writes on their own (cursor hide/show, synchronized output) and bracketed
// paste: they leave the cells and the cursor position as they were.
// eslint-disable-next-line no-control-regex -- escape sequences are what it recognises
const KEEPS_SCREEN = /^(?:\x1b\[\?(?:25|2026|2004)[hl])+$/;

// What Ink writes before a frame's text to get back to the frame's first line: hide the cursor,
// go down to its last line, erase lines upwards (`ESC[2K ESC[1A` …, `ESC[G`), or on the
// clear-terminal path `ESC[2J ESC[3J ESC[H`. The writer positions absolutely, so it ignores them.
// eslint-disable-next-line no-control-regex -- escape sequences are what it recognises
const PREFIX = /^(?:\x1b\[\?25l|\x1b\[\d*[ABEFG]|\x1b\[[0-3]?[JK]|\x1b\[(?:\d+(?:;\d+)?)?H)*/;

export interface TerminalSize {
  columns: number;
  rows: number;
}

/**
 * What the terminal shows, and the bytes to send for each write from Ink. `write` returns them;
 * `invalidate` makes the next frame a full draw (a resize, a resume from Ctrl-Z).
 */
export class FrameWriter {
  private screen: Screen | null = null;
  private drawnAt: TerminalSize | null = null;
  // The last frame Ink sent, as modelled (kept through invalidate(): it is what Ink believes is
  // shown), and whether a resize is still waiting for Ink to write anything.
  private last: Screen | null = null;
  private awaitingFrame = false;

  constructor(private readonly size: () => TerminalSize) {}

  /** Forget the screen: the next frame is drawn whole. */
  invalidate(): void {
    this.screen = null;
  }

  /** The terminal was resized: forget the screen, and expect a frame from Ink (see redrawIfNoFrame). */
  resized(): void {
    this.invalidate();
    this.awaitingFrame = true;
  }

  /**
   * After a resize Ink writes nothing when its output at the new size is the same text (it
   * compares with the last output), but the terminal may have cleared, cut or reflowed what it
   * showed. If no write came since `resized()`, the bytes that draw Ink's last frame whole at the
   * size now ('' when it does not fit or was not modelled: Ink's next frame is then drawn whole).
   */
  redrawIfNoFrame(): string {
    if (!this.awaitingFrame) return '';
    this.awaitingFrame = false;
    const last = this.last;
    const size = this.size();
    if (!last || last.rows.length + (last.trailingNewline ? 1 : 0) > size.rows || last.rows.some((r) => r.chars.length > size.columns)) return '';
    this.screen = last;
    this.drawnAt = size;
    return fullDraw(last, size.columns);
  }

  write(chunk: string): string {
    if (chunk === '' || KEEPS_SCREEN.test(chunk)) return chunk;
    // Ink wrote something of its own after a resize: it is redrawing (an erase, then its frame).
    this.awaitingFrame = false;
    const body = chunk.slice(PREFIX.exec(chunk)![0].length);
    if (body !== '') {
      const size = this.size();
      const next = parseFrame(body, size.columns, size.rows);
      if (next) {
        // A frame drawn at another size is not what the terminal shows now (it may have cut or moved it).
        const known = this.screen !== null && this.drawnAt?.columns === size.columns && this.drawnAt.rows === size.rows;
        const bytes = known ? diffScreens(this.screen!, next, size.columns) : fullDraw(next, size.columns);
        this.screen = next;
        this.last = next;
        this.drawnAt = size;
        return bytes;
      }
    }
    // Not a frame this writer can account for (an erase alone, text from console.log, a frame
    // too big for the terminal or with escapes it does not model): Ink's own bytes go out, from
    // where Ink left the cursor, and the screen is forgotten.
    const park = this.screen ? parkCursor(this.screen) : '';
    this.screen = null;
    if (body !== '') this.last = null;
    return park + chunk;
  }
}

/**
 * Where Ink left the cursor after the frame (it moves relative to it): the line below the last,
 * or the last line when the frame had no trailing newline (it filled the terminal).
 */
function parkCursor(screen: Screen): string {
  const row = screen.trailingNewline ? screen.rows.length : screen.rows.length - 1;
  return `${ESC}[${Math.max(row, 0) + 1}H`;
}

// Longer than Ink's render throttle (1000 / maxFps ms, 16.7 at 60) plus a slow frame's render: a
// frame Ink defers after a resize arrives before this, so the redraw below only happens when Ink
// had nothing to write.
const RESIZE_SETTLE_MS = 120;
const SYNC_START = `${ESC}[?2026h`;
const SYNC_END = `${ESC}[?2026l`;

/**
 * A stream for Ink whose `write` goes through `writer` before `stream` (the output guard's, so the
 * guard stays the last step); everything else is `stream`'s. A resize makes the writer forget the
 * screen; registered here, before Ink registers its own listener, so it runs first. When Ink then
 * writes nothing for the new size (the same text), the writer draws the last frame whole itself —
 * while `drawing()` says the console still owns the screen (not after exit or Ctrl-Z). While it
 * does not, Ink's frames are dropped too: after `fg` the timers that fell due while the process
 * was stopped run before the SIGCONT handler takes the screen back, and their frames went to the
 * shell's main screen (cli.tsx redraws whole once it has the screen again).
 */
export function frameWriterStream<S extends NodeJS.WriteStream>(stream: S, writer: FrameWriter, drawing: () => boolean = () => true): S {
  let settle: NodeJS.Timeout | undefined;
  stream.on('resize', () => {
    writer.resized();
    clearTimeout(settle);
    settle = setTimeout(() => {
      if (!drawing()) return;
      const bytes = writer.redrawIfNoFrame();
      if (bytes !== '') stream.write(SYNC_START + bytes + SYNC_END);
    }, RESIZE_SETTLE_MS);
    settle.unref?.();
  });
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    if (!drawing()) {
      // Not shown, and not taken as shown: the writer's idea of the screen stays what it was.
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      if (done) process.nextTick(done);
      return true;
    }
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
    return (stream.write as (c: string, ...r: unknown[]) => boolean)(writer.write(text), ...rest);
  };
  return new Proxy(stream, {
    get(target, prop) {
      if (prop === 'write') return write;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
