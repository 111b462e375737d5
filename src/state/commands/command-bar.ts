// The `:` command bar (k9s's): one line at the bottom, edited with the line editor, with the
// session's history on ↑/↓ and Tab completion of commands and their arguments. The commands are
// the table of src/state/commands/table.ts; running them is here. An unknown command says so and
// keeps the text, so a typo is fixed rather than typed again.
import type {ConsoleContext, ProfileEntry} from '../core/context.js';
import {CLOSED_HELP, errorText, type ScreenId} from '../core/state.js';
import {openHelp} from '../input/help.js';
import type {Action} from '../input/keymap.js';
import {editText} from '../input/textedit.js';
import {COMMAND_LIMIT, pasteTooLong, typedTooLong} from '../input/limits.js';
import type {CommandLine} from './command-line.js';
import {openCommandBar} from './open.js';

export {openCommandBar};
import {leaveOwnView} from '../lists/own-view.js';
import {quoteFilterTerm} from '../lists/filter-query.js';
import {trace, type TraceData, type TraceDevice} from '../access/trace.js';
import {vpnStatus, type DeviceRow, type Snapshot} from '../data/snapshot.js';
import {reach} from '../access/reach.js';
import {undoCommand} from '../undo/undo-actions.js';
export type {CommandLine};
import {COMMANDS, commandNamed, type CommandInfo, type CommandName} from './table.js';

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

/** What an argument of `command` can be, starting with `prefix` (case-insensitive), sorted. */
function argumentCandidates(c: ConsoleContext, command: CommandName, prefix: string): string[] {
  const snapshot = c.state.snapshot;
  const p = prefix.toLowerCase();
  if (!snapshot && command !== 'profile') return [];
  const found = new Set<string>();
  if (command === 'devices' && snapshot) for (const row of snapshot.devices) if (row.name.toLowerCase().startsWith(p)) found.add(row.name);
  if (command === 'users' && snapshot) for (const u of snapshot.users) if (u.email.toLowerCase().startsWith(p)) found.add(u.email);
  if (command === 'profile') for (const x of c.io.profiles?.known ?? []) if (x.name.toLowerCase().startsWith(p)) found.add(x.name);
  // WHO: a user's email or a device's name (DEST is an address: nothing to complete).
  if (command === 'trace' && snapshot && !prefix.includes(' ')) {
    for (const u of snapshot.users) if (u.email.toLowerCase().startsWith(p)) found.add(u.email);
    for (const row of snapshot.devices) if (row.name.toLowerCase().startsWith(p)) found.add(row.name);
  }
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
    options = COMMANDS.filter((x) => x.name.startsWith(word.toLowerCase())).map((x) => x.name);
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
    options = argumentCandidates(c, found.name, word);
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

const SCREEN_OF: Partial<Record<CommandName, ScreenId>> = {
  devices: 'devices',
  users: 'users',
  rules: 'rules',
  configuration: 'configuration',
  activity: 'activity',
};

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
  run(c, found, arg);
}

function run(c: ConsoleContext, command: CommandInfo, arg: string): void {
  const screen = SCREEN_OF[command.name];
  if (screen) {
    c.set((s) => ({...s, screen, help: CLOSED_HELP}));
    if (arg !== '') openByName(c, command.name, arg);
    return;
  }
  if (command.name === 'help') openHelp(c);
  else if (command.name === 'quit') c.io.exit();
  else if (command.name === 'profile') void profileCommand(c, arg);
  else if (command.name === 'trace') traceCommand(c, arg);
  else if (command.name === 'reach') reachCommand(c, arg);
  else if (command.name === 'undo') {
    // A restore writes: read-only refuses it like any write (listing is fine).
    if (arg !== '' && c.settings.readOnly) c.message({tone: 'warning', text: 'Read-only mode: undoing a delete is disabled (started with --read-only)'});
    else undoCommand(c, arg);
  }
}

/**
 * `:devices NAME`, `:users EMAIL`: the item of that name opens; failing an exact name, the one
 * whose name holds the text (`:users hana`); several are left filtered in the list; none is said
 * (and fades: the bar keeps nothing to fix).
 */
function openByName(c: ConsoleContext, command: CommandName, arg: string): void {
  const snapshot = c.state.snapshot;
  if (!snapshot) {
    c.message({tone: 'info', text: 'No data yet: the list opens when the first poll answers'});
    return;
  }
  const wanted = arg.toLowerCase();
  const screen = command === 'users' ? 'users' : 'devices';
  const names: Array<{id: string; name: string}> =
    screen === 'users' ? snapshot.users.map((u) => ({id: u.id, name: u.email})) : snapshot.devices.map((row) => ({id: row.id, name: row.name}));
  const exact = names.filter((x) => x.name.toLowerCase() === wanted);
  const matches = exact.length > 0 ? exact : names.filter((x) => x.name.toLowerCase().includes(wanted));
  const noun = screen === 'users' ? 'user' : 'device';
  // A list's own view (the stale devices) may not show the one asked for.
  if (matches.length > 0) leaveOwnView(c, screen);
  if (matches.length === 1) {
    c.openDetail(screen, matches[0]!.id);
  } else if (matches.length === 0) {
    c.message({tone: 'info', text: `No ${noun} ${screen === 'users' ? '' : 'named '}${arg}`.replace('  ', ' ')});
  } else {
    // A name of a device or an email, as a quoted filter term: plain text, whatever it holds
    // (quotes included: they are doubled, and the term reads back as the name).
    const filter = quoteFilterTerm(arg);
    c.updateList(screen, (st) => ({...st, detailId: null, filter, filtering: false, filterEdit: {cursor: [...filter].length}}));
    c.message({
      tone: 'info',
      text:
        exact.length > 1
          ? `${matches.length} ${noun}s are named ${arg}: the list is filtered to them`
          : `${matches.length} ${noun}s match ${arg}: the list is filtered to them`,
    });
  }
}

/** `:profile NAME` connects with that profile; `:profile` lists them with their URLs. */
async function profileCommand(c: ConsoleContext, name: string): Promise<void> {
  const profiles = c.io.profiles;
  if (!profiles) {
    c.message({tone: 'warning', text: 'No profiles to switch to here: profiles live in the config file (README, "Connecting to a real server")'});
    return;
  }
  if (name === '') {
    let list: ProfileEntry[];
    try {
      list = await profiles.list();
    } catch (err) {
      c.message({tone: 'error', text: errorText(err)});
      return;
    }
    const width = Math.max(0, ...list.map((p) => [...p.name].length));
    c.push({
      kind: 'report',
      title: 'Profiles',
      phase: 'finished',
      progress: null,
      scroll: 0,
      lines:
        list.length === 0
          ? [{text: 'The config file has no profiles.'}]
          : [
              ...list.map((p) => ({
                text: `${p.name === profiles.current ? '*' : ' '} ${p.name.padEnd(width)}  ${p.url}`,
                ...(p.name === profiles.current ? {bold: true} : {}),
              })),
              {text: ''},
              {text: ':profile NAME connects with one (* is the one in use); Tab completes the name.', tone: 'muted' as const},
            ],
    });
    return;
  }
  if (name === profiles.current) {
    c.message({tone: 'info', text: `Already connected with profile ${name}`});
    return;
  }
  c.message({tone: 'info', text: `Connecting with profile ${name}…`});
  // A form or dialog opened while the other server was asked is not thrown away under the admin.
  const failed = await profiles.switchTo(name, () =>
    c.state.modals.length > 0 ? 'it answered, but a form or dialog is open here, so the console did not switch (close it and run :profile again)' : null,
  );
  // On success this console is replaced by one on the other server; on failure it stays.
  if (failed) c.message({tone: 'error', text: `Profile ${name}: ${failed} (still connected${profiles.current ? ` with ${profiles.current}` : ''})`});
}

/** `:trace WHO DEST`: the access explainer's answer in a panel (src/state/access/trace.ts). */
function traceCommand(c: ConsoleContext, arg: string): void {
  const snapshot = c.state.snapshot;
  const parts = arg.split(/\s+/).filter(Boolean);
  if (parts.length !== 2) {
    openCommandBar(c, `trace ${arg}${parts.length === 1 ? ' ' : ''}`);
    c.set((s) => (s.command ? {...s, command: {...s.command, error: ':trace takes WHO and DEST, e.g. :trace ann@example.com 10.2.3.4:53/udp'}} : s));
    return;
  }
  if (!snapshot) {
    c.message({tone: 'info', text: 'No data yet: trace once the first poll has answered'});
    return;
  }
  const [who, dest] = parts as [string, string];
  const blind = unknownToToken(snapshot);
  if (blind) {
    c.message({tone: 'warning', text: `:trace cannot answer: ${blind}`});
    return;
  }
  const result = trace(traceData(snapshot, c.state.clock), who, dest);
  if (typeof result === 'string') {
    openCommandBar(c, `trace ${who} ${dest}`);
    c.set((s) => (s.command ? {...s, command: {...s.command, error: result}} : s));
    return;
  }
  c.push({kind: 'report', title: `Trace: ${who} → ${dest}`, phase: 'finished', progress: null, scroll: 0, lines: result.lines});
}

/** The explainer's view of the rows: five fields each, not a materialised Device; AllowedIPs as its client config has them. */
function traceDevices(rows: readonly DeviceRow[], defaultAllowed: readonly string[] | null): TraceDevice[] {
  return rows.map((r) => {
    const s = r.settings;
    return {name: r.name, user_id: r.userId, ipv4: r.ipv4, ipv6: r.ipv6, allowedIps: s.use_default_allowed_ips ? defaultAllowed : s.allowed_ips};
  });
}

/**
 * Why the explainer cannot answer from this poll: a token that may not list the rules or the
 * users would have it answer from none ("ACCEPT: no rule matches"; every device's user "no longer
 * exists"). Null when it can.
 */
function unknownToToken(snapshot: Snapshot): string | null {
  const missing = (['rules', 'users'] as const).filter((list) => snapshot.hidden.has(list));
  return missing.length === 0 ? null : `this token cannot list ${missing.join(' or ')} (its user is not an admin)`;
}

/** What `:trace` and `:reach` read of a poll: its lists, and whose VPN session has expired by now (the Users screen's EXPIRED). */
function traceData(snapshot: Snapshot, now: number): TraceData {
  const duration = snapshot.configuration?.vpn_session_duration ?? 0;
  const expired = new Set(snapshot.users.filter((u) => vpnStatus(u, duration, now) === 'EXPIRED').map((u) => u.id));
  return {
    users: snapshot.users,
    devices: traceDevices(snapshot.devices, snapshot.configuration?.default_client_allowed_ips ?? null),
    rules: snapshot.rules,
    expired,
  };
}

/** `:reach DEST`: every user's answer, grouped (src/state/access/reach.ts). */
function reachCommand(c: ConsoleContext, arg: string): void {
  const snapshot = c.state.snapshot;
  if (arg.trim() === '' || /\s/.test(arg.trim())) {
    openCommandBar(c, `reach ${arg.trim()}`);
    c.set((s) => (s.command ? {...s, command: {...s.command, error: ':reach takes one DEST, e.g. :reach 10.2.3.4:443/tcp'}} : s));
    return;
  }
  if (!snapshot) {
    c.message({tone: 'info', text: 'No data yet: ask once the first poll has answered'});
    return;
  }
  const blind = unknownToToken(snapshot);
  if (blind) {
    c.message({tone: 'warning', text: `:reach cannot answer: ${blind}`});
    return;
  }
  const result = reach(traceData(snapshot, c.state.clock), arg.trim());
  if (typeof result === 'string') {
    openCommandBar(c, `reach ${arg.trim()}`);
    c.set((s) => (s.command ? {...s, command: {...s.command, error: result}} : s));
    return;
  }
  c.push({kind: 'report', title: `Reach: ${arg.trim()}`, phase: 'finished', progress: null, scroll: 0, lines: result.lines});
}
