// A report: the import preview, a running bulk job with its progress bar, and the summary it
// ends with. Lines are truncated to the width and scrolled by the report's keys.
import React from 'react';
import {Box} from 'ink';
import type {ReportModal} from '../../state/core/modals.js';
import {glyphs, moreBelow} from '../../state/core/glyphs.js';
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
 * A report line as screen rows: wrapped to `width`, its continuation rows indented like its first
 * (a wrapped list of names stays under its heading, not at column 0).
 */
export function reportRows(text: string, width: number): string[] {
  if (text === '') return [' '];
  const indent = /^ */.exec(text)![0];
  // A deep indent on a narrow panel would leave no room: wrap from column 0 then.
  if (indent.length === 0 || indent.length * 3 > width) return wrapLines(text, width);
  return wrapLines(text.slice(indent.length), width - indent.length).map((part) => indent + part);
}

/** The first line from which the report's last lines fill the panel: End goes there, and scrolling stops there. */
export function lastPageStart(lines: readonly {text: string}[], width: number, capacity: number): number {
  let used = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    used += reportRows(lines[i]!.text, width).length;
    if (used > capacity) return Math.min(lines.length - 1, i + 1);
  }
  return 0;
}

/**
 * `onShown` hears how many of the report's lines fit from its scroll position (long lines wrap),
 * so PgDn moves by what was on screen and skips nothing, and where its last page starts.
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
  onShown?: (lines: number, lastPage: number) => void;
}): React.JSX.Element {
  const capacity = reportCapacity(height) - (report.progress ? 1 : 0);
  // Long lines wrap (a failure's reason must be readable), so the lines that fit are counted in
  // rows. A line that does not fit whole shows what fits (the panel is filled), and is counted as
  // not shown: PgDn starts the next page with it.
  const rows: Array<{key: string; text: string; line: (typeof report.lines)[number]}> = [];
  let last = report.scroll;
  for (; last < report.lines.length && rows.length < capacity; last++) {
    const line = report.lines[last]!;
    const parts = reportRows(line.text, width);
    const room = capacity - rows.length;
    parts.slice(0, room).forEach((text, k) => rows.push({key: `${last}.${k}`, text, line}));
    if (parts.length > room) break;
  }
  const below = report.lines.length - last;
  onShown?.(Math.max(1, last - report.scroll), lastPageStart(report.lines, width, capacity));
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
          : `${key('cancel')} closes this report · ${displayKey('up')}/${displayKey('down')} PgUp/PgDn scroll`;
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
        {truncate(`${below > 0 ? `${moreBelow(below, '')} · ` : ''}${footer}`, width)}
      </Text>
    </Box>
  );
}
