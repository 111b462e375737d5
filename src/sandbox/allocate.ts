// Device tunnel address allocation as 0.7.36 does it (docs/firezone-0.7.36.md, "IP allocation";
// Device.Query.next_available_address/3): pick a random offset o in [2, size-2], scan offsets
// o … size-2 upwards, then o-1 … 2 downwards, and take the first address that no device uses in
// that family and that is not the gateway. Offsets 0 and 1 and the broadcast address are never
// handed out. IPv6 networks are narrowed to at least /70 before this runs (Settings.effective).

import {bitsOf, type Ip} from './inet.js';
import type {Prng} from './prng.js';
import type {NetworkSettings} from './settings.js';

export function allocateAddress(net: NetworkSettings, taken: (ip: Ip) => boolean, random: Prng): Ip | null {
  const family = net.effective.ip.family;
  const hostBits = BigInt(bitsOf(family) - net.effective.prefix);
  const size = 1n << hostBits;
  if (size < 4n) return null;
  const base = (net.effective.ip.value >> hostBits) << hostBits;
  const top = size - 2n;
  const start = 2n + random.bigintBelow(top - 1n);
  const gateway = net.gateway.family === family ? net.gateway.value : -1n;
  const free = (offset: bigint): Ip | null => {
    const value = base + offset;
    if (value === gateway) return null;
    const ip: Ip = {family, value};
    return taken(ip) ? null : ip;
  };
  for (let offset = start; offset <= top; offset++) {
    const ip = free(offset);
    if (ip) return ip;
  }
  for (let offset = start - 1n; offset >= 2n; offset--) {
    const ip = free(offset);
    if (ip) return ip;
  }
  return null;
}
