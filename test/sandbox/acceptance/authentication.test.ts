// Acceptance cases, "Authentication" and "Permissions" (docs/firezone-0.7.36.md, "Acceptance
// cases"); the suite's conventions and helpers are described in ./harness.ts.
import {randomUUID} from 'node:crypto';
import {describe, expect, it} from 'vitest';
import {
  JWT_SECRET,
  TS_RE,
  fresh,
  main,
  describeResponse,
  expectStatus,
  expectData,
  expectList,
  expectEmpty500,
  expectNotFound,
  expectUnauthorized,
  expectAuthError,
  publicKey,
  createUser,
  mintToken,
  adminWithToken,
  principals,
  createDevice,
  devicesOf,
  signJwt,
  claims,
  useSharedSandbox,
} from './harness.js';

useSharedSandbox();

describe('Acceptance: Authentication', () => {
  it('15.1 GET /v0/users without Authorization → 401 exactly {"errors":{"auth":"unauthenticated"}}, JSON content-type', async () => {
    expectAuthError(await main.anon.get('/v0/users'), 'unauthenticated');
  });

  it('15.2 correctly signed JWT whose api claim names no token row → 401 exactly no_resource_found', async () => {
    // Control: a JWT signed here for an existing row is accepted, so the sandbox verifies with jwtSecret.
    const row = await mintToken(main, main.adminId);
    expectList(await main.as(signJwt(claims(row.id, main.adminId))).get('/v0/users'));

    const full = signJwt(claims(randomUUID(), main.adminId));
    expectAuthError(await main.as(full).get('/v0/users'), 'no_resource_found');
    // The case's literal claim set: {"api": <random uuid>, "exp": now+1h}.
    const minimal = signJwt({api: randomUUID(), exp: Math.floor(Date.now() / 1000) + 3600});
    expectAuthError(await main.as(minimal).get('/v0/users'), 'no_resource_found');
  });

  it('15.3 token row deleted (revoked) → next request 401 no_resource_found', async () => {
    const p = await adminWithToken(main);
    expectList(await p.client.get('/v0/users'));
    const del = await main.admin.delete(`/_sandbox/tokens/${p.tokenId}`);
    expectStatus(del, 204);
    expectAuthError(await p.client.get('/v0/users'), 'no_resource_found');
  });

  it('15.4 token whose exp is in the past → 401 invalid_token', async () => {
    const row = await mintToken(main, main.adminId);
    const now = Math.floor(Date.now() / 1000);
    const expired = signJwt(claims(row.id, main.adminId, {exp: now - 60, iat: now - 3600, nbf: now - 3601}));
    expectAuthError(await main.as(expired).get('/v0/users'), 'invalid_token');
  });

  it('15.5 JWT signed with a different secret, or with HS256 → 401 invalid_token', async () => {
    const row = await mintToken(main, main.adminId);
    const otherSecret = signJwt(claims(row.id, main.adminId), 'some-other-secret-entirely-0123456789');
    expectAuthError(await main.as(otherSecret).get('/v0/users'), 'invalid_token');
    const hs256 = signJwt(claims(row.id, main.adminId), JWT_SECRET, 'HS256');
    expectAuthError(await main.as(hs256).get('/v0/users'), 'invalid_token');
  });

  it('15.6 Authorization: BEARER <valid jwt> → 200 (scheme case-insensitive)', async () => {
    const upper = await main.admin.get('/v0/users', {authorization: `BEARER ${main.sb.adminToken}`});
    expect(expectList(upper).map((u) => u.id)).toContain(main.adminId);
    expectList(await main.admin.get('/v0/users', {authorization: `bearer ${main.sb.adminToken}`}));
  });

  it('15.7 token of an admin whose disabled_at is set → requests still succeed', async () => {
    const p = await adminWithToken(main);
    const disabledAt = new Date().toISOString();
    const ctl = await main.admin.put(`/_sandbox/users/${p.id}`, {disabled_at: disabledAt, last_signed_in_at: null, last_signed_in_method: null});
    expect([200, 204], describeResponse(ctl)).toContain(ctl.status);
    // The control call took effect: the user is disabled.
    expect(expectData(await main.admin.get(`/v0/users/${p.id}`)).disabled_at).toMatch(TS_RE);
    expect(expectList(await p.client.get('/v0/users')).map((u) => u.id)).toContain(p.id);
  });

  it('15.8 Accept: text/html, no token, GET /v0/users → 500 empty body (0.7.36 double fault)', async () => {
    expectEmpty500(await main.anon.get('/v0/users', {accept: 'text/html'}));
  });
});

describe('Acceptance: Permissions (token U; the seed unprivileged token must behave the same)', () => {
  it('15.9 U GET /v0/users → 401 exactly {"error":"Unauthorized"}', async () => {
    for (const p of await principals(main)) expectUnauthorized(await p.client.get('/v0/users'));
  });

  it('15.10 U GET /v0/users/<own id> → 401 {"error":"Unauthorized"}', async () => {
    for (const p of await principals(main)) expectUnauthorized(await p.client.get(`/v0/users/${p.id}`));
  });

  it('15.11 U GET /v0/rules → 401 {"error":"Unauthorized"}', async () => {
    for (const p of await principals(main)) expectUnauthorized(await p.client.get('/v0/rules'));
  });

  it('15.12 U GET /v0/configuration → 401 {"error":"Unauthorized"}', async () => {
    for (const p of await principals(main)) expectUnauthorized(await p.client.get('/v0/configuration'));
  });

  it('15.13 U GET /v0/devices with 1 own and 1 foreign device → 200, only own devices', async () => {
    for (const p of await principals(main)) {
      const other = await createUser(main);
      const own = await createDevice(main, p.id);
      const foreign = await createDevice(main, String(other.id));
      const list = expectList(await p.client.get('/v0/devices'));
      const ids = list.map((d) => String(d.id)).sort();
      expect(ids, p.label).toContain(own.id);
      expect(ids, p.label).not.toContain(foreign.id);
      // Exactly the caller's devices (the demoted U has only the one created here).
      expect(ids, p.label).toEqual(await devicesOf(main, p.id));
      if (p.label.startsWith('U')) expect(ids, p.label).toEqual([own.id]);
      expect(
        list.find((d) => d.id === own.id),
        p.label,
      ).toEqual(own);
    }
  });

  it('15.14 U GET /v0/devices/<foreign device id> → 404 {"error":"not_found"} (own → 200)', async () => {
    for (const p of await principals(main)) {
      const other = await createUser(main);
      const own = await createDevice(main, p.id);
      const foreign = await createDevice(main, String(other.id));
      expect(expectData(await p.client.get(`/v0/devices/${own.id}`)), p.label).toEqual(own);
      expectNotFound(await p.client.get(`/v0/devices/${foreign.id}`));
    }
  });

  it('15.15 U POST /v0/devices with own user_id → 401 {"error":"Unauthorized"}, nothing created', async () => {
    for (const p of await principals(main)) {
      const before = await devicesOf(main, p.id);
      expectUnauthorized(await p.client.post('/v0/devices', {device: {user_id: p.id, public_key: publicKey()}}));
      expect(await devicesOf(main, p.id), p.label).toEqual(before);
    }
  });

  it('15.16 U PUT /v0/devices/<own id> {"device":{"name":"x"}} → 200 name "x"', async () => {
    for (const p of await principals(main)) {
      const own = await createDevice(main, p.id);
      const updated = expectData(await p.client.put(`/v0/devices/${own.id}`, {device: {name: 'x'}}));
      expect(updated.name, p.label).toBe('x');
      expect(updated.id, p.label).toBe(own.id);
      expect(expectData(await main.admin.get(`/v0/devices/${own.id}`)).name, p.label).toBe('x');
    }
  });

  // The upstream case list says "Same as 20"; the evident meaning is case 16 (U renaming an own device).
  it('15.17 case 16 with ALLOW_UNPRIVILEGED_DEVICE_MANAGEMENT=false → 401 {"error":"Unauthorized"}', async () => {
    const ctx = await fresh({env: {ALLOW_UNPRIVILEGED_DEVICE_MANAGEMENT: 'false'}});
    for (const p of await principals(ctx)) {
      const own = await createDevice(ctx, p.id);
      expectUnauthorized(await p.client.put(`/v0/devices/${own.id}`, {device: {name: 'x'}}));
      // Viewing own devices is still allowed, and the name did not change.
      expect(expectData(await p.client.get(`/v0/devices/${own.id}`)).name, p.label).toBe(own.name);
    }
  });

  it('15.18 U DELETE /v0/devices/<foreign id> → 404 {"error":"not_found"}, device kept', async () => {
    for (const p of await principals(main)) {
      const other = await createUser(main);
      const foreign = await createDevice(main, String(other.id));
      expectNotFound(await p.client.delete(`/v0/devices/${foreign.id}`));
      expect(expectData(await main.admin.get(`/v0/devices/${foreign.id}`)).id, p.label).toBe(foreign.id);
    }
  });
});
