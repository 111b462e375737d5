// The only way text reaches Ink: Ink's <Text> with every string child made display-safe
// (src/common/display-safe.ts). Server text is untrusted; the console's own strings pass through
// unchanged. Escapes of unsafe characters are drawn underlined in the danger colour, so the admin
// can tell that the data holds something odd (underline survives NO_COLOR). Lint forbids importing
// Ink's Text anywhere else (eslint.config.js).
import React from 'react';
import {Text as InkText, type TextProps} from 'ink';
import {displaySafe, ESCAPE_CLOSE, ESCAPE_OPEN, isDisplaySafe, safeSegments} from '../common/display-safe.js';
import {ASCII_FOLD, ASCII_UNKNOWN, glyphs} from '../state/core/glyphs.js';
import {color} from './theme.js';

// Plain terminals (src/state/core/glyphs.ts): the console's typographic symbols become ASCII
// punctuation of the same width (ASCII_FOLD), and any other non-ASCII character ASCII_UNKNOWN, so
// nothing prints as mojibake and columns stay where they were measured.
function asciiFold(text: string): string {
  // eslint-disable-next-line no-control-regex -- printable ASCII passes as it is
  return /^[\x00-\x7f]*$/.test(text)
    ? text
    : [...text].map((ch) => (ch.charCodeAt(0) < 0x80 || ch === ESCAPE_OPEN || ch === ESCAPE_CLOSE ? ch : (ASCII_FOLD[ch] ?? ASCII_UNKNOWN))).join('');
}

function safeString(text: string): React.ReactNode {
  const safe = displaySafe(text);
  const segments = safeSegments(glyphs().asciiQr ? asciiFold(safe) : safe);
  if (segments.length === 1 && !segments[0]!.escape) return segments[0]!.text;
  return segments.map((seg, i) =>
    seg.escape ? (
      <InkText key={i} underline color={color('danger')}>
        {seg.text}
      </InkText>
    ) : (
      seg.text
    ),
  );
}

function safeChildren(children: React.ReactNode): React.ReactNode {
  if (typeof children === 'string') {
    return isDisplaySafe(children) && !children.includes('\ue000') && !glyphs().asciiQr ? children : safeString(children);
  }
  if (typeof children === 'number' || children === null || children === undefined || typeof children === 'boolean') return children;
  // Children.map keys what it returns, so nested arrays never trip React's key warning.
  return React.Children.map(children, (child) => (typeof child === 'string' ? safeString(child) : child));
}

export function Text({children, ...props}: TextProps): React.JSX.Element {
  return <InkText {...props}>{safeChildren(children)}</InkText>;
}
