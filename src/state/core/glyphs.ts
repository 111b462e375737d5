// The symbols the console draws, in Unicode or, on plain terminals, in ASCII. A non-UTF-8 locale
// (LC_ALL=C, LANG=C) or a console TERM (linux, vt100, vt220) cannot show ● ○ … ▲ ▼ › or box
// corners; FZ_ASCII=1 forces the ASCII set and FZ_ASCII=0 the Unicode one.

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
};
const ASCII: Glyphs = {
  online: '*',
  idle: 'o',
  never: '-',
  ellipsis: '~',
  ascending: '^',
  descending: 'v',
  focus: '>',
  mask: '*',
  error: 'x',
  lineBreak: '|',
  choiceOpen: '<',
  choiceClose: '>',
  mark: '+',
  border: 'classic',
  asciiQr: true,
  caret: '_',
  divider: '|',
};

let current: Glyphs = UNICODE;

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
