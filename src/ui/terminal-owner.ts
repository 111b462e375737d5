// The terminal the console owns while it is shown: taken (raw mode, the alternate screen, paste
// brackets, the mouse), given back on every way out, to the shell on Ctrl-Z and to the admin's
// editor on `E`, and taken again after. One owner per process: src/cli.tsx starts and ends it.
import {editTextInEditor, type EditorRun} from '../config/external-editor.js';
import type {FrameWriter} from './frame-writer.js';
import {BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON, ENTER_ALT_SCREEN, HIDE_CURSOR, LEAVE_ALT_SCREEN, MOUSE_OFF, MOUSE_ON, SHOW_CURSOR} from './terminal.js';

/** What the console holds of the terminal now. */
export const owned = {
  taken: false,
  /** The admin's editor has the terminal (`E`): a Ctrl-C there is the editor's, not the console's. */
  editorHasTerminal: false,
  /** Whether the console has the mouse (the session shown takes it: its settings' `mouse`); taken again after `fg` and after the editor. */
  mouseOn: false,
  /** What the terminal shows, for sending frames as changes (src/ui/frame-writer.ts); set by runConsole. */
  frames: null as FrameWriter | null,
};

/** The terminal taken for the console: the alternate screen, paste brackets, and the mouse when `mouse`. */
export function takeTerminal(mouse: boolean): void {
  owned.mouseOn = mouse;
  process.stdout.write(ENTER_ALT_SCREEN + BRACKETED_PASTE_ON + (mouse ? MOUSE_ON : ''));
  owned.taken = true;
}

export function restoreTerminal(): void {
  if (!owned.taken) return;
  owned.taken = false;
  try {
    if (process.stdin.isTTY) process.stdin.setRawMode(false);
  } catch {
    // stdin may already be closed (SIGHUP): nothing left to restore there
  }
  try {
    // Mouse reports off whether or not they were on: a shell given the terminal with them on
    // would read every click as bytes typed at its prompt.
    process.stdout.write(MOUSE_OFF + BRACKETED_PASTE_OFF + SHOW_CURSOR + LEAVE_ALT_SCREEN);
  } catch {
    // stdout gone with the terminal
  }
}

/** The session shown takes the mouse or leaves it to the terminal (a `:profile` switch, the first-run screen left). */
export function setMouse(on: boolean): void {
  if (on === owned.mouseOn) return;
  owned.mouseOn = on;
  if (!owned.taken) return;
  try {
    process.stdout.write(on ? MOUSE_ON : MOUSE_OFF);
  } catch {
    // stdout gone with the terminal
  }
}

/**
 * Takes the terminal again after the shell or an editor had it: raw mode, the alternate screen,
 * paste brackets, the cursor hidden, and the whole frame drawn again (the alternate screen comes
 * back empty).
 */
function retakeTerminal(repaint: () => void): void {
  if (process.stdin.isTTY) process.stdin.setRawMode(true);
  // Ink hides the cursor once, at its first frame (log-update's hasHiddenCursor), and never
  // again: the cursor shown for the shell would stay on over the console (docs/terminal-notes.md,
  // "No alternate screen and no paste support in Ink 6").
  process.stdout.write(ENTER_ALT_SCREEN + BRACKETED_PASTE_ON + (owned.mouseOn ? MOUSE_ON : '') + HIDE_CURSOR);
  owned.taken = true;
  // The alternate screen comes back blank: the writer must not send changes against what it showed.
  owned.frames?.invalidate();
  // The size may have changed meanwhile: the SIGWINCH went to the shell or the editor then, so
  // Node's columns and rows are stale (and getWindowSize() only returns them). _refreshSize()
  // asks the terminal again and emits 'resize' when it changed; the emit below makes the layout
  // follow and the frame be drawn whole either way.
  (process.stdout as {_refreshSize?: () => void})._refreshSize?.();
  process.stdout.emit('resize');
  repaint();
}

/**
 * Ctrl-Z: gives the terminal back as a shell expects it (cooked mode, main screen, cursor shown),
 * stops with SIGTSTP like any job, and on `fg` (SIGCONT) takes it again.
 */
export function suspendToShell(repaint: () => void): void {
  if (!owned.taken) return;
  restoreTerminal();
  process.once('SIGCONT', () => {
    try {
      retakeTerminal(repaint);
    } catch {
      // the terminal went away while stopped: the hangup handler ends the process
    }
  });
  process.kill(process.pid, 'SIGTSTP');
}

/**
 * `E`: the terminal handed to the admin's editor as to the shell on Ctrl-Z, and taken back when it
 * exits. The editor runs synchronously, so the console reads no key meant for it; the frames Ink
 * makes meanwhile are dropped (the console does not own the screen) and the whole frame is drawn
 * again after. A Ctrl-C the editor leaves to the terminal (SIGINT to the whole job) is its own:
 * the console ignores SIGINT while the editor runs, as git does.
 */
export function editInTerminal(repaint: () => void): (request: {stem: string; text: string}) => Promise<EditorRun> {
  return async (request) => {
    if (!owned.taken) return {ok: false, reason: 'the console does not own the terminal'};
    // Let the frame of the key that asked be drawn first, and the store settle.
    await new Promise((resolve) => setImmediate(resolve));
    restoreTerminal();
    owned.editorHasTerminal = true;
    try {
      return editTextInEditor(process.env, request);
    } finally {
      // A SIGINT that came while the editor ran is handled by the next turn's poll phase, before
      // this check phase callback: it still finds the editor's flag set.
      setImmediate(() => {
        owned.editorHasTerminal = false;
      });
      try {
        retakeTerminal(repaint);
      } catch {
        // the terminal went away meanwhile: the hangup handler ends the process
      }
    }
  };
}
