// `c`: copying to the terminal's clipboard with OSC 52. The clipboard gets what the screen shows:
// control characters as visible escapes, never raw (docs/architecture.md, "Untrusted text").
import {plainSafe} from '../../common/display-safe.js';
import {osc52Copy} from '../../wireguard/index.js';
import type {ConsoleContext} from '../core/context.js';

/**
 * `lines`: a multi-line value (a client config) keeps its line breaks, each line made safe on its
 * own; otherwise a line break is shown as `\n` like any control character (a one-line value with a
 * line break in it is data to see, not to paste as two lines).
 */
export function copyToClipboard(c: Pick<ConsoleContext, 'io' | 'message'>, label: string, value: string, options: {lines?: boolean} = {}): void {
  const parts = options.lines ? value.split(/\r?\n/).map((line) => plainSafe(line)) : [plainSafe(value)];
  const text = parts.map((p) => p.text).join('\n');
  const escaped = parts.reduce((n, p) => n + p.escaped, 0);
  const result = osc52Copy(text, process.env);
  if (!result.ok) {
    c.message({tone: 'error', text: result.message});
    return;
  }
  c.io.writeRaw(result.sequence);
  c.message(
    escaped > 0
      ? {tone: 'warning', text: `Copied ${label} with ${escaped} control character${escaped === 1 ? '' : 's'} shown as escapes (OSC 52)`}
      : {tone: 'ok', text: `Copied ${label} to the clipboard (OSC 52: your terminal must allow it)`},
  );
}
