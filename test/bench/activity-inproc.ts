// In-process half of test/bench/activity.mjs: change detection (issue #14) at scale. Simulates an
// hour of one poll a second against N devices whose stats change on every poll, with a few
// renames, roams, sign-ins and devices going idle in between, and measures what the Controller
// would add per refresh: ActivityTracker.observe (the diff and the row marks) and
// TrafficHistory.record; then the memory the event ring, marks and history hold. Prints one JSON line.
//
//   node --expose-gc activity-inproc.mjs [devices=50000] [polls=3600]
import {performance} from 'node:perf_hooks';
import type {Device, Rule, User} from '../../src/api/index.js';
import {ActivityTracker} from '../../src/state/tracking/tracker.js';
import {TrafficHistory} from '../../src/state/tracking/traffic-history.js';
import {buildSnapshot, type Snapshot} from '../../src/state/data/snapshot.js';

const DEVICES = Number(process.argv[2] ?? 50_000);
const POLLS = Number(process.argv[3] ?? 3600);
const USERS = 2000;
const RULES = 1000;
/** Polls before this are JIT warm-up and left out of the percentiles. */
const WARMUP = 5;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

const gc = (globalThis as {gc?: () => void}).gc;
if (!gc) throw new Error('run with node --expose-gc');

const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '000Z');
const created = iso(T0 - 86_400_000);

const users: User[] = Array.from({length: USERS}, (_, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  email: `user${i}@example.com`,
  role: i === 0 ? 'admin' : 'unprivileged',
  disabled_at: null,
  last_signed_in_at: null,
  last_signed_in_method: null,
  inserted_at: created,
  updated_at: created,
}));

const rules: Rule[] = Array.from({length: RULES}, (_, i) => ({
  id: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  action: i % 2 === 0 ? 'accept' : 'drop',
  destination: `10.${i % 256}.0.0/16`,
  port_range: null,
  port_type: null,
  user_id: i % 3 === 0 ? null : users[i % USERS]!.id,
  inserted_at: created,
  updated_at: created,
}));

let devices: Device[] = Array.from({length: DEVICES}, (_, i) => ({
  id: `20000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  user_id: users[i % USERS]!.id,
  name: `device-${i}`,
  description: null,
  public_key: `key-${i}`,
  preshared_key: null,
  server_public_key: 'server-key',
  ipv4: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
  ipv6: null,
  allowed_ips: null,
  dns: null,
  endpoint: null,
  mtu: null,
  persistent_keepalive: null,
  use_default_allowed_ips: true,
  use_default_dns: true,
  use_default_endpoint: true,
  use_default_mtu: true,
  use_default_persistent_keepalive: true,
  latest_handshake: iso(T0),
  remote_ip: `198.51.${(i >> 8) & 255}.${i & 255}`,
  rx_bytes: 0,
  tx_bytes: 0,
  inserted_at: created,
  updated_at: iso(T0),
}));

/** The next poll's data: every device's counters, handshake and updated_at move (new objects, as JSON.parse gives). */
function nextPoll(p: number, at: number): Device[] {
  const now = iso(at);
  const handshake = iso(at - 5000);
  const next = new Array<Device>(DEVICES);
  for (let i = 0; i < DEVICES; i++) {
    const d = devices[i]!;
    next[i] = {
      ...d,
      rx_bytes: d.rx_bytes! + 1000 + ((i * 7 + p * 13) % 5000),
      tx_bytes: d.tx_bytes! + 200 + ((i * 3 + p) % 700),
      // One device in a hundred stopped handshaking at the start: each goes idle once, after 180 s.
      latest_handshake: i % 100 === 0 ? d.latest_handshake : handshake,
      updated_at: now,
    };
  }
  for (let k = 0; k < 5; k++) {
    const i = (p * 5 + k) % DEVICES;
    next[i] = {...next[i]!, name: `device-${i}-r${p}`};
  }
  for (let k = 0; k < 2; k++) {
    const i = (p * 2 + k + 7) % DEVICES;
    next[i] = {...next[i]!, remote_ip: `203.0.${p & 255}.${k + 1}`};
  }
  return next;
}

function signIn(p: number, at: number): User[] {
  const out = users.slice();
  const i = p % USERS;
  out[i] = {...out[i]!, last_signed_in_at: iso(at), last_signed_in_method: 'password'};
  users[i] = out[i]!;
  return out;
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 100) / 100;
  return {p50: r(percentile(sorted, 0.5)), p95: r(percentile(sorted, 0.95)), p99: r(percentile(sorted, 0.99)), max: r(sorted[sorted.length - 1]!)};
}

let tracker: ActivityTracker | null = new ActivityTracker();
let history: TrafficHistory | null = new TrafficHistory();
let snapshot: Snapshot | null = null;
const diffMs: number[] = [];
const recordMs: number[] = [];
const buildMs: number[] = [];
let events = 0;
const started = performance.now();

for (let p = 0; p < POLLS; p++) {
  const at = T0 + (p + 1) * 1000;
  if (p > 0) devices = nextPoll(p, at);
  const data = {devices, users: p > 0 ? signIn(p, at) : users, rules, configuration: null, issues: []};
  const b0 = performance.now();
  snapshot = buildSnapshot(data, snapshot, at);
  const t0 = performance.now();
  events += tracker.observe(snapshot, at).length;
  const t1 = performance.now();
  history.record(snapshot, at);
  const t2 = performance.now();
  if (p >= WARMUP) {
    buildMs.push(t0 - b0);
    diffMs.push(t1 - t0);
    recordMs.push(t2 - t1);
  }
}

// Polls where nothing changed on the server: every row keeps its object, the identity path.
const unchangedMs: number[] = [];
for (let p = 0; p < 30; p++) {
  const at = T0 + (POLLS + p + 1) * 1000;
  snapshot = buildSnapshot({devices, users, rules, configuration: null, issues: []}, snapshot, at);
  const t0 = performance.now();
  tracker.observe(snapshot, at);
  unchangedMs.push(performance.now() - t0);
}
const seconds = (performance.now() - started) / 1000;

const held = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const ring = tracker.events.size;
const marks = tracker.highlights.size('device');
const historyBytes = history.byteLength;
const tracked = history.tracked;
const withBuffers = held();
tracker = null;
history = null;
const withoutBuffers = held();

console.log(
  JSON.stringify({
    devices: DEVICES,
    polls: POLLS,
    seconds: Math.round(seconds),
    events,
    ringEvents: ring,
    deviceMarks: marks,
    historyTracked: tracked,
    diffMs: stats(diffMs),
    recordMs: stats(recordMs),
    unchangedDiffMs: stats(unchangedMs),
    buildSnapshotMs: stats(buildMs),
    historyTypedArraysMB: Math.round((historyBytes / 1048576) * 10) / 10,
    retainedMB: Math.round(((withBuffers - withoutBuffers) / 1048576) * 10) / 10,
    snapshotKept: snapshot!.devices.length,
  }),
);
