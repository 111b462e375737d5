// One shared instance per repeated value of a decoded list (docs/architecture.md, "Refreshing 50k
// devices"). JSON.parse makes a new string for every occurrence, so 50k devices held 50k copies of
// the server's public key, the endpoint, their owners' ids and the same few allowed-IPs and DNS
// lists: some 8 of a device's ~20 heap objects. Shared, they make the heap smaller and, more to
// the point, leave the collector fewer objects to mark while a refresh runs.
import type {Device} from './schemas.js';

/** Past this many distinct values a pool starts again (a server of unique names must not grow it forever). */
const MAX_ENTRIES = 1 << 16;

export class ValuePool {
  private strings = new Map<string, string>();
  private lists = new Map<string, readonly string[]>();

  /** The pooled instance of an equal string. */
  string<S extends string | null>(value: S): S {
    if (value === null) return value;
    const hit = this.strings.get(value);
    if (hit !== undefined) return hit as S;
    if (this.strings.size >= MAX_ENTRIES) this.strings = new Map();
    this.strings.set(value, value);
    return value;
  }

  /**
   * The pooled instance of an equal list of strings, frozen: devices share it, so a change made
   * through one would show in all (nothing changes a decoded list; freezing makes sure).
   */
  list(value: string[] | null): string[] | null {
    if (value === null) return null;
    // JSON text, not a join: ["a,b"] and ["a", "b"] must not meet.
    const key = JSON.stringify(value);
    let hit = this.lists.get(key);
    if (hit === undefined) {
      if (this.lists.size >= MAX_ENTRIES) this.lists = new Map();
      hit = Object.freeze(value.map((s) => this.string(s)));
      this.lists.set(key, hit);
    }
    return hit as string[];
  }
}

/**
 * Points a freshly parsed device's repeated values at the pool's instances, in place. Only fields
 * that repeat across devices: ids, keys and times are unique per device and would only fill the pool.
 */
export function poolDeviceValues(pool: ValuePool, d: Device): void {
  d.user_id = pool.string(d.user_id);
  d.name = pool.string(d.name);
  d.description = pool.string(d.description);
  d.server_public_key = pool.string(d.server_public_key);
  d.endpoint = pool.string(d.endpoint);
  d.allowed_ips = pool.list(d.allowed_ips);
  d.dns = pool.list(d.dns);
}
