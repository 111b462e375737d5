// HS512 JWTs as Guardian 2.3 / JOSE 1.11 produce and check them (docs/firezone-0.7.36.md, "The bearer JWT" and
// "Authentication and the three 401 shapes").
// The HMAC key is the raw bytes of the secret string (GUARDIAN_SECRET_KEY is not base64-decoded).

import {createHmac, randomUUID, timingSafeEqual} from 'node:crypto';
import {encodeJson, isParamsMap, JsonSyntaxError, parseJson, type Params} from '../json.js';

const b64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

interface TokenClaims {
  /** api_tokens.id — the only claim used to find the token. */
  api: string;
  /** expires_at as Unix seconds (truncated). */
  exp: number;
  /** The owning user's id. */
  sub: string;
}

/** Mints the JWT 0.7.36 shows for an api_tokens row (fresh `jti`/`iat` each time). */
export function signToken(secret: string, claims: TokenClaims, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const payload = {
    aud: 'fz_http',
    iss: 'fz_http',
    typ: 'access',
    jti: randomUUID(),
    iat: nowSeconds,
    nbf: nowSeconds - 1,
    ...claims,
  };
  return signJwt(secret, payload);
}

/** Signs arbitrary claims with HS512 (tests use it to build tokens 0.7.36 would never issue). */
export function signJwt(secret: string, claims: Record<string, unknown>, header: Record<string, unknown> = {alg: 'HS512', typ: 'JWT'}): string {
  const signingInput = `${b64url(encodeJson(header))}.${b64url(encodeJson(claims))}`;
  const signature = createHmac(String(header.alg).toUpperCase() === 'HS256' ? 'sha256' : 'sha512', Buffer.from(secret, 'utf8'))
    .update(signingInput)
    .digest();
  return `${signingInput}.${b64url(signature)}`;
}

type VerifyResult =
  | {kind: 'ok'; claims: Params}
  /** Guardian returned `{:error, atom}` → 401 `invalid_token`. */
  | {kind: 'invalid'; reason: 'invalid_token' | 'token_expired' | 'token_not_yet_valid'}
  /** JOSE raised while decoding: the JSON auth error handler then raises too (empty 500, #1715). */
  | {kind: 'crash'; reason: string};

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function decodeSegment(segment: string): Buffer | null {
  if (!BASE64URL.test(segment) || segment.length % 4 === 1) return null;
  return Buffer.from(segment, 'base64url');
}

function decodeJsonSegment(segment: string): unknown {
  const bytes = decodeSegment(segment);
  if (!bytes) return undefined;
  try {
    return parseJson(new TextDecoder('utf-8', {fatal: true}).decode(bytes));
  } catch (e) {
    if (e instanceof JsonSyntaxError || e instanceof TypeError) return undefined;
    throw e;
  }
}

/** JOSE `verify_strict(key, ["HS512"], token)` then Guardian's `exp`/`nbf` checks (no drift, `iss`/`typ` unchecked). */
export function verifyToken(secret: string, token: string, nowSeconds = Math.floor(Date.now() / 1000)): VerifyResult {
  const parts = token.split('.');
  // JOSE's do_expand raises {badarg,[Token]} for anything but three parts, inside Guardian's
  // Token.Jwt.peek/2, which rescues it: `decode_token` returns {:error, :invalid_token} (a 401, not
  // the empty 500 of an exception that escapes Guardian; docs/firezone-0.7.36.md, "The bearer JWT").
  if (parts.length !== 3) return {kind: 'invalid', reason: 'invalid_token'};
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodeJsonSegment(headerPart);
  if (!isParamsMap(header) || typeof header.alg !== 'string') return {kind: 'crash', reason: 'JOSE: undecodable protected header'};
  const signature = decodeSegment(signaturePart);
  if (!signature) return {kind: 'crash', reason: 'JOSE: undecodable signature'};
  if (header.alg !== 'HS512') return {kind: 'invalid', reason: 'invalid_token'};
  const expected = createHmac('sha512', Buffer.from(secret, 'utf8')).update(`${headerPart}.${payloadPart}`).digest();
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return {kind: 'invalid', reason: 'invalid_token'};
  const claims = decodeJsonSegment(payloadPart);
  if (!isParamsMap(claims)) return {kind: 'crash', reason: 'JOSE: undecodable payload'};
  if (typeof claims.exp === 'number' && claims.exp < nowSeconds) return {kind: 'invalid', reason: 'token_expired'};
  if (typeof claims.nbf === 'number' && claims.nbf > nowSeconds) return {kind: 'invalid', reason: 'token_not_yet_valid'};
  return {kind: 'ok', claims};
}
