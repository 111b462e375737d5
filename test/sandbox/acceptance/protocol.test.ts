// Acceptance cases, "Protocol-level" (docs/firezone-0.7.36.md, "Acceptance cases"); the suite's
// conventions and helpers are described in ./harness.ts.
import {describe, expect, it} from 'vitest';
import {
  JSON_CT,
  main,
  describeResponse,
  expectStatus,
  expectJson,
  expectData,
  expectEmpty500,
  expectNotFound,
  uniqueEmail,
  publicKey,
  createUser,
  createDevice,
  createRule,
  useSharedSandbox,
} from './harness.js';

useSharedSandbox();

describe('Acceptance: Protocol-level', () => {
  it('15.97 POST /v0/users with a malformed JSON body → 500 empty body (0.7.36), nothing created', async () => {
    const email = uniqueEmail('malformed');
    expectEmpty500(await main.admin.post('/v0/users', undefined, {rawBody: `{"user":{"email":"${email}"`}));
    expectNotFound(await main.admin.get(`/v0/users/${email}`));
  });

  it('15.98 DELETE /v0/configuration with Accept: application/json → 404 {"error":"not_found"}', async () => {
    expectNotFound(await main.admin.delete('/v0/configuration', {accept: 'application/json'}));
    // docs/firezone-0.7.36.md, "Routes", "Empty-body 500s": the same unknown route without a JSON Accept renders the
    // html error page → empty 500.
    expectEmpty500(await main.admin.delete('/v0/configuration', {accept: '*/*'}));
  });

  it('15.99 HEAD /v0/users (A) → 200, no body', async () => {
    const res = await main.admin.head('/v0/users');
    expectStatus(res, 200);
    expect(res.text).toBe('');
    expect(res.headers.get('content-type')).toBe(JSON_CT);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    // Control: HEAD is authenticated like GET.
    expectStatus(await main.anon.head('/v0/users'), 401);
  });

  it('15.100 POST /v0/rules with a form body rule[destination]=10.20.0.0/16 → 201', async () => {
    const form = 'application/x-www-form-urlencoded';
    const literal = await main.admin.post('/v0/rules', undefined, {rawBody: 'rule[destination]=10.20.0.0/16', contentType: form});
    expect(expectData(literal, 201)).toMatchObject({destination: '10.20.0.0/16', action: 'drop', user_id: null});
    // The percent-encoded spelling browsers and URLSearchParams produce.
    const encoded = new URLSearchParams({'rule[destination]': '10.21.0.0/16', 'rule[action]': 'accept'}).toString();
    const res = await main.admin.post('/v0/rules', undefined, {rawBody: encoded, contentType: form});
    expect(expectData(res, 201)).toMatchObject({destination: '10.21.0.0/16', action: 'accept'});
  });

  it('15.101 every 2xx JSON response carries content-type application/json; charset=utf-8 and an x-request-id', async () => {
    const user = await createUser(main);
    const device = await createDevice(main, String(user.id));
    const rule = await createRule(main, {destination: '10.101.0.0/16'});
    const responses = [
      await main.admin.get('/v0/users'),
      await main.admin.get(`/v0/users/${user.id}`),
      await main.admin.post('/v0/users', {user: {email: uniqueEmail()}}),
      await main.admin.put(`/v0/users/${user.id}`, {user: {}}),
      await main.admin.patch(`/v0/users/${user.id}`, {user: {}}),
      await main.admin.get('/v0/devices'),
      await main.admin.get(`/v0/devices/${device.id}`),
      await main.admin.post('/v0/devices', {device: {user_id: user.id, public_key: publicKey()}}),
      await main.admin.put(`/v0/devices/${device.id}`, {device: {description: 'd101'}}),
      await main.admin.patch(`/v0/devices/${device.id}`, {device: {description: 'd101b'}}),
      await main.admin.get('/v0/rules'),
      await main.admin.get(`/v0/rules/${rule.id}`),
      await main.admin.post('/v0/rules', {rule: {destination: '10.102.0.0/16'}}),
      await main.admin.put(`/v0/rules/${rule.id}`, {rule: {action: 'accept'}}),
      await main.admin.patch(`/v0/rules/${rule.id}`, {rule: {action: 'drop'}}),
      await main.admin.get('/v0/configuration'),
      await main.admin.put('/v0/configuration', {configuration: {}}),
      await main.admin.patch('/v0/configuration', {configuration: {}}),
    ];
    const requestIds = new Set<string>();
    for (const res of responses) {
      expect(res.status, describeResponse(res)).toBeGreaterThanOrEqual(200);
      expect(res.status, describeResponse(res)).toBeLessThan(300);
      expectJson(res, res.status);
      // docs/firezone-0.7.36.md, "Response framing and headers"
      expect(res.headers.get('cache-control'), describeResponse(res)).toBe('max-age=0, private, must-revalidate');
      requestIds.add(String(res.headers.get('x-request-id')));
    }
    expect(requestIds.size).toBe(responses.length); // a fresh id per request
  });
});
