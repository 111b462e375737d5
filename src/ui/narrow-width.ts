// A fast path in front of string-width for the text the console draws most: table rows, whose
// glyphs (● ○ · – … ↑ ✓ ▁▂▃) send string-width down its slow path (Intl.Segmenter and Unicode
// regexes, microseconds per character) although each is one cell. It runs for every new line of
// every frame: after a sort at 50k rows, all 35 lines are new. The ranges are checked character
// by character against string-width in test/ui/narrow-width.test.ts.

/**
 * Whether string-width counts this UTF-16 code unit as one cell on its own, and no neighbour can
 * join it into a wider or zero-width cluster (no combining marks, joiners, variation selectors,
 * emoji-presentation characters or surrogates are here).
 */
export function isNarrow(c: number): boolean {
  if (c >= 0x20 && c <= 0x7e) return true;
  if (c < 0xa1) return false;
  if (c <= 0x2ff) return c !== 0xad; // Latin-1 to spacing modifiers; the soft hyphen is zero-width
  if (c >= 0x2010 && c <= 0x2027) return true; // dashes, quotes, bullets, ellipsis
  if (c >= 0x2030 && c <= 0x205e) return true; // per mille, primes, more punctuation
  if (c >= 0x2190 && c <= 0x21ff) return true; // arrows
  if (c >= 0x2500 && c <= 0x25fc) return true; // box drawing, blocks, geometric shapes (◽◾ are emoji)
  return c === 0x2713; // ✓
}

/** The width of `text` when every character is one cell (see isNarrow), else null: ask string-width. */
export function narrowWidth(text: string): number | null {
  for (let i = 0; i < text.length; i++) if (!isNarrow(text.charCodeAt(i))) return null;
  return text.length;
}

/**
 * As narrowWidth, for text with colours in it: Ink measures a line of nested coloured <Text> with
 * its SGR sequences (`ESC [` digits and semicolons `m`), which string-width strips and counts as
 * nothing. Without this every coloured table row took string-width's slow path, over the whole
 * first frame and again for each row a poll changed (docs/performance.md, "Frames"). Any other
 * escape, or an SGR sequence cut short, is left to string-width (null).
 */
export function narrowWidthStyled(text: string): number | null {
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x1b) {
      if (text.charCodeAt(i + 1) !== 0x5b) return null;
      let j = i + 2;
      for (let d = text.charCodeAt(j); (d >= 0x30 && d <= 0x39) || d === 0x3b; d = text.charCodeAt(++j));
      if (text.charCodeAt(j) !== 0x6d) return null;
      i = j;
    } else if (isNarrow(c)) {
      width++;
    } else {
      return null;
    }
  }
  return width;
}
