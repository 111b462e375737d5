// `c`: copying to the terminal's clipboard with OSC 52. The clipboard gets what the screen shows:
// control characters as visible escapes, never raw (docs/architecture.md, "Untrusted text").
import {plainSafe} from '../../common/display-safe.js';
import {osc52Copy} from '../../wireguard/index.js';
import type {ConsoleContext} from '../core/context.js';

export function copyToClipboard(c: Pick<ConsoleContext, 'io' | 'message'>, label: string, value: string): void {
  const {text, escaped} = plainSafe(value);
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
