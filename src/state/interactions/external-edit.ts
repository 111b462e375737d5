// `E`: an item's editable fields as JSON in the admin's $VISUAL/$EDITOR, as `kubectl edit` does
// (docs/terminal-notes.md, "Handing the terminal to an editor"). The console writes the file, hands the terminal
// over (ConsoleIO.editText: src/config/external-editor.ts does the rest), and reads the file back:
// unchanged or emptied → nothing is sent; not JSON, or a value the form would refuse → the editor
// opens again with the errors at the top and the admin's text kept; otherwise the changes are shown
// and `y` sends them through the path the item's form uses, a 422 reopening the editor the same way.
// Lines that start with `#` are comments: no line of a JSON document can start with one.
import {ApiError} from '../../api/index.js';
import {errorText} from '../core/state.js';
import type {ConsoleContext} from '../core/context.js';
import {outcomeUnknown} from './jobs.js';

/** What `E` edits: made by the item's screen, from the same fields, checks and requests as its form. */
export interface EditorDocument<V> {
  /** The item in the admin's words: "device laptop-1 of ann@example.com". */
  what: string;
  /** The file's name (made safe by the editor's side). */
  stem: string;
  /** Comment lines under the first: what the server ignores, how values are written. */
  notes: readonly string[];
  /** The JSON the file holds. */
  content: unknown;
  /** The parsed file checked as the form checks its fields: the value, or what is wrong, one line each. */
  check(edited: unknown): {ok: true; value: V} | {ok: false; errors: string[]};
  /** `field: old → new` lines; none: nothing changed. */
  changes(value: V): string[];
  /**
   * Asks before sending (the changes, `y`), then sends. `reopen` is called with the server's
   * complaints when it refuses the values (a 422), to open the editor again on the admin's text.
   */
  propose(ctx: ConsoleContext, value: V, changes: readonly string[], reopen: (errors: string[]) => void): void;
}

/** Comment lines of at most `width` characters, broken between words (a longer word stands alone). */
export function commentLines(text: string, prefix: string, width = 78): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      if (line !== '' && prefix.length + line.length + 1 + word.length > width) {
        lines.push(prefix + line);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    lines.push(prefix + line);
  }
  return lines;
}

/** The text the file holds: a comment head (with the errors of the last try), then the JSON. */
export function editorText<V>(doc: EditorDocument<V>, body: string, errors: readonly string[]): string {
  const head = [
    ...commentLines(`Edit ${doc.what}.`, '# '),
    ...commentLines(
      'Save and quit to see the changes before anything is sent; quit without saving, or empty the file, to send nothing. Lines that start with # are ignored.',
      '# ',
    ),
    ...doc.notes.flatMap((n) => commentLines(n, '# ')),
  ];
  if (errors.length > 0) {
    head.push('#', '# Not applied, fix and save again (or empty the file to give up):');
    // One line per error and per line of it, however long: each is found and read whole.
    for (const e of errors) head.push(...e.split('\n').map((line) => `#   ${line}`));
  }
  return `${head.join('\n')}\n${body.endsWith('\n') ? body : `${body}\n`}`;
}

const isComment = (line: string) => line.trimStart().startsWith('#');

/** The file without its comment lines: the admin's text, kept when the editor opens again. */
export function withoutComments(text: string): string {
  return text
    .split('\n')
    .filter((line) => !isComment(line))
    .join('\n');
}

/** The file with its comment lines emptied: what is parsed, so a position is the file's own line. */
export function commentsBlanked(text: string): string {
  return text
    .split('\n')
    .map((line) => (isComment(line) ? '' : line))
    .join('\n');
}

/** `JSON.parse`'s complaint, with the line and column of the file where it says a position. */
export function parseFailure(text: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const at = /position (\d+)/.exec(message);
  if (!at) return `not JSON: ${message}`;
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `not JSON: ${message} (line ${line}, column ${column} of the file you saved)`;
}

/**
 * The members written twice in one object of `text` (valid JSON: JSON.parse has taken it), with
 * their lines. JSON.parse keeps the last and drops the others without a word, so a value the admin
 * typed would be lost unseen; the file is refused instead, one line per repeat.
 */
export function repeatedMembers(text: string): string[] {
  const found: string[] = [];
  let more = 0;
  // Per open object, its members so far; null for an array.
  const open: (Set<string> | null)[] = [];
  let line = 1;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    else if (c === 123 /* { */) {
      open.push(new Set());
      expectKey = true;
    } else if (c === 91 /* [ */) {
      open.push(null);
      expectKey = false;
    } else if (c === 125 /* } */ || c === 93 /* ] */) open.pop();
    else if (c === 44 /* , */) expectKey = (open.at(-1) ?? null) !== null;
    else if (c === 34 /* " */) {
      let end = i + 1;
      // Only valid JSON comes here; the bound keeps a broken text from running past its end.
      while (end < text.length && text.charCodeAt(end) !== 34) end += text.charCodeAt(end) === 92 /* \ */ ? 2 : 1;
      const members = open.at(-1);
      if (expectKey && members) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (members.has(key)) {
          if (found.length < REPEATS_SAID)
            found.push(
              `${JSON.stringify(key).slice(0, 80)} is written twice in one object (line ${line} of the file you saved); JSON would keep only the last: keep one`,
            );
          else more++;
        }
        members.add(key);
      }
      expectKey = false;
      i = end;
    }
  }
  if (more > 0) found.push(`and ${more} more written twice`);
  return found;
}

/** Repeated members named one by one; past these, how many more. */
const REPEATS_SAID = 20;

/** `E` on an item: the first round of the editor. */
export function editInEditor<V>(ctx: ConsoleContext, doc: EditorDocument<V>): void {
  if (!ctx.io.editText) {
    ctx.message({tone: 'info', text: 'Editing in $EDITOR needs a terminal of the console’s own; not available here'});
    return;
  }
  void round(ctx, doc, `${JSON.stringify(doc.content, null, 2)}\n`, []);
}

async function round<V>(ctx: ConsoleContext, doc: EditorDocument<V>, body: string, errors: readonly string[]): Promise<void> {
  const editText = ctx.io.editText!;
  const written = editorText(doc, body, errors);
  let run: Awaited<ReturnType<typeof editText>>;
  try {
    run = await editText({stem: doc.stem, text: written});
  } catch (err) {
    ctx.message({tone: 'error', text: `Nothing sent: the editor could not be run (${errorText(err)})`});
    return;
  }
  if (!run.ok) {
    ctx.message({tone: 'error', text: `Nothing sent: ${run.reason}`});
    return;
  }
  // Quitting without saving is how an editor says "never mind", after an error too (an edit that
  // was refused and then left as it was would otherwise reopen for ever).
  if (run.text === written) {
    ctx.message({tone: 'info', text: `${errors.length > 0 ? 'The file was left as it was' : 'Nothing changed in the editor'}: nothing sent for ${doc.what}`});
    return;
  }
  const edited = withoutComments(run.text);
  if (edited.trim() === '') {
    ctx.message({tone: 'info', text: `The file was emptied: nothing sent for ${doc.what}`});
    return;
  }
  let parsed: unknown;
  const blanked = commentsBlanked(run.text);
  try {
    parsed = JSON.parse(blanked);
  } catch (err) {
    await round(ctx, doc, edited, [parseFailure(blanked, err)]);
    return;
  }
  const repeated = repeatedMembers(blanked);
  if (repeated.length > 0) {
    await round(ctx, doc, edited, repeated);
    return;
  }
  const checked = doc.check(parsed);
  if (!checked.ok) {
    await round(ctx, doc, edited, checked.errors);
    return;
  }
  const changes = doc.changes(checked.value);
  if (changes.length === 0) {
    ctx.message({tone: 'info', text: `Nothing changed: nothing sent for ${doc.what}`});
    return;
  }
  doc.propose(ctx, checked.value, changes, (serverErrors) => void round(ctx, doc, edited, serverErrors));
}

/**
 * The usual question for a document: the changes, `y` sends them with `send` (which resolves to
 * what follows the dialog's closing, as a form's save does), `n` drops the edit. A 422 reopens the
 * editor with `serverErrors`' lines; an answer that never came is said as the forms say it.
 */
export function proposeChanges(
  ctx: ConsoleContext,
  question: {title: string; changes: readonly string[]; send: () => Promise<() => void>; serverErrors: (err: ApiError) => string[]},
  reopen: (errors: string[]) => void,
): void {
  ctx.openDialog({
    title: question.title,
    lines: [{text: 'What will change:', tone: 'muted'}, ...question.changes.map((text) => ({text: `  ${text}`}))],
    choices: [
      {
        action: 'confirm',
        label: 'apply',
        run: async () => {
          try {
            return await question.send();
          } catch (err) {
            if (err instanceof ApiError && err.kind === 'validation') {
              const lines = question.serverErrors(err);
              return () => reopen(lines.length > 0 ? lines : [errorText(err)]);
            }
            // A token rotated or expired meanwhile: as a form's save, the token source is read
            // again or a new token asked for, and then the same changes are asked about again.
            if (err instanceof ApiError && err.isAuthFailure) {
              const again = {what: 'the changes from the editor are shown again for y to send', run: () => proposeChanges(ctx, question, reopen)};
              return () => {
                if (!ctx.tokenRejected(err, again)) ctx.message({tone: 'error', text: errorText(err)});
              };
            }
            if (!outcomeUnknown(err)) throw err;
            return () => {
              ctx.message({
                tone: 'warning',
                outcome: 'unknown',
                text: `No answer to the save: ${errorText(err)}. It may have been applied: the data is read again; look before editing again`,
              });
              ctx.refresh();
            };
          }
        },
      },
      {action: 'cancel', label: 'cancel (the edit is dropped)'},
    ],
  });
}
