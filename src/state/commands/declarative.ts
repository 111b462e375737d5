// The server as a file from the `:` bar: `:plan FILE` and `:export FILE` (README, "Keeping the
// server in a file"). What they do lives with the feature (src/state/declarative/in-console.ts).
// Loaded when run: the document's parser (yaml) and zod stay out of the console's first chunks.
import type {ConsoleContext} from '../core/context.js';
import {errorText} from '../core/state.js';
import type * as InConsole from '../declarative/in-console.js';
import {readsOnly, type Command} from './command.js';

function later(c: ConsoleContext, run: (m: typeof InConsole) => Promise<void>): void {
  import('../declarative/in-console.js').then(run).catch((err: unknown) => c.message({tone: 'error', text: errorText(err)}));
}

export const planCommand: Command<'plan'> = {
  name: 'plan',
  aliases: [],
  args: 'FILE [--prune] [--replace]',
  help: 'what applying the file (fz-console export) would change, as fz-console plan says it; y in it applies',
  // The plan only reads; its `y` applies, and read-only mode refuses that there.
  writes: readsOnly,
  run: (c, arg) => later(c, (m) => m.runPlanCommand(c, arg)),
};

export const exportCommand: Command<'export'> = {
  name: 'export',
  aliases: [],
  args: 'FILE',
  help: 'write the server as one document to FILE (YAML, JSON for a .json name; 0600, no secrets), as fz-console export does',
  writes: readsOnly,
  run: (c, arg) => later(c, (m) => m.runExportCommand(c, arg)),
};
