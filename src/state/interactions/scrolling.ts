// The scrolling keys of a panel of lines (a report, the JSON view): where `action` moves the top
// line, from `scroll`, by `page` lines a page, never past `max` (the last page's first line).
import type {Action} from '../input/keymap.js';

/** The new top line for a scrolling key, or null when `action` is not one. */
export function scrolled(action: Action, scroll: number, page: number, max: number): number | null {
  const to = (n: number) => Math.max(0, Math.min(max, n));
  switch (action) {
    case 'down':
      return to(scroll + 1);
    case 'up':
      return to(scroll - 1);
    case 'pageDown':
      return to(scroll + page);
    case 'pageUp':
      return to(scroll - page);
    case 'home':
      return 0;
    case 'end':
      return to(max);
    default:
      return null;
  }
}
