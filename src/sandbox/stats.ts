// The stats collector of 0.7.36 (docs/firezone-0.7.36.md, "Stats writes bump updated_at"), simulated: every interval WireGuard reports
// each peer and StatsUpdater writes latest_handshake (Unix seconds), remote_ip and rx/tx bytes of
// the peers it saw; a write is an ordinary update, so updated_at moves too. Never-connected peers
// are never written, idle ones report nothing new (an unchanged row is not updated).

import type {SandboxCore} from './core.js';
import type {Prng} from './prng.js';
import {publicLookingIp} from './seed.js';
import type {DeviceRow} from './store.js';
import {MICROS_PER_SECOND} from './time.js';

/** Share of connected devices that report a fresh handshake and traffic on a given tick. */
const ACTIVE_SHARE = 0.6;

/** A stable per-device traffic rate (bytes/second) so a device looks consistently busy or quiet. */
function rates(device: DeviceRow): {rx: number; tx: number} {
  let h = 0;
  for (let i = 0; i < 8; i++) h = (h * 31 + device.publicKey.charCodeAt(i)) >>> 0;
  const rx = 2_000 + (h % 1_500_000);
  return {rx, tx: Math.floor(rx * (0.1 + ((h >>> 8) % 50) / 100))};
}

export function simulateStats(core: SandboxCore, random: Prng, intervalSeconds: number, now: number): number {
  const nowSeconds = Math.floor(now / MICROS_PER_SECOND);
  let written = 0;
  for (const device of core.store.devices.values()) {
    if (device.sim !== 'busy' || !random.chance(ACTIVE_SHARE)) continue;
    const {rx, tx} = rates(device);
    const jitter = 0.5 + random.next();
    device.latestHandshake = (nowSeconds - random.int(0, Math.min(110, Math.max(0, Math.floor(intervalSeconds))))) * MICROS_PER_SECOND;
    // a roaming client now and then comes back from another address
    if (device.remoteIp === null || random.chance(0.02)) device.remoteIp = publicLookingIp(random);
    device.rxBytes = (device.rxBytes ?? 0) + Math.floor(rx * intervalSeconds * jitter);
    device.txBytes = (device.txBytes ?? 0) + Math.floor(tx * intervalSeconds * jitter);
    device.updatedAt = now;
    device.cache = null;
    written++;
  }
  return written;
}
