// A report: the import preview, a running bulk job with its progress bar, and the summary it
// ends with. Lines are truncated to the width and scrolled by the report's keys.
import React from 'react';
import {Box} from 'ink';
import type {ReportModal} from '../../state/core/modals.js';
import {glyphs} from '../../state/core/glyphs.js';
import {progressBar} from '../../state/interactions/jobs.js';
import {displayKey, keyFor} from '../../state/input/keymap.js';
import {Text} from '../SafeText.js';
import {truncate, wrapLines} from '../text.js';
import {color} from '../theme.js';

/** Rows a report of `height` lines has for its own lines (title, bar, footer and spacing taken). */
export function reportCapacity(height: number): number {
  return Math.max(1, height - 4);
}

/**
 * `onShown` hears how many of the report's lines fit from its scroll position (long lines wrap),
 * so PgDn moves by what was on screen and skips nothing.
 */
export function Report({
  report,
  width,
  height,
  onShown,
}: {
  report: ReportModal;
  width: number;
  height: number;
  onShown?: (lines: number) => void;
}): React.JSX.Element {
  const capacity = reportCapacity(height) - (report.progress ? 1 : 0);
  // Long lines wrap (a failure's reason must be readable), so the lines that fit are counted in rows.
  const rows: Array<{key: string; text: string; line: (typeof report.lines)[number]}> = [];
  let last = report.scroll;
  for (; last < report.lines.length; last++) {
    const line = report.lines[last]!;
    const parts = line.text === '' ? [' '] : wrapLines(line.text, width);
    if (rows.length + parts.length > capacity && rows.length > 0) break;
    parts.slice(0, capacity - rows.length).forEach((text, k) => rows.push({key: `${last}.${k}`, text, line}));
  }
  const below = report.lines.length - last;
  onShown?.(Math.max(1, last - report.scroll));
  const p = report.progress;
  const ascii = glyphs().asciiQr;
  const key = (action: 'confirm' | 'cancel') => displayKey(keyFor('report', action) ?? '?');
  const footer =
    report.phase === 'preview'
      ? report.confirm
        ? `${key('confirm')} ${report.confirm.label} · ${key('cancel')} cancel (nothing is sent)`
        : `${key('cancel')} close (nothing to send)`
      : report.phase === 'running'
        ? `${key('cancel')} stops it (what is in flight finishes; what is done stays done)`
        : report.phase === 'stopping'
          ? 'Stopping: waiting for the requests in flight…'
          : `${key('cancel')} closes this report · ↑/↓ PgUp/PgDn scroll`;
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold wrap="truncate">
        {truncate(report.title, width)}
      </Text>
      {p ? (
        <Text wrap="truncate" color={color(p.failed + p.unknown > 0 ? 'warning' : 'accent')}>
          {truncate(
            `${progressBar(p.finished, p.total, Math.min(width, 72), ascii)}${p.failed > 0 ? `  ${p.failed} failed` : ''}${p.unknown > 0 ? `  ${p.unknown} without an answer` : ''}`,
            width,
          )}
        </Text>
      ) : null}
      {rows.map((r) => (
        <Text key={r.key} wrap="truncate" bold={r.line.bold} color={r.line.tone ? color(r.line.tone) : undefined}>
          {r.text}
        </Text>
      ))}
      <Box flexGrow={1} />
      <Text color={color('muted')} wrap="truncate">
        {truncate(`${below > 0 ? `↓ ${below} more · ` : ''}${footer}`, width)}
      </Text>
    </Box>
  );
}
