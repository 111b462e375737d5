import {createHmac} from 'node:crypto';
import {describe, expect, it} from 'vitest';
import {authenticate, bearerToken} from '../../src/sandbox/auth/auth.js';
import type {SandboxCore} from '../../src/sandbox/core.js';
import {Store, type ConfigRow, type TokenRow, type UserRow} from '../../src/sandbox/store.js';
import {signJwt, signToken, verifyToken} from '../../src/sandbox/auth/jwt.js';

const SECRET = 'dGVzdC1ndWFyZGlhbi1zZWNyZXQta2V5LWJhc2U2NA==';
const NOW = 1_700_000_000;

// See docs/firezone-0.7.36.md, "The bearer JWT" and "Authentication and the three 401 shapes".
describe('HS512 tokens', () => {
  it('signs the Guardian claims and verifies them', () => {
    const token = signToken(SECRET, {api: '8c6a1c2e-3c0e-4f55-9a1e-0d2b7b7d9a11', exp: NOW + 3600, sub: 'u'}, NOW);
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>);
    expect(header).toEqual({alg: 'HS512', typ: 'JWT'});
    expect(payload).toMatchObject({
      api: '8c6a1c2e-3c0e-4f55-9a1e-0d2b7b7d9a11',
      aud: 'fz_http',
      iss: 'fz_http',
      typ: 'access',
      iat: NOW,
      nbf: NOW - 1,
      exp: NOW + 3600,
      sub: 'u',
    });
    expect(typeof payload!.jti).toBe('string');
    const verified = verifyToken(SECRET, token, NOW);
    expect(verified.kind).toBe('ok');
  });

  it('uses the raw bytes of the secret string as the HMAC key (not base64-decoded)', () => {
    const token = signJwt(SECRET, {api: 'x'});
    expect(verifyToken(SECRET, token, NOW).kind).toBe('ok');
    expect(verifyToken(Buffer.from(SECRET, 'base64').toString('latin1'), token, NOW)).toEqual({kind: 'invalid', reason: 'invalid_token'});
  });

  it('exp < now is invalid (no drift); exp == now is still valid; nbf in the future is invalid', () => {
    expect(verifyToken(SECRET, signJwt(SECRET, {exp: NOW - 1}), NOW)).toEqual({kind: 'invalid', reason: 'token_expired'});
    expect(verifyToken(SECRET, signJwt(SECRET, {exp: NOW}), NOW).kind).toBe('ok');
    expect(verifyToken(SECRET, signJwt(SECRET, {nbf: NOW + 5}), NOW)).toEqual({kind: 'invalid', reason: 'token_not_yet_valid'});
  });

  it('another secret or HS256 is invalid_token', () => {
    expect(verifyToken(SECRET, signJwt('other', {api: 'x'}), NOW).kind).toBe('invalid');
    expect(verifyToken(SECRET, signJwt(SECRET, {api: 'x'}, {alg: 'HS256', typ: 'JWT'}), NOW).kind).toBe('invalid');
  });

  it("a token that is not three parts is invalid_token (Guardian rescues JOSE's badarg), not a crash", () => {
    for (const token of ['not-a-jwt-but-a-long-secret-string', 'garbage', 'a.b', 'a.b.c.d', '']) {
      expect(verifyToken(SECRET, token, NOW), token).toEqual({kind: 'invalid', reason: 'invalid_token'});
    }
  });

  it('three parts JOSE cannot decode make it raise (the handler then crashes: empty 500, #1715)', () => {
    expect(verifyToken(SECRET, '!!!.e30.sig', NOW).kind).toBe('crash');
    expect(verifyToken(SECRET, `${Buffer.from('{}').toString('base64url')}.e30.c2ln`, NOW).kind).toBe('crash');
  });

  it('each undecodable part is a crash of its own; a well-signed token of another algorithm is invalid_token', () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    const header = b64('{"alg":"HS512","typ":"JWT"}');
    // A segment of 4n+1 characters cannot be base64url; neither can one with a "+" or "=".
    expect(verifyToken(SECRET, `${header}.e30.abcde`, NOW)).toEqual({kind: 'crash', reason: 'JOSE: undecodable signature'});
    expect(verifyToken(SECRET, `${header}.e30.ab+c`, NOW)).toEqual({kind: 'crash', reason: 'JOSE: undecodable signature'});
    expect(verifyToken(SECRET, `${b64('{"alg":"HS512"')}.e30.abcd`, NOW)).toEqual({kind: 'crash', reason: 'JOSE: undecodable protected header'});
    expect(verifyToken(SECRET, `${b64('{"alg":5}')}.e30.abcd`, NOW)).toEqual({kind: 'crash', reason: 'JOSE: undecodable protected header'});
    expect(verifyToken(SECRET, `${Buffer.from([0xff, 0xfe]).toString('base64url')}.e30.abcd`, NOW)).toEqual({
      kind: 'crash',
      reason: 'JOSE: undecodable protected header',
    });
    expect(verifyToken(SECRET, `${b64('{"alg":"none"}')}.e30.abcd`, NOW)).toEqual({kind: 'invalid', reason: 'invalid_token'});
    // Signed right, but its payload is not a JSON object.
    const signedPayload = (payload: string) => {
      const token = signJwt(SECRET, {});
      const [h] = token.split('.');
      const body = b64(payload);
      const mac = createHmac('sha512', Buffer.from(SECRET, 'utf8')).update(`${h}.${body}`).digest('base64url');
      return `${h}.${body}.${mac}`;
    };
    expect(verifyToken(SECRET, signedPayload('[1]'), NOW)).toEqual({kind: 'crash', reason: 'JOSE: undecodable payload'});
    expect(verifyToken(SECRET, signedPayload('{"exp":"soon","nbf":"later"}'), NOW)).toEqual({kind: 'ok', claims: {exp: 'soon', nbf: 'later'}});
    expect(verifyToken(SECRET, signedPayload(`{"nbf":${NOW}}`), NOW).kind).toBe('ok');
    expect(verifyToken(SECRET, signedPayload(`{"nbf":${NOW + 1}}`), NOW)).toEqual({kind: 'invalid', reason: 'token_not_yet_valid'});
    // A signature one byte short is compared by length first, never thrown on.
    const short = signedPayload('{}').slice(0, -3);
    expect(verifyToken(SECRET, short, NOW)).toEqual({kind: 'invalid', reason: 'invalid_token'});
  });
});

describe('Bearer header (Guardian VerifyHeader)', () => {
  it.each([
    [['Bearer abc'], 'abc'],
    [['bearer abc'], 'abc'],
    [['BEARER   abc  '], 'abc'],
    [['Bearer: abc'], 'abc'],
    [['xxBearer abc'], 'abc'],
    [['Basic zzz', 'Bearer second'], 'second'],
    [['Bearer'], null],
    [['Token abc'], null],
    [[], null],
  ])('%j → %s', (values, expected) => {
    expect(bearerToken(values)).toBe(expected);
  });
});

describe('the token row decides, not only the JWT', () => {
  it('refuses a token whose row has expired while its JWT is still within exp: no_resource_found', () => {
    const store = new Store({} as ConfigRow);
    const user: UserRow = {
      id: '0b9bd7d4-8f6e-4c37-a0c5-0b6b0bb0e0a1',
      email: 'admin@example.com',
      role: 'admin',
      passwordHash: null,
      disabledAt: null,
      lastSignedInAt: null,
      lastSignedInMethod: null,
      insertedAt: 0,
      updatedAt: 0,
    };
    store.users.set(user.id, user);
    const nowMicros = Date.now() * 1000;
    const row: TokenRow = {id: '8c6a1c2e-3c0e-4f55-9a1e-0d2b7b7d9a11', userId: user.id, expiresAt: nowMicros - 1_000_000, insertedAt: 0};
    store.tokens.set(row.id, row);
    const jwt = signToken(SECRET, {api: row.id, exp: Math.floor(Date.now() / 1000) + 3600, sub: user.id});
    const core = {store} as unknown as SandboxCore;
    expect(authenticate(core, SECRET, [`Bearer ${jwt}`])).toEqual({kind: 'error', type: 'no_resource_found'});
    // The same token with its row still live is let in.
    row.expiresAt = nowMicros + 3_600_000_000;
    expect(authenticate(core, SECRET, [`Bearer ${jwt}`]).kind).toBe('ok');
  });
});
