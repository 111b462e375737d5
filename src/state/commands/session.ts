// The console's own commands: `:undo` (this session's deletes), `:profile` (another server of the
// config file), `:help` and `:quit`.
import type {ConsoleContext, ProfileEntry} from '../core/context.js';
import {errorText} from '../core/state.js';
import {openHelp} from '../input/help.js';
import {UNDO_WRITE, undoCommand as listOrUndo} from '../undo/undo-actions.js';
import {readsOnly, startingWith, type Command} from './command.js';

export const undoCommand: Command<'undo'> = {
  name: 'undo',
  aliases: ['restore'],
  args: '[N]',
  help: 'the deletes of this session, newest first; with N, take that one back (u takes back the newest)',
  // A restore writes (read-only mode refuses it, as it refuses u); the list only reads.
  writes: (arg) => (arg === '' ? null : UNDO_WRITE),
  run: listOrUndo,
};

export const profileCommand: Command<'profile'> = {
  name: 'profile',
  aliases: ['ctx', 'context'],
  args: '[NAME]',
  help: 'connect with another profile of the config file, no restart (the lists, filters, marks and activity start afresh; on failure the console stays); alone: the profiles and their URLs',
  // The names as last read (opening the bar reads them again: the config file may have changed).
  complete: (c, typed) =>
    startingWith(
      (c.io.profiles?.known ?? []).map((p) => p.name),
      typed,
    ),
  // Switching reads the other server; this one is not written to.
  writes: readsOnly,
  run: (c, arg) => void runProfile(c, arg),
};

export const helpCommand: Command<'help'> = {
  name: 'help',
  aliases: ['h'],
  args: '',
  help: 'the keys of where you are, then the others',
  writes: readsOnly,
  run: openHelp,
};

export const quitCommand: Command<'quit'> = {
  name: 'quit',
  aliases: ['q', 'exit'],
  args: '',
  help: 'quit the console',
  writes: readsOnly,
  run: (c) => c.io.exit(),
};

/** `:profile NAME` connects with that profile; `:profile` lists them with their URLs. */
async function runProfile(c: ConsoleContext, name: string): Promise<void> {
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
