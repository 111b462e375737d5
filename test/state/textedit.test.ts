import {describe, expect, it} from 'vitest';
import fc from 'fast-check';
import {EDIT_KEYS, editText, isEditKey, UNDO_DEPTH, type LineEdit} from '../../src/state/input/textedit.js';

/** Applies keys in order (a key is its name; printable names are typed as themselves). */
function keys(start: LineEdit, ...names: string[]): LineEdit {
  let s = start;
  for (const name of names) {
    const next = editText(s, name, name.length === 1 || name === 'paste' ? name : '');
    if (!next) throw new Error(`${name} is not an edit`);
    s = next;
  }
  return s;
}
const at = (value: string, cursor = [...value].length): LineEdit => ({value, cursor});
const line = (s: LineEdit) => ({value: s.value, cursor: s.cursor});

describe('the line editor', () => {
  it('inserts at the caret, moves, deletes', () => {
    let s = editText(at('ac', 1), 'b', 'b')!;
    expect(line(s)).toEqual({value: 'abc', cursor: 2});
    s = editText(s, 'backspace', '')!;
    expect(line(s)).toEqual({value: 'ac', cursor: 1});
    s = editText(s, 'end', '')!;
    expect(s.cursor).toBe(2);
    s = editText(s, 'ctrl+a', 'a')!;
    expect(line(s)).toEqual({value: 'ac', cursor: 0});
  });

  it('abcdef ← ← X gives abcdXef (the caret moves; the first-hour finding)', () => {
    expect(line(keys(at('abcdef'), 'left', 'left', 'X'))).toEqual({value: 'abcdXef', cursor: 5});
    expect(line(keys(at('abcdef'), 'ctrl+b', 'ctrl+b', 'ctrl+f', 'X'))).toEqual({value: 'abcdeXf', cursor: 6});
  });

  it('moves by words like readline: Alt-B/F, Ctrl-←/→ stop at letters and digits', () => {
    const s = at('wg0 peer: zAP7+x=');
    expect(keys(s, 'alt+b').cursor).toBe(15); // before "x"
    expect(keys(s, 'alt+b', 'alt+b').cursor).toBe(10); // before "zAP7"
    expect(keys(s, 'ctrl+left', 'ctrl+left', 'ctrl+left').cursor).toBe(4); // before "peer"
    expect(keys(s, 'home', 'alt+f').cursor).toBe(3); // after "wg0"
    expect(keys(s, 'home', 'ctrl+right', 'alt+right').cursor).toBe(8); // after "peer"
    expect(keys(at(''), 'alt+b', 'alt+f').cursor).toBe(0);
  });

  it('deletes forward, by word and to either end', () => {
    expect(line(keys(at('abc', 1), 'delete'))).toEqual({value: 'ac', cursor: 1});
    expect(line(keys(at('abc', 1), 'ctrl+d'))).toEqual({value: 'ac', cursor: 1});
    expect(line(keys(at('abc'), 'delete'))).toEqual({value: 'abc', cursor: 3});
    expect(line(keys(at('one two three', 4), 'alt+d'))).toEqual({value: 'one  three', cursor: 4});
    expect(line(keys(at('one two-three'), 'alt+backspace'))).toEqual({value: 'one two-', cursor: 8});
    expect(line(keys(at('one two-three'), 'ctrl+w'))).toEqual({value: 'one ', cursor: 4});
    expect(line(keys(at('one two', 3), 'ctrl+k'))).toEqual({value: 'one', cursor: 3});
    expect(line(keys(at('one two', 3), 'ctrl+u'))).toEqual({value: ' two', cursor: 0});
    expect(line(keys(at('héllo wörld'), 'ctrl+u'))).toEqual({value: '', cursor: 0});
  });

  it('counts code points: an emoji is one step of the caret', () => {
    expect(line(keys(at('a🔑b'), 'left', 'backspace'))).toEqual({value: 'ab', cursor: 1});
  });

  it('never types the letter of a Ctrl or Alt chord, nor a control byte', () => {
    expect(editText(at('x'), 'ctrl+s', 's')).toBeNull();
    expect(editText(at('x'), 'alt+x', 'x')).toBeNull();
    expect(editText(at('x'), 'esc', '')).toBeNull();
    expect(editText(at('x'), '\x1b', '\x1b')).toBeNull();
    expect(editText(at('x'), 'paste', 'a\x1b[31mb')).toBeNull();
  });

  it('pastes several characters, flattening newlines, or keeps lines in a multi-line field', () => {
    expect(line(editText(at(''), 'paste', 'a b\nc')!)).toEqual({value: 'a b c', cursor: 5});
    expect(editText(at(''), 'paste', 'a\r\nb\tc', {multiline: true})!.value).toBe('a\nb c');
  });

  it('undo (Ctrl-_) takes back a typed run as one step, a paste and each deletion as their own', () => {
    let s = keys(at(''), 'h', 'i');
    s = editText(s, 'paste', ' there')!;
    s = keys(s, 'left', 'backspace');
    expect(s.value).toBe('hi thee');
    s = keys(s, 'ctrl+_');
    expect(line(s)).toEqual({value: 'hi there', cursor: 7});
    s = keys(s, 'ctrl+_');
    expect(line(s)).toEqual({value: 'hi', cursor: 2});
    s = keys(s, 'ctrl+_');
    expect(line(s)).toEqual({value: '', cursor: 0});
    // Nothing left to undo: the line stays as it is.
    expect(line(keys(s, 'ctrl+_'))).toEqual({value: '', cursor: 0});
  });

  it('a caret move ends a typed run; a space starts a new step', () => {
    const s = keys(at(''), 'a', 'b', 'left', 'c', ' ', 'd');
    expect(s.value).toBe('ac db');
    expect(keys(s, 'ctrl+_').value).toBe('ac b');
    expect(keys(s, 'ctrl+_', 'ctrl+_').value).toBe('acb');
    expect(keys(s, 'ctrl+_', 'ctrl+_', 'ctrl+_').value).toBe('ab');
    expect(keys(s, 'ctrl+_', 'ctrl+_', 'ctrl+_', 'ctrl+_').value).toBe('');
  });

  it(`remembers at most ${UNDO_DEPTH} steps`, () => {
    let s = at('');
    for (let i = 0; i < UNDO_DEPTH + 20; i++) s = editText(s, 'paste', 'x')!;
    expect(s.undo).toHaveLength(UNDO_DEPTH);
    for (let i = 0; i < UNDO_DEPTH + 5; i++) s = keys(s, 'ctrl+_');
    expect(s.value).toBe('x'.repeat(20));
  });

  it('undoing every edit, whatever they were, walks back through each earlier value', () => {
    // eslint-disable-next-line no-control-regex -- control characters are what a field refuses
    const controls = /[\x00-\x1f\x7f]/g;
    const key = fc.oneof(
      fc.constantFrom(...EDIT_KEYS.flatMap((k) => k.keys).filter((k) => k !== 'ctrl+_')),
      fc.string({minLength: 1, maxLength: 3}).filter((t) => t.replace(controls, '') === t),
    );
    fc.assert(
      fc.property(fc.string({maxLength: 12}), fc.array(key, {maxLength: 30}), (start, pressed) => {
        let s: LineEdit = at(start.replace(controls, ''));
        const values = [s.value];
        for (const k of pressed) {
          const next = editText(s, isEditKey(k) ? k : 'paste', isEditKey(k) ? '' : k)!;
          expect(next).not.toBeNull();
          if (next.value !== s.value) values.push(next.value);
          s = next;
          expect(s.cursor).toBeGreaterThanOrEqual(0);
          expect(s.cursor).toBeLessThanOrEqual([...s.value].length);
        }
        // Pastes are one step each, so every distinct value is one undo back (bar adjacent repeats).
        for (let i = values.length - 2; i >= 0; i--) {
          s = keys(s, 'ctrl+_');
          expect(s.value).toBe(values[i]);
        }
      }),
    );
  });

  it('every editing key is listed for the help with what it does', () => {
    for (const k of EDIT_KEYS) {
      expect(k.help.length).toBeGreaterThan(5);
      for (const name of k.keys) expect(isEditKey(name)).toBe(true);
    }
    expect(isEditKey('ctrl+s')).toBe(false);
    expect(isEditKey('enter')).toBe(false);
  });
});
