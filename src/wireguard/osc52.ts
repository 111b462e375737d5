// Clipboard copy through the terminal (OSC 52), which works over SSH where no local clipboard
// tool can reach the admin's machine. The terminal decides whether to honour it; we can only
// frame it so that it survives the multiplexers in between.
//
//   plain:  ESC ] 52 ; c ; <base64> BEL
//   tmux:   ESC P tmux; <the same with every ESC doubled> ESC \   (DCS passthrough; tmux ≥ 3.3
//           forwards it only with `set -g allow-passthrough on`)
//   screen: ESC P <chunk> ESC \ …  (GNU screen forwards DCS bodies verbatim but caps each at
//           768 bytes, so the OSC is cut into chunks whose concatenation is the sequence)
//
// BEL terminates the OSC rather than ST (ESC \) because ST would end the tmux/screen DCS
// wrapper early; xterm, iTerm2, kitty, WezTerm, foot and Windows Terminal accept BEL.
//
// Oversized payloads are refused rather than truncated: a truncated WireGuard config is worse
// than none, and terminals silently drop or clip OSC 52 strings above their own limits.

const ESC = '\x1b';
const BEL = '\x07';
const ST = `${ESC}\\`;

/**
 * Default cap on the base64 payload, the same as k9s's: terminals' OSC 52 limits vary
 * (xterm's is configurable, others ~100 kB), and a WireGuard config (~500 base64 bytes) is
 * far below it.
 */
export const OSC52_DEFAULT_LIMIT = 74994;

// Each screen DCS body stays well under screen's 768-byte string buffer.
const SCREEN_CHUNK = 76;

export type Osc52Mode = 'plain' | 'tmux' | 'screen';

export type Osc52Result =
  | {ok: true; sequence: string; mode: Osc52Mode; base64Length: number}
  | {ok: false; reason: 'too-large' | 'empty'; message: string; base64Length: number; limit: number};

/** Which wrapper the environment calls for: tmux wins, since tmux sets TERM=screen* too. */
export function osc52Mode(env: NodeJS.ProcessEnv): Osc52Mode {
  if (env.TMUX) return 'tmux';
  if ((env.TERM ?? '').startsWith('screen') || env.STY) return 'screen';
  return 'plain';
}

function wrapScreen(sequence: string): string {
  let out = '';
  for (let i = 0; i < sequence.length; i += SCREEN_CHUNK) {
    out += `${ESC}P${sequence.slice(i, i + SCREEN_CHUNK)}${ST}`;
  }
  return out;
}

/**
 * The bytes to write to the terminal so it puts `text` on the system clipboard, framed for
 * tmux or GNU screen when `env` says we run inside one. Refuses (ok: false) empty text and
 * payloads above `limit` base64 characters instead of sending a truncated copy.
 */
export function osc52Copy(text: string, env: NodeJS.ProcessEnv, opts: {limit?: number} = {}): Osc52Result {
  const limit = opts.limit ?? OSC52_DEFAULT_LIMIT;
  const payload = Buffer.from(text, 'utf8').toString('base64');
  if (text.length === 0) {
    return {ok: false, reason: 'empty', message: 'Nothing to copy: the value is empty', base64Length: 0, limit};
  }
  if (payload.length > limit) {
    return {
      ok: false,
      reason: 'too-large',
      base64Length: payload.length,
      limit,
      message:
        `Not copied: ${Buffer.byteLength(text, 'utf8')} bytes make ${payload.length} base64 characters, ` +
        `over the ${limit}-character OSC 52 limit (a terminal would truncate or drop it); write it to a file instead`,
    };
  }
  const sequence = `${ESC}]52;c;${payload}${BEL}`;
  const mode = osc52Mode(env);
  switch (mode) {
    case 'tmux':
      return {ok: true, mode, base64Length: payload.length, sequence: `${ESC}Ptmux;${sequence.replaceAll(ESC, ESC + ESC)}${ST}`};
    case 'screen':
      return {ok: true, mode, base64Length: payload.length, sequence: wrapScreen(sequence)};
    case 'plain':
      return {ok: true, mode, base64Length: payload.length, sequence};
  }
}
