// The one dialog: a title, lines, and explicit choices with their keys (from the keymap).
import React from 'react';
import {Box} from 'ink';
import type {DialogModal} from '../../state/core/modals.js';
import {displayKey, keyFor} from '../../state/input/keymap.js';
import {glyphs} from '../../state/core/glyphs.js';
import {Text} from '../SafeText.js';
import {color} from '../theme.js';

export function Dialog({dialog, width}: {dialog: DialogModal; width: number}): React.JSX.Element {
  const choices = dialog.choices.map((c) => {
    const keys = c.action === 'cancel' ? ['n', 'esc'].map(displayKey).join('/') : displayKey(keyFor('dialog', c.action) ?? '?');
    return `${keys} ${c.label}${c.action === 'cancel' ? ' (default)' : ''}`;
  });
  // The usual convention for a yes/no question whose default is no.
  const yesNo = dialog.choices.length === 2 && dialog.choices.some((c) => c.action === 'confirm') && dialog.choices.some((c) => c.action === 'cancel');
  return (
    <Box flexDirection="column" borderStyle={glyphs().border} borderColor={color('warning')} paddingX={1} width={width}>
      <Text bold wrap="wrap">{`${dialog.title}${yesNo ? ' [y/N]' : ''}`}</Text>
      {dialog.lines.map((l, i) => (
        <Text key={i} wrap="wrap" bold={l.bold} color={l.tone ? color(l.tone) : undefined}>
          {l.text === '' ? ' ' : l.text}
        </Text>
      ))}
      <Text color={color('muted')} wrap="wrap">
        {dialog.busy ? dialog.busy : choices.join(' · ')}
      </Text>
    </Box>
  );
}
