// startSandbox(): builds the settings, store, seed and HTTP server, and returns the handle tests and
// the CLI use. The order matters: the server listens first (port 0 must resolve before EXTERNAL_URL,
// the default endpoint and the SAML base URL can be known), then the store is seeded synchronously,
// so no request is served before the data exists.

import {createPrivateKey, createPublicKey, randomBytes} from 'node:crypto';
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {tokenJwt} from './auth/auth.js';
import type {SandboxCore} from './core.js';
import {applyFault, muteAnswer, repeatFirstId, type FaultSettings} from './http/faults.js';
import {handleApi, redirectToPrefix, type ApiContext} from './http/api.js';
import {handleControl} from './http/control.js';
import {sendEmpty500} from './http/respond.js';
import {Prng} from './prng.js';
import {formatCidr} from './inet.js';
import {DEMO_DEFAULTS, MAX_SEED_RULES, seedStore} from './seed.js';
import {networkCapacity, Settings, SettingsError} from './settings.js';
import {simulateStats} from './stats.js';
import {Store} from './store.js';
import {nowMicros} from './time.js';
import type {SandboxHandle, SandboxOptions} from './types.js';

/** Upstream's docker `gen-env` networks, used when a large seed does not fit the legacy defaults. */
const LARGE_IPV4_NETWORK = '100.64.0.0/10';
const LARGE_IPV6_NETWORK = 'fd00::/106';

function checkCount(name: string, value: number | undefined, max: number): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 0 || value > max)) {
    throw new SettingsError(`${name} must be an integer between 0 and ${max}, got ${value}`);
  }
}

/** X25519 key pair from 32 seed bytes: the raw key wrapped in its fixed PKCS#8 prefix. */
function serverPublicKey(seed: Buffer): string {
  const der = Buffer.concat([Buffer.from('302e020100300506032b656e04220420', 'hex'), seed]);
  // DER, not JWK: see generateKeyPair in src/wireguard/keys.ts (a JWK export can hang Node 20). The raw key ends the SPKI.
  const spki = createPublicKey(createPrivateKey({key: der, format: 'der', type: 'pkcs8'})).export({format: 'der', type: 'spki'});
  return spki.subarray(spki.length - 32).toString('base64');
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 13000;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new SettingsError(`port must be an integer between 0 and 65535, got ${port}`);
  checkCount('devices', options.devices, 1_000_000);
  checkCount('users', options.users, 1_000_000);
  checkCount('rules', options.rules, MAX_SEED_RULES);
  const seedKind = options.seed ?? 'empty';
  const randomSeed = options.randomSeed ?? 1;
  const statsInterval = options.statsIntervalSeconds ?? 60;
  if (!(statsInterval >= 0)) throw new SettingsError(`statsIntervalSeconds must be ≥ 0, got ${statsInterval}`);
  const latencyMs = options.latencyMs ?? 0;
  if (!(latencyMs >= 0)) throw new SettingsError(`latencyMs must be ≥ 0, got ${latencyMs}`);
  const log = options.log ?? ((): void => {});
  const env = {...(options.env ?? {})};
  const plan =
    seedKind === 'demo'
      ? {
          kind: 'demo' as const,
          users: Math.max(2, options.users ?? DEMO_DEFAULTS.users),
          devices: options.devices ?? DEMO_DEFAULTS.devices,
          rules: options.rules ?? DEMO_DEFAULTS.rules,
        }
      : {kind: 'empty' as const, users: 2, devices: 0, rules: 0};

  // Settings are built once with a provisional URL to reject bad options before binding a port.
  const networkOptions = {ipv4Network: options.ipv4Network, ipv6Network: options.ipv6Network};
  let settings = new Settings({env, externalUrl: `http://${urlHost(host)}:${port}`, maxDevicesPerUser: options.maxDevicesPerUser, ...networkOptions});
  const needed = BigInt(plan.devices);
  const ipv4Given = options.ipv4Network !== undefined || 'WIREGUARD_IPV4_NETWORK' in env;
  const ipv6Given = options.ipv6Network !== undefined || 'WIREGUARD_IPV6_NETWORK' in env;
  const switched: string[] = [];
  for (const [family, net, given] of [
    [4, settings.ipv4, ipv4Given],
    [6, settings.ipv6, ipv6Given],
  ] as const) {
    if (!net.enabled || networkCapacity(net) >= needed) continue;
    if (given)
      throw new SettingsError(`${plan.devices} devices do not fit the IPv${family} network ${formatCidr(net.network)} (${networkCapacity(net)} addresses)`);
    if (family === 4) networkOptions.ipv4Network = LARGE_IPV4_NETWORK;
    else networkOptions.ipv6Network = LARGE_IPV6_NETWORK;
    switched.push(family === 4 ? LARGE_IPV4_NETWORK : LARGE_IPV6_NETWORK);
  }

  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => sendEmpty500(res);
  const server = createServer({keepAliveTimeout: 5_000}, (req, res) => handler(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  const url = `http://${urlHost(host)}:${actualPort}`;

  try {
    settings = new Settings({env, externalUrl: url, maxDevicesPerUser: options.maxDevicesPerUser, ...networkOptions});
  } catch (e) {
    server.close();
    throw e;
  }
  if (switched.length > 0)
    log(`sandbox: ${plan.devices} devices need more addresses than the default networks hold; using ${switched.join(' and ')} (upstream docker defaults)`);

  const seedRandom = new Prng(randomSeed, 'seed');
  const started = nowMicros();
  const installedAt = plan.kind === 'demo' ? started - 420 * 86_400_000_000 : started;
  const store = new Store(settings.initialConfig(seedRandom.uuid(), installedAt));
  const core: SandboxCore = {
    store,
    settings,
    serverPublicKey: serverPublicKey(new Prng(randomSeed, 'server-key').bytes(32)),
    random: {
      alloc: new Prng(randomSeed, 'alloc'),
      names: new Prng(randomSeed, 'names'),
      stats: new Prng(randomSeed, 'stats'),
      faults: new Prng(randomSeed, 'faults'),
    },
    log,
  };
  const seedStart = performance.now();
  const seeded = seedStore(core, plan, seedRandom, started);
  const seedMs = performance.now() - seedStart;
  const jwtSecret = options.jwtSecret ?? env.GUARDIAN_SECRET_KEY ?? randomBytes(48).toString('base64');
  const adminToken = tokenJwt(jwtSecret, seeded.adminToken);
  const unprivilegedToken = tokenJwt(jwtSecret, seeded.unprivilegedToken);

  const faults: FaultSettings = {mode: 'none', rate: 0, latencyMs: 0, hung: 0};
  const apiContext: ApiContext = {core, jwtSecret};
  const controlContext = {core, jwtSecret, faults};
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timer.unref();
      timers.add(timer);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    const rawPath = q < 0 ? target : target.slice(0, q);
    const query = q < 0 ? '' : target.slice(q + 1);
    res.once('close', () => {
      const status = res.writableFinished ? String(res.statusCode) : 'aborted';
      log(`${req.method} ${rawPath} ${status} ${(performance.now() - started).toFixed(1)}ms`);
    });
    if (rawPath === '/_sandbox' || rawPath.startsWith('/_sandbox/')) {
      await handleControl(controlContext, req, res, rawPath);
      return;
    }
    let path = rawPath;
    const prefix = settings.pathPrefix;
    if (prefix !== '') {
      if (path !== prefix && !path.startsWith(`${prefix}/`)) {
        redirectToPrefix(req, res, `${prefix}${path}${q < 0 ? '' : target.slice(q)}`);
        return;
      }
      path = path.slice(prefix.length) || '/';
    }
    if (path.split('/').find((s) => s !== '') === 'v0') {
      const delay = latencyMs + faults.latencyMs;
      if (delay > 0) await sleep(delay);
      if (closed) return;
      if (faults.mode !== 'none' && core.random.faults.chance(faults.rate)) {
        const isList = req.method === 'GET' && path.split('/').filter((s) => s !== '').length === 2;
        const mode = faults.mode;
        if (mode === 'duplicate-id') {
          // Answered as usual below, the list rewritten on its way out.
          if (isList) repeatFirstId(res);
        } else {
          if (mode === 'apply-hang') muteAnswer(res);
          if (mode === 'apply-hang' || !applyFault(mode, res, isList)) {
            faults.hung++;
            res.once('close', () => faults.hung--);
          }
          if (mode !== 'apply-hang') return;
        }
      }
    }
    await handleApi(apiContext, req, res, path, query);
  };
  handler = (req, res) => {
    handle(req, res).catch((e: unknown) => {
      log(`sandbox error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      sendEmpty500(res);
    });
  };

  let statsTimer: NodeJS.Timeout | null = null;
  if (statsInterval > 0) {
    statsTimer = setInterval(() => simulateStats(core, core.random.stats, statsInterval, nowMicros()), statsInterval * 1000);
    statsTimer.unref();
  }

  log(
    `sandbox: ${url} (${seedKind} seed: ${store.users.size} users, ${store.devices.size} devices, ${store.rules.size} rules, seeded in ${seedMs.toFixed(0)} ms)`,
  );

  return {
    url,
    adminToken,
    unprivilegedToken,
    close: async () => {
      if (closed) return;
      closed = true;
      if (statsTimer) clearInterval(statsTimer);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
