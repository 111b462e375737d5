// Opening the `:` command bar, on its own so that screens can open it with a command filled in
// (`t` on a user: `:trace ann@example.com `) without importing the bar's machinery.
import type {ConsoleContext} from '../core/context.js';
import {CLOSED_HELP} from '../core/state.js';
import type {CommandLine} from './command-line.js';

const emptyLine = (): CommandLine => ({value: '', cursor: 0, recall: -1, draft: '', candidates: [], error: null});

/** Opens the bar, with `text` typed in it already (the caret after it). */
export function openCommandBar(c: ConsoleContext, text = ''): void {
  // From the help too: the bar takes the keys, so the help closes (`:help` opens it again).
  c.set((s) => ({...s, help: CLOSED_HELP, command: {...emptyLine(), value: text, cursor: [...text].length}}));
  // The profile names Tab completes, read again (the config file may have changed).
  void c.io.profiles?.list().catch(() => undefined);
}
