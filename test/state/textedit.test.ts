import {describe, expect, it} from 'vitest';
import {editText} from '../../src/state/input/textedit.js';

describe('editText', () => {
  it('inserts at the cursor, moves, deletes', () => {
    let s = {value: 'ac', cursor: 1};
    s = editText(s, 'b', 'b')!;
    expect(s).toEqual({value: 'abc', cursor: 2});
    s = editText(s, 'backspace', '')!;
    expect(s).toEqual({value: 'ac', cursor: 1});
    s = editText(s, 'end', '')!;
    expect(s.cursor).toBe(2);
    s = editText(s, 'ctrl+a', 'a')!;
    expect(s).toEqual({value: 'ac', cursor: 0});
  });
  it('never types the letter of a Ctrl chord or a control byte', () => {
    expect(editText({value: 'x', cursor: 1}, 'ctrl+s', 's')).toBeNull();
    expect(editText({value: 'x', cursor: 1}, 'esc', '')).toBeNull();
    expect(editText({value: 'x', cursor: 1}, '\x1b', '\x1b')).toBeNull();
  });
  it('pastes several characters, flattening newlines; Ctrl-W deletes a word', () => {
    let s = editText({value: '', cursor: 0}, 'a b\nc', 'a b\nc')!;
    expect(s).toEqual({value: 'a b c', cursor: 5});
    s = editText(s, 'ctrl+w', 'w')!;
    expect(s).toEqual({value: 'a b ', cursor: 4});
    s = editText({value: 'héllo wörld', cursor: 11}, 'ctrl+u', 'u')!;
    expect(s).toEqual({value: '', cursor: 0});
  });
});
