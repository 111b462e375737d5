// `fz-console completion bash|zsh|fish`: a completion script made from the command-line tables
// (cli-spec.ts). Profile names are asked of the binary itself when completing
// (`fz-console completion --profiles`, which reads the config file and nothing else), so a new
// profile completes without reloading the shell. README.md, "Shell completion", says how to
// install each.
//
// A profile name is data, never shell text: the config file is the admin's, but a name is
// whatever its JSON key says, and `$(…)`, a backquote, `*` or a line break in one must neither
// run nor expand on Tab (docs/architecture.md, "The host around the console"). So no script
// passes a name through anything that expands it (bash's `compgen -W` expands its word list, and
// an unquoted `$(…)` splits and globs what it returns): bash reads the names line by line and
// inserts each quoted with `printf %q`; zsh hands them to compadd, which quotes what it inserts;
// fish takes a command's lines as they are and escapes what it inserts. And the binary prints only
// names that are one line of visible text (display-safe): a line break would split a name, and a
// control character would reach the terminal in the list of candidates.
import {
  ACTIVITY_CONNECTION_FLAGS,
  ACTIVITY_OPTIONS,
  COMPLETION_SHELLS,
  CONSOLE_OPTIONS,
  SANDBOX_OPTIONS,
  SERVER_FILE_CONNECTION_FLAGS,
  SERVER_FILE_OPTIONS,
  SUBCOMMANDS,
  type OptionSpec,
} from './cli-spec.js';
import {isDisplaySafe} from '../common/display-safe.js';
import {configPath, readConfigFile} from './profile.js';

type Shell = (typeof COMPLETION_SHELLS)[number];

const takesValue = (o: OptionSpec) => o.arg !== '';
const words = (list: readonly string[]) => list.join(' ');
const consoleFlags = () => CONSOLE_OPTIONS.flatMap((o) => (o.short ? [o.short, o.flag] : [o.flag]));
/** What `activity` takes: its own options and the connection's. */
const activityOptions = (): OptionSpec[] => [
  ...ACTIVITY_OPTIONS,
  ...CONSOLE_OPTIONS.filter((o) => (ACTIVITY_CONNECTION_FLAGS as readonly string[]).includes(o.flag)),
];

/** What `export`, `plan` and `apply` take: their own options and the connection's (the positional FILE is a file). */
const serverFileOptions = (): OptionSpec[] => [
  ...SERVER_FILE_OPTIONS,
  ...CONSOLE_OPTIONS.filter((o) => (SERVER_FILE_CONNECTION_FLAGS as readonly string[]).includes(o.flag)),
];
const SERVER_FILE_VERBS = ['export', 'plan', 'apply'] as const;
const FORMATS = ['yaml', 'json'] as const;

/** bash: `compgen`'s lines into COMPREPLY one per line, never split on blanks nor globbed. */
const bashReply = (from: string) => `_fz_console_reply < <(${from})`;

function bash(): string {
  const valued = CONSOLE_OPTIONS.filter(takesValue);
  const plain = valued.filter((o) => !o.completes).map((o) => o.flag);
  const files = valued.filter((o) => o.completes === 'file').map((o) => o.flag);
  const sandboxValued = SANDBOX_OPTIONS.filter((o) => o.arg !== '' && !o.values).map((o) => o.flag);
  const sandboxChoices = SANDBOX_OPTIONS.filter((o) => o.values).map(
    (o) => `    ${o.flag}) ${bashReply(`compgen -W "${words(o.values!)}" -- "$cur"`)}; return ;;`,
  );
  const fileReply = `compopt -o filenames 2>/dev/null; ${bashReply('compgen -f -- "$cur"')}; return ;;`;
  return `# fz-console completion for bash. Install: add to ~/.bashrc
#   eval "$(fz-console completion bash)"
_fz_console_reply() {
  local line
  COMPREPLY=()
  while IFS= read -r line; do COMPREPLY+=("$line"); done
}
# The profile names, asked of the binary: data, matched literally and inserted quoted.
_fz_console_profiles() {
  local name quoted
  COMPREPLY=()
  while IFS= read -r name; do
    printf -v quoted '%q' "$name"
    case "$name" in "$cur"*) COMPREPLY+=("$quoted"); continue ;; esac
    case "$quoted" in "$cur"*) COMPREPLY+=("$quoted") ;; esac
  done < <("\${COMP_WORDS[0]}" completion --profiles 2>/dev/null)
}
_fz_console() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" sub="" w
  for w in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case "$w" in ${SUBCOMMANDS.map((s) => s.name).join('|')}) sub="$w"; break ;; esac
  done
  if [ "$sub" = sandbox ]; then
    case "$prev" in
${sandboxChoices.join('\n')}
    ${sandboxValued.join('|')}) return ;;
    esac
    ${bashReply(`compgen -W "${words(SANDBOX_OPTIONS.map((o) => o.flag))}" -- "$cur"`)}
    return
  fi
  if [ "$sub" = activity ]; then
    case "$prev" in
    --profile) _fz_console_profiles; return ;;
    ${activityOptions()
      .filter((o) => o.completes === 'file')
      .map((o) => o.flag)
      .join('|')}) ${fileReply}
    ${activityOptions()
      .filter((o) => takesValue(o) && !o.completes)
      .map((o) => o.flag)
      .join('|')}) return ;;
    esac
    ${bashReply(`compgen -W "${words(activityOptions().map((o) => o.flag))}" -- "$cur"`)}
    return
  fi
  case "$sub" in ${SERVER_FILE_VERBS.join('|')})
    case "$prev" in
    --profile) _fz_console_profiles; return ;;
    --format) ${bashReply(`compgen -W "${words(FORMATS)}" -- "$cur"`)}; return ;;
    ${serverFileOptions()
      .filter((o) => o.completes === 'file')
      .map((o) => o.flag)
      .join('|')}) ${fileReply}
    ${serverFileOptions()
      .filter((o) => takesValue(o) && !o.completes && o.flag !== '--format')
      .map((o) => o.flag)
      .join('|')}) return ;;
    esac
    case "$cur" in
    -*) ${bashReply(`compgen -W "${words(serverFileOptions().map((o) => o.flag))}" -- "$cur"`)} ;;
    *) ${fileReply.replace('; return ;;', '')} ;;
    esac
    return ;;
  esac
  if [ "$sub" = completion ]; then
    ${bashReply(`compgen -W "${words(COMPLETION_SHELLS)}" -- "$cur"`)}
    return
  fi
  case "$prev" in
    --profile) _fz_console_profiles; return ;;
    ${files.join('|')}) ${fileReply}
    ${plain.join('|')}) return ;;
  esac
  ${bashReply(`compgen -W "${words([...consoleFlags(), ...SUBCOMMANDS.map((s) => s.name)])}" -- "$cur"`)}
}
complete -F _fz_console fz-console
`;
}

/** Help text as zsh's _arguments takes it in brackets. */
const zshText = (text: string) =>
  text
    .replace(/[[\]]/g, (c) => (c === '[' ? '(' : ')'))
    .replace(/:/g, '\\:')
    .replace(/'/g, "'\\''");

function zsh(): string {
  const spec = (flag: string, help: string, value: string) => `    '${flag}[${zshText(help)}]${value}'`;
  const valueOf = (o: OptionSpec) =>
    !takesValue(o) ? '' : o.completes === 'file' ? `:${o.arg}:_files` : o.completes === 'profile' ? `:${o.arg}:_fz_console_profiles` : `:${o.arg}:`;
  const consoleSpecs = CONSOLE_OPTIONS.flatMap((o) => [spec(o.flag, o.help, valueOf(o)), ...(o.short ? [spec(o.short, o.help, valueOf(o))] : [])]);
  const activitySpecs = activityOptions().map((o) => spec(o.flag, o.help, valueOf(o)));
  const serverFileSpecs = serverFileOptions().map((o) => spec(o.flag, o.help, o.flag === '--format' ? `:${o.arg}:(${words(FORMATS)})` : valueOf(o)));
  const sandboxSpecs = SANDBOX_OPTIONS.map((o) => spec(o.flag, o.help, o.values ? `:${o.arg}:(${words(o.values)})` : o.arg ? `:${o.arg}:` : ''));
  return `#compdef fz-console
# fz-console completion for zsh. Install: add to ~/.zshrc (after compinit)
#   eval "$(fz-console completion zsh)"
# The profile names, asked of the binary: data, one per line, which compadd quotes as it inserts
# them (_describe would split a name at a colon).
_fz_console_profiles() {
  emulate -L zsh
  local -a profiles
  profiles=(\${(f)"$(\${words[1]} completion --profiles 2>/dev/null)"})
  _wanted profiles expl 'profile' compadd -- "\${profiles[@]}"
}
_fz_console() {
  if [[ \${words[2]} == sandbox ]]; then
    shift words; (( CURRENT-- ))
    _arguments \\
${sandboxSpecs.join(' \\\n')}
    return
  fi
  if [[ \${words[2]} == activity ]]; then
    shift words; (( CURRENT-- ))
    _arguments \\
${activitySpecs.join(' \\\n')}
    return
  fi
  if [[ \${words[2]} == (${SERVER_FILE_VERBS.join('|')}) ]]; then
    shift words; (( CURRENT-- ))
    _arguments \\
${serverFileSpecs.join(' \\\n')} \\
    '*:file:_files'
    return
  fi
  if [[ \${words[2]} == completion ]]; then
    _values 'shell' ${words(COMPLETION_SHELLS)}
    return
  fi
  _arguments \\
${consoleSpecs.join(' \\\n')} \\
    '1:command:((${SUBCOMMANDS.map((s) => `${s.name}\\:"${zshText(s.help)}"`).join(' ')}))'
}
compdef _fz_console fz-console
`;
}

/** Help text as fish's -d takes it in single quotes. */
const fishText = (text: string) => text.replace(/\\/g, '\\\\').replace(/'/g, "\\'");

/** What fish completes for an option's value: a file, a profile name, anything, or nothing. */
function fishValue(o: OptionSpec): string {
  if (!takesValue(o)) return '';
  if (o.completes === 'file') return ' -r -F';
  return o.completes === 'profile' ? " -x -a '(fz-console completion --profiles 2>/dev/null)'" : ' -x';
}

function fish(): string {
  const top = `not __fish_seen_subcommand_from ${SUBCOMMANDS.map((s) => s.name).join(' ')}`;
  const lines = [
    '# fz-console completion for fish. Install:',
    '#   fz-console completion fish > ~/.config/fish/completions/fz-console.fish',
    'complete -c fz-console -f',
    ...SUBCOMMANDS.map((s) => `complete -c fz-console -n '__fish_use_subcommand' -a ${s.name} -d '${fishText(s.help)}'`),
    ...CONSOLE_OPTIONS.map((o) => {
      const short = o.short ? ` -s ${o.short.slice(1)}` : '';
      return `complete -c fz-console -n '${top}' -l ${o.flag.slice(2)}${short}${fishValue(o)} -d '${fishText(o.help)}'`;
    }),
    ...SANDBOX_OPTIONS.map((o) => {
      const value = o.values ? ` -x -a '${words(o.values)}'` : o.arg ? ' -x' : '';
      return `complete -c fz-console -n '__fish_seen_subcommand_from sandbox' -l ${o.flag.slice(2)}${value} -d '${fishText(o.help)}'`;
    }),
    ...activityOptions().map(
      (o) => `complete -c fz-console -n '__fish_seen_subcommand_from activity' -l ${o.flag.slice(2)}${fishValue(o)} -d '${fishText(o.help)}'`,
    ),
    ...serverFileOptions().map((o) => {
      const value = o.flag === '--format' ? ` -x -a '${words(FORMATS)}'` : fishValue(o);
      return `complete -c fz-console -n '__fish_seen_subcommand_from ${SERVER_FILE_VERBS.join(' ')}' -l ${o.flag.slice(2)}${value} -d '${fishText(o.help)}'`;
    }),
    `complete -c fz-console -n '__fish_seen_subcommand_from plan apply' -F`,
    `complete -c fz-console -n '__fish_seen_subcommand_from completion' -x -a '${words(COMPLETION_SHELLS)}'`,
  ];
  return `${lines.join('\n')}\n`;
}

export function completionScript(shell: Shell): string {
  return shell === 'bash' ? bash() : shell === 'zsh' ? zsh() : fish();
}

/** A name the scripts can offer: one line of visible text (a name that is not can still be typed). */
const completable = (name: string) => name !== '' && isDisplaySafe(name);

/** `fz-console completion …`: the script, or (for the scripts themselves) the profile names. */
export async function runCompletion(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const what = argv[0];
  if (argv.length === 1 && what === '--profiles') {
    // Completing must never print an error into the admin's command line: a missing or
    // unreadable config file completes nothing.
    try {
      const file = await readConfigFile(configPath(env));
      const names = Object.keys(file?.profiles ?? {}).filter(completable);
      process.stdout.write(names.map((name) => `${name}\n`).join(''));
    } catch {
      // nothing to offer
    }
    return 0;
  }
  if (argv.length === 1 && (COMPLETION_SHELLS as readonly string[]).includes(what ?? '')) {
    process.stdout.write(completionScript(what as Shell));
    return 0;
  }
  process.stderr.write(`fz-console: completion takes one of ${COMPLETION_SHELLS.join(', ')} (e.g. eval "$(fz-console completion bash)")\n`);
  return 2;
}
