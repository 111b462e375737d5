// A one-line prompt (the config file path) under the view it belongs to.
import React from 'react';
import {Box} from 'ink';
import type {PromptModal} from '../../state/core/modals.js';
import {Text} from '../SafeText.js';
import {TextField} from '../TextField.js';
import {color} from '../theme.js';

export function Prompt({prompt, width}: {prompt: PromptModal; width: number}): React.JSX.Element {
  return (
    <Box flexDirection="column" width={width}>
      {(prompt.lines ?? []).map((l, i) => (
        <Text key={i} wrap="wrap" bold={l.bold} color={l.tone ? color(l.tone) : undefined}>
          {l.text}
        </Text>
      ))}
      <Box>
        <Text bold>{`${prompt.label}: `}</Text>
        <TextField value={prompt.value} cursor={prompt.cursor} focused mask={prompt.mask === true} width={Math.max(10, width - prompt.label.length - 3)} />
      </Box>
      <Text color={color('muted')} wrap="truncate">
        {prompt.help}
      </Text>
    </Box>
  );
}
