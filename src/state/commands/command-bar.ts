// The `:` command bar (k9s's): one line at the bottom, edited with the line editor, with the
// session's history on ↑/↓ and Tab completion of commands and their arguments. The commands are
// the record of src/state/commands/registry.ts, each with its own completion and behaviour; the
// bar finds one, has read-only mode refuse it if it writes, and runs it. An unknown command says
// so and keeps the text, so a typo is fixed rather than typed again.
import type {ConsoleContext} from '../core/context.js';
import type {Action} from '../input/keymap.js';
import {refusedInReadOnly} from '../input/read-only.js';
import {editText} from '../input/textedit.js';
import {COMMAND_LIMIT, pasteTooLong, typedTooLong} from '../input/limits.js';
import type {Command} from './command.js';
import type {CommandLine} from './command-line.js';
import {COMMAND_LIST, commandNamed} from './registry.js';
import {openCommandBar} from './open.js';

export {openCommandBar};
export type {CommandLine};

/** How many lines the session remembers. */
export const HISTORY_DEPTH = 100;

/** How many candidates Tab lists (the rest are counted). */
export const CANDIDATES_SHOWN = 40;

function setLine(c: ConsoleContext, line: CommandLine | null): void {
  c.set((s) => ({...s, command: line}));
}

/** A key of the line editor or a typed character; false when it is not one. */
export function typeIntoCommand(c: ConsoleContext, name: string, input: string): boolean {
  const line = c.state.command;
  if (!line) return false;
  const edited = editText(line, name, input, {limit: COMMAND_LIMIT});
  if (!edited) return false;
  // Said in the bar, which covers the status line while it is open.
  if (edited.overLimit) setLine(c, {...line, candidates: [], error: typedTooLong('The command bar', COMMAND_LIMIT)});
  else setLine(c, {...line, ...edited, candidates: [], error: null});
  return true;
}

/** A paste: one line of text at the caret. */
export function pasteIntoCommand(c: ConsoleContext, text: string): boolean {
  const line = c.state.command;
  if (!line) return false;
  const edited = editText(line, 'paste', text, {limit: COMMAND_LIMIT});
  if (!edited) return false;
  if (edited.overLimit) setLine(c, {...line, candidates: [], error: pasteTooLong('the command bar', COMMAND_LIMIT, text)});
  else setLine(c, {...line, ...edited, candidates: [], error: null});
  return true;
}

export function commandAction(c: ConsoleContext, action: Action): void {
  const line = c.state.command;
  if (!line) return;
  switch (action) {
    case 'cancel':
      setLine(c, null);
      return;
    case 'up':
    case 'down':
      recall(c, line, action === 'up' ? 1 : -1);
      return;
    case 'complete':
      complete(c, line);
      return;
    case 'accept':
      accept(c, line);
      return;
    default:
  }
}

function recall(c: ConsoleContext, line: CommandLine, step: 1 | -1): void {
  const history = c.state.commandHistory;
  const next = Math.max(-1, Math.min(history.length - 1, line.recall + step));
  if (next === line.recall) return;
  const draft = line.recall === -1 ? line.value : line.draft;
  const value = next === -1 ? draft : history[history.length - 1 - next]!;
  setLine(c, {...line, value, cursor: [...value].length, undo: [], typing: false, recall: next, draft, candidates: [], error: null});
}

// ---- completion ---------------------------------------------------------------------------------

function commonPrefix(words: readonly string[]): string {
  if (words.length === 0) return '';
  let prefix = words[0]!;
  for (const w of words) {
    let i = 0;
    while (i < prefix.length && i < w.length && prefix[i]!.toLowerCase() === w[i]!.toLowerCase()) i++;
    prefix = prefix.slice(0, i);
  }
  return prefix;
}

/** What the argument of `command` can be, starting with `typed` (case-insensitive), sorted, each once. */
function argumentCandidates(c: ConsoleContext, command: Command, typed: string): string[] {
  const found = new Set(command.complete?.(c, typed) ?? []);
  return [...found].sort((a, b) => a.localeCompare(b));
}

/** Tab: the command's name, then its argument; a unique match is completed, several are listed and their common part filled in. */
function complete(c: ConsoleContext, line: CommandLine): void {
  const text = line.value;
  const space = text.indexOf(' ');
  let head: string;
  let options: string[];
  let word: string;
  if (space < 0) {
    head = '';
    word = text;
    options = COMMAND_LIST.filter((x) => x.name.startsWith(word.toLowerCase())).map((x) => x.name);
    const alias = commandNamed(word);
    if (options.length === 0 && alias && 'name' in alias) options = [alias.name];
  } else {
    const found = commandNamed(text.slice(0, space));
    if (!found || !('name' in found) || found.args === '') {
      setLine(c, {...line, candidates: [], error: found && 'name' in found ? `:${found.name} takes no argument` : null});
      return;
    }
    head = `${text.slice(0, space)} `;
    word = text.slice(space + 1).trimStart();
    options = argumentCandidates(c, found, word);
  }
  if (options.length === 0) {
    setLine(c, {...line, candidates: [], error: `nothing starts with "${word}"`});
    return;
  }
  const fill = options.length === 1 ? `${options[0]!}${space < 0 ? ' ' : ''}` : word.length >= commonPrefix(options).length ? word : commonPrefix(options);
  const value = `${head}${fill}`;
  const more = options.length > CANDIDATES_SHOWN ? [`… ${options.length - CANDIDATES_SHOWN} more`] : [];
  setLine(c, {
    ...line,
    value,
    cursor: [...value].length,
    typing: false,
    candidates: options.length > 1 ? [...options.slice(0, CANDIDATES_SHOWN), ...more] : [],
    error: null,
  });
}

// ---- running ------------------------------------------------------------------------------------

function accept(c: ConsoleContext, line: CommandLine): void {
  const text = line.value.trim();
  if (text === '') {
    setLine(c, null);
    return;
  }
  const [word, ...rest] = text.split(/\s+/);
  const arg = rest.join(' ');
  const found = commandNamed(word!);
  if (!found) {
    setLine(c, {...line, candidates: [], error: `unknown command "${word}" (Tab lists the commands)`});
    return;
  }
  if (!('name' in found)) {
    setLine(c, {...line, candidates: found.ambiguous.map((x) => x.name), error: `"${word}" could be ${found.ambiguous.map((x) => `:${x.name}`).join(' or ')}`});
    return;
  }
  if (arg !== '' && found.args === '') {
    setLine(c, {...line, candidates: [], error: `:${found.name} takes no argument`});
    return;
  }
  const history = c.state.commandHistory;
  const kept = history[history.length - 1] === text ? history : [...history, text].slice(-HISTORY_DEPTH);
  c.set((s) => ({...s, command: null, commandHistory: kept}));
  // Read-only mode refuses a write here, once, as dispatch does for a key: no command checks again.
  if (refusedInReadOnly(c, found.writes(arg))) return;
  found.run(c, arg);
}
