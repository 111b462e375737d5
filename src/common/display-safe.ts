// The display boundary for text the console did not write itself: server data and error bodies,
// response headers, config files, token-command output. Such text is untrusted — an unprivileged
// Firezone user names their own devices — and a raw ESC, C1 or BEL in it would be executed by the
// admin's terminal (OSC 52 rewrites the clipboard, OSC 8 plants links, CR/BS overwrite lines).
//
// Nothing is dropped silently: every unsafe character becomes a visible escape (`\e`, `\n`,
// `\x85`, `\u202e` …), so the admin sees that something odd is in the data. Each escape is wrapped
// in two private-use marker characters so that width and truncation treat it as one unbreakable
// unit and the renderer can style it (src/ui/SafeText.tsx strips the markers before Ink sees them).
// See docs/architecture.md, "Untrusted text".

/** Opens and closes one escape token in display-safe text. Never reach the terminal. */
export const ESCAPE_OPEN = '\ue000';
export const ESCAPE_CLOSE = '\ue001';

// Controls (C0, DEL, C1), invisible format characters (zero-width, bidi embeddings, overrides and
// isolates, BOM, soft hyphen, tags), line/paragraph separators and lone surrogates.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const UNSAFE_ALL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
// A zero-width joiner between two pictographs is part of an emoji (👨‍💻), not a trick.
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
// Stryker disable next-line ConditionalExpression,Regex: a fast path; the general path gives the same result
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/**
 * More combining marks than this on one character are not drawn: "Zalgo" text (a device named x
 * and 100,000 marks) is one cell wide but hundreds of kilobytes a frame. No script needs more
 * (Vietnamese stacks two or three); the rest become one token that says how many were left out.
 */
export const MAX_MARKS = 12;
const MARK_FLOOD = new RegExp(`\\p{M}{${MAX_MARKS + 1}}`, 'u');
const MARK_FLOOD_ALL = new RegExp(`(\\p{M}{${MAX_MARKS}})(\\p{M}+)`, 'gu');

const NAMED: Record<number, string> = {
  0x00: '\\0',
  0x07: '\\a',
  0x08: '\\b',
  0x09: '\\t',
  0x0a: '\\n',
  0x0b: '\\v',
  0x0c: '\\f',
  0x0d: '\\r',
  0x1b: '\\e',
};

/** The visible form of one unsafe code point, without markers: `\e`, `\x85`, `\u202e`, `\u{e0041}`. */
export function escapeCodePoint(cp: number): string {
  const named = NAMED[cp];
  if (named !== undefined) return named;
  if (cp <= 0xff) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\u{${cp.toString(16)}}`;
}

/** True when `s` holds nothing that needs escaping (the common case; cheap). */
export function isDisplaySafe(s: string): boolean {
  return PRINTABLE_ASCII.test(s) || (!UNSAFE.test(s) && !MARK_FLOOD.test(s));
}

function codePointBefore(s: string, index: number): {cp: number; at: number} | null {
  if (index <= 0) return null;
  const low = s.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
    const high = s.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return {cp: s.codePointAt(index - 2)!, at: index - 2};
  }
  return {cp: low, at: index - 1};
}

function isPictograph(cp: number | undefined): boolean {
  return cp !== undefined && PICTOGRAPH.test(String.fromCodePoint(cp));
}

/** A zero-width joiner at `index` that glues two pictographs (👨‍💻, ❤️‍🔥) is part of an emoji. */
function keepsJoiner(s: string, index: number): boolean {
  let left = codePointBefore(s, index);
  // Variation selector 16 belongs to the pictograph before it.
  if (left && left.cp === 0xfe0f) left = codePointBefore(s, left.at);
  return isPictograph(left?.cp) && isPictograph(s.codePointAt(index + 1));
}

/**
 * `s` with every unsafe character replaced by its marked escape token. Idempotent: the markers
 * are private-use characters, which are not unsafe, so safe text passes through unchanged.
 */
export function displaySafe(s: string): string {
  // Stryker disable next-line ConditionalExpression: a fast path; the general path gives the same result
  if (isDisplaySafe(s)) return s;
  const escaped = s.replace(UNSAFE_ALL, (ch, index: number) => {
    const cp = ch.codePointAt(0)!;
    if (cp === 0x200d && keepsJoiner(s, index)) return ch;
    return `${ESCAPE_OPEN}${escapeCodePoint(cp)}${ESCAPE_CLOSE}`;
  });
  // Stryker disable next-line ConditionalExpression: a fast path; the general path gives the same result
  if (!MARK_FLOOD.test(escaped)) return escaped;
  return escaped.replace(MARK_FLOOD_ALL, (_m, kept: string, extra: string) => `${kept}${ESCAPE_OPEN}+${[...extra].length} marks${ESCAPE_CLOSE}`);
}

/** Display-safe text without markers: for the clipboard, logs and one-line messages. */
export function plainSafe(s: string): {text: string; escaped: number} {
  if (isDisplaySafe(s)) return {text: s.replace(/[\ue000\ue001]/g, ''), escaped: 0};
  let escaped = 0;
  const text = displaySafe(s).replace(/\ue000([^\ue001]*)\ue001/g, (_m, token: string) => {
    escaped++;
    return token;
  });
  return {text: text.replace(/[\ue000\ue001]/g, ''), escaped};
}

/** One piece of display-safe text: literal text, or an escape token to be styled. */
export interface SafeSegment {
  text: string;
  escape: boolean;
}

/** Splits display-safe text into literal runs and escape tokens; stray markers are dropped. */
export function safeSegments(safe: string): SafeSegment[] {
  if (!safe.includes(ESCAPE_OPEN) && !safe.includes(ESCAPE_CLOSE)) return [{text: safe, escape: false}];
  const out: SafeSegment[] = [];
  const re = /\ue000([^\ue000\ue001]*)\ue001/g;
  let last = 0;
  for (let m = re.exec(safe); m !== null; m = re.exec(safe)) {
    if (m.index > last) out.push({text: safe.slice(last, m.index).replace(/[\ue000\ue001]/g, ''), escape: false});
    out.push({text: m[1]!, escape: true});
    last = m.index + m[0].length;
  }
  if (last < safe.length) out.push({text: safe.slice(last).replace(/[\ue000\ue001]/g, ''), escape: false});
  return out.filter((seg) => seg.text !== '');
}
