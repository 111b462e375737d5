// Terminal size, and the escape sequences for the alternate screen (Ink 6 has no option for it).
import {useEffect, useState} from 'react';
import {useStdout} from 'ink';

export {MIN_COLUMNS, MIN_ROWS} from '../state/core/layout.js';

// ink-testing-library's stdout has columns but no rows (docs/terminal-notes.md, "ink-testing-library").
const FALLBACK = {columns: 100, rows: 30};

export interface TerminalSize {
  columns: number;
  rows: number;
}

/** The stream's size now (the fallback where a test stream has none). */
export function readSize(stdout: NodeJS.WriteStream): TerminalSize {
  return {columns: stdout.columns || FALLBACK.columns, rows: stdout.rows || FALLBACK.rows};
}

export function useTerminalSize(): TerminalSize {
  const {stdout} = useStdout();
  const [size, setSize] = useState<TerminalSize>(() => readSize(stdout));
  useEffect(() => {
    const onResize = () => setSize(readSize(stdout));
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

export const ENTER_ALT_SCREEN = '\x1b[?1049h\x1b[H';
export const LEAVE_ALT_SCREEN = '\x1b[?1049l';
export const SHOW_CURSOR = '\x1b[?25h';
export const HIDE_CURSOR = '\x1b[?25l';
/** Bracketed paste: the terminal marks a paste (ESC[200~ … ESC[201~) so it arrives as one insertion. */
export const BRACKETED_PASTE_ON = '\x1b[?2004h';
export const BRACKETED_PASTE_OFF = '\x1b[?2004l';
/**
 * Mouse reports: clicks and the wheel (1000), as SGR 1006 (`ESC [ < b ; x ; y M`), which has no
 * byte limit on a cell and tells a release by its final letter. No drag (1002) nor motion (1003):
 * nothing uses them. Off in the reverse order.
 */
export const MOUSE_ON = '\x1b[?1000h\x1b[?1006h';
export const MOUSE_OFF = '\x1b[?1006l\x1b[?1000l';
