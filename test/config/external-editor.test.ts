// The process side of `E` (src/config/external-editor.ts): which editor runs and how (words, no
// shell), where its file is (a new 0700 folder no other user can change, the file 0600, both gone
// after), and what comes back (the file's text; why there is none: the editor failed, or the file
// became a link, a folder or too large). Real editors here are shell scripts run as processes.
import {chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {editFileName, editorCommand, editTextInEditor, EDITED_FILE_MAX_BYTES} from '../../src/config/external-editor.js';
import {TempDirs} from '../helpers/tmp.js';

const tmp = new TempDirs();
const readFile = (path: string) => readFileSync(path, 'utf8');
let base: string;
let home: string;
let temporary: string;
beforeEach(() => {
  base = tmp.make('fzc-editor-');
  home = join(base, 'home');
  temporary = join(base, 'tmp');
  mkdirSync(home, {mode: 0o700});
  mkdirSync(temporary, {mode: 0o700});
});
afterEach(() => tmp.remove());

/** A shell script standing for the editor; `$1` is the file (after any words of the command). */
function script(name: string, body: string): string {
  const path = join(base, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`, {mode: 0o700});
  return path;
}

describe('editorCommand', () => {
  it('is $VISUAL, else $EDITOR, else vi, split into words on blanks', () => {
    expect(editorCommand({VISUAL: 'code --wait', EDITOR: 'nano'})).toEqual(['code', '--wait']);
    expect(editorCommand({EDITOR: '  nano   -w '})).toEqual(['nano', '-w']);
    expect(editorCommand({VISUAL: '   ', EDITOR: 'nano'})).toEqual(['nano']);
    expect(editorCommand({})).toEqual(['vi']);
    expect(editorCommand({EDITOR: `x${' a'.repeat(3000)}`})).toEqual(['vi']);
  });
});

describe('editFileName', () => {
  it('keeps letters, digits, dot, dash and underscore, and never a path or a leading dot', () => {
    expect(editFileName('device-laptop_1.home')).toBe('device-laptop_1.home.json');
    expect(editFileName('../../etc/passwd')).toBe('etc-passwd.json');
    expect(editFileName('$(touch x) `id`')).toBe('touch-x-id-.json');
    expect(editFileName('....')).toBe('item.json');
    expect(editFileName('a'.repeat(500))).toBe(`${'a'.repeat(60)}.json`);
  });
});

describe('editTextInEditor', () => {
  it('runs the editor on a 0600 file in a new 0700 folder, returns what it saved, and removes the folder', () => {
    const seen = join(base, 'seen');
    const editor = script('ed', `stat -c '%a %n' "$(dirname "$1")" "$1" > ${seen}; cat "$1" >> ${seen}; printf 'edited' > "$1"`);
    const run = editTextInEditor({EDITOR: editor, HOME: home}, {stem: 'device-laptop', text: 'original'}, {temporary});
    expect(run).toEqual({ok: true, text: 'edited'});
    const [folderLine, fileLine, content] = readFile(seen).split('\n');
    expect(folderLine).toMatch(new RegExp(`^700 ${temporary}/fz-console-edit-\\w{6}$`));
    expect(fileLine).toMatch(/^600 .*\/device-laptop\.json$/);
    expect(content).toBe('original');
    expect(readdirSync(temporary)).toEqual([]);
  });

  it('never evaluates the command or the name in a shell: $(…) is a word passed as it is', () => {
    const args = join(base, 'args');
    const editor = script('ed', `printf '%s\\n' "$@" > ${args}`);
    const planted = join(base, 'planted');
    const run = editTextInEditor({EDITOR: `${editor} $(touch${'\t'}${planted})`, HOME: home}, {stem: '$(touch planted)', text: 'x'}, {temporary});
    expect(run).toEqual({ok: true, text: 'x'});
    expect(existsSync(planted)).toBe(false);
    const words = readFile(args).trim().split('\n');
    expect(words.slice(0, 2)).toEqual(['$(touch', `${planted})`]);
    expect(words[2]).toMatch(/\/touch-planted-\.json$/);
  });

  it('says why there is no text: an editor that fails, is missing or is killed; a file made a link, removed or too large', () => {
    const env = (editor: string) => ({EDITOR: editor, HOME: home});
    const target = join(base, 'target');
    writeFileSync(target, 'not yours');
    const cases: Array<[string, string]> = [
      ['exit 3', 'exited with status 3'],
      ['kill -TERM $$', 'was ended by SIGTERM'],
      [`rm "$1"; ln -s ${target} "$1"`, 'the edited file was replaced by a link'],
      ['rm "$1"', 'the edited file was removed'],
      ['rm "$1"; mkdir "$1"', 'not a regular file any more'],
      [`head -c ${EDITED_FILE_MAX_BYTES + 1} /dev/zero > "$1"`, `holds ${EDITED_FILE_MAX_BYTES + 1} bytes, more than the ${EDITED_FILE_MAX_BYTES} an edit may`],
    ];
    for (const [body, reason] of cases) {
      const run = editTextInEditor(env(script('ed', body)), {stem: 'x', text: 'x'}, {temporary});
      expect(run.ok, body).toBe(false);
      expect(!run.ok && run.reason, body).toContain(reason);
      expect(readdirSync(temporary), body).toEqual([]);
    }
    const missing = editTextInEditor(env(join(base, 'no-such-editor')), {stem: 'x', text: 'x'}, {temporary});
    expect(missing).toEqual({ok: false, reason: expect.stringContaining('could not be started (ENOENT); set VISUAL or EDITOR') as unknown});
  });

  it('passes over a temporary folder others can write that is not sticky, for the cache folder', () => {
    chmodSync(temporary, 0o777);
    const where = join(base, 'where');
    const editor = script('ed', `dirname "$1" > ${where}`);
    expect(editTextInEditor({EDITOR: editor, HOME: home}, {stem: 'x', text: 'x'}, {temporary}).ok).toBe(true);
    expect(readFile(where).trim()).toMatch(new RegExp(`^${home}/\\.cache/fz-console/edit-\\w{6}$`));
    chmodSync(temporary, 0o700);
  });
});
