// The new-device result: the client config (with the private key, shown once), or its QR code.
import React from 'react';
import {Box} from 'ink';
import type {PromptModal, ResultModal} from '../../state/core/modals.js';
import {renderQr} from '../../wireguard/index.js';
import {glyphs} from '../../state/core/glyphs.js';
import {Text} from '../SafeText.js';
import {truncate, wrapLines} from '../text.js';
import {color} from '../theme.js';
import {Prompt} from './Prompt.js';

/** The QR code gets the whole body (one line of keys under it); a quiet zone of 1 when 2 does not fit. */
function QrView({config, width, height}: {config: string; width: number; height: number}): React.JSX.Element {
  const rows = Math.max(1, height - 1);
  const ascii = glyphs().asciiQr;
  let qr = renderQr(config, {maxRows: rows, maxCols: width, ascii});
  if (!qr.ok) qr = renderQr(config, {maxRows: rows, maxCols: width, quietZone: 1, ascii});
  const keys = (
    <Text color={color('muted')} wrap="truncate">
      {truncate('Q config text · w write file · c copy config · Esc done', width)}
    </Text>
  );
  if (!qr.ok) {
    // Terminal size needed: the code, its line of keys, and the console's header, tabs, info and status lines.
    // In words: a plain terminal has no × (src/ui/too-small.ts).
    const need = `${qr.needCols} columns and ${qr.needRows + 1 + 5} rows`;
    return (
      <Box flexDirection="column" width={width} height={height}>
        <Text
          color={color('warning')}
          wrap="wrap"
        >{`The QR code needs a terminal of at least ${need} (this one has ${width} and ${height + 5}). Enlarge the window, or write the file (w) / copy the config (c) instead.`}</Text>
        {keys}
      </Box>
    );
  }
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Box flexDirection="column" height={rows}>
        {qr.lines.map((line, i) => (
          <Text key={i} color="white" backgroundColor="black">
            {line}
          </Text>
        ))}
      </Box>
      {keys}
    </Box>
  );
}

export function DeviceResult({
  result,
  prompt,
  width,
  height,
}: {
  result: ResultModal;
  prompt: PromptModal | null;
  width: number;
  height: number;
}): React.JSX.Element {
  if (result.view === 'qr' && result.config !== null && !prompt) return <QrView config={result.config} width={width} height={height} />;
  const header = [
    <Text key="title" bold color={color(result.refused ? 'danger' : 'ok')} wrap="truncate">
      {truncate(`${result.newKey ? 'New key' : 'Device added'}: ${result.deviceName} (${result.ownerEmail})`, width)}
    </Text>,
    ...(result.config !== null
      ? wrapLines('NOTE: this configuration WILL NOT be viewable again: it holds the private key, which exists only in this session.', width).map((line, i) => (
          <Text key={`note${i}`} color={color('warning')}>
            {line}
          </Text>
        ))
      : []),
  ];
  const footer: React.JSX.Element[] = result.warnings.map((w) => (
    <Text key={w} color={color('warning')} wrap="truncate">
      {truncate(`! ${w}`, width)}
    </Text>
  ));
  if (prompt) footer.push(<Prompt key="prompt" prompt={prompt} width={width} />);
  else {
    footer.push(
      <Text key="keys" color={color('muted')} wrap="truncate">
        {truncate(
          result.config === null
            ? 'Esc done'
            : `w write file · c copy config (OSC 52) · Q ${result.view === 'qr' ? 'config text' : 'QR code'} · Esc done${result.saved ? ` · saved to ${result.saved}` : ''}`,
          width,
        )}
      </Text>,
    );
  }
  const bodyHeight = Math.max(1, height - header.length - (prompt ? 2 : footer.length));
  let body: React.JSX.Element;
  if (result.config === null) {
    const lines = [
      ...wrapLines(result.refused ?? 'No client config.', width),
      '',
      ...wrapLines(
        result.newKey
          ? 'Nothing was written. The device has its new key on the server; u brings its old key back.'
          : 'Nothing was written. The device exists on the server; delete it (Devices, d) or fix the server values and create it again.',
        width,
      ),
    ];
    body = (
      <Box flexDirection="column">
        {lines.slice(0, bodyHeight).map((l, i) => (
          <Text key={i} color={color('danger')}>
            {l === '' ? ' ' : l}
          </Text>
        ))}
      </Box>
    );
  } else {
    const lines = result.config.split('\n');
    body = (
      <Box flexDirection="column">
        {lines.slice(0, bodyHeight).map((line, i) => (
          <Text key={i} wrap="truncate">
            {line === '' ? ' ' : truncate(line, width)}
          </Text>
        ))}
      </Box>
    );
  }
  return (
    <Box flexDirection="column" width={width} height={height}>
      {header}
      <Box height={bodyHeight} flexDirection="column">
        {body}
      </Box>
      {footer}
    </Box>
  );
}
