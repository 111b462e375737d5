// Devices given a new key between two polls: 0.7.36 keeps a device's public key for good (an
// update ignores it), so `K` — and any client that does the same — deletes the device and creates
// it again. The Activity screen reports that pair as one change, not a deletion and a creation.
import type {DeviceRow} from '../data/snapshot.js';

/**
 * Devices deleted and created again between two polls with the same owner, name and addresses and
 * another public key: one device given a new key. Each new row → the row it replaces; null when
 * there is none. `steps` are the device scan's (snapshot-diff.ts), whose `created` ones are the new
 * rows. Only a pair nothing else shares what it keeps is taken (0.7.36 gives no two devices one
 * address; a server that does gets a deletion and a creation, as before). Linear.
 */
export function replacements(steps: readonly {readonly kind: string; readonly b: DeviceRow}[], gone: readonly DeviceRow[]): Map<DeviceRow, DeviceRow> | null {
  if (gone.length === 0 || !steps.some((step) => step.kind === 'created')) return null;
  const goneByKept = byKept(gone);
  const createdByKept = byKept(steps.filter((step) => step.kind === 'created').map((step) => step.b));
  let out: Map<DeviceRow, DeviceRow> | null = null;
  for (const [key, b] of createdByKept) {
    const a = goneByKept.get(key);
    if (b !== null && a != null && a.publicKey !== b.publicKey) (out ??= new Map()).set(b, a);
  }
  return out;
}

/** Rows by what a new key keeps of them; null where two rows keep the same. */
function byKept(rows: readonly DeviceRow[]): Map<string, DeviceRow | null> {
  const out = new Map<string, DeviceRow | null>();
  for (const row of rows) {
    const key = keptOf(row);
    out.set(key, out.has(key) ? null : row);
  }
  return out;
}

/** What a new key keeps of a device: owner, name and addresses (JSON: any text is unambiguous). */
const keptOf = (row: DeviceRow): string => JSON.stringify([row.userId, row.name, row.ipv4, row.ipv6]);
