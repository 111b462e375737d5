// The line under the header: the screens' tabs with their counts, and the traffic totals of all
// devices with their sparklines in the room left; and the header's badges.
import React from 'react';
import {Box} from 'ink';
import {SCREENS, type ConsoleState} from '../state/core/state.js';
import type {ConsoleSettings} from '../state/core/context.js';
import type {DrawnTab} from '../state/core/drawn.js';
import {formatRate, formatRateCompact} from '../state/data/format.js';
import type {TrafficHistory} from '../state/tracking/traffic-history.js';
import {sparkline} from '../state/tracking/sparkline.js';
import {glyphs} from '../state/core/glyphs.js';
import {Text} from './SafeText.js';
import {displayWidth, truncate} from './text.js';
import {color} from './theme.js';

export function badges(settings: ConsoleSettings): Array<{text: string; tone: 'badge' | 'danger' | 'warning'}> {
  const list: Array<{text: string; tone: 'badge' | 'danger' | 'warning'}> = [];
  if (settings.demo) list.push({text: 'DEMO', tone: 'badge'});
  if (settings.readOnly) list.push({text: 'READ-ONLY', tone: 'warning'});
  if (settings.insecure) list.push({text: 'INSECURE TLS', tone: 'danger'});
  if (settings.plainHttp) list.push({text: 'PLAIN HTTP', tone: 'danger'});
  return list;
}

/**
 * Total rx/s and tx/s of all devices with their sparklines over the last polls, right of the tabs:
 * `rx 12.3 MiB/s ▁▂▃▅▇ tx 1.2 MiB/s ▂▃▁▁▂`. The sparklines take what room is left (none on a narrow
 * terminal); empty until a poll gave rates.
 */
function throughput(history: TrafficHistory, room: number): string {
  const rx = history.total('rx');
  const tx = history.total('tx');
  const last = (series: (number | null)[]) => series[series.length - 1] ?? null;
  if (last(rx) === null && last(tx) === null) return '';
  const rxText = `rx ${formatRate(last(rx))}`;
  const txText = `tx ${formatRate(last(tx))}`;
  const spark = Math.min(24, Math.floor((room - rxText.length - txText.length - 6) / 2));
  if (spark >= 6) return `${rxText} ${sparkline(rx, spark)}  ${txText} ${sparkline(tx, spark)}`;
  const plain = `${rxText}  ${txText}`;
  // At 80 columns: `↓12.3M ↑1.2M` (bytes per second) rather than nothing; on a plain terminal
  // `rx12.3M tx1.2M` (an arrow's ASCII stand-in would be a key: src/state/core/glyphs.ts).
  const [down, up] = glyphs().asciiQr ? ['rx', 'tx'] : ['↓', '↑'];
  return plain.length <= room ? plain : `${down}${formatRateCompact(last(rx))} ${up}${formatRateCompact(last(tx))}`;
}

/** Where each tab is on the line, from the left edge, cut at the terminal's width (for the mouse). */
export function tabSpans(tabs: readonly string[], width: number): DrawnTab[] {
  const spans: DrawnTab[] = [];
  let x = 0;
  SCREENS.forEach((screen, i) => {
    const to = Math.min(width, x + displayWidth(tabs[i] ?? ''));
    if (to > x) spans.push({screen: screen.id, from: x, to});
    x = to;
  });
  return spans;
}

export function Tabs({
  state,
  width,
  history,
  onDrawn,
}: {
  state: ConsoleState;
  width: number;
  history: TrafficHistory;
  /** Told where the tabs are drawn (the mouse's tab clicks). */
  onDrawn?: (tabs: DrawnTab[]) => void;
}): React.JSX.Element {
  const s = state.snapshot;
  const count = {
    devices: s ? ` ${s.devices.length}` : '',
    // A list the token may not read is not empty: its count is not known.
    users: s ? ` ${s.hidden.has('users') ? '?' : s.users.length}` : '',
    rules: s ? ` ${s.hidden.has('rules') ? '?' : s.rules.length}` : '',
    configuration: '',
    activity: '',
  };
  // Under 100 columns "Configuration" is "Config": the room goes to the traffic totals.
  const tabs = SCREENS.map((screen, i) => ` ${i + 1} ${width < 100 && screen.id === 'configuration' ? 'Config' : screen.title}${count[screen.id]} `);
  onDrawn?.(tabSpans(tabs, width));
  const room = width - displayWidth(tabs.join('')) - 2;
  // While polls fail, the totals are the last poll's, not the present's: said so ("last rx …").
  const stale = state.poll.failures > 0;
  const rates = throughput(history, stale ? room - 5 : room);
  const total = rates !== '' && stale ? `last ${rates}` : rates;
  return (
    <Box width={width} justifyContent="space-between">
      <Text wrap="truncate">
        {SCREENS.map((screen, i) => (
          <Text key={screen.id} inverse={screen.id === state.screen} bold={screen.id === state.screen}>
            {tabs[i]}
          </Text>
        ))}
      </Text>
      {total !== '' && room >= 8 ? (
        <Text color={color('muted')} wrap="truncate">
          {truncate(total, room)}
        </Text>
      ) : null}
    </Box>
  );
}
