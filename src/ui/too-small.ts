// What the screen says below MIN_COLUMNS × MIN_ROWS. It must itself fit, down to a 1×1 terminal:
// cut to the width, "terminal too small: need 80×24" read `need 80×2…`, a size the console does
// not need. So each line has shorter wordings, the longest that fits whole is shown, and a line
// with no wording that fits is left out rather than cut. Sizes are written `80x24` (an ASCII x):
// a plain terminal has no ×, and its stand-in would be a letter anyway (src/state/core/glyphs.ts).
import {MIN_COLUMNS, MIN_ROWS} from '../state/core/layout.js';

export interface TooSmallLine {
  text: string;
  muted: boolean;
}

/** The first wording that fits `width` cells (all are ASCII: one cell a character), or null. */
function fitting(width: number, wordings: readonly string[]): string | null {
  return wordings.find((w) => w.length <= width) ?? null;
}

/**
 * The lines for a terminal of `columns` × `rows` (the frame has `rows - 1`, at least one): the size
 * needed first, then how to go on, then that keys wait. `modalOpen`: q does not quit then (it may
 * be text, or discard a form), Ctrl-C does.
 */
export function tooSmallLines(columns: number, rows: number, modalOpen: boolean): TooSmallLine[] {
  const width = Math.max(1, columns);
  const height = Math.max(1, rows - 1);
  const need = `${MIN_COLUMNS}x${MIN_ROWS}`;
  const have = `${columns}x${rows}`;
  const candidates: TooSmallLine[] = [];
  // "!" on the narrowest: something is wrong, and nothing there claims what.
  const size = fitting(width, [
    `terminal too small: need ${need}, have ${have}`,
    `too small: need ${need}, have ${have}`,
    `too small: need ${need}`,
    `need ${need}`,
    need,
  ]);
  candidates.push({text: size ?? '!', muted: false});
  const goOn = fitting(
    width,
    modalOpen
      ? ['resize the window to go on (Ctrl-C quits)', 'resize to go on (Ctrl-C quits)', 'Ctrl-C quits']
      : ['resize the window, or press q to quit', 'resize, or q to quit', 'q quits'],
  );
  if (goOn) candidates.push({text: goOn, muted: true});
  const wait = fitting(width, ['keys and pastes do nothing until then', 'keys wait until then']);
  if (wait) candidates.push({text: wait, muted: true});
  return candidates.slice(0, height);
}
