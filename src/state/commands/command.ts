// A command of the `:` bar is one object: its name and short forms, its help, how its argument is
// completed, whether it writes, and what it does (as gemini-cli's SlashCommand carries its action
// and completion). The commands are a record keyed by these names (src/state/commands/registry.ts),
// so a name without its command, or a command without its name, does not compile
// (docs/architecture.md, "The keymap table").
import type {ConsoleContext} from '../core/context.js';

export type CommandName =
  'devices' | 'users' | 'rules' | 'configuration' | 'activity' | 'trace' | 'reach' | 'undo' | 'plan' | 'export' | 'profile' | 'help' | 'quit';

export interface Command<N extends CommandName = CommandName> {
  name: N;
  /** Short forms, as k9s has them (`dev`, `usr`, `cfg`); a unique prefix of the name works too. */
  aliases: readonly string[];
  /** The argument as the help shows it (`[NAME]`), or '' for none (the bar then refuses one). */
  args: string;
  /** One line for the help, the README's command table and the man page. */
  help: string;
  /**
   * Tab on the argument: what it can be, of the values starting with `typed` (case-insensitive;
   * `startingWith` does that). Absent: nothing to complete (an address, a number).
   */
  complete?: (c: ConsoleContext, typed: string) => readonly string[];
  /**
   * What running it with `arg` would write, in the words of read-only mode's refusal ("undoing a
   * delete"), or null when it only reads. The bar refuses a write before `run`
   * (src/state/input/read-only.ts), so `run` never checks read-only mode itself.
   */
  writes: (arg: string) => string | null;
  /** Runs it with `arg` (the words after the name, single-spaced; '' for none). The bar has closed. */
  run: (c: ConsoleContext, arg: string) => void;
}

/** Every command, by name: one missing (or one too many) is a type error. */
export type CommandRecord = {readonly [N in CommandName]: Command<N>};

/** For `writes` of a command that sends nothing. */
export const readsOnly = (): null => null;

/** Those of `names` that start with `typed`, case-insensitive: what a completion offers. */
export function startingWith(names: Iterable<string>, typed: string): string[] {
  const prefix = typed.toLowerCase();
  const found: string[] = [];
  for (const name of names) if (name.toLowerCase().startsWith(prefix)) found.push(name);
  return found;
}
