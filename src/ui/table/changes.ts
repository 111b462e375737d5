// The change marks of issue #14 as the table draws them: a glyph in the row's gutter (+ new, ~ changed,
// × deleted, ↑ came online, ↓ went idle), the row bold when a device's state changed and dim when it
// is gone, and ↑/↓ after cells that moved. The glyphs carry the meaning, so NO_COLOR and plain
// terminals see it too; colour only adds to it.
import {cellChange, changeGlyphs, DEVICE_FIELDS, RULE_FIELDS, USER_FIELDS, type MarkedType, type RowMark} from '../../state/tracking/highlights.js';
import {type ActivityTracker} from '../../state/tracking/tracker.js';
import type {ListScreenId} from '../../state/core/state.js';
import type {TrafficHistory} from '../../state/tracking/traffic-history.js';
import type {DeviceRow} from '../../state/data/snapshot.js';
import {color} from '../theme.js';
import type {RowDecoration} from './Table.js';

const TYPE: Partial<Record<ListScreenId, MarkedType>> = {devices: 'device', users: 'user', rules: 'rule'};
const FIELDS: Record<MarkedType, readonly string[]> = {device: DEVICE_FIELDS, user: USER_FIELDS, rule: RULE_FIELDS};
const TRAFFIC: ReadonlyArray<[string, 'rx' | 'tx']> = [
  ['rxRate', 'rx'],
  ['txRate', 'tx'],
];

export interface ChangeSources {
  tracker: ActivityTracker;
  history: TrafficHistory;
}

function rowLook(mark: RowMark): Omit<RowDecoration, 'cells'> | null {
  const g = changeGlyphs();
  switch (mark.kind) {
    case 'added':
      return {glyph: g.added, ...optionalColor('ok')};
    case 'removed':
      return {glyph: g.removed, dim: true, ...optionalColor('danger')};
    case 'changed':
      if (mark.stateTo !== undefined && mark.stateTo !== mark.stateFrom) {
        const online = mark.stateTo === 'online';
        return {glyph: online ? g.cameOnline : g.wentIdle, bold: true, ...optionalColor(online ? 'online' : 'idle')};
      }
      return mark.notable ? {glyph: g.changed, ...optionalColor('accent')} : null;
  }
}

function optionalColor(tone: Parameters<typeof color>[0]): {color?: string} {
  const c = color(tone);
  return c === undefined ? {} : {color: c};
}

/**
 * The table's `decorate` for a list at `now`, or undefined for a list without change marks. Build it
 * once per (highlights version, history version, second): the table rebuilds its visible rows when
 * it gets a new function.
 */
export function changeDecorator(screen: ListScreenId, sources: ChangeSources, now: number): ((row: unknown, id: string) => RowDecoration | null) | undefined {
  const type = TYPE[screen];
  if (!type) return undefined;
  const g = changeGlyphs();
  return (row, id) => {
    const mark = sources.tracker.highlights.mark(type, id, now);
    const cells: Record<string, string> = {};
    let any = false;
    if (mark) {
      for (const key of FIELDS[type]) {
        const change = cellChange(mark, type, key);
        if (change === 'up' || change === 'down') {
          cells[key] = change === 'up' ? g.up : g.down;
          any = true;
        }
      }
    }
    if (type === 'device' && (row as DeviceRow).id === id) {
      for (const [key, which] of TRAFFIC) {
        const trend = sources.history.trend(id, which, now);
        if (trend) {
          cells[key] = trend === 'up' ? g.up : g.down;
          any = true;
        }
      }
    }
    const look = mark ? rowLook(mark) : null;
    if (!look && !any) return null;
    return {glyph: ' ', ...look, ...(any ? {cells} : {})};
  };
}
