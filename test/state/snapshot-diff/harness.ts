// Change detection's tests, the shared part: two polls of a small world diffed with highlights, and
// readers for the events and row marks they give. The tests are the *.test.ts files of this folder.
import type {Device, Rule, User} from '../../../src/api/index.js';
import {buildSnapshot, type HiddenList, type Snapshot} from '../../../src/state/data/snapshot.js';
import {type ActivityEvent} from '../../../src/state/tracking/events.js';
import {cellChange, Highlights} from '../../../src/state/tracking/highlights.js';
import type {LocalWrites} from '../../../src/state/tracking/local-writes.js';
import {diffSnapshots} from '../../../src/state/tracking/snapshot-diff.js';
import {configuration, device, iso, user} from '../../fixtures/data.js';

export const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
export const ann = user();
export const bob = user({id: 'u-2', email: 'bob@example.com'});

export interface World {
  devices?: Device[];
  users?: User[];
  rules?: Rule[];
  issues?: {path: string; message: string}[];
  /** Lists the token may not read (fetchAll's `hidden`). */
  hidden?: HiddenList[];
  config?: ReturnType<typeof configuration>;
}

export const baseConfig = configuration();

export function snap(world: World, previous: Snapshot | null, at: number): Snapshot {
  return buildSnapshot(
    {
      devices: world.devices ?? [],
      users: world.users ?? [ann, bob],
      rules: world.rules ?? [],
      configuration: world.config ?? baseConfig,
      issues: world.issues ?? [],
      hidden: world.hidden ?? [],
    },
    previous,
    at,
  );
}

export interface Run {
  events: ActivityEvent[];
  hl: Highlights;
  at: number;
}

/** Two polls 5 s apart, with highlights; `local` notes writes of this console between them. */
export function diff(a: World, b: World, at = T0, local?: LocalWrites): Run {
  const hl = new Highlights();
  const first = snap(a, null, at - 5000);
  const events = diffSnapshots(first, snap(b, first, at), at, {highlights: hl, local});
  return {events, hl, at};
}

export const line = (e: ActivityEvent) =>
  `${e.kind} ${e.object.type}:${e.object.id} [${e.object.label}] owner=${e.owner} by=${e.by} | ${e.text} | ${e.detail.join('; ')}`;
export const lines = (r: Run) => r.events.map(line);
export const mark = (r: Run, type: 'device' | 'user' | 'rule', id: string) => r.hl.mark(type, id, r.at);
export const cells = (r: Run, type: 'device' | 'user' | 'rule', id: string, keys: readonly string[]) =>
  Object.fromEntries(keys.map((k) => [k, cellChange(mark(r, type, id), type, k)]).filter(([, v]) => v !== null));

export const DEVICE_KEYS = ['state', 'name', 'description', 'owner', 'ipv4', 'ipv6', 'remote'];
export const USER_KEYS = ['email', 'role', 'vpn', 'signin', 'devices', 'rules'];
export const RULE_KEYS = ['action', 'destination', 'ports', 'scope'];

export const online = (extra: Partial<Device> = {}) =>
  device({latest_handshake: iso(T0 - 10_000), remote_ip: '198.51.100.7', updated_at: iso(T0 - 10_000), ...extra});
