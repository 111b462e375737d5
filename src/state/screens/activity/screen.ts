// Activity: what changed between consecutive polls and what this console did (src/state/tracking/tracker.ts),
// newest first, filterable like the other lists. Read-only: events are observations, not objects.
import type {ActivityEvent, ActivityKind} from '../../tracking/events.js';
import type {ActivityTracker} from '../../tracking/tracker.js';
import {formatTimestamp} from '../../data/format.js';
import type {Tone} from '../../core/tone.js';
import type {ScreenSpec} from '../spec.js';
import {activityFilters} from './filters.js';

/** How a kind reads in the KIND column: short, the object type first so a sort groups them. */
export const KIND_LABEL: Record<ActivityKind, string> = {
  'device.created': 'device created',
  'device.deleted': 'device deleted',
  'device.online': 'device online',
  'device.idle': 'device idle',
  'device.roamed': 'device roamed',
  'device.renamed': 'device renamed',
  'device.updated': 'device changed',
  'device.rekeyed': 'device new key',
  'user.created': 'user created',
  'user.deleted': 'user deleted',
  'user.role': 'user role',
  'user.email': 'user email',
  'user.disabled': 'user DISABLED',
  'user.enabled': 'user enabled',
  'user.signed_in': 'user signed in',
  'rule.added': 'rule added',
  'rule.removed': 'rule removed',
  'rule.changed': 'rule changed',
  'configuration.changed': 'config changed',
};

// The events, newest first: the same array until new ones arrive (the list view is memoised by its items).
const listed = new WeakMap<ActivityTracker, {version: number; events: readonly ActivityEvent[]}>();

function eventsOf(tracker: ActivityTracker): readonly ActivityEvent[] {
  const version = tracker.events.version;
  let made = listed.get(tracker);
  if (made?.version !== version) listed.set(tracker, (made = {version, events: tracker.events.list()}));
  return made.events;
}

/** Security signals stand out: a roamed device and a disabled user. */
function kindTone(kind: ActivityKind): Tone | undefined {
  switch (kind) {
    case 'device.roamed':
    case 'user.disabled':
      return 'danger';
    case 'device.deleted':
    case 'device.rekeyed':
    case 'user.deleted':
    case 'rule.removed':
      return 'warning';
    case 'device.created':
    case 'user.created':
    case 'rule.added':
    case 'device.online':
      return 'ok';
    case 'device.idle':
      return 'idle';
    default:
      return undefined;
  }
}

/** The kind's tone as a detail line takes it: none rather than `tone: undefined`. */
function toneOf(kind: ActivityKind): {tone?: Tone} {
  const tone = kindTone(kind);
  return tone ? {tone} : {};
}

export const activity: ScreenSpec<ActivityEvent> = {
  id: 'activity',
  noun: 'event',
  source: {from: 'tracker', items: eventsOf},
  getId: (e) => String(e.seq),
  // Newest first is the order the events arrive in; a column sort is one key away.
  defaultSort: null,
  filters: () => activityFilters(),
  columns: () => [
    {
      key: 'time',
      header: 'SEEN',
      priority: 1,
      width: 8,
      cell: (e) => formatTimestamp(e.at).slice(11, 19),
      sortValue: (e) => e.seq,
      defaultDesc: true,
      searchText: (e) => formatTimestamp(e.at),
    },
    {
      key: 'kind',
      header: 'WHAT',
      priority: 1,
      width: 15,
      cell: (e) => KIND_LABEL[e.kind],
      tone: (e) => kindTone(e.kind),
      sortValue: (e) => e.kind,
      searchText: (e) => `${KIND_LABEL[e.kind]} ${e.kind}`,
    },
    {
      key: 'object',
      header: 'OBJECT',
      priority: 1,
      width: {min: 14, max: 32, flex: 1},
      cell: (e) => e.object.label,
      sortValue: (e) => e.object.label,
      searchText: (e) => e.object.label,
    },
    {
      key: 'owner',
      header: 'OWNER',
      priority: 3,
      width: {min: 12, max: 28, flex: 1},
      cell: (e) => e.owner ?? '',
      sortValue: (e) => e.owner,
      searchText: (e) => e.owner ?? '',
    },
    {
      key: 'text',
      header: 'DETAIL',
      priority: 2,
      width: {min: 20, flex: 3},
      cell: (e) => e.text,
      searchText: (e) => `${e.text}\u0000${e.detail.join('\u0000')}`,
    },
    {
      key: 'by',
      header: 'BY',
      priority: 2,
      width: 3,
      cell: (e) => (e.by === 'you' ? 'you' : ''),
      sortValue: (e) => e.by,
      searchText: (e) => (e.by === 'you' ? 'by you' : ''),
    },
  ],
  title: (e) => `${KIND_LABEL[e.kind]} ${e.object.label}`,
  detail: (e) => [
    {label: 'Seen', value: `${formatTimestamp(e.at)} (at the poll that showed it; it happened since the one before)`},
    {label: 'What', value: KIND_LABEL[e.kind], ...toneOf(e.kind)},
    {label: 'Object', value: `${e.object.type} ${e.object.label}`},
    {label: 'Id', value: e.object.id},
    ...(e.owner ? [{label: 'Owner', value: e.owner}] : []),
    {label: 'By', value: e.by === 'you' ? 'you (this console)' : 'another client or the server'},
    {label: 'Detail', value: e.text},
    ...(e.detail.length > 0 ? [{value: 'Changes', heading: true}, ...e.detail.map((d) => ({value: d}))] : []),
  ],
  copyValue: (e) => ({label: 'the event', value: `${formatTimestamp(e.at)} ${e.text}`}),
  export: {
    records: (events) =>
      events.map((e) => ({
        seen_at: new Date(e.at).toISOString(),
        kind: e.kind,
        object_type: e.object.type,
        object_id: e.object.id,
        object: e.object.label,
        owner: e.owner,
        text: e.text,
        changes: e.detail,
        by: e.by,
      })),
  },
  actions: {},
};
