import {readFileSync, writeFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {bindingFor, BINDINGS, displayKey, hintsFor, keyFor, type Binding} from '../../src/state/input/keymap.js';
import {COMMANDS_TITLE, helpSections, keymapMarkdown, LINE_EDITOR_TITLE, MOUSE_TITLE} from '../../src/state/input/help-sections.js';
import {EDIT_KEYS} from '../../src/state/input/textedit.js';
import {COMMAND_LIST} from '../../src/state/commands/registry.js';

const README = new URL('../../README.md', import.meta.url);
const START = /<!-- keymap:start[^>]*-->\n/;
const END = '<!-- keymap:end -->';

describe('keymap', () => {
  it('the README key table is generated from the keymap (UPDATE_README=1 rewrites it)', () => {
    const text = readFileSync(README, 'utf8');
    const start = START.exec(text);
    expect(start).not.toBeNull();
    const from = start!.index + start![0].length;
    const to = text.indexOf(END);
    const expected = `${keymapMarkdown()}\n`;
    if (process.env.UPDATE_README === '1') {
      writeFileSync(README, text.slice(0, from) + expected + text.slice(to));
      return;
    }
    expect(text.slice(from, to)).toBe(expected);
  });

  it('no key is bound twice within a scope', () => {
    const seen = new Set<string>();
    for (const b of BINDINGS) {
      for (const k of b.keys) {
        const id = `${b.scope}:${k}`;
        expect(seen.has(id), id).toBe(false);
        seen.add(id);
      }
    }
  });

  it('scopes are searched in order', () => {
    expect(bindingFor(['list', 'global'], 'j')?.action).toBe('down');
    expect(bindingFor(['filter'], 'j')).toBeUndefined();
    expect(bindingFor(['dialog'], 'esc')?.action).toBe('cancel');
    expect(bindingFor(['list', 'global'], '?')).toMatchObject({scope: 'global', action: 'help'});
  });

  it('names keys as the help shows them', () => {
    expect(displayKey('ctrl+w')).toBe('Ctrl-W');
    expect(displayKey('alt+b')).toBe('Alt-B');
    expect(displayKey('alt+left')).toBe('Alt-←');
    expect(displayKey('ctrl+_')).toBe('Ctrl-_');
    expect(displayKey('alt+backspace')).toBe('Alt-Backspace');
    expect(displayKey('shift+tab')).toBe('Shift-Tab');
    expect(displayKey(' ')).toBe('Space');
    expect(displayKey('delete')).toBe('Del');
    expect(displayKey('x')).toBe('x');
    // Only a leading chord is a chord.
    expect(displayKey('x+ctrl+a')).toBe('x+ctrl+a');
    expect(displayKey('ctrl+a\nb')).toBe('ctrl+a\nb');
  });

  it('finds the first key of an action in a scope, and nothing for one it lacks', () => {
    expect(keyFor('dialog', 'confirm')).toBe('y');
    expect(keyFor('dialog', 'cancel')).toBe('n');
    expect(keyFor('list', 'delete')).toBe('d');
    expect(keyFor('detail', 'delete')).toBe('d');
    expect(keyFor('form', 'save')).toBe('ctrl+s');
    expect(keyFor('global', 'delete')).toBeUndefined();
    expect(keyFor('report', 'save')).toBeUndefined();
  });

  it('the first binding of a key wins within a scope', () => {
    expect(bindingFor(['help'], 'esc')?.action).toBe('back');
    expect(bindingFor(['list'], ' ')?.action).toBe('mark');
    expect(bindingFor([], 'j')).toBeUndefined();
  });

  it('marks every key that sends a write as a write (read-only mode refuses them)', () => {
    // Written out by hand, not read from the table under test: these are the keys that change
    // something on the server.
    const writes = [
      'list n',
      'list e',
      'list d',
      'list R',
      'list I',
      'list K',
      'detail e',
      'detail R',
      'detail n',
      'detail d',
      'detail K',
      'configuration enter',
      'configuration n',
      'configuration d',
      'list E',
      'detail E',
      'configuration E',
      'form ctrl+s',
      'global u',
    ];
    const marked = BINDINGS.filter((b) => b.writes).flatMap((b) => b.keys.map((k) => `${b.scope} ${k}`));
    expect(marked.sort()).toEqual([...writes, 'configuration e'].sort());
  });

  it('hints list each available action once, by its first key, innermost scope first', () => {
    const all = () => true;
    expect(hintsFor(['dialog'], all)).toBe('');
    expect(hintsFor(['prompt'], all)).toBe('Enter accept  Esc cancel');
    expect(hintsFor(['detail', 'global'], all)).toBe('e edit  R role  n device  d delete  v reveal  c copy  Esc back  ? help  : command  p pause');
    // Read-only mode: the writes go.
    expect(hintsFor(['detail', 'global'], (b: Binding) => !b.writes)).toBe('v reveal  c copy  Esc back  ? help  : command  p pause');
    // An action shown by an inner scope is not repeated by an outer one.
    expect(hintsFor(['help', 'global'], all)).toBe('/ search  Esc close  ? help  : command  p pause');
    expect(hintsFor(['command'], all)).toBe('Enter run  Tab complete  ↑ history  Esc close');
  });

  it('the help lists every scope, and the line editor after the forms', () => {
    const sections = helpSections();
    const titles = sections.map((s) => s.title);
    expect(titles.indexOf(LINE_EDITOR_TITLE)).toBe(titles.indexOf('Forms') + 1);
    const editor = sections.find((s) => s.title === LINE_EDITOR_TITLE)!;
    expect(editor.rows).toHaveLength(EDIT_KEYS.length);
    expect(editor.rows[0]).toEqual({keys: '← Ctrl-B', help: 'caret one character left'});
    expect(sections.find((s) => s.title === 'Dialogs')!.rows[0]).toEqual({keys: 'y', help: expect.stringMatching(/^confirm/)});
    // The commands are listed after the command bar's keys, one row each.
    expect(titles.indexOf(COMMANDS_TITLE)).toBe(titles.indexOf('Command bar (:)') + 1);
    expect(sections.find((s) => s.title === COMMANDS_TITLE)!.rows.map((r) => r.keys)).toEqual(
      COMMAND_LIST.map((c) => `:${c.name}${c.args ? ` ${c.args}` : ''}`),
    );
    // The mouse after the keys of everywhere: what a click, a double-click and the wheel do, and how text is still selected.
    expect(titles.indexOf(MOUSE_TITLE)).toBe(titles.indexOf('Everywhere') + 1);
    const mouse = sections.find((s) => s.title === MOUSE_TITLE)!;
    expect(mouse.rows.map((r) => r.keys)).toEqual(['click', 'double-click', 'wheel', 'Shift-drag']);
    expect(mouse.rows[3]!.help).toMatch(/^select text.*--no-mouse.*"mouse": false/);
    expect(sections.reduce((n, s) => n + s.rows.length, 0)).toBe(BINDINGS.length + EDIT_KEYS.length + COMMAND_LIST.length + 4);
  });

  it('the README table escapes a | key and quotes each key', () => {
    const lines = keymapMarkdown().split('\n');
    expect(lines[0]).toBe('| where | keys | action |');
    expect(lines).toContain('| Everywhere | `?` `F1` | this help, on the keys of where you are (F1 also in forms and dialogs, where ? may be text) |');
    expect(lines).toContain('| Lists | `>` `o` | sort by the next column |');
  });
});
