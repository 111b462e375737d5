// What keys do everywhere: switch screens, open the help (src/state/input/help.ts), the command bar,
// quit, refresh, pause, and Esc on a list (clear the filter, then the marks).
import {clearMarks} from '../lists/marks.js';
import {CLOSED_HELP, SCREENS} from '../core/state.js';
import {openHelp} from './help.js';
import {undoLast} from '../undo/undo-actions.js';
import type {ConsoleContext} from '../core/context.js';
import type {Action} from './keymap.js';
import {openCommandBar} from '../commands/command-bar.js';

export function globalAction(c: ConsoleContext, action: Action): void {
  const screens: Partial<Record<Action, number>> = {screen1: 0, screen2: 1, screen3: 2, screen4: 3, screen5: 4};
  const target = screens[action];
  if (target !== undefined) {
    c.set((s) => ({...s, screen: SCREENS[target]!.id, help: CLOSED_HELP}));
    return;
  }
  switch (action) {
    case 'nextScreen':
    case 'prevScreen': {
      const i = SCREENS.findIndex((x) => x.id === c.state.screen);
      const next = SCREENS[(i + (action === 'nextScreen' ? 1 : SCREENS.length - 1)) % SCREENS.length]!;
      c.set((s) => ({...s, screen: next.id}));
      return;
    }
    case 'help':
      openHelp(c);
      return;
    case 'command':
      openCommandBar(c);
      return;
    case 'undo':
      undoLast(c);
      return;
    case 'quit':
    case 'quitNow':
      c.io.exit();
      return;
    case 'suspend':
      if (c.io.suspend) c.io.suspend();
      else
        c.message({
          tone: 'info',
          text: 'Ctrl-Z: nothing to suspend to here: no shell with job control started this console (run it from an interactive shell for Ctrl-Z and fg); q quits',
        });
      return;
    case 'refresh':
      c.refresh({ifIdle: true});
      c.message({tone: 'info', text: 'Refreshing…'});
      return;
    case 'pause': {
      const paused = c.togglePause();
      if (paused !== null) c.message({tone: 'info', text: paused ? 'Live updates paused (p resumes)' : 'Live updates resumed'});
      return;
    }
    case 'back': {
      // A filter is cheap to type again, marks are not: Esc lets go of the filter first.
      const list = c.activeList();
      if (list?.state.filter) c.updateList(list.spec.id, (st) => ({...st, filter: ''}));
      else if (list && !list.state.detailId) clearMarks(c, list);
      return;
    }
    default:
  }
}
