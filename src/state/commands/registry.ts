// Every command of the `:` bar, by name. The bar looks a typed word up here and runs what it finds
// (src/state/commands/command-bar.ts); the help, the README's command table and the man page list
// this record (src/state/input/help-sections.ts), so a command cannot be listed without existing
// or exist without being listed (docs/architecture.md, "The keymap table").
import {reachCommand, traceCommand} from './access.js';
import type {Command, CommandRecord} from './command.js';
import {exportCommand, planCommand} from './declarative.js';
import {activityCommand, configurationCommand, devicesCommand, rulesCommand, usersCommand} from './screens.js';
import {helpCommand, profileCommand, quitCommand, undoCommand} from './session.js';

/** In the help's order. */
export const COMMANDS: CommandRecord = {
  devices: devicesCommand,
  users: usersCommand,
  rules: rulesCommand,
  configuration: configurationCommand,
  activity: activityCommand,
  trace: traceCommand,
  reach: reachCommand,
  undo: undoCommand,
  plan: planCommand,
  export: exportCommand,
  profile: profileCommand,
  help: helpCommand,
  quit: quitCommand,
};

/** The commands in the help's order. */
export const COMMAND_LIST: readonly Command[] = Object.values(COMMANDS);

/** The command a typed word names: a name, an alias, or a prefix of exactly one name. */
export function commandNamed(word: string): Command | {ambiguous: Command[]} | null {
  const w = word.toLowerCase();
  const exact = COMMAND_LIST.find((c) => c.name === w || c.aliases.includes(w));
  if (exact) return exact;
  const prefixed = COMMAND_LIST.filter((c) => c.name.startsWith(w));
  if (prefixed.length === 1) return prefixed[0]!;
  return prefixed.length > 1 ? {ambiguous: prefixed} : null;
}

/** A command as the help and the README show it: `:devices [NAME]`. */
export function commandUsage(c: Command): string {
  return `:${c.name}${c.args ? ` ${c.args}` : ''}`;
}

/** The README's command table, generated; a test keeps the README in step. */
export function commandsMarkdown(): string {
  const lines = ['| command | short | what it does |', '|---|---|---|'];
  for (const c of COMMAND_LIST) {
    const short = c.aliases.map((a) => `\`:${a}\``).join(' ');
    lines.push(`| \`${commandUsage(c)}\` | ${short} | ${c.help} |`);
  }
  return lines.join('\n');
}
