import React from 'react';
import {glyphs} from '../state/core/glyphs.js';
import {Text} from './SafeText.js';
import {color} from './theme.js';

/** A one-line text value with a block cursor; the editing itself is src/state/input/textedit.ts. */
export function TextField({
  value,
  cursor,
  focused,
  mask,
  placeholder,
  width,
}: {
  value: string;
  cursor: number;
  focused: boolean;
  mask?: boolean;
  placeholder?: string;
  width: number;
}): React.JSX.Element {
  let chars = [...(mask ? glyphs().mask.repeat([...value].length) : value)];
  // A placeholder is a hint, never a value: dim, italic and in parentheses, so it reads as one
  // without colour too (NO_COLOR), and examples start with "e.g.".
  const hint = placeholder ? `(${placeholder})` : '';
  if (chars.length === 0 && !focused) {
    return (
      <Text color={color('muted')} dimColor italic wrap="truncate">
        {hint}
      </Text>
    );
  }
  if (chars.length === 0 && focused) {
    return (
      <Text wrap="truncate">
        <Text inverse> </Text>
        <Text color={color('muted')} dimColor italic>
          {hint ? ` ${hint}` : ''}
        </Text>
      </Text>
    );
  }
  // Keep the cursor visible in a long value by scrolling the window. Only the window is handed
  // on (a character is at least one cell): Ink measures and cuts what it is given, at a cost that
  // grows faster than its length.
  let offset = 0;
  if (focused && cursor >= width - 1) offset = cursor - width + 2;
  chars = chars.slice(offset, offset + Math.max(1, width) + 1);
  const at = cursor - offset;
  if (!focused) return <Text wrap="truncate">{chars.join('')}</Text>;
  return (
    <Text wrap="truncate">
      {chars.slice(0, at).join('')}
      <Text inverse>{chars[at] ?? ' '}</Text>
      {chars.slice(at + 1).join('')}
    </Text>
  );
}
