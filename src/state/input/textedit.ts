// A one-line editor as a pure function of (value, cursor, key). The console edits text itself
// instead of using ink-text-input, which inserts the letter of Ctrl-key chords (Ctrl-S would
// type "s" into the field before the form could save).

export interface TextEdit {
  value: string;
  cursor: number;
}

/** Text a key press may insert: no control bytes (tab and newline are a paste's, flattened later). */
export function isPrintable(input: string): boolean {
  if (input.length === 0) return false;
  for (let i = 0; i < input.length; i++) {
    const code = input.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return false;
  }
  return true;
}

/** Applies one key (normalised name + raw input) to the text; returns null if the key is not an edit. */
export function editText(state: TextEdit, name: string, input: string, opts: {multiline?: boolean} = {}): TextEdit | null {
  const chars = [...state.value];
  const cursor = Math.max(0, Math.min(state.cursor, chars.length));
  switch (name) {
    case 'left':
      return {value: state.value, cursor: Math.max(0, cursor - 1)};
    case 'right':
      return {value: state.value, cursor: Math.min(chars.length, cursor + 1)};
    case 'home':
    case 'ctrl+a':
      return {value: state.value, cursor: 0};
    case 'end':
    case 'ctrl+e':
      return {value: state.value, cursor: chars.length};
    case 'backspace':
      if (cursor === 0) return state;
      chars.splice(cursor - 1, 1);
      return {value: chars.join(''), cursor: cursor - 1};
    case 'ctrl+u':
      return {value: chars.slice(cursor).join(''), cursor: 0};
    case 'ctrl+k':
      return {value: chars.slice(0, cursor).join(''), cursor};
    case 'ctrl+w': {
      let start = cursor;
      while (start > 0 && chars[start - 1] === ' ') start--;
      while (start > 0 && chars[start - 1] !== ' ') start--;
      chars.splice(start, cursor - start);
      return {value: chars.join(''), cursor: start};
    }
    default:
      break;
  }
  // Printable text, possibly several characters at once (paste); control bytes never enter a field.
  if (name.startsWith('ctrl+') || !isPrintable(input)) return null;
  // A paste into a one-line field becomes one line; a multi-line field (SAML metadata) keeps its lines.
  const insert = [...(opts.multiline ? input.replace(/\r\n?/g, '\n').replace(/\t/g, ' ') : input.replace(/[\r\n\t]+/g, ' '))];
  chars.splice(cursor, 0, ...insert);
  return {value: chars.join(''), cursor: cursor + insert.length};
}
