// A client config as a terminal QR code for the WireGuard mobile apps' "scan from QR code"
// (Firezone 0.7.36 encodes the entire config text too; docs/firezone-0.7.36.md, "Device creation in the web UI").
//
// Rendering: half blocks, two module rows per character row, because a terminal cell is
// about twice as tall as wide — a module becomes a roughly square half cell and a version-12
// code (a ~355-byte full-tunnel config at ECC L) fits in 35 rows × 69 columns instead of 69 ×
// 138 (docs/terminal-notes.md, "QR code sizes").
//
// Polarity (decided here, not left to the terminal): by default the glyphs draw the LIGHT
// modules and the quiet zone, and spaces are the DARK modules. On a dark-background terminal
// (light text on dark, the common case over SSH) that is a correctly coloured QR code framed
// by its light quiet zone — what `qrencode -t utf8` does. A light-background terminal would
// show it inverted; pass `polarity: 'light-terminal'` there. To be independent of the theme
// altogether, the UI can draw the default lines with white foreground on black background
// (Ink `<Text color="white" backgroundColor="black">`): colours are the UI's job, so the lines
// returned here carry no ANSI codes and Ink can measure and lay them out.
//
// Error correction: the highest level that fits the space, high → quartile → medium → low,
// like wg-easy; when even low does not fit, the result says which size would.
import qrcodeCore, {type QrErrorCorrection} from 'qrcode/lib/core/qrcode.js';

export type QrEcc = QrErrorCorrection;
export type QrPolarity = 'dark-terminal' | 'light-terminal';

export interface QrOptions {
  /** Character rows available; unlimited when absent. */
  maxRows?: number;
  /** Character columns available; unlimited when absent. */
  maxCols?: number;
  /**
   * Quiet-zone width in modules on each side. The QR spec asks for 4; 2 is what terminal
   * renderers commonly use (the `qr` package, wg-easy) and phone scanners read it reliably,
   * and it is what lets a typical config fit ~36 × 70.
   */
  quietZone?: number;
  /** Which modules get glyphs; see the file comment. Default 'dark-terminal'. */
  polarity?: QrPolarity;
  /**
   * Plain terminals (a non-UTF-8 locale, TERM=linux/vt100) have no half blocks: each module is
   * drawn as two characters, `##` or two spaces, one text row per module row.
   */
  ascii?: boolean;
}

export interface QrRendered {
  ok: true;
  /** One string per character row, all `cols` characters long; no ANSI codes. */
  lines: string[];
  rows: number;
  cols: number;
  ecc: QrEcc;
  /** QR version 1–40 (modules per side = 17 + 4 × version). */
  version: number;
  /** Modules per side of the symbol, without the quiet zone. */
  modules: number;
  quietZone: number;
  polarity: QrPolarity;
}

export interface QrTooLarge {
  ok: false;
  /**
   * 'too-small': the space is smaller than the code at the lowest error correction;
   * 'too-much-data': no QR code can hold the text (needRows/needCols are then Infinity).
   */
  reason: 'too-small' | 'too-much-data';
  needRows: number;
  needCols: number;
  message: string;
}

export type QrResult = QrRendered | QrTooLarge;

export const DEFAULT_QUIET_ZONE = 2;

/** Highest first: a code that survives more damage (smudged screen, glare) wins if it fits. */
export const ECC_ORDER: readonly QrEcc[] = ['H', 'Q', 'M', 'L'];

// (top ink, bottom ink) → glyph. U+2580/U+2584/U+2588 have East Asian Width "ambiguous":
// one cell in Western locales and in Ink's string-width; only a terminal set to draw
// ambiguous characters wide (some CJK setups) would stretch the code.
const UPPER = '\u2580';
const LOWER = '\u2584';
const FULL = '\u2588';

function glyph(top: boolean, bottom: boolean): string {
  if (top && bottom) return FULL;
  if (top) return UPPER;
  if (bottom) return LOWER;
  return ' ';
}

/** Character rows and columns a symbol of `modules` per side takes with the quiet zone. */
export function qrTextSize(modules: number, quietZone = DEFAULT_QUIET_ZONE, ascii = false): {rows: number; cols: number} {
  const side = modules + 2 * quietZone;
  return ascii ? {rows: side, cols: side * 2} : {rows: Math.ceil(side / 2), cols: side};
}

interface EncodedSymbol {
  ecc: QrEcc;
  version: number;
  size: number;
  dark: (row: number, col: number) => boolean;
}

function encode(text: string, ecc: QrEcc): EncodedSymbol | null {
  try {
    const symbol = qrcodeCore.create(text, {errorCorrectionLevel: ecc});
    const {size, data} = symbol.modules;
    return {ecc, version: symbol.version, size, dark: (row, col) => data[row * size + col] === 1};
  } catch (err) {
    // qrcode throws a plain Error when the data exceeds version 40 at this level; that is
    // the "try a lower level" signal. Anything else is a real failure.
    if (err instanceof Error && /too big|cannot contain/i.test(err.message)) return null;
    throw err;
  }
}

function draw(symbol: EncodedSymbol, quietZone: number, polarity: QrPolarity, ascii = false): string[] {
  const side = symbol.size + 2 * quietZone;
  // A position outside the symbol is quiet zone, i.e. light. That includes the half row
  // below the last one (the side is always odd), which widens the bottom quiet zone by a
  // module instead of leaving a half-drawn row.
  const light = (row: number, col: number): boolean => {
    const r = row - quietZone;
    const c = col - quietZone;
    if (r < 0 || c < 0 || r >= symbol.size || c >= symbol.size) return true;
    return !symbol.dark(r, c);
  };
  const ink = polarity === 'dark-terminal' ? light : (row: number, col: number) => !light(row, col);
  const lines: string[] = [];
  if (ascii) {
    for (let row = 0; row < side; row++) {
      let line = '';
      for (let col = 0; col < side; col++) line += ink(row, col) ? '##' : '  ';
      lines.push(line);
    }
    return lines;
  }
  for (let row = 0; row < side; row += 2) {
    let line = '';
    for (let col = 0; col < side; col++) line += glyph(ink(row, col), ink(row + 1, col));
    lines.push(line);
  }
  return lines;
}

// C0 controls but LF, DEL and C1 controls, format characters (bidi overrides, zero-width),
// the Unicode line and paragraph separators, and lone surrogates.
function hasUnsafeCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit !== 0x0a && (unit < 0x20 || (unit >= 0x7f && unit <= 0x9f))) return true;
  }
  return /[\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u.test(text);
}

function fits(size: {rows: number; cols: number}, opts: QrOptions): boolean {
  return (opts.maxRows === undefined || size.rows <= opts.maxRows) && (opts.maxCols === undefined || size.cols <= opts.maxCols);
}

/**
 * The text as a half-block QR code that fits maxRows × maxCols, at the highest error
 * correction that fits; or, when none does, the size it needs at the lowest.
 */
export function renderQr(text: string, opts: QrOptions = {}): QrResult {
  if (text.length === 0) throw new Error('renderQr: nothing to encode');
  // The text is a client config (validated printable ASCII lines): anything else that a
  // scanner's config parser could read as a line break or a hidden character is refused.
  if (hasUnsafeCharacter(text)) throw new RangeError('renderQr: the text contains control or invisible characters other than line feeds');
  const quietZone = opts.quietZone ?? DEFAULT_QUIET_ZONE;
  if (!Number.isInteger(quietZone) || quietZone < 0) throw new RangeError(`renderQr: quietZone must be a whole number ≥ 0, got ${quietZone}`);
  const polarity = opts.polarity ?? 'dark-terminal';

  let smallest: EncodedSymbol | null = null;
  for (const ecc of ECC_ORDER) {
    const symbol = encode(text, ecc);
    if (!symbol) continue;
    smallest = symbol;
    const size = qrTextSize(symbol.size, quietZone, opts.ascii === true);
    if (fits(size, opts)) {
      return {
        ok: true,
        lines: draw(symbol, quietZone, polarity, opts.ascii === true),
        rows: size.rows,
        cols: size.cols,
        ecc,
        version: symbol.version,
        modules: symbol.size,
        quietZone,
        polarity,
      };
    }
  }
  if (!smallest) {
    const bytes = Buffer.byteLength(text, 'utf8');
    return {
      ok: false,
      reason: 'too-much-data',
      needRows: Number.POSITIVE_INFINITY,
      needCols: Number.POSITIVE_INFINITY,
      message: `The text is too long for a QR code (${bytes} bytes; at most 2953 fit)`,
    };
  }
  const need = qrTextSize(smallest.size, quietZone, opts.ascii === true);
  const have = `${opts.maxCols ?? '∞'}×${opts.maxRows ?? '∞'}`;
  return {
    ok: false,
    reason: 'too-small',
    needRows: need.rows,
    needCols: need.cols,
    message: `The QR code needs ${need.cols}×${need.rows} characters (columns×rows); only ${have} is available — enlarge the terminal`,
  };
}
