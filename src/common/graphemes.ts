// Grapheme clusters ("characters" as a reader, Ecto's validate_length and a terminal count them) at
// a cost linear in the text. V8's Intl.Segmenter slows down far faster than linearly on long input
// (docs/performance.md, "Text measured only as far as it shows"). It only ever sees slices of
// SEGMENT_SLICE code units here, and a cluster still open at a slice's end is carried into the next
// slice whole, so the clusters are those of the whole text (docs/architecture.md, "Untrusted
// text").

const segmenter = new Intl.Segmenter();

/** The most code units one segment() call sees. */
export const SEGMENT_SLICE = 1024;
/**
 * A cluster longer than this is let go in pieces instead of being carried over (100,000 Hangul
 * jamo or combining marks are one cluster): carrying it would make every slice re-read it.
 */
const CARRY_MAX = 256;

/** Whether every character is its own cluster: ASCII without CR LF (the common case; no segmenter). */
function isSimpleAscii(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- every ASCII character, controls included, is one cluster (but CR LF)
  return /^[\x00-\x7f]*$/.test(text) && !text.includes('\r\n');
}

/** The grapheme clusters of `text`, in order; the work done is linear in how far it is read. */
export function* graphemes(text: string): Generator<string> {
  let carry = '';
  let i = 0;
  while (i < text.length) {
    // A slice may end between the halves of a surrogate pair: the high half is then the slice's
    // last cluster, one unit long, and is carried into the next slice to meet its low half.
    const end = Math.min(text.length, i + SEGMENT_SLICE);
    let last = '';
    for (const {segment} of segmenter.segment(carry + text.slice(i, end))) {
      if (last) yield last;
      last = segment;
    }
    i = end;
    // The last cluster of a slice may go on in the next one.
    carry = i < text.length && last.length <= CARRY_MAX ? last : '';
    if (!carry && last) yield last;
  }
}

/**
 * How many clusters `text` holds, or `cap + 1` when it holds more: a length check needs to know
 * only whether a limit is passed, and a 300 KB paste must not be segmented whole to learn that.
 */
export function countGraphemes(text: string, cap = Number.POSITIVE_INFINITY): number {
  if (isSimpleAscii(text)) return Math.min(text.length, cap + 1);
  let n = 0;
  for (const _ of graphemes(text)) if (++n > cap) break;
  return n;
}

/** The first `count` clusters of `text` (all of it when it holds fewer). */
export function firstGraphemes(text: string, count: number): string {
  if (count <= 0) return '';
  if (isSimpleAscii(text)) return text.slice(0, count);
  let n = 0;
  let length = 0;
  for (const g of graphemes(text)) {
    if (n++ >= count) break;
    length += g.length;
  }
  return text.slice(0, length);
}
