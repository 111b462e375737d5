// The /v0 API over real HTTP: users' quirks (docs/firezone-0.7.36.md, "Users: …"). The sandbox
// these tests share, and their helpers, are in ./harness.ts.
import {describe, expect, it} from 'vitest';
import {startSandbox} from '../../../src/sandbox/index.js';
import {data, send} from '../helpers.js';
import {adminId, api, newUser, newDevice, useApiSandbox} from './harness.js';

useApiSandbox();

// See docs/firezone-0.7.36.md, "Users: lookup by id or email" and "Users: create, update, delete".
describe('users', () => {
  it('creates an admin only for exactly "admin"', async () => {
    for (const [role, expected] of [
      ['admin', 'admin'],
      ['Admin', 'unprivileged'],
      ['foo', 'unprivileged'],
      [null, 'unprivileged'],
    ] as const) {
      const res = await api('POST', '/v0/users', {body: {user: {email: `r-${Math.random()}@x`, role}}});
      expect(data(res).role).toBe(expected);
      expect(res.headers.location).toBe(`/v0/users/${data(res).id}`);
    }
  });

  it('validates like the 0.7.36 changeset', async () => {
    const cases: Array<[unknown, unknown]> = [
      [
        {email: 'test@test.com', password: 'test1234'},
        {password: ['should be at least 12 character(s)'], password_confirmation: ["can't be blank"]},
      ],
      [{email: 'x1@y', password: 'a'.repeat(65), password_confirmation: 'a'.repeat(65)}, {password: ['should be at most 64 character(s)']}],
      [{email: 'x2@y', password: 'correct horse battery', password_confirmation: 'other'}, {password_confirmation: ['does not match confirmation']}],
      [{email: 'not-an-email'}, {email: ['is invalid email address']}],
      [{}, {email: ["can't be blank"]}],
      [{email: '   '}, {email: ["can't be blank"]}],
      [{email: 123}, {email: ['is invalid']}],
      [{email: 'admin@SANDBOX.test'}, {email: ['has already been taken']}],
    ];
    for (const [user, errors] of cases) {
      const res = await api('POST', '/v0/users', {body: {user}});
      expect([res.status, res.json], JSON.stringify(user)).toEqual([422, {errors}]);
    }
  });

  it('trims emails and finds users by email case-insensitively', async () => {
    const created = data(await api('POST', '/v0/users', {body: {user: {email: '  spaced@x  '}}}));
    expect(created.email).toBe('spaced@x');
    expect(data(await api('GET', '/v0/users/SPACED@X')).id).toBe(created.id);
    expect((await api('GET', '/v0/users/nobody@example.com')).text).toBe('{"error":"not_found"}');
    expect((await api('GET', '/v0/users/003da73d-2dd9-4492-8136-3282843545e8')).status).toBe(404);
    expect(data(await api('GET', `/v0/users/${String(created.id).toUpperCase()}`)).id).toBe(created.id);
  });

  it('updates role, email and password; {"user":{}} is a no-op', async () => {
    const user = await newUser();
    const noop = await api('PUT', `/v0/users/${user.email}`, {body: {user: {}}});
    expect(data(noop).updated_at).toBe(user.updated_at);
    expect(data(await api('PUT', `/v0/users/${user.id}`, {body: {user: {role: 'admin'}}})).role).toBe('admin');
    expect((await api('PUT', `/v0/users/${user.id}`, {body: {user: {role: 'Admin'}}})).json).toEqual({errors: {role: ['is invalid']}});
    expect((await api('PUT', `/v0/users/${user.id}`, {body: {user: {role: ''}}})).json).toEqual({errors: {role: ["can't be blank"]}});
    expect((await api('PUT', `/v0/users/${user.id}`, {body: {user: {email: null}}})).json).toEqual({errors: {email: ["can't be blank"]}});
    const pw = await api('PUT', `/v0/users/${user.id}`, {body: {user: {password: 'update-password', password_confirmation: 'update-password'}}});
    expect(pw.status).toBe(200);
    expect(data(pw).updated_at).not.toBe(user.updated_at);
  });

  it('refuses to change your own role, but setting it to its current value is fine', async () => {
    expect((await api('PUT', `/v0/users/${adminId}`, {body: {user: {role: 'unprivileged'}}})).json).toEqual({
      errors: {role: ['You cannot change your own role']},
    });
    expect((await api('PUT', `/v0/users/${adminId}`, {body: {user: {role: 'admin'}}})).status).toBe(200);
  });

  it('deletes with cascades and a JSON content type on the 204', async () => {
    const user = await newUser();
    const device = await newDevice(String(user.id));
    const rule = data(await api('POST', '/v0/rules', {body: {rule: {destination: '10.99.0.0/16', user_id: user.id}}}));
    const res = await api('DELETE', `/v0/users/${user.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((await api('GET', `/v0/devices/${device.id}`)).status).toBe(404);
    expect((await api('GET', `/v0/rules/${rule.id}`)).status).toBe(404);
  });

  it('cannot delete the last admin (empty 500), can once another admin exists', async () => {
    const solo = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0});
    try {
      const res = await send(solo.url, 'DELETE', '/v0/users/admin@sandbox.test', {token: solo.adminToken});
      expect([res.status, res.text]).toEqual([500, '']);
      expect((await send(solo.url, 'GET', '/v0/users/admin@sandbox.test', {token: solo.adminToken})).status).toBe(200);
      await send(solo.url, 'POST', '/v0/users', {token: solo.adminToken, body: {user: {email: 'second@x', role: 'admin'}}});
      expect((await send(solo.url, 'DELETE', '/v0/users/admin@sandbox.test', {token: solo.adminToken})).status).toBe(204);
      // the caller's own tokens went with the user
      expect((await send(solo.url, 'GET', '/v0/users', {token: solo.adminToken})).text).toBe('{"errors":{"auth":"no_resource_found"}}');
    } finally {
      await solo.close();
    }
  });
});
