// Demo seed shape, determinism and invariants; stats simulation; startup options.
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest';
import {startSandbox, type SandboxHandle} from '../../src/sandbox/index.js';
import type {SandboxCore} from '../../src/sandbox/core.js';
import {castInet, inetOverlaps} from '../../src/sandbox/inet.js';
import {Prng} from '../../src/sandbox/prng.js';
import {Settings} from '../../src/sandbox/settings.js';
import {simulateStats} from '../../src/sandbox/stats.js';
import {Store, type DeviceRow} from '../../src/sandbox/store.js';
import {MICROS_PER_SECOND} from '../../src/sandbox/time.js';
import {data, send} from './helpers.js';

interface Snapshot {
  users: Array<Record<string, unknown>>;
  devices: Array<Record<string, unknown>>;
  rules: Array<Record<string, unknown>>;
  configuration: Record<string, unknown>;
}

async function snapshot(sb: SandboxHandle): Promise<Snapshot> {
  const get = async (path: string) => data<never>(await send(sb.url, 'GET', path, {token: sb.adminToken}));
  return {users: await get('/v0/users'), devices: await get('/v0/devices'), rules: await get('/v0/rules'), configuration: await get('/v0/configuration')};
}

let demo: SandboxHandle;
let shot: Snapshot;

beforeAll(async () => {
  demo = await startSandbox({port: 0, seed: 'demo', statsIntervalSeconds: 0});
  shot = await snapshot(demo);
});

afterAll(async () => {
  await demo.close();
});

describe('demo seed', () => {
  it('is a small company: ~40 users on one domain, ~90 devices, ~25 rules, one OIDC and one SAML provider', () => {
    expect(shot.users).toHaveLength(40);
    expect(shot.devices).toHaveLength(90);
    expect(shot.rules).toHaveLength(25);
    const emails = shot.users.map((u) => String(u.email));
    expect(emails).toContain('admin@sandbox.test');
    expect(emails).toContain('user@sandbox.test');
    expect(emails.filter((e) => e.endsWith('@example.com'))).toHaveLength(38);
    expect(shot.users.filter((u) => u.role === 'admin').length).toBeGreaterThanOrEqual(3);
    expect(shot.users.filter((u) => u.disabled_at !== null)).toHaveLength(1);
    expect(shot.users.filter((u) => u.last_signed_in_at !== null).length).toBeGreaterThanOrEqual(2);
    expect(shot.configuration.openid_connect_providers).toHaveLength(1);
    expect(shot.configuration.saml_identity_providers).toHaveLength(1);
  });

  it('has identity providers that pass validation when sent back unchanged', async () => {
    const {openid_connect_providers, saml_identity_providers} = shot.configuration;
    const res = await send(demo.url, 'PUT', '/v0/configuration', {
      token: demo.adminToken,
      body: {configuration: {openid_connect_providers, saml_identity_providers}},
    });
    expect(res.status, res.text).toBe(200);
    expect(data(res)).toMatchObject({openid_connect_providers, saml_identity_providers});
  });

  it('has never-connected, idle and busy devices with realistic names', () => {
    const now = Date.now();
    const never = shot.devices.filter((d) => d.latest_handshake === null);
    expect(never.every((d) => d.remote_ip === null && d.rx_bytes === null && d.tx_bytes === null)).toBe(true);
    const age = (d: Record<string, unknown>) => (now - Date.parse(String(d.latest_handshake))) / 1000;
    const connected = shot.devices.filter((d) => d.latest_handshake !== null);
    expect(never.length).toBeGreaterThan(5);
    expect(connected.filter((d) => age(d) <= 180).length).toBeGreaterThan(10);
    expect(connected.filter((d) => age(d) > 3600).length).toBeGreaterThan(5);
    expect(connected.every((d) => String(d.latest_handshake).endsWith('.000000Z'))).toBe(true);
    const names = shot.devices.map((d) => String(d.name));
    expect(names).toContain('build-server');
    expect(names.some((n) => /^[a-z]+-laptop$/.test(n))).toBe(true);
  });

  it('respects the store invariants: unique addresses and keys, names unique per user, no overlapping rules', () => {
    const unique = (values: unknown[]) => new Set(values).size === values.length;
    expect(unique(shot.devices.map((d) => d.ipv4))).toBe(true);
    expect(unique(shot.devices.map((d) => d.ipv6))).toBe(true);
    expect(unique(shot.devices.map((d) => d.public_key))).toBe(true);
    expect(unique(shot.devices.map((d) => `${d.user_id}/${d.name}`))).toBe(true);
    for (const d of shot.devices) expect(String(d.ipv4)).toMatch(/^10\.3\.2\.([2-9]|[1-9]\d|1\d\d|2[0-4]\d|25[0-4])$/);
    const rules = shot.rules;
    for (let i = 0; i < rules.length; i++) {
      for (let j = i + 1; j < rules.length; j++) {
        const [a, b] = [rules[i]!, rules[j]!];
        if (a.user_id !== b.user_id || a.action !== b.action || (a.port_range === null) !== (b.port_range === null)) continue;
        if (a.port_range !== null && a.port_type !== b.port_type) continue;
        if (a.port_range !== null) {
          const [al, au = al] = String(a.port_range).split(' - ').map(Number);
          const [bl, bu = bl] = String(b.port_range).split(' - ').map(Number);
          if (au! < bl! || bu! < al!) continue;
        }
        expect(inetOverlaps(castInet(String(a.destination))!, castInet(String(b.destination))!), `${a.destination} vs ${b.destination}`).toBe(false);
      }
    }
  });

  it('is deterministic for a random seed and differs for another', async () => {
    const strip = (s: Snapshot) => ({
      emails: s.users.map((u) => u.email),
      devices: s.devices.map((d) => [d.id, d.name, d.ipv4, d.ipv6, d.public_key, d.rx_bytes]),
      rules: s.rules.map((r) => [r.id, r.destination, r.port_range]),
    });
    const again = await startSandbox({port: 0, seed: 'demo', statsIntervalSeconds: 0});
    const other = await startSandbox({port: 0, seed: 'demo', statsIntervalSeconds: 0, randomSeed: 2});
    try {
      expect(strip(await snapshot(again))).toEqual(strip(shot));
      expect(strip(await snapshot(other))).not.toEqual(strip(shot));
    } finally {
      await again.close();
      await other.close();
    }
  });

  it('scales, and switches to the docker networks when the devices do not fit the default ones', async () => {
    const lines: string[] = [];
    const big = await startSandbox({port: 0, seed: 'demo', devices: 600, users: 120, rules: 80, statsIntervalSeconds: 0, log: (l) => lines.push(l)});
    try {
      const s = await snapshot(big);
      expect([s.users.length, s.devices.length, s.rules.length]).toEqual([120, 600, 80]);
      expect(s.devices.every((d) => String(d.ipv4).startsWith('100.'))).toBe(true);
      expect(s.devices.every((d) => String(d.ipv6).startsWith('fd00::'))).toBe(true);
      expect(lines.some((l) => l.includes('100.64.0.0/10'))).toBe(true);
    } finally {
      await big.close();
    }
    await expect(startSandbox({port: 0, seed: 'demo', devices: 300, ipv4Network: '10.3.2.0/24'})).rejects.toThrow(/do not fit/);
  });

  it('has only the two sandbox users in the empty seed', async () => {
    const empty = await startSandbox({port: 0, statsIntervalSeconds: 0});
    try {
      const s = await snapshot(empty);
      expect(s.users.map((u) => u.email).sort()).toEqual(['admin@sandbox.test', 'user@sandbox.test']);
      expect([s.devices.length, s.rules.length]).toEqual([0, 0]);
      expect(s.configuration.default_client_endpoint).toBe(`${new URL(empty.url).hostname}:51820`);
    } finally {
      await empty.close();
    }
  });

  it('rejects invalid simulated environment values', async () => {
    await expect(startSandbox({port: 0, env: {DEFAULT_CLIENT_MTU: '100'}})).rejects.toThrow(/DEFAULT_CLIENT_MTU/);
    await expect(startSandbox({port: 0, env: {MAX_DEVICES_PER_USER: 'x'}})).rejects.toThrow(/MAX_DEVICES_PER_USER/);
  });
});

// See docs/firezone-0.7.36.md, "Stats writes bump updated_at".
describe('stats simulation', () => {
  function core(devices: DeviceRow[]): SandboxCore {
    const settings = new Settings({env: {}, externalUrl: 'http://127.0.0.1:1'});
    const store = new Store(settings.initialConfig('c', 0));
    for (const d of devices) store.insertDevice(d);
    return {
      store,
      settings,
      serverPublicKey: 'k',
      random: {alloc: new Prng(1, 'a'), names: new Prng(1, 'n'), stats: new Prng(1, 's'), faults: new Prng(1, 'f')},
      log: () => {},
    };
  }
  const device = (id: string, sim: DeviceRow['sim'], handshake: number | null): DeviceRow => ({
    id,
    userId: 'u',
    name: id,
    description: null,
    publicKey: `${id}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`,
    presharedKey: null,
    useDefaultAllowedIps: true,
    useDefaultDns: true,
    useDefaultEndpoint: true,
    useDefaultMtu: true,
    useDefaultPersistentKeepalive: true,
    allowedIps: [],
    dns: [],
    endpoint: null,
    mtu: null,
    persistentKeepalive: null,
    ipv4: null,
    ipv6: null,
    remoteIp: null,
    latestHandshake: handshake,
    rxBytes: handshake === null ? null : 100,
    txBytes: handshake === null ? null : 50,
    insertedAt: 0,
    updatedAt: 0,
    sim,
    cache: null,
    cacheVersion: 0,
  });

  it('refreshes a share of busy devices with second-precision handshakes and growing counters; never and idle ones stay', () => {
    const now = 1_700_000_000_000_000;
    const busy = Array.from({length: 50}, (_, i) => device(`b${i}`, 'busy', now - 90 * MICROS_PER_SECOND));
    const idle = device('idle', 'idle', now - 86400 * MICROS_PER_SECOND);
    const never = device('never', 'never', null);
    const c = core([...busy, idle, never]);
    const written = simulateStats(c, new Prng(3, 'stats'), 60, now);
    expect(written).toBeGreaterThan(10);
    expect(written).toBeLessThan(50);
    const updated = busy.filter((d) => d.updatedAt === now);
    expect(updated).toHaveLength(written);
    for (const d of updated) {
      expect(d.latestHandshake! % MICROS_PER_SECOND).toBe(0);
      expect(now - d.latestHandshake!).toBeLessThanOrEqual(60 * MICROS_PER_SECOND);
      expect(d.rxBytes!).toBeGreaterThan(100);
      expect(d.remoteIp).not.toBeNull();
    }
    expect([idle.updatedAt, idle.latestHandshake]).toEqual([0, now - 86400 * MICROS_PER_SECOND]);
    expect([never.updatedAt, never.latestHandshake, never.rxBytes, never.remoteIp]).toEqual([0, null, null, null]);
  });

  it('runs on a timer that close() stops', async () => {
    // Only the interval is faked: the HTTP server keeps its real timers and sockets.
    vi.useFakeTimers({toFake: ['setInterval', 'clearInterval']});
    try {
      const live = await startSandbox({port: 0, seed: 'demo', statsIntervalSeconds: 0.2});
      try {
        const devices = async () => data<Array<{id: string; updated_at: string}>>(await send(live.url, 'GET', '/v0/devices', {token: live.adminToken}));
        const before = await devices();
        expect(vi.getTimerCount()).toBe(1);
        vi.advanceTimersByTime(200);
        const after = await devices();
        expect(after.filter((d, i) => d.updated_at !== before[i]!.updated_at).length).toBeGreaterThan(0);
      } finally {
        await live.close();
      }
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
