// Acceptance cases, "Users" (docs/firezone-0.7.36.md, "Acceptance cases"); the suite's conventions
// and helpers are described in ./harness.ts.
import {randomUUID} from 'node:crypto';
import {describe, expect, it} from 'vitest';
import {
  JSON_CT,
  UUID_RE,
  TS_RE,
  UNKNOWN_UUID,
  NON_HEX_UUID,
  USER_KEYS,
  SHORT_PASSWORD_ERRORS,
  fresh,
  main,
  expectBody,
  expectData,
  expectList,
  expectEmpty500,
  expectNoContent,
  expectNotFound,
  expect422,
  uniqueEmail,
  createUser,
  adminWithToken,
  createDevice,
  listIds,
  useSharedSandbox,
} from './harness.js';

useSharedSandbox();

describe('Acceptance: Users', () => {
  it('15.19 GET /v0/users (A) with 3 extra admins → 200, ids == all user ids', async () => {
    const ctx = await fresh();
    const extra = [];
    for (let i = 0; i < 3; i++) extra.push(String((await createUser(ctx, {role: 'admin'})).id));
    const list = expectList(await ctx.admin.get('/v0/users'));
    expect(list.map((u) => String(u.id)).sort()).toEqual([ctx.adminId, ctx.seedUserId, ...extra].sort());
    for (const user of list) expect(Object.keys(user)).toEqual(USER_KEYS);
  });

  it('15.20 POST /v0/users with role "unprivileged" and password → 201, Location, exactly the 8 user keys', async () => {
    const email = uniqueEmail('new-user'); // the case's "new-user@test", made unique per run
    const res = await main.admin.post('/v0/users', {
      user: {email, role: 'unprivileged', password: 'test1234test', password_confirmation: 'test1234test'},
    });
    const user = expectData(res, 201);
    expect(Object.keys(user)).toEqual(USER_KEYS);
    expect(user).toEqual({
      disabled_at: null,
      email,
      id: expect.stringMatching(UUID_RE),
      inserted_at: expect.stringMatching(TS_RE),
      last_signed_in_at: null,
      last_signed_in_method: null,
      role: 'unprivileged',
      updated_at: user.inserted_at,
    });
    expect(res.headers.get('location')).toBe(`/v0/users/${user.id}`);
    expect(expectData(await main.admin.get(`/v0/users/${user.id}`))).toEqual(user);
  });

  it('15.21 POST /v0/users role "admin" → 201 role admin, last_signed_in_at null', async () => {
    const email = uniqueEmail('new-user');
    const res = await main.admin.post('/v0/users', {user: {email, role: 'admin'}});
    const user = expectData(res, 201);
    expect(user.role).toBe('admin');
    expect(user.last_signed_in_at).toBeNull();
    expect(user.email).toBe(email);
    expect(res.headers.get('location')).toBe(`/v0/users/${user.id}`);
  });

  it('15.22 POST /v0/users {"user":{"email":"x@y"}} → 201 role unprivileged', async () => {
    const user = expectData(await main.admin.post('/v0/users', {user: {email: 'x@y'}}), 201);
    expect(user.email).toBe('x@y');
    expect(user.role).toBe('unprivileged');
  });

  it('15.23 POST /v0/users short password without confirmation → 422 exactly password + password_confirmation errors', async () => {
    expectBody(await main.admin.post('/v0/users', {user: {email: 'test@test.com', password: 'test1234'}}), 422, SHORT_PASSWORD_ERRORS);
    expectNotFound(await main.admin.get('/v0/users/test@test.com'));
  });

  it('15.24 POST /v0/users 65-char password with matching confirmation → 422 {"errors":{"password":["should be at most 64 character(s)"]}}', async () => {
    const password = 'p'.repeat(65);
    const res = await main.admin.post('/v0/users', {user: {email: uniqueEmail(), password, password_confirmation: password}});
    expect422(res, {password: ['should be at most 64 character(s)']});
  });

  it('15.25 POST /v0/users {"user":{"email":"not-an-email"}} → 422 {"errors":{"email":["is invalid email address"]}}', async () => {
    expect422(await main.admin.post('/v0/users', {user: {email: 'not-an-email'}}), {email: ['is invalid email address']});
  });

  it('15.26 POST /v0/users {"user":{}} → 422 {"errors":{"email":["can\'t be blank"]}}', async () => {
    expect422(await main.admin.post('/v0/users', {user: {}}), {email: ["can't be blank"]});
  });

  it('15.27 POST /v0/users with "  spaced@x  " → 201, email "spaced@x"', async () => {
    const user = expectData(await main.admin.post('/v0/users', {user: {email: '  spaced@x  '}}), 201);
    expect(user.email).toBe('spaced@x');
    expect(expectData(await main.admin.get('/v0/users/spaced@x')).id).toBe(user.id);
  });

  it('15.28 POST /v0/users body {"email":"a@b"} (no wrapper) → 500 empty body (0.7.36), nothing created', async () => {
    expectEmpty500(await main.admin.post('/v0/users', {email: 'a@b'}));
    expectNotFound(await main.admin.get('/v0/users/a@b'));
  });

  it('15.29 GET /v0/users/<own id> → 200, data.id matches', async () => {
    const user = expectData(await main.admin.get(`/v0/users/${main.adminId}`));
    expect(Object.keys(user)).toEqual(USER_KEYS);
    expect(user.id).toBe(main.adminId);
    expect(user.email).toBe('admin@sandbox.test');
    expect(user.role).toBe('admin');
  });

  it('15.30 GET /v0/users/003da73d-… (unknown) → 404 exactly {"error":"not_found"}', async () => {
    expectNotFound(await main.admin.get(`/v0/users/${UNKNOWN_UUID}`));
  });

  it('15.31 GET /v0/users/nobody@example.com → 404 {"error":"not_found"}', async () => {
    expectNotFound(await main.admin.get('/v0/users/nobody@example.com'));
  });

  it('15.32 GET /v0/users/zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz → 500 empty body (0.7.36)', async () => {
    expectEmpty500(await main.admin.get(`/v0/users/${NON_HEX_UUID}`));
  });

  it('15.33 PUT /v0/users/<email of unprivileged user> {"user":{}} → 200, that user, updated_at unchanged', async () => {
    const user = await createUser(main);
    const res = await main.admin.put(`/v0/users/${String(user.email)}`, {user: {}});
    expect(expectData(res)).toEqual(user);
  });

  it('15.34 PUT /v0/users/<id> {"user":{"role":"admin"}} on another user → 200 role admin', async () => {
    const user = await createUser(main);
    expect(user.role).toBe('unprivileged');
    expect(expectData(await main.admin.put(`/v0/users/${user.id}`, {user: {role: 'admin'}})).role).toBe('admin');
    expect(expectData(await main.admin.get(`/v0/users/${user.id}`)).role).toBe('admin');
  });

  it('15.35 PUT /v0/users/<own id> {"user":{"role":"admin"}} (unchanged) → 200', async () => {
    const user = expectData(await main.admin.put(`/v0/users/${main.adminId}`, {user: {role: 'admin'}}));
    expect(user.id).toBe(main.adminId);
    expect(user.role).toBe('admin');
  });

  it('15.36 PUT /v0/users/<id> {"user":{"email":"new-email@test"}} → 200 with the new email', async () => {
    const user = await createUser(main);
    expect(expectData(await main.admin.put(`/v0/users/${user.id}`, {user: {email: 'new-email@test'}})).email).toBe('new-email@test');
    expect(expectData(await main.admin.get(`/v0/users/${user.id}`)).email).toBe('new-email@test');
  });

  // The stored hash is not observable over HTTP (never rendered, no sign-in route); what is
  // observable is the 200, the row's updated_at moving (the hash column changed) and no hash leak.
  it('15.37 PUT /v0/users/<id> password + confirmation → 200 and the stored hash changes', async () => {
    const user = await createUser(main, {password: 'original-password', password_confirmation: 'original-password'});
    const res = await main.admin.put(`/v0/users/${user.id}`, {user: {password: 'update-password', password_confirmation: 'update-password'}});
    const updated = expectData(res);
    expect(Object.keys(updated)).toEqual(USER_KEYS);
    expect(res.text).not.toMatch(/password/);
    expect(updated).toEqual({...user, updated_at: expect.stringMatching(TS_RE)});
    expect(String(updated.updated_at) > String(user.updated_at)).toBe(true);
  });

  // The upstream case list says "as in case 28"; the evident meaning is case 23 (same body, same errors).
  it('15.38 PUT /v0/users/<own id> {"user":{"email":"test@test.com","password":"test1234"}} → 422 the case-23 errors', async () => {
    const p = await adminWithToken(main);
    const before = expectData(await main.admin.get(`/v0/users/${p.id}`));
    expectBody(await p.client.put(`/v0/users/${p.id}`, {user: {email: 'test@test.com', password: 'test1234'}}), 422, SHORT_PASSWORD_ERRORS);
    expect(expectData(await main.admin.get(`/v0/users/${p.id}`))).toEqual(before);
  });

  it('15.39 PUT /v0/users/<random uuid> {"user":{}} → 404 {"error":"not_found"}', async () => {
    expectNotFound(await main.admin.put(`/v0/users/${randomUUID()}`, {user: {}}));
  });

  it('15.40 DELETE /v0/users/<unprivileged id> → 204, JSON content-type, empty body; then GET → 404', async () => {
    const user = await createUser(main);
    expectNoContent(await main.admin.delete(`/v0/users/${user.id}`), JSON_CT);
    expectNotFound(await main.admin.get(`/v0/users/${user.id}`));
  });

  it('15.41 DELETE /v0/users/<email> → 204', async () => {
    const user = await createUser(main);
    expectNoContent(await main.admin.delete(`/v0/users/${encodeURIComponent(String(user.email))}`), JSON_CT);
    expectNotFound(await main.admin.get(`/v0/users/${user.id}`));
  });

  it('15.42 DELETE /v0/users/<random uuid> → 404 {"error":"not_found"}', async () => {
    expectNotFound(await main.admin.delete(`/v0/users/${randomUUID()}`));
  });

  it('15.43 DELETE /v0/users/<user with devices> → 204; the devices are gone', async () => {
    const user = await createUser(main);
    const devices = [await createDevice(main, String(user.id)), await createDevice(main, String(user.id))];
    expectNoContent(await main.admin.delete(`/v0/users/${user.id}`), JSON_CT);
    for (const device of devices) expectNotFound(await main.admin.get(`/v0/devices/${device.id}`));
    const remaining = await listIds(main.admin, '/v0/devices');
    for (const device of devices) expect(remaining).not.toContain(device.id);
  });
});
