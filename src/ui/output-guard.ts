// The second line of defence behind the display boundary (src/common/display-safe.ts): a filter
// on every byte Ink writes to the terminal. Only the sequences the console itself uses pass —
// SGR, cursor movement and erase, cursor show/hide, the alternate screen, bracketed-paste mode and
// synchronized output. Anything else (OSC, DCS, APC, PM, SOS, other escapes, C1 controls, stray
// C0 controls) is dropped and counted, so a bug that lets server text past the boundary still
// cannot drive the admin's terminal. The clipboard's OSC 52 is written by the copy command on its
// own path, not through this filter. See docs/architecture.md, "Untrusted text".

const ESC = 0x1b;

// CSI finals the console emits: SGR, cursor up/down/forward/back/next/previous line/column/position, erase.
const CSI_FINALS = new Set(['m', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'f', 'J', 'K']);
// DEC private modes the console sets or resets: cursor, alternate screen, bracketed paste, synchronized output.
const PRIVATE_MODES = new Set(['25', '1049', '2004', '2026']);

export interface GuardStats {
  /** Sequences or characters dropped, by kind. */
  dropped: Record<string, number>;
}

type StringState = null | {kind: string; sawEsc: boolean};

/**
 * A stateful filter (an escape string may span two writes). `filter(chunk)` returns what may reach
 * the terminal; `onDrop` hears the kind of each dropped sequence (for the --debug log).
 */
export class OutputGuard {
  readonly stats: GuardStats = {dropped: {}};
  private inString: StringState = null;

  constructor(private readonly onDrop?: (kind: string) => void) {}

  private drop(kind: string): void {
    this.stats.dropped[kind] = (this.stats.dropped[kind] ?? 0) + 1;
    this.onDrop?.(kind);
  }

  filter(chunk: string): string {
    let out = '';
    let i = 0;
    const n = chunk.length;
    // Fast path: no escape, no control other than \n and \r, no C1.
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    if (this.inString === null && !/[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f]/.test(chunk)) return chunk;
    while (i < n) {
      if (this.inString !== null) {
        // Inside an OSC/DCS/APC/PM/SOS string: skip to its terminator (BEL for OSC, ST = ESC \ or 0x9c).
        const c = chunk.charCodeAt(i);
        if (this.inString.sawEsc) {
          this.inString.sawEsc = false;
          if (c === 0x5c) {
            this.inString = null;
            i++;
            continue;
          }
        }
        if (c === ESC) this.inString.sawEsc = true;
        else if (c === 0x9c || (c === 0x07 && this.inString.kind === 'OSC')) this.inString = null;
        i++;
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (c === ESC) {
        const next = chunk[i + 1];
        if (next === '[') {
          // CSI: parameters 0x30–0x3f, intermediates 0x20–0x2f, final 0x40–0x7e.
          let j = i + 2;
          while (j < n && chunk.charCodeAt(j) >= 0x30 && chunk.charCodeAt(j) <= 0x3f) j++;
          const params = chunk.slice(i + 2, j);
          while (j < n && chunk.charCodeAt(j) >= 0x20 && chunk.charCodeAt(j) <= 0x2f) j++;
          const final = chunk[j];
          const seq = chunk.slice(i, j + 1);
          if (final === undefined) {
            this.drop('CSI (cut)');
            return out;
          }
          const privateMode = params.startsWith('?') && (final === 'h' || final === 'l') && PRIVATE_MODES.has(params.slice(1));
          const plain = !params.startsWith('?') && /^[0-9;]*$/.test(params) && CSI_FINALS.has(final);
          if (privateMode || plain) out += seq;
          else this.drop(`CSI ${params}${final}`);
          i = j + 1;
          continue;
        }
        const kind = next === ']' ? 'OSC' : next === 'P' ? 'DCS' : next === '_' ? 'APC' : next === '^' ? 'PM' : next === 'X' ? 'SOS' : null;
        if (kind) {
          this.drop(kind);
          this.inString = {kind, sawEsc: false};
          i += 2;
          continue;
        }
        this.drop(next === undefined ? 'ESC' : `ESC ${next}`);
        i += next === undefined ? 1 : 2;
        continue;
      }
      if (c >= 0x80 && c <= 0x9f) {
        const kind = c === 0x9d ? 'OSC' : c === 0x90 ? 'DCS' : c === 0x9f ? 'APC' : c === 0x9e ? 'PM' : c === 0x98 ? 'SOS' : 'C1';
        this.drop(kind);
        if (kind !== 'C1') this.inString = {kind, sawEsc: false};
        i++;
        continue;
      }
      if ((c < 0x20 && c !== 0x0a && c !== 0x0d) || c === 0x7f) {
        this.drop(`C0 0x${c.toString(16).padStart(2, '0')}`);
        i++;
        continue;
      }
      out += chunk[i];
      i++;
    }
    return out;
  }
}

/**
 * A stdout for Ink whose `write` goes through `guard`; everything else (columns, rows, `resize`
 * events, isTTY) is the real stream's.
 */
export function guardedStream<S extends NodeJS.WriteStream>(stream: S, guard: OutputGuard): S {
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
    return (stream.write as (c: string, ...r: unknown[]) => boolean)(guard.filter(text), ...rest);
  };
  return new Proxy(stream, {
    get(target, prop) {
      if (prop === 'write') return write;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
