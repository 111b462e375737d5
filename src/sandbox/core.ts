// State and helpers every resource module shares: the store, the resolved settings, the PRNG
// streams, the server key, and 0.7.36's id-shape and permission rules
// (docs/firezone-0.7.36.md, "Roles and permissions" and "Users: lookup by id or email").

import {randomUUID} from 'node:crypto';
import {Crash, Forbidden, NotFound} from './errors.js';
import type {Prng} from './prng.js';
import type {Settings} from './settings.js';
import type {Store, UserRow} from './store.js';
import {nowMicros} from './time.js';

export interface SandboxCore {
  readonly store: Store;
  readonly settings: Settings;
  readonly serverPublicKey: string;
  readonly random: {
    readonly alloc: Prng;
    readonly names: Prng;
    readonly stats: Prng;
    readonly faults: Prng;
  };
  readonly log: (line: string) => void;
}

/** The authenticated caller; permissions are recomputed from the current user row on every request. */
export interface Subject {
  readonly user: UserRow;
}

export const now = nowMicros;
export const newId = (): string => randomUUID();

/** FzHttp.Validator.valid_uuid?/1: 36 bytes with "-" at byte offsets 8, 13, 18 and 23; characters unchecked. */
export function isUuidShaped(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const bytes = Buffer.from(value, 'utf8');
  return bytes.length === 36 && bytes[8] === 0x2d && bytes[13] === 0x2d && bytes[18] === 0x2d && bytes[23] === 0x2d;
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * Ecto.UUID.cast of a UUID-shaped id inside a query: canonical lowercase, or an
 * Ecto.Query.CastError (the empty 500) when the characters are not hex.
 */
export function queryUuid(value: string): string {
  if (!UUID.test(value)) throw new Crash(`Ecto.Query.CastError: ${JSON.stringify(value)} is not a UUID`);
  return value.toLowerCase();
}

/** Ecto.UUID.dump: a hyphenated hex UUID or a raw 16-byte binary; null when it cannot be dumped. */
export function dumpUuid(value: string): string | null {
  if (UUID.test(value)) return value.toLowerCase();
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length === 16) {
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  return null;
}

export const isAdmin = (subject: Subject): boolean => subject.user.role === 'admin';

/** `User:manage`, `Rule:manage`, `Configuration:manage`, `Device:manage`: the admin role only. */
export function requireAdmin(subject: Subject): void {
  if (!isAdmin(subject)) throw new Forbidden();
}

/** Users are addressed by id (UUID-shaped) or, otherwise, by case-insensitive email. */
export function findUser(core: SandboxCore, key: string): UserRow {
  const user = isUuidShaped(key) ? core.store.users.get(queryUuid(key)) : core.store.userByEmail(key);
  if (!user) throw new NotFound();
  return user;
}
