// The JSON auth pipeline of 0.7.36 (docs/firezone-0.7.36.md, "Authentication and the three 401 shapes"):
// VerifyHeader → EnsureAuthenticated → LoadResource, with its three 401 types and the two ways it
// ends in an empty 500.

import {dumpUuid, type SandboxCore, type Subject} from '../core.js';
import type {TokenRow} from '../store.js';
import {nowMicros} from '../time.js';
import {signToken, verifyToken} from './jwt.js';

type AuthErrorType = 'unauthenticated' | 'invalid_token' | 'no_resource_found';

type AuthOutcome = {kind: 'ok'; subject: Subject; token: TokenRow} | {kind: 'error'; type: AuthErrorType} | {kind: 'crash'; reason: string};

/**
 * Guardian VerifyHeader: the first `authorization` value matching the case-insensitive,
 * unanchored `Bearer:?\s+(.*)$` after trimming; null when none does.
 */
export function bearerToken(values: readonly string[]): string | null {
  for (const value of values) {
    const m = /Bearer:?\s+(.*)$/i.exec(value.trim());
    if (m) return m[1]!.trim();
  }
  return null;
}

export function authenticate(core: SandboxCore, secret: string, authorization: readonly string[]): AuthOutcome {
  const token = bearerToken(authorization);
  if (token === null) return {kind: 'error', type: 'unauthenticated'};
  const verified = verifyToken(secret, token);
  if (verified.kind === 'crash') return verified;
  if (verified.kind === 'invalid') return {kind: 'error', type: 'invalid_token'};
  const {claims} = verified;
  // resource_from_claims/1 only has a clause for claims carrying "api" (HTML session tokens do not).
  if (!('api' in claims)) return {kind: 'crash', reason: 'FunctionClauseError: resource_from_claims/1 without an "api" claim'};
  const id = typeof claims.api === 'string' ? dumpUuid(claims.api) : null;
  if (id === null) return {kind: 'crash', reason: 'Ecto.Query.CastError: api claim is not a UUID'};
  const row = core.store.liveToken(id, nowMicros());
  const user = row ? core.store.users.get(row.userId) : undefined;
  if (!row || !user) return {kind: 'error', type: 'no_resource_found'};
  // disabled_at is deliberately not checked; permissions come from the user's current role.
  return {kind: 'ok', subject: {user}, token: row};
}

/** The JWT for a token row (what the web UI's "show token" page would display). */
export function tokenJwt(secret: string, row: TokenRow): string {
  return signToken(secret, {api: row.id, exp: Math.floor(row.expiresAt / 1_000_000), sub: row.userId});
}
