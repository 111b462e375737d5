// Row highlights: which rows and cells a poll added, changed or removed, kept for a few seconds so
// the lists can mark them (src/ui/table/changes.ts draws the marks).
import {ASCII_GLYPHS, glyphs} from '../core/glyphs.js';
import {type DeviceState} from '../data/snapshot.js';

// ---- highlights ------------------------------------------------------------------------------

/** How long a row stays marked after the poll that changed it. */
export const HIGHLIGHT_MS = 5_000;

/**
 * The column keys of each list (src/state/screens/<screen>/screen.ts) that a change can mark. The traffic
 * cells (rx, tx, rxRate, txRate) are not here: they move on every stats write, and their ↑/↓ come
 * from TrafficHistory.trend.
 */
export const DEVICE_FIELDS = ['state', 'name', 'description', 'owner', 'ipv4', 'ipv6', 'remote'] as const;

export const USER_FIELDS = ['email', 'role', 'vpn', 'signin', 'devices', 'rules'] as const;

export const RULE_FIELDS = ['action', 'destination', 'ports', 'scope'] as const;

export type MarkedType = 'device' | 'user' | 'rule';

const FIELDS: Record<MarkedType, readonly string[]> = {device: DEVICE_FIELDS, user: USER_FIELDS, rule: RULE_FIELDS};

const bit = (fields: readonly string[], key: string) => 1 << fields.indexOf(key);

export const D = Object.fromEntries(DEVICE_FIELDS.map((k) => [k, bit(DEVICE_FIELDS, k)])) as Record<(typeof DEVICE_FIELDS)[number], number>;

export const U = Object.fromEntries(USER_FIELDS.map((k) => [k, bit(USER_FIELDS, k)])) as Record<(typeof USER_FIELDS)[number], number>;

export const R = Object.fromEntries(RULE_FIELDS.map((k) => [k, bit(RULE_FIELDS, k)])) as Record<(typeof RULE_FIELDS)[number], number>;

export type MarkKind = 'added' | 'changed' | 'removed';

export interface RowMark {
  readonly kind: MarkKind;
  /** The poll that last changed the row; the mark fades at `at + HIGHLIGHT_MS`. */
  readonly at: number;
  /** Bit per field of DEVICE_FIELDS / USER_FIELDS / RULE_FIELDS (see `cellChange`). */
  readonly fields: number;
  readonly up: number;
  readonly down: number;
  /** False for a user row whose only change is its device or rule count; the row itself need not light up. */
  readonly notable: boolean;
  /** Set when the device's online state changed. */
  readonly stateFrom?: DeviceState;
  readonly stateTo?: DeviceState;
}

interface MutableMark {
  kind: MarkKind;
  at: number;
  fields: number;
  up: number;
  down: number;
  notable: boolean;
  stateFrom?: DeviceState;
  stateTo?: DeviceState;
}

export type CellChange = 'up' | 'down' | 'changed';

/** The change of one cell: `cellChange(mark, 'device', 'rxRate')` → 'up' | 'down' | 'changed' | null. */
export function cellChange(mark: RowMark | null, type: MarkedType, columnKey: string): CellChange | null {
  if (!mark) return null;
  const i = FIELDS[type].indexOf(columnKey);
  if (i < 0) return null;
  const b = 1 << i;
  if ((mark.fields & b) === 0) return null;
  return mark.up & b ? 'up' : mark.down & b ? 'down' : 'changed';
}

export interface ChangeGlyphs {
  added: string;
  changed: string;
  removed: string;
  /** The row's device came online / went idle (in the gutter). */
  cameOnline: string;
  wentIdle: string;
  /** A cell's value went up / down (after the cell). */
  up: string;
  down: string;
}

const CHANGE_UNICODE: ChangeGlyphs = {added: '+', changed: '~', removed: '×', cameOnline: '↑', wentIdle: '↓', up: '↑', down: '↓'};

/**
 * Not `x`, `^` or `v`: letters and arrows read as keys (`v` reveals a preshared key; see
 * src/state/core/glyphs.ts). A state change shows the state it went to, as the state column does.
 */
export const CHANGE_ASCII: ChangeGlyphs = {
  added: '+',
  changed: '~',
  removed: '-',
  cameOnline: ASCII_GLYPHS.online,
  wentIdle: ASCII_GLYPHS.idle,
  up: '+',
  down: '-',
};

/** The marks' symbols in the glyph mode of src/state/core/glyphs.ts (its ASCII set is the one with classic borders). */
export function changeGlyphs(): ChangeGlyphs {
  return glyphs().border === 'classic' ? CHANGE_ASCII : CHANGE_UNICODE;
}

/**
 * The marks of the rows changed by recent polls, kept across polls until they fade, and the rows
 * deleted recently ("about to disappear": the list may keep drawing them, marked, until then).
 * Mutated in place by each diff; `version` changes whenever what `mark()` answers may have.
 */
export class Highlights {
  version = 0;
  private readonly marks: Record<MarkedType, Map<string, MutableMark>> = {device: new Map(), user: new Map(), rule: new Map()};
  private readonly gone: Record<MarkedType, Map<string, {at: number; item: unknown}>> = {device: new Map(), user: new Map(), rule: new Map()};

  constructor(readonly ttlMs: number = HIGHLIGHT_MS) {}

  /** The row's mark, or null when it has none or it has faded. */
  mark(type: MarkedType, id: string, now: number): RowMark | null {
    const m = this.marks[type].get(id);
    return m && now - m.at < this.ttlMs ? m : null;
  }

  /** Rows deleted less than `ttlMs` ago (DeviceRow, User or Rule objects as they were last seen), newest first. */
  removed<T = unknown>(type: MarkedType, now: number): T[] {
    const out: {at: number; item: unknown}[] = [];
    for (const g of this.gone[type].values()) if (now - g.at < this.ttlMs) out.push(g);
    return out.sort((a, b) => b.at - a.at).map((g) => g.item as T);
  }

  /** When the next mark fades (for a re-render), or null when nothing is marked. */
  nextExpiry(): number | null {
    let min = Infinity;
    for (const type of ['device', 'user', 'rule'] as const) {
      for (const m of this.marks[type].values()) if (m.at < min) min = m.at;
      for (const g of this.gone[type].values()) if (g.at < min) min = g.at;
    }
    return min === Infinity ? null : min + this.ttlMs;
  }

  /** Forgets faded marks and deleted rows. */
  prune(now: number): void {
    let dropped = false;
    for (const type of ['device', 'user', 'rule'] as const) {
      for (const [id, m] of this.marks[type]) {
        if (now - m.at >= this.ttlMs) {
          this.marks[type].delete(id);
          dropped = true;
        }
      }
      for (const [id, g] of this.gone[type]) {
        if (now - g.at >= this.ttlMs) {
          this.gone[type].delete(id);
          dropped = true;
        }
      }
    }
    if (dropped) this.version++;
  }

  /** Marks a changed row; merges with an unfaded mark so a field changed one poll ago stays marked. */
  changed(
    type: MarkedType,
    id: string,
    now: number,
    fields: number,
    up: number,
    down: number,
    notable: boolean,
    stateFrom?: DeviceState,
    stateTo?: DeviceState,
  ): void {
    const map = this.marks[type];
    const old = map.get(id);
    if (old && now - old.at < this.ttlMs) {
      old.at = now;
      // Fields changed now take their new direction; the others keep theirs.
      old.up = (old.up & ~fields) | up;
      old.down = (old.down & ~fields) | down;
      old.fields |= fields;
      old.notable ||= notable;
      if (stateTo !== undefined) {
        old.stateFrom ??= stateFrom;
        old.stateTo = stateTo;
      }
      return;
    }
    const mark: MutableMark = {kind: 'changed', at: now, fields, up, down, notable};
    if (stateTo !== undefined) {
      mark.stateFrom = stateFrom;
      mark.stateTo = stateTo;
    }
    map.set(id, mark);
  }

  added(type: MarkedType, id: string, now: number): void {
    this.marks[type].set(id, {kind: 'added', at: now, fields: 0, up: 0, down: 0, notable: true});
    this.gone[type].delete(id);
  }

  removedRow(type: MarkedType, id: string, item: unknown, now: number): void {
    this.marks[type].set(id, {kind: 'removed', at: now, fields: 0, up: 0, down: 0, notable: true});
    this.gone[type].set(id, {at: now, item});
  }

  /** Marked rows of a type (faded ones included until the next prune): for tests and the bench. */
  size(type: MarkedType): number {
    return this.marks[type].size;
  }
}
