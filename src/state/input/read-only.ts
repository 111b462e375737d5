// Read-only mode (`--read-only`) refuses a write in one place and in one wording, for a key
// (src/state/input/dispatch.ts) and a command of the `:` bar (src/state/commands/command-bar.ts)
// alike: the handlers behind them never check it again (docs/architecture.md, "The keymap table").
import type {ConsoleContext} from '../core/context.js';

/**
 * Refuses `write` in read-only mode and says so; true when refused. `write` is what would have been
 * done, in the admin's words ("deleting devices", "undoing a delete"), or null for what only reads
 * (never refused).
 */
export function refusedInReadOnly(c: ConsoleContext, write: string | null): boolean {
  if (write === null || !c.settings.readOnly) return false;
  // It fades like a "does nothing here": it is about the key just pressed, not a lasting state
  // (the header's READ-ONLY says that).
  c.message({tone: 'warning', fades: true, text: `Read-only mode: ${write} is disabled (started with --read-only)`});
  return true;
}
