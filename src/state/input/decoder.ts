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
//   waits longer for its end (`held` says which), since over a slow link its halves can come apart.
// Pure: no timers, no I/O. Key names are the normalised ones of the keymap (`j`, `G`, `enter`,
// `ctrl+s`, `shift+tab`, `alt+b`, `ctrl+left`).

export type InputEvent =
  | {type: 'key'; name: string; input: string}
  /** Printable characters typed in one read (fast typing, an unbracketed paste), in order. */
  | {type: 'text'; text: string}
  | {type: 'paste'; text: string}
  /** A sequence the console does not know (a colour code typed, a focus report): ignored. */
  | {type: 'unknown'; sequence: string};

const ESC = '\x1b';
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
/** A paste longer than this is cut (and said to be cut by the consumer); the terminal keeps sending. */
export const PASTE_MAX = 1024 * 1024;
/** A CSI longer than this is not a key: it is dropped as unknown. */
const CSI_MAX = 64;

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

type Parsed = {length: number; event: InputEvent | null} | 'incomplete';

export class InputDecoder {
  private pending = '';
  private pasting: string | null = null;

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
    if (this.pasting !== null || this.pending === '') return [];
    const held = this.pending;
    this.pending = '';
    if (held === ESC) return [{type: 'key', name: 'esc', input: ''}];
    if (held === `${ESC}${ESC}`)
      return [
        {type: 'key', name: 'esc', input: ''},
        {type: 'key', name: 'esc', input: ''},
      ];
    return [{type: 'unknown', sequence: held}];
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
      if (j - i > CSI_MAX) return {length: j - i, event: {type: 'unknown', sequence: s.slice(i, j)}};
    }
    if (j >= s.length) return 'incomplete';
    const seq = s.slice(i, j + 1);
    const params = s.slice(i + 2, j);
    const final = s[j]!;
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
