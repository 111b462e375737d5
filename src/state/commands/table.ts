// The command bar's commands as data: names, aliases, arguments and help. The help, the README's
// command table and the bar's completion read this one table (src/state/commands/run.ts runs
// them), so a command cannot be listed without existing or exist without being listed.
// No imports: the keymap lists these in the help.

export type CommandName = 'devices' | 'users' | 'rules' | 'configuration' | 'activity' | 'trace' | 'reach' | 'undo' | 'profile' | 'help' | 'quit';

export interface CommandInfo {
  name: CommandName;
  /** Short forms, as k9s has them (`dev`, `usr`, `cfg`); a unique prefix of the name works too. */
  aliases: readonly string[];
  /** The argument as the help shows it (`[NAME]`), or '' for none. */
  args: string;
  help: string;
}

export const COMMANDS: readonly CommandInfo[] = [
  {name: 'devices', aliases: ['dev', 'device'], args: '[NAME]', help: 'the Devices list; with a device name, its detail (Tab completes names)'},
  {name: 'users', aliases: ['usr', 'user'], args: '[EMAIL]', help: "the Users list; with an email, that user's detail (Tab completes emails)"},
  {name: 'rules', aliases: ['rule'], args: '', help: 'the Rules list'},
  {name: 'configuration', aliases: ['cfg', 'config', 'conf'], args: '', help: 'the Configuration'},
  {name: 'activity', aliases: ['act', 'events'], args: '', help: 'the Activity screen'},
  {
    name: 'trace',
    aliases: ['tr', 'explain'],
    args: 'WHO DEST',
    help: 'would traffic from WHO (an email, a device name or tunnel address) to DEST (ADDRESS or ADDRESS:PORT/tcp|udp) pass, which rule decides, and the path (Tab completes WHO; t on a user or device fills it in)',
  },
  {
    name: 'reach',
    aliases: ['who'],
    args: 'DEST',
    help: 'every user: would traffic from their devices to DEST (ADDRESS or ADDRESS:PORT/tcp|udp) pass, and which rule decides, grouped by outcome',
  },
  {
    name: 'undo',
    aliases: ['restore'],
    args: '[N]',
    help: 'the deletes of this session, newest first; with N, take that one back (u takes back the newest)',
  },
  {
    name: 'profile',
    aliases: ['ctx', 'context'],
    args: '[NAME]',
    help: 'connect with another profile of the config file, no restart (the lists, filters, marks and activity start afresh; on failure the console stays); alone: the profiles and their URLs',
  },
  {name: 'help', aliases: ['h'], args: '', help: 'the keys of where you are, then the others'},
  {name: 'quit', aliases: ['q', 'exit'], args: '', help: 'quit the console'},
];

/** The command a typed word names: a name, an alias, or a prefix of exactly one name. */
export function commandNamed(word: string): CommandInfo | {ambiguous: CommandInfo[]} | null {
  const w = word.toLowerCase();
  const exact = COMMANDS.find((c) => c.name === w || c.aliases.includes(w));
  if (exact) return exact;
  const prefixed = COMMANDS.filter((c) => c.name.startsWith(w));
  if (prefixed.length === 1) return prefixed[0]!;
  return prefixed.length > 1 ? {ambiguous: prefixed} : null;
}

/** The README's command table, generated; a test keeps the README in step. */
export function commandsMarkdown(): string {
  const lines = ['| command | short | what it does |', '|---|---|---|'];
  for (const c of COMMANDS) {
    const short = c.aliases.map((a) => `\`:${a}\``).join(' ');
    lines.push(`| \`:${c.name}${c.args ? ` ${c.args}` : ''}\` | ${short} | ${c.help} |`);
  }
  return lines.join('\n');
}
