// The diff of two consecutive snapshots: devices created, deleted, online, idle, roamed, renamed;
// users, rules and the configuration changed. At 50k devices the device scan is a sliced pass made
// while the poll is in flight (docs/performance-poll.md, "Refreshing 50k devices").
import {numberColumn, type NumberColumn} from '../../common/number-column.js';
import type {Configuration, Rule} from '../../api/index.js';
import {diffConfigurations} from '../screens/configuration/diff.js';
import {formatAge} from '../data/format.js';
import {deviceState, ONLINE_WINDOW_MS, type DeviceRow, type HiddenList, type Snapshot} from '../data/snapshot.js';
import {runWhole, type SlicedPass} from '../core/slices.js';
import type {ActivityEvent, ActivityKind, ActivityObject} from './events.js';
import type {LocalWrites} from './local-writes.js';
import type {Highlights} from './highlights.js';
import {pairById, positionsOf, Repeats, type ListedTwice, type TrackedList} from './id-pairing.js';
import {replacements} from './device-replacements.js';

/** Event numbers, process-wide: the Activity screen's order and the id of a row there. */
let lastSeq = 0;
import {D, R, U} from './highlights.js';

// ---- the diff --------------------------------------------------------------------------------

export interface DiffOptions {
  /** The time `prev` was observed at (online/idle is decided at that time for prev); default `prev.fetchedAt`. */
  prevNow?: number;
  /** Where row marks go; none when omitted. */
  highlights?: Highlights;
  /** Writes of this console, for "by you". */
  local?: LocalWrites;
  /** The pass over the devices, made ahead by ActivityTracker.prepare; used only if made for these rows and times. */
  scan?: DeviceScan;
  /** Lists not compared (no baseline for them: ActivityTracker). */
  skip?: ReadonlySet<TrackedList>;
}

/** Whether a section was visible to the token in a snapshot: fetchAll degrades a 401 on users/rules/configuration to empty, and says it in `hidden`. */
function visible(s: Snapshot, list: HiddenList): boolean {
  return !s.hidden.has(list);
}

const show = (v: string | null) => (v === null || v === '' ? '(none)' : v);

function deviceLabel(row: DeviceRow): string {
  return `${row.name} (${row.ownerEmail})`;
}

function ruleLabel(rule: Rule): string {
  const ports = rule.port_type === null ? 'all ports' : `${rule.port_type.toUpperCase()} ${rule.port_range ?? ''}`.trim();
  return `${rule.action.toUpperCase()} ${rule.destination} ${ports}`;
}

/** The previous snapshot's device rows' positions by id, built once per snapshot (only when the order changed). */
const rowIndexCache = new WeakMap<readonly DeviceRow[], Map<string, number>>();

function rowIndex(rows: readonly DeviceRow[]): Map<string, number> {
  let index = rowIndexCache.get(rows);
  // Stryker disable next-line ConditionalExpression: a cache; building the index again gives the same index
  if (!index) {
    index = positionsOf(rows);
    rowIndexCache.set(rows, index);
  }
  return index;
}

class Diff {
  readonly events: ActivityEvent[] = [];
  /** LocalWrites keys attributed by this diff. */
  readonly matched = new Set<string>();
  /** Users this console deleted: their devices and rules went with them. */
  readonly deletedByYou = new Set<string>();

  constructor(
    readonly now: number,
    readonly local: LocalWrites | undefined,
    readonly hl: Highlights | undefined,
  ) {}

  emit(
    kind: ActivityKind,
    object: ActivityObject,
    owner: string | null,
    text: string,
    detail: readonly string[] = [],
    ownerId = '',
    known?: 'you' | 'other',
  ): void {
    let by: 'you' | null = null;
    if (known) {
      by = known === 'you' ? 'you' : null;
    } else if (this.local?.matches(object.type, object.id, kind)) {
      by = 'you';
      this.matched.add(object.type === 'configuration' ? 'configuration' : `${object.type}:${object.id}`);
      if (kind === 'user.deleted') this.deletedByYou.add(object.id);
    } else if ((kind === 'device.deleted' || kind === 'rule.removed') && this.deletedByYou.has(ownerId)) {
      by = 'you';
    }
    this.events.push({seq: ++lastSeq, kind, at: this.now, object, owner, text, detail, by});
  }
}

/**
 * When each device of a poll goes idle (handshake + 180 s; -Infinity without a handshake), by
 * position. An unchanged device keeps its row object, so its deadline is carried over from the
 * previous poll's array and the diff need not touch the row at all: at 50k devices that is the
 * difference between reading 50k objects scattered over the heap and scanning two arrays.
 */
const idleDeadlines = new WeakMap<readonly DeviceRow[], NumberColumn>();

// Stryker disable next-line UnaryOperator: a device without a handshake never goes idle; +Infinity is never crossed either
const deadlineOf = (row: DeviceRow) => (row.handshakeAt === null ? -Infinity : row.handshakeAt + ONLINE_WINDOW_MS);

function deadlinesOf(rows: readonly DeviceRow[]): NumberColumn {
  let out = idleDeadlines.get(rows);
  // Stryker disable next-line ConditionalExpression: a cache; the deadlines computed again are the same
  if (!out) {
    out = numberColumn(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = deadlineOf(rows[i]!);
    idleDeadlines.set(rows, out);
  }
  return out;
}

function wentIdle(d: Diff, b: DeviceRow): void {
  d.emit(
    'device.idle',
    {type: 'device', id: b.id, label: b.name},
    b.ownerEmail,
    `${deviceLabel(b)} went idle (last handshake ${formatAge(b.handshakeAt, d.now)} ago)`,
  );
  d.hl?.changed('device', b.id, d.now, D.state, 0, 0, true, 'online', 'idle');
}

/** What the pass over the devices found, in position order; replayed as events by diffDevices. */
type DeviceStep = {kind: 'idle'; b: DeviceRow} | {kind: 'compare'; a: DeviceRow; b: DeviceRow} | {kind: 'created'; b: DeviceRow};

/**
 * The reading half of diffDevices: one pass over the rows that only reads them and notes the few
 * that have something to report. Emitting (which consults local writes and sets highlights)
 * waits for diffDevices, so the pass can run in slices while the poll is still in flight
 * (ActivityTracker.prepare) and nothing shows before the new rows do. `prev` holds each id once;
 * ids `rows` repeats are found by the pairing itself (src/state/tracking/id-pairing.ts).
 */
export class DeviceScan implements SlicedPass {
  next = 0;
  readonly steps: DeviceStep[] = [];
  /** Ids the new rows hold more than once (the server's error): the diff then reports no device. */
  readonly repeats = new Repeats();
  private readonly before: NumberColumn;
  private readonly deadlines: NumberColumn;
  // Consecutive polls list devices in the same order (insertion order), so rows are compared by
  // position first and the id index is built only when that fails. The mutants of this shortcut
  // that survive give the same result by the index (the by-id property test of
  // test/state/snapshot-diff/ holds the result either way).
  // Stryker disable next-line BooleanLiteral: equivalent, see above
  private aligned = true;
  private matched = 0;
  private index: Map<string, number> | null = null;
  /** prev[0, prefix) were paired by position; later positions paired through the index are marked in `taken`. */
  private prefix = 0;
  private taken: Uint8Array | null = null;
  /** Ids of rows prev lacks, to find a new id listed twice. */
  private created: Set<string> | null = null;

  constructor(
    readonly prev: readonly DeviceRow[],
    readonly rows: readonly DeviceRow[],
    readonly prevNow: number,
    readonly now: number,
  ) {
    this.before = deadlinesOf(prev);
    this.deadlines = numberColumn(rows.length);
  }

  run(end: number): void {
    const {prev, rows, before, deadlines, prevNow, now, steps} = this;
    const p = prev.length;
    for (let i = this.next; i < end; i++) {
      const b = rows[i]!;
      if (this.aligned && i < p) {
        const c = prev[i]!;
        // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent, the shortcut of an unchanged row
        if (c === b) {
          // The same row object: only time can have moved it, from online to idle.
          // Stryker disable next-line UpdateOperator: `matched` only picks a shortcut in removed()
          this.matched++;
          this.prefix = i + 1;
          const deadline = before[i]!;
          deadlines[i] = deadline;
          if (deadline >= prevNow && deadline < now) steps.push({kind: 'idle', b});
          continue;
        }
        // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent, the index pairs it the same
        if (c.id === b.id) {
          // Stryker disable next-line UpdateOperator: `matched` only picks a shortcut in removed()
          this.matched++;
          this.prefix = i + 1;
          deadlines[i] = deadlineOf(b);
          if (notable(c, b, prevNow, now)) steps.push({kind: 'compare', a: c, b});
          continue;
        }
        this.aligned = false;
      }
      deadlines[i] = deadlineOf(b);
      this.index ??= rowIndex(prev);
      const at = this.index.get(b.id);
      if (at === undefined) {
        this.created ??= new Set();
        if (this.created.has(b.id)) {
          this.repeats.add(b.id);
        } else {
          this.created.add(b.id);
          steps.push({kind: 'created', b});
        }
        continue;
      }
      this.taken ??= new Uint8Array(p);
      if (at < this.prefix || this.taken[at] === 1) {
        this.repeats.add(b.id);
        continue;
      }
      this.taken[at] = 1;
      const a = prev[at]!;
      // Stryker disable next-line UpdateOperator: `matched` only picks a shortcut in removed()
      this.matched++;
      // Stryker disable next-line ConditionalExpression: equivalent, an unchanged row that went idle is `notable` and compared
      if (a === b) {
        const deadline = deadlines[i]!;
        if (deadline >= prevNow && deadline < now) steps.push({kind: 'idle', b});
      } else if (notable(a, b, prevNow, now)) {
        steps.push({kind: 'compare', a, b});
      }
    }
    this.next = end;
  }

  /** The devices of prev that are gone; call after the pass (and only when it found no repeated id). */
  removed(): readonly DeviceRow[] {
    idleDeadlines.set(this.rows, this.deadlines);
    const n = this.rows.length;
    // Two shortcuts before the walk below; mutants that skip them give the same answer.
    // Stryker disable next-line ConditionalExpression
    if (this.matched === this.prev.length) return [];
    // Stryker disable next-line ConditionalExpression,EqualityOperator
    if (this.aligned && this.matched === n) return this.prev.slice(n);
    const gone: DeviceRow[] = [];
    for (let j = this.prefix; j < this.prev.length; j++) if (this.taken?.[j] !== 1) gone.push(this.prev[j]!);
    return gone;
  }
}

/** The device events, or — when the new list repeats an id — none, and what it repeats. */
function diffDevices(d: Diff, scan: DeviceScan): ListedTwice | null {
  runWhole(scan, scan.rows.length);
  const twice = scan.repeats.result('devices');
  if (twice !== null) return twice;
  const now = d.now;
  const gone = scan.removed();
  const replaced = replacements(scan.steps, gone);
  for (const step of scan.steps) {
    if (step.kind === 'idle') {
      wentIdle(d, step.b);
    } else if (step.kind === 'compare') {
      compareDevice(d, step.a, step.b, scan.prevNow);
    } else if (replaced?.has(step.b)) {
      newKey(d, replaced.get(step.b)!, step.b);
    } else {
      const b = step.b;
      d.emit(
        'device.created',
        {type: 'device', id: b.id, label: b.name},
        b.ownerEmail,
        `Device ${b.name} created for ${b.ownerEmail}${b.ipv4 ? ` (${b.ipv4})` : ''}`,
        [],
        b.userId,
      );
      d.hl?.added('device', b.id, now);
    }
  }
  const replacedGone = replaced === null ? null : new Set(replaced.values());
  for (const a of gone) {
    if (replacedGone?.has(a)) continue;
    d.emit('device.deleted', {type: 'device', id: a.id, label: a.name}, a.ownerEmail, `Device ${deviceLabel(a)} deleted`, [], a.userId);
    d.hl?.removedRow('device', a.id, a, now);
  }
  return null;
}

/** One event for a device given a new key; "by you" when this console both deleted the old one and created the new one. */
function newKey(d: Diff, a: DeviceRow, b: DeviceRow): void {
  const ours = d.local !== undefined && d.local.matches('device', a.id, 'device.deleted') && d.local.matches('device', b.id, 'device.created');
  if (ours) {
    d.matched.add(`device:${a.id}`);
    d.matched.add(`device:${b.id}`);
  }
  d.emit(
    'device.rekeyed',
    {type: 'device', id: b.id, label: b.name},
    b.ownerEmail,
    `Device ${deviceLabel(b)} got a new key: deleted and created again with the same name and addresses`,
    [`public key: ${a.publicKey} → ${b.publicKey}`, `id: ${a.id} → ${b.id}`],
    b.userId,
    ours ? 'you' : 'other',
  );
  d.hl?.added('device', b.id, d.now);
}

/** Whether compareDevice has anything to report: runs for every device whose stats moved, up to all 50k on every poll. */
export function notable(a: DeviceRow, b: DeviceRow, prevNow: number, now: number): boolean {
  const da = a;
  const db = b;
  return !(
    deviceState(a, prevNow) === deviceState(b, now) &&
    da.remoteIp === db.remoteIp &&
    da.name === db.name &&
    da.description === db.description &&
    da.ipv4 === db.ipv4 &&
    da.ipv6 === db.ipv6 &&
    a.ownerEmail === b.ownerEmail
  );
}

/**
 * The events and highlights of a device that `notable` picked. Counters, rates and the handshake
 * are not compared here; their ↑/↓ come from the traffic history (TrafficHistory.trend), which
 * records them anyway.
 */
function compareDevice(d: Diff, a: DeviceRow, b: DeviceRow, prevNow: number): void {
  const now = d.now;
  const da = a;
  const db = b;
  const from = deviceState(a, prevNow);
  const to = deviceState(b, now);
  let fields = 0;
  if (da.ipv4 !== db.ipv4) fields |= D.ipv4;
  if (da.ipv6 !== db.ipv6) fields |= D.ipv6;
  if (a.ownerEmail !== b.ownerEmail) fields |= D.owner;
  const object: ActivityObject = {type: 'device', id: b.id, label: db.name};
  if (from !== to) {
    fields |= D.state;
    if (to === 'online') {
      d.emit('device.online', object, b.ownerEmail, `${deviceLabel(b)} came online${db.remoteIp ? ` from ${db.remoteIp}` : ''}`);
    } else if (from === 'online') {
      d.emit('device.idle', object, b.ownerEmail, `${deviceLabel(b)} went idle (last handshake ${formatAge(b.handshakeAt, now)} ago)`);
    }
  }
  if (da.remoteIp !== db.remoteIp) {
    fields |= D.remote;
    // A first address is part of coming online; a different one is a roam, which an admin may want to question.
    if (da.remoteIp !== null && db.remoteIp !== null) {
      d.emit('device.roamed', object, b.ownerEmail, `${deviceLabel(b)} roamed: ${da.remoteIp} → ${db.remoteIp}`, [
        `remote IP: ${da.remoteIp} → ${db.remoteIp}`,
      ]);
    }
  }
  if (da.name !== db.name) {
    fields |= D.name;
    d.emit('device.renamed', object, b.ownerEmail, `Device ${da.name} renamed to ${db.name} (${b.ownerEmail})`, [`name: ${da.name} → ${db.name}`]);
  }
  // An admin's edit of the description or the tunnel addresses: one event that names what changed
  // (a changed address means the client's config no longer matches).
  const changed: string[] = [];
  const lines: string[] = [];
  if (da.description !== db.description) {
    fields |= D.description;
    changed.push('description');
    lines.push(`description: ${show(da.description)} → ${show(db.description)}`);
  }
  if (da.ipv4 !== db.ipv4) {
    changed.push('IPv4');
    lines.push(`IPv4: ${show(da.ipv4)} → ${show(db.ipv4)}`);
  }
  if (da.ipv6 !== db.ipv6) {
    changed.push('IPv6');
    lines.push(`IPv6: ${show(da.ipv6)} → ${show(db.ipv6)}`);
  }
  if (changed.length > 0) d.emit('device.updated', object, b.ownerEmail, `${deviceLabel(b)}: ${changed.join(', ')} changed`, lines);
  // stateFrom counts only with a stateTo (Highlights.changed).
  d.hl?.changed('device', b.id, now, fields, 0, 0, true, from, from !== to ? to : undefined);
}

function diffUsers(d: Diff, prev: Snapshot, next: Snapshot): ListedTwice | null {
  const now = d.now;
  const paired = pairById('users', prev.users, next.users);
  if (!('before' in paired)) return paired;
  next.users.forEach((u, i) => {
    const old = paired.before[i];
    const obj: ActivityObject = {type: 'user', id: u.id, label: u.email};
    const deviceDelta = (next.deviceCountByUser.get(u.id) ?? 0) - (prev.deviceCountByUser.get(u.id) ?? 0);
    const ruleDelta = (next.ruleCountByUser.get(u.id) ?? 0) - (prev.ruleCountByUser.get(u.id) ?? 0);
    if (!old) {
      d.emit('user.created', obj, null, `User ${u.email} created (${u.role})`);
      d.hl?.added('user', u.id, now);
      return;
    }
    // The counts' cells say which way they moved.
    let up = (deviceDelta > 0 ? U.devices : 0) | (ruleDelta > 0 ? U.rules : 0);
    const down = (deviceDelta < 0 ? U.devices : 0) | (ruleDelta < 0 ? U.rules : 0);
    let fields = up | down;
    // Stryker disable next-line ConditionalExpression: a shortcut; an unchanged user compares equal field by field
    if (old !== u) {
      if (old.email !== u.email) {
        fields |= U.email;
        d.emit('user.email', obj, null, `User ${old.email} is now ${u.email}`, [`email: ${old.email} → ${u.email}`]);
      }
      if (old.role !== u.role) {
        fields |= U.role;
        d.emit('user.role', obj, null, `${u.email} role changed: ${old.role} → ${u.role}`, [`role: ${old.role} → ${u.role}`]);
      }
      // Disabled again at another time is no change of state.
      if ((old.disabled_at === null) !== (u.disabled_at === null)) {
        fields |= U.vpn;
        if (u.disabled_at !== null) d.emit('user.disabled', obj, null, `${u.email} disabled`);
        else d.emit('user.enabled', obj, null, `${u.email} enabled again`);
      }
      if (old.last_signed_in_at !== u.last_signed_in_at && u.last_signed_in_at !== null) {
        fields |= U.signin;
        up |= U.signin;
        d.emit('user.signed_in', obj, null, `${u.email} signed in${u.last_signed_in_method ? ` (${u.last_signed_in_method})` : ''}`);
      }
    }
    if (fields !== 0) d.hl?.changed('user', u.id, now, fields, up, down, (fields & ~(U.devices | U.rules)) !== 0);
  });
  for (const u of paired.gone) {
    d.emit('user.deleted', {type: 'user', id: u.id, label: u.email}, null, `User ${u.email} deleted`);
    d.hl?.removedRow('user', u.id, u, now);
  }
  return null;
}

function diffRules(d: Diff, prev: Snapshot, next: Snapshot): ListedTwice | null {
  const now = d.now;
  // Stryker disable next-line ConditionalExpression: equivalent, no user has the id null
  const emailOf = (s: Snapshot, id: string | null) => (id === null ? null : (s.usersById.get(id)?.email ?? id));
  const scope = (s: Snapshot, r: Rule) => emailOf(s, r.user_id) ?? 'everyone';
  const paired = pairById('rules', prev.rules, next.rules);
  if (!('before' in paired)) return paired;
  next.rules.forEach((r, i) => {
    const old = paired.before[i];
    if (!old) {
      d.emit('rule.added', {type: 'rule', id: r.id, label: ruleLabel(r)}, emailOf(next, r.user_id), `Rule added: ${ruleLabel(r)} for ${scope(next, r)}`);
      d.hl?.added('rule', r.id, now);
      return;
    }
    // Stryker disable next-line ConditionalExpression: a shortcut; an unchanged rule compares equal field by field
    if (old === r) return;
    const lines: string[] = [];
    let fields = 0;
    if (old.action !== r.action) {
      fields |= R.action;
      lines.push(`action: ${old.action} → ${r.action}`);
    }
    if (old.destination !== r.destination) {
      fields |= R.destination;
      lines.push(`destination: ${old.destination} → ${r.destination}`);
    }
    if (old.port_type !== r.port_type || old.port_range !== r.port_range) {
      fields |= R.ports;
      lines.push(`ports: ${show(old.port_type)} ${show(old.port_range)} → ${show(r.port_type)} ${show(r.port_range)}`);
    }
    if (old.user_id !== r.user_id) {
      fields |= R.scope;
      lines.push(`scope: ${scope(prev, old)} → ${scope(next, r)}`);
    }
    if (fields === 0) return;
    d.emit(
      'rule.changed',
      {type: 'rule', id: r.id, label: ruleLabel(r)},
      emailOf(next, r.user_id),
      `Rule changed: ${ruleLabel(r)} for ${scope(next, r)}`,
      lines,
    );
    d.hl?.changed('rule', r.id, now, fields, 0, 0, true);
  });
  for (const r of paired.gone) {
    d.emit(
      'rule.removed',
      {type: 'rule', id: r.id, label: ruleLabel(r)},
      emailOf(prev, r.user_id),
      `Rule removed: ${ruleLabel(r)} for ${scope(prev, r)}`,
      [],
      r.user_id ?? '', // a global rule has no owner to have been deleted
    );
    d.hl?.removedRow('rule', r.id, r, now);
  }
  return null;
}

/** Every string an OIDC client secret could leak through (SAML metadata is shown as a byte count by diffConfigurations). */
function secretsOf(c: Configuration): string[] {
  return c.openid_connect_providers.map((p) => p.client_secret).filter((s) => s.length >= 4);
}

/** The configuration's change lines with secrets masked; exported for tests of the masking. */
export function configurationChanges(before: Configuration, after: Configuration): string[] {
  const lines = diffConfigurations(before, after);
  if (JSON.stringify(before.logo ?? null) !== JSON.stringify(after.logo ?? null)) lines.push('Logo changed');
  // diffConfigurations already says "(secret, not shown)"; this is the second line of defence
  // should a secret ever turn up in another field (a label, a URL).
  const secrets = [...secretsOf(before), ...secretsOf(after)];
  return lines.map((line) => secrets.reduce((l, s) => l.split(s).join('•••'), line));
}

function configurationEvent(d: Diff, before: Configuration, after: Configuration, by?: 'you' | 'other'): void {
  const lines = configurationChanges(before, after);
  if (lines.length === 0) return;
  d.emit(
    'configuration.changed',
    {type: 'configuration', id: after.id, label: 'Configuration'},
    null,
    `Configuration changed (${lines.length} change${lines.length === 1 ? '' : 's'})`,
    lines,
    '',
    by,
  );
}

function diffConfiguration(d: Diff, prev: Configuration, next: Configuration): void {
  // Stryker disable next-line ConditionalExpression: a shortcut; the same record has no changes
  if (prev === next) return;
  const saves = d.local?.configurationSaves(prev, next) ?? null;
  if (saves === null) {
    // No save of this console known (one may be in flight): the note made before sending decides,
    // so that a poll overtaking the save's answer does not call the change someone else's.
    configurationEvent(d, prev, next);
    return;
  }
  // This console's saves in this record, each between the record it was built on and the server's
  // answer; what lies around them (another admin's change that a conflict was re-applied over, or
  // one made after) is someone else's, though one poll shows it all. A record older than every
  // save holds someone else's change only.
  d.local!.reportedConfigurationSaves(saves.shown + saves.included.length);
  if (saves.waiting === 0) d.matched.add('configuration');
  let at = prev;
  for (const save of saves.included) {
    configurationEvent(d, at, save.base, 'other');
    configurationEvent(d, save.base, save.saved, 'you');
    at = save.saved;
  }
  configurationEvent(d, at, next, 'other');
}

/** What two polls' diff found: the events, and the lists that repeated an id (none of their changes is in `events`). */
export interface PollDiff {
  events: ActivityEvent[];
  listedTwice: ListedTwice[];
}

/**
 * The events between two consecutive good snapshots, each seen at `now` (the time of `next`), and
 * the row marks for `options.highlights`. Sections a snapshot could not see (a 401 on users, rules
 * or the configuration) are skipped rather than reported as deleted; so are the lists of
 * `options.skip`, and a list that repeats an id (the server's error) gives no event and is named
 * in `listedTwice` (src/state/tracking/id-pairing.ts). `prev` holds each id once.
 *
 * Cost at 50k devices: one pass over the rows. An unchanged device keeps its DeviceRow object
 * across polls (deriveDeviceRows), so it costs a comparison of identity and of its handshake age.
 */
export function diffPolls(prev: Snapshot, next: Snapshot, now: number = next.fetchedAt, options: DiffOptions = {}): PollDiff {
  const d = new Diff(now, options.local, options.highlights);
  const skip = options.skip;
  const listedTwice: ListedTwice[] = [];
  const found = (twice: ListedTwice | null) => {
    if (twice !== null) listedTwice.push(twice);
  };
  // Users first: a user deleted by this console makes its devices' and rules' deletions ours too.
  const users = visible(prev, 'users') && visible(next, 'users') && !skip?.has('users');
  if (users) found(diffUsers(d, prev, next));
  const prevNow = options.prevNow ?? prev.fetchedAt;
  const scan = options.scan;
  if (!skip?.has('devices')) {
    found(
      diffDevices(
        d,
        // Without the scan the pass is made here, with the same result (only slower).
        // Stryker disable next-line ConditionalExpression
        scan && scan.prev === prev.devices && scan.rows === next.devices && scan.prevNow === prevNow && scan.now === now
          ? scan
          : new DeviceScan(prev.devices, next.devices, prevNow, now),
      ),
    );
  }
  if (visible(prev, 'rules') && visible(next, 'rules') && !skip?.has('rules')) found(diffRules(d, prev, next));
  if (prev.configuration && next.configuration && visible(prev, 'configuration') && visible(next, 'configuration')) {
    diffConfiguration(d, prev.configuration, next.configuration);
  }
  options.local?.settle(d.matched, now);
  if (options.highlights) {
    options.highlights.prune(now);
    options.highlights.version++;
  }
  return {events: d.events, listedTwice};
}

/** diffPolls' events alone. */
export function diffSnapshots(prev: Snapshot, next: Snapshot, now: number = next.fetchedAt, options: DiffOptions = {}): ActivityEvent[] {
  return diffPolls(prev, next, now, options).events;
}
