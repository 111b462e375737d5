// The symbols the console draws, in Unicode or, on plain terminals, in ASCII. A non-UTF-8 locale
// (LC_ALL=C, LANG=C) or a console TERM (linux, vt100, vt220) cannot show ● ○ … ▲ ▼ › or box
// corners; FZ_ASCII=1 forces the ASCII set and FZ_ASCII=0 the Unicode one.
//
// No ASCII stand-in is a letter, a digit or a key the keymap binds: on a plain terminal the down
// arrow once fell back to `v`, the footer of a detail read `v 11 more lines (j / v)`, and `v` is
// the key that reveals a device's preshared key. So arrows that name keys become words (Down),
// arrows that say "more" become words ("11 more lines below"), and symbols become punctuation
// that nothing binds (test/ui/ascii-fallbacks.test.ts checks it against BINDINGS).

export interface Glyphs {
  online: string;
  idle: string;
  never: string;
  /** One cell: truncation counts it as one. */
  ellipsis: string;
  ascending: string;
  descending: string;
  focus: string;
  mask: string;
  error: string;
  lineBreak: string;
  choiceOpen: string;
  choiceClose: string;
  /** Ink border style for dialogs. */
  border: 'round' | 'classic';
  /** A marked row (Space), in the table's gutter. */
  mark: string;
  /** Draw QR codes two characters per module. */
  asciiQr: boolean;
  /** The caret of a line drawn as plain text (the filter). */
  caret: string;
  /** Between the list and the detail beside it. */
  divider: string;
  /** The arrow keys as hints and the help name them: ↑ ↓ ← →, or Up Down Left Right. */
  keyUp: string;
  keyDown: string;
  keyLeft: string;
  keyRight: string;
}

const UNICODE: Glyphs = {
  online: '●',
  idle: '○',
  never: '·',
  ellipsis: '…',
  ascending: '▲',
  descending: '▼',
  focus: '›',
  mask: '•',
  error: '✗',
  lineBreak: '↵',
  choiceOpen: '‹',
  choiceClose: '›',
  mark: '✓',
  border: 'round',
  asciiQr: false,
  caret: '▌',
  divider: '│',
  keyUp: '↑',
  keyDown: '↓',
  keyLeft: '←',
  keyRight: '→',
};
/** The plain-terminal set: full, half, empty for the states; + and - for the sort's direction. */
export const ASCII_GLYPHS: Glyphs = {
  online: '#',
  idle: '=',
  never: '-',
  ellipsis: '~',
  ascending: '+',
  descending: '-',
  focus: '|',
  mask: '#',
  error: '!',
  lineBreak: '|',
  choiceOpen: '(',
  choiceClose: ')',
  mark: '+',
  border: 'classic',
  asciiQr: true,
  caret: '_',
  divider: '|',
  keyUp: 'Up',
  keyDown: 'Down',
  keyLeft: 'Left',
  keyRight: 'Right',
};
const ASCII = ASCII_GLYPHS;

/**
 * What a character of text is drawn as on a plain terminal (src/ui/SafeText.tsx): the console's
 * typographic symbols as punctuation of the same width (one cell), so columns stay where they were
 * measured. Arrows have no one-cell stand-in that is not a key (`v`, `<`, `>`): the console's own
 * text names arrow keys through `keyDown` and the like, so an arrow left here is data.
 */
export const ASCII_FOLD: Readonly<Record<string, string>> = {
  '·': '-',
  '…': '~',
  '—': '-',
  '–': '-',
  '→': '-',
  '←': '-',
  '↑': '|',
  '↓': '|',
  '▲': '+',
  '▼': '-',
  '›': '-',
  '‹': '-',
  '•': '#',
  '●': '#',
  '○': '=',
  '✗': '!',
  '↵': '|',
  '“': '"',
  '”': '"',
  '‘': "'",
  '’': "'",
};
/** Any other non-ASCII character on a plain terminal (`?` is the help key). */
export const ASCII_UNKNOWN = '#';

let current: Glyphs = UNICODE;

/**
 * "↓ 11 more lines" under a view that holds more than fits; on a plain terminal "11 more lines
 * below" (a lone `v` there read as the reveal key).
 */
export function moreBelow(count: number, noun: string): string {
  const what = `${count} more${noun === '' ? '' : ` ${noun}${count === 1 ? '' : 's'}`}`;
  return current === ASCII ? `${what} below` : `↓ ${what}`;
}

export function glyphs(): Glyphs {
  return current;
}

/** Whether the terminal described by `env` can only show ASCII. */
export function plainTerminal(env: NodeJS.ProcessEnv): boolean {
  if (env.FZ_ASCII === '1') return true;
  if (env.FZ_ASCII === '0') return false;
  const term = env.TERM ?? '';
  if (/^(linux|vt\d+|dumb|ansi)$/.test(term)) return true;
  // The first of LC_ALL, LC_CTYPE, LANG that is set decides the character set.
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || '';
  if (locale === '') return false;
  return !/utf-?8/i.test(locale);
}

export function configureGlyphs(env: NodeJS.ProcessEnv): void {
  current = plainTerminal(env) ? ASCII : UNICODE;
}

/** For tests. */
export function useGlyphs(ascii: boolean): void {
  current = ascii ? ASCII : UNICODE;
}
