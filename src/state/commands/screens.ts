// `:devices`, `:users`, `:rules`, `:configuration`, `:activity`: each opens its screen, as 1–5 do;
// `:devices NAME` and `:users EMAIL` open that item too.
import type {ConsoleContext} from '../core/context.js';
import {CLOSED_HELP, type ScreenId} from '../core/state.js';
import type {Snapshot} from '../data/snapshot.js';
import {quoteFilterTerm} from '../lists/filter-query.js';
import {leaveOwnView} from '../lists/own-view.js';
import {readsOnly, startingWith, type Command} from './command.js';

function show(c: ConsoleContext, screen: ScreenId): void {
  c.set((s) => ({...s, screen, help: CLOSED_HELP}));
}

/** What `:devices NAME` and `:users EMAIL` look a name up in, and how they say what they found. */
interface Lookup {
  screen: 'devices' | 'users';
  noun: string;
  /** Each item's id and the name it is asked for by. */
  names: (snapshot: Snapshot) => Array<{id: string; name: string}>;
  /** What is said when no item has the name. */
  none: (arg: string) => string;
}

/**
 * `:devices NAME`, `:users EMAIL`: the item of that name opens; failing an exact name, the one
 * whose name holds the text (`:users hana`); several are left filtered in the list; none is said
 * (and fades: the bar keeps nothing to fix).
 */
function openByName(c: ConsoleContext, lookup: Lookup, arg: string): void {
  const snapshot = c.state.snapshot;
  if (!snapshot) {
    c.message({tone: 'info', text: 'No data yet: the list opens when the first poll answers'});
    return;
  }
  const wanted = arg.toLowerCase();
  const names = lookup.names(snapshot);
  const exact = names.filter((x) => x.name.toLowerCase() === wanted);
  const matches = exact.length > 0 ? exact : names.filter((x) => x.name.toLowerCase().includes(wanted));
  // A list's own view (the stale devices) may not show the item asked for: all the items again.
  if (matches.length > 0) leaveOwnView(c, lookup.screen);
  if (matches.length === 1) {
    c.openDetail(lookup.screen, matches[0]!.id);
  } else if (matches.length === 0) {
    c.message({tone: 'info', text: lookup.none(arg)});
  } else {
    // A name of a device or an email, as a quoted filter term: plain text, whatever it holds
    // (quotes included: they are doubled, and the term reads back as the name).
    const filter = quoteFilterTerm(arg);
    c.updateList(lookup.screen, (st) => ({...st, detailId: null, filter, filtering: false, filterEdit: {cursor: [...filter].length}}));
    const noun = lookup.noun;
    c.message({
      tone: 'info',
      text:
        exact.length > 1
          ? `${matches.length} ${noun}s are named ${arg}: the list is filtered to them`
          : `${matches.length} ${noun}s match ${arg}: the list is filtered to them`,
    });
  }
}

const deviceNames = (snapshot: Snapshot) => snapshot.devices.map((row) => ({id: row.id, name: row.name}));
const userEmails = (snapshot: Snapshot) => snapshot.users.map((u) => ({id: u.id, name: u.email}));

const devices: Lookup = {
  screen: 'devices',
  noun: 'device',
  names: deviceNames,
  none: (arg) => `No device named ${arg}`,
};

const users: Lookup = {screen: 'users', noun: 'user', names: userEmails, none: (arg) => `No user ${arg}`};

export const devicesCommand: Command<'devices'> = {
  name: 'devices',
  aliases: ['dev', 'device'],
  args: '[NAME]',
  help: 'the Devices list; with a device name, its detail (Tab completes names)',
  complete: (c, typed) => startingWith(c.state.snapshot?.devices.map((row) => row.name) ?? [], typed),
  writes: readsOnly,
  run: (c, arg) => {
    show(c, 'devices');
    if (arg !== '') openByName(c, devices, arg);
  },
};

export const usersCommand: Command<'users'> = {
  name: 'users',
  aliases: ['usr', 'user'],
  args: '[EMAIL]',
  help: "the Users list; with an email, that user's detail (Tab completes emails)",
  complete: (c, typed) => startingWith(c.state.snapshot?.users.map((u) => u.email) ?? [], typed),
  writes: readsOnly,
  run: (c, arg) => {
    show(c, 'users');
    if (arg !== '') openByName(c, users, arg);
  },
};

export const rulesCommand: Command<'rules'> = {
  name: 'rules',
  aliases: ['rule'],
  args: '',
  help: 'the Rules list',
  writes: readsOnly,
  run: (c) => show(c, 'rules'),
};

export const configurationCommand: Command<'configuration'> = {
  name: 'configuration',
  aliases: ['cfg', 'config', 'conf'],
  args: '',
  help: 'the Configuration',
  writes: readsOnly,
  run: (c) => show(c, 'configuration'),
};

export const activityCommand: Command<'activity'> = {
  name: 'activity',
  aliases: ['act', 'events'],
  args: '',
  help: 'the Activity screen',
  writes: readsOnly,
  run: (c) => show(c, 'activity'),
};
