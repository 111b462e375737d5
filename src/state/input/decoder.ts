// The terminal's bytes, as the console reads them, into events (docs/terminal-notes.md, "Key
// events"). The console decodes its own input instead of Ink's parser, which crashed on a colour
// code typed or pasted and ran keys out of a paste. Rules:
// - any byte sequence, split anywhere across reads, gives the same events, and never throws;
// - a bracketed paste (ESC[200~ … ESC[201~) is one event whose content is data, never keys;
// - CSI and SS3 sequences are read with any parameters; what the console does not know is an
//   `unknown` event that is ignored, never its bytes typed as text;
// - OSC, DCS, APC, PM and SOS strings are swallowed to their terminator;
// - ESC followed by a key is that key with Alt; a lone ESC is the Esc key once nothing follows it
//   for `escapeDelayMs` (the caller's timer calls `flush()`); a key's sequence begun (ESC [ 1 ;)
//   waits longer for its end (`held` says which), since over a slow link its halves can come apart;
// - an SGR 1006 mouse report (`ESC [ < b ; x ; y M`, `m` on release) is a `mouse` event, every
//   number bounds-checked; a broken or over-long one is unknown, and so is the legacy X10 report
//   (`ESC [ M` and three raw bytes, never asked for) with its bytes: none is typed as text.
// Pure: no timers, no I/O. Key names are the normalised ones of the keymap (`j`, `G`, `enter`,
// `ctrl+s`, `shift+tab`, `alt+b`, `ctrl+left`).

export type InputEvent =
  | {type: 'key'; name: string; input: string}
  /** Printable characters typed in one read (fast typing, an unbracketed paste), in order. */
  | {type: 'text'; text: string}
  | {type: 'paste'; text: string}
  /** A sequence the console does not know (a colour code typed, a focus report): ignored. */
  | {type: 'unknown'; sequence: string}
  /** The pointer (SGR 1006 report; src/state/input/mouse.ts acts on it). */
  | MouseEvent;

/** A wheel notch, a button, or (with no button held) a move; `extra` is a mouse's buttons 8–11. */
export type MouseButton = 'left' | 'middle' | 'right' | 'wheelUp' | 'wheelDown' | 'wheelLeft' | 'wheelRight' | 'extra' | 'none';

export interface MouseEvent {
  type: 'mouse';
  button: MouseButton;
  /** `press` (a wheel notch is one), `release`, or `move` (a drag, or a move with no button). */
  action: 'press' | 'release' | 'move';
  /** The cell, from 0: the terminal's column and row less one. */
  col: number;
  row: number;
  shift: boolean;
  alt: boolean;
  ctrl: boolean;
}

const ESC = '\x1b';
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
/** A paste longer than this is cut (and said to be cut by the consumer); the terminal keeps sending. */
export const PASTE_MAX = 1024 * 1024;
/** A CSI longer than this is not a key: it is dropped as unknown, and so is the rest of it (up to its final byte). */
export const CSI_MAX = 64;
/** SGR mouse numbers: the button code is a byte; a cell is at most this far (no terminal is wider). */
const MOUSE_BUTTON_MAX = 255;
export const MOUSE_CELL_MAX = 65535;

/** Final bytes of CSI sequences that are keys: ESC [ <params> <final>. */
const CSI_FINAL: Record<string, string> = {A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end', Z: 'tab', P: 'f1', Q: 'f2', R: 'f3', S: 'f4'};
/** ESC [ <n> ~ keys. */
const CSI_TILDE: Record<string, string> = {
  '1': 'home',
  '2': 'insert',
  '3': 'delete',
  '4': 'end',
  '5': 'pageup',
  '6': 'pagedown',
  '7': 'home',
  '8': 'end',
  '11': 'f1',
  '12': 'f2',
  '13': 'f3',
  '14': 'f4',
  '15': 'f5',
  '17': 'f6',
  '18': 'f7',
  '19': 'f8',
  '20': 'f9',
  '21': 'f10',
  '23': 'f11',
  '24': 'f12',
};
/** SS3 keys: ESC O <final>. */
const SS3_FINAL: Record<string, string> = {A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end', P: 'f1', Q: 'f2', R: 'f3', S: 'f4', M: 'enter'};

/** xterm's modifier parameter: 1 + (shift 1 | alt 2 | ctrl 4 | meta 8). */
function withModifiers(name: string, param: string | undefined): string {
  const m = param === undefined ? 1 : Number(param);
  if (!Number.isInteger(m) || m < 2 || m > 16) return name;
  const bits = m - 1;
  let out = name;
  if (bits & 1) out = `shift+${out}`;
  if (bits & 2 || bits & 8) out = `alt+${out}`;
  if (bits & 4) out = `ctrl+${out}`;
  return out;
}

/** One control character (C0 or DEL) as a key. */
function controlKey(ch: string): {name: string; input: string} {
  const code = ch.charCodeAt(0);
  if (ch === '\r' || ch === '\n') return {name: 'enter', input: ch};
  if (ch === '\t') return {name: 'tab', input: ch};
  if (code === 0x7f || code === 0x08) return {name: 'backspace', input: ch};
  if (code === 0) return {name: 'ctrl+space', input: ch};
  if (code >= 0x1c) return {name: `ctrl+${String.fromCharCode(code + 0x40)}`, input: ch};
  const letter = String.fromCharCode(code + 0x60);
  return {name: `ctrl+${letter}`, input: letter};
}

function isControl(code: number): boolean {
  return code < 0x20 || code === 0x7f;
}

/** C1 controls (U+0080–U+009F) are never text: a terminal in 8-bit mode sends them as CSI, and the rest means nothing typed. */
function isC1(code: number): boolean {
  return code >= 0x80 && code <= 0x9f;
}

/** `skip`: what follows is the rest of a sequence cut off as too long, to be dropped (see InputDecoder.skip). */
type Parsed = {length: number; event: InputEvent | null; skip?: 'csi'} | 'incomplete';

/** An SGR mouse report begun: ESC [ <, with ESC ESC (Alt) before it or not. */
// eslint-disable-next-line no-control-regex -- an escape sequence is what it recognises
const MOUSE_BEGUN = /^\x1b\x1b?\[</;

export class InputDecoder {
  private pending = '';
  private pasting: string | null = null;
  /**
   * The rest of a sequence already dropped, to drop too as it arrives, so that none of it is
   * typed: `csi`, a CSI cut off at CSI_MAX, to its final byte (its digits would switch screens);
   * `mouse`, the tail of a mouse report given up on by `flush()`, its digits and `;` up to its `M`
   * or `m` (a report split by more than the sequence delay over a slow link). Either ends at any
   * other byte, which is read as usual, and at the next `flush()`.
   */
  private skip: 'csi' | 'mouse' | null = null;

  /**
   * What is held, for the caller's timer: `sequence` — a key's CSI or SS3 sequence begun and not
   * ended (`ESC [`, `ESC [ 1 ;`, `ESC O`), worth waiting longer for: once it is flushed, the rest
   * that arrives late would be read as keys (`ESC [ 3` … `~`: the `3` of Delete would switch tabs);
   * `esc` — anything else begun, flushed after the short escape delay: a lone ESC (or two) is the
   * Esc key, and `ESC ]`, `ESC P`, `ESC X`, `ESC _`, `ESC ^` are far more often Alt with that key
   * than the start of a string a terminal sends unasked (a string runs to its terminator, so a long
   * wait would take every key typed after Alt+] into it); `paste` — a bracketed paste still open
   * (no timer: flushing does not end it); null — nothing.
   */
  get held(): 'esc' | 'sequence' | 'paste' | null {
    if (this.pasting !== null) return 'paste';
    if (this.skip !== null) return 'sequence';
    if (this.pending === '') return null;
    const at = this.pending.startsWith(`${ESC}${ESC}`) ? 2 : 1;
    const next = this.pending[at];
    return next === '[' || next === 'O' ? 'sequence' : 'esc';
  }

  /** Decodes one read. What ends mid-sequence is held for the next read or for `flush()`. */
  feed(chunk: string): InputEvent[] {
    const events: InputEvent[] = [];
    const s = this.pending + chunk;
    this.pending = '';
    let text = '';
    const flushText = () => {
      if (text !== '') events.push({type: 'text', text});
      text = '';
    };
    let i = 0;
    while (i < s.length) {
      if (this.skip !== null) {
        i = this.skipRest(s, i);
        continue;
      }
      if (this.pasting !== null) {
        const end = s.indexOf(PASTE_END, i);
        if (end < 0) {
          // Keep a tail that may be the start of the end marker.
          const keep = partialSuffix(s, PASTE_END);
          this.appendPaste(s.slice(i, s.length - keep));
          this.pending = s.slice(s.length - keep);
          return events;
        }
        this.appendPaste(s.slice(i, end));
        events.push({type: 'paste', text: this.pasting});
        this.pasting = null;
        i = end + PASTE_END.length;
        continue;
      }
      const ch = s[i]!;
      const code = ch.charCodeAt(0);
      if (ch === ESC) {
        const parsed = this.escape(s, i);
        if (parsed === 'incomplete') {
          flushText();
          this.pending = s.slice(i);
          return events;
        }
        flushText();
        if (parsed.event) events.push(parsed.event);
        if (parsed.skip) this.skip = parsed.skip;
        i += parsed.length;
        continue;
      }
      if (isControl(code)) {
        flushText();
        events.push({type: 'key', ...controlKey(ch)});
        i++;
        continue;
      }
      if (isC1(code)) {
        flushText();
        events.push({type: 'unknown', sequence: ch});
        i++;
        continue;
      }
      // A lone surrogate half at the end waits for its pair (setEncoding keeps pairs whole; a test may not).
      if (code >= 0xd800 && code <= 0xdbff && i === s.length - 1) {
        flushText();
        this.pending = ch;
        return events;
      }
      text += ch;
      i++;
    }
    flushText();
    return events;
  }

  /**
   * Nothing more came: a held ESC is the Esc key, a held incomplete sequence is unknown (its bytes
   * are not typed). A paste still open stays open: its end marker may yet come.
   */
  flush(): InputEvent[] {
    // What was being dropped has ended (its unknown event went out when the drop began).
    if (this.skip !== null) {
      this.skip = null;
      return [];
    }
    if (this.pasting !== null || this.pending === '') return [];
    const held = this.pending;
    this.pending = '';
    if (held === ESC) return [{type: 'key', name: 'esc', input: ''}];
    if (held === `${ESC}${ESC}`)
      return [
        {type: 'key', name: 'esc', input: ''},
        {type: 'key', name: 'esc', input: ''},
      ];
    // A mouse report given up on: its tail, if it comes late, is dropped too (until the next flush).
    if (MOUSE_BEGUN.test(held)) this.skip = 'mouse';
    return [{type: 'unknown', sequence: held}];
  }

  /** Drops what is left of a sequence already dropped (`skip`); returns where reading goes on. */
  private skipRest(s: string, i: number): number {
    const c = s.charCodeAt(i);
    const csi = this.skip === 'csi';
    // Parameters and intermediates (CSI), or a mouse report's digits and separators.
    if (csi ? c >= 0x20 && c <= 0x3f : (c >= 0x30 && c <= 0x39) || c === 0x3b) return i + 1;
    this.skip = null;
    // Its final byte is the last of it; any other byte is not part of it and is read as usual.
    const final = csi ? c >= 0x40 && c <= 0x7e : c === 0x4d || c === 0x6d;
    return final ? i + 1 : i;
  }

  private appendPaste(part: string): void {
    if (this.pasting === null) return;
    if (this.pasting.length < PASTE_MAX) this.pasting += part.slice(0, PASTE_MAX - this.pasting.length);
  }

  /** The sequence that starts with ESC at `i`. */
  private escape(s: string, i: number): Parsed {
    if (i + 1 >= s.length) return 'incomplete';
    const next = s[i + 1]!;
    if (next === '[') return this.csi(s, i);
    if (next === 'O') {
      if (i + 2 >= s.length) return 'incomplete';
      const name = SS3_FINAL[s[i + 2]!];
      return {length: 3, event: name ? {type: 'key', name, input: ''} : {type: 'unknown', sequence: s.slice(i, i + 3)}};
    }
    if (next === ']' || next === 'P' || next === '_' || next === '^' || next === 'X') return stringSequence(s, i);
    if (next === ESC) {
      // ESC ESC …: Alt+Esc, or Alt plus a sequence; read as Esc and go on with the second ESC.
      const rest = this.escape(s, i + 1);
      if (rest === 'incomplete') return 'incomplete';
      return {length: 1, event: {type: 'key', name: 'esc', input: ''}};
    }
    // Alt + a key: ESC then one character (or a control).
    const code = next.charCodeAt(0);
    if (isControl(code)) {
      const k = controlKey(next);
      return {length: 2, event: {type: 'key', name: `alt+${k.name}`, input: k.input}};
    }
    let ch = next;
    if (code >= 0xd800 && code <= 0xdbff) {
      if (i + 2 >= s.length) return 'incomplete';
      ch = s.slice(i + 1, i + 3);
    }
    return {length: 1 + ch.length, event: {type: 'key', name: `alt+${ch}`, input: ch}};
  }

  /** ESC [ parameters (0x30–0x3F)* intermediates (0x20–0x2F)* final (0x40–0x7E). */
  private csi(s: string, i: number): Parsed {
    let j = i + 2;
    while (j < s.length) {
      const c = s.charCodeAt(j);
      if (c >= 0x40 && c <= 0x7e) break;
      if (c < 0x20 || c > 0x3f) {
        // Not a CSI byte: the sequence is broken; drop what was read of it as unknown.
        return {length: j - i, event: {type: 'unknown', sequence: s.slice(i, j)}};
      }
      j++;
      if (j - i > CSI_MAX) return {length: j - i, event: {type: 'unknown', sequence: s.slice(i, j)}, skip: 'csi'};
    }
    if (j >= s.length) return 'incomplete';
    const seq = s.slice(i, j + 1);
    const params = s.slice(i + 2, j);
    const final = s[j]!;
    if (params.startsWith('<') && (final === 'M' || final === 'm'))
      return {length: seq.length, event: sgrMouse(params.slice(1), final === 'm') ?? {type: 'unknown', sequence: seq}};
    // X10 (ESC [ M and three bytes, each 32 + a number): never asked for, but a terminal without
    // SGR reports may send it. Dropped with its bytes: as text, a click at the top left types ` !!`.
    if (params === '' && final === 'M') return x10Mouse(s, i, j + 1);
    if (seq === PASTE_START) {
      this.pasting = '';
      return {length: seq.length, event: null};
    }
    if (seq === PASTE_END) return {length: seq.length, event: {type: 'unknown', sequence: seq}};
    if (!/^[\d;]*$/.test(params)) return {length: seq.length, event: {type: 'unknown', sequence: seq}};
    const fields = params.split(';');
    if (final === '~') {
      const name = CSI_TILDE[fields[0] ?? ''];
      return {length: seq.length, event: name ? {type: 'key', name: withModifiers(name, fields[1]), input: ''} : {type: 'unknown', sequence: seq}};
    }
    if (final === 'Z') return {length: seq.length, event: {type: 'key', name: 'shift+tab', input: ''}};
    const name = CSI_FINAL[final];
    if (!name || (fields.length > 2 && params !== '')) return {length: seq.length, event: {type: 'unknown', sequence: seq}};
    // ESC [ A, ESC [ 1 ; 5 A: the modifier is the second field.
    return {length: seq.length, event: {type: 'key', name: withModifiers(name, fields[1]), input: ''}};
  }
}

/** The low two bits of an SGR button code, for a wheel notch (64 +) and for a button. */
const WHEEL: readonly MouseButton[] = ['wheelUp', 'wheelDown', 'wheelLeft', 'wheelRight'];
const BUTTON: readonly MouseButton[] = ['left', 'middle', 'right', 'none'];

/** The fields of ESC [ < b ; x ; y M (or m): a mouse event, or null when any number is out of bounds. */
function sgrMouse(params: string, released: boolean): MouseEvent | null {
  const fields = params.split(';');
  if (fields.length !== 3 || !fields.every((f) => /^\d{1,5}$/.test(f))) return null;
  const [b, x, y] = fields.map(Number) as [number, number, number];
  if (b > MOUSE_BUTTON_MAX || x < 1 || y < 1 || x > MOUSE_CELL_MAX || y > MOUSE_CELL_MAX) return null;
  const low = b & 3;
  const motion = (b & 32) !== 0;
  const button: MouseButton = b & 128 ? 'extra' : b & 64 ? WHEEL[low]! : BUTTON[low]!;
  // A wheel notch has no release; a release or a move of a wheel "button" is nothing a mouse sends.
  if ((button.startsWith('wheel') && (released || motion)) || (button === 'none' && !motion)) return null;
  return {
    type: 'mouse',
    button,
    action: motion ? 'move' : released ? 'release' : 'press',
    col: x - 1,
    row: y - 1,
    shift: (b & 4) !== 0,
    alt: (b & 8) !== 0,
    ctrl: (b & 16) !== 0,
  };
}

/** ESC [ M (ending at `at`) and the three characters after it, dropped as unknown; a control character is not one of them. */
function x10Mouse(s: string, i: number, at: number): Parsed {
  let j = at;
  while (j < at + 3) {
    if (j >= s.length) return 'incomplete';
    // A control ends it early: it was no report (or a broken one), and the control is a key.
    if (s.charCodeAt(j) < 0x20) break;
    j++;
  }
  return {length: j - i, event: {type: 'unknown', sequence: s.slice(i, j)}};
}

/** An OSC or DCS string longer than this is dropped whole and reading goes on: no terminal sends one as input. */
const STRING_MAX = 4096;

/** OSC (ESC ]), DCS (ESC P), APC (ESC _), PM (ESC ^), SOS (ESC X): to BEL (OSC) or ST (ESC \). */
function stringSequence(s: string, i: number): Parsed {
  for (let j = i + 2; j < s.length; j++) {
    if (j - i > STRING_MAX) return {length: j - i, event: {type: 'unknown', sequence: s.slice(i, j)}};
    const c = s[j]!;
    if (c === '\x07') return {length: j + 1 - i, event: {type: 'unknown', sequence: s.slice(i, j + 1)}};
    if (c === ESC) {
      if (j + 1 >= s.length) return 'incomplete';
      if (s[j + 1] === '\\') return {length: j + 2 - i, event: {type: 'unknown', sequence: s.slice(i, j + 2)}};
    }
  }
  return 'incomplete';
}

/** How many characters at the end of `s` are a proper prefix of `marker`. */
function partialSuffix(s: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, s.length); n > 0; n--) if (s.endsWith(marker.slice(0, n))) return n;
  return 0;
}
