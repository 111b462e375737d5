// The /v0 API over real HTTP: the protocol layer (docs/firezone-0.7.36.md, "Routes" through "Empty-
// body 500s"). The sandbox these tests share, and their helpers, are in ./harness.ts.
import {describe, expect, it} from 'vitest';
import {startSandbox} from '../../../src/sandbox/index.js';
import {data, publicKey, send} from '../helpers.js';
import {sb, adminId, api, useApiSandbox} from './harness.js';

useApiSandbox();

// See docs/firezone-0.7.36.md, "Routes" through "Empty-body 500s".
describe('protocol', () => {
  it('frames data, sorts keys, sends the Plug headers', async () => {
    const res = await api('GET', '/v0/users');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('max-age=0, private, must-revalidate');
    expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(res.text.startsWith('{"data":[{"disabled_at":')).toBe(true);
    expect(Object.keys(data<object[]>(res)[0]!)).toEqual([
      'disabled_at',
      'email',
      'id',
      'inserted_at',
      'last_signed_in_at',
      'last_signed_in_method',
      'role',
      'updated_at',
    ]);
  });

  it('renders timestamps with six fractional digits and Z, ids as lowercase UUIDs', async () => {
    const user = data(await api('GET', '/v0/users/admin@sandbox.test'));
    expect(user.inserted_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(user.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('reuses a valid incoming x-request-id', async () => {
    const res = await api('GET', '/v0/users', {headers: {'x-request-id': 'my-request-id-0123456789'}});
    expect(res.headers['x-request-id']).toBe('my-request-id-0123456789');
  });

  it('answers the double fault with a bare empty 500', async () => {
    for (const res of [
      await api('POST', '/v0/users', {raw: '{"user":', headers: {'content-type': 'application/json'}}),
      await api('POST', '/v0/users', {body: {email: 'a@b'}}),
      await api('POST', '/v0/users', {raw: '[1,2]', headers: {'content-type': 'application/json'}}),
      await api('GET', '/v0/users', {headers: {accept: 'text/html'}}),
      await send(sb.url, 'GET', '/v0/users', {headers: {accept: 'text/html'}}),
      await api('GET', '/v0/users/zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz'),
      await api('GET', '/v0/nothing', {headers: {accept: '*/*'}}),
      await api('GET', '/v0/nothing', {headers: {accept: ''}}),
      await api('GET', '/v0/users/%zz'),
    ]) {
      expect(res.status).toBe(500);
      expect(res.text).toBe('');
      expect(res.headers['content-length']).toBe('0');
      expect(res.headers['x-request-id']).toBeUndefined();
      expect(res.headers['content-type']).toBeUndefined();
    }
  });

  it('renders unknown routes as 404 json only when Accept selects json', async () => {
    for (const [method, path] of [
      ['DELETE', '/v0/configuration'],
      ['POST', '/v0/configuration'],
      ['PUT', '/v0/users'],
      ['OPTIONS', '/v0/users'],
      ['GET', '/v1/users'],
    ]) {
      const res = await send(sb.url, method!, path!, {headers: {accept: 'application/json'}});
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.text).toBe('{"error":"not_found"}');
    }
  });

  it('ignores trailing and repeated slashes and percent-decodes path ids', async () => {
    expect((await api('GET', '/v0//users/')).status).toBe(200);
    expect(data(await api('GET', '/v0/users/admin%40sandbox.test')).id).toBe(adminId);
  });

  it('accepts Accept lists and wildcards that include json, and ?_format=json', async () => {
    for (const accept of [
      '*/*',
      'application/*',
      'text/html, application/json',
      'text/html;q=0.5, application/json;q=0.9',
      'application/vnd.api+json, application/json',
    ]) {
      expect((await api('GET', '/v0/users', {headers: {accept}})).status, accept).toBe(200);
    }
    expect((await api('GET', '/v0/users?_format=json', {headers: {accept: 'text/html'}})).status).toBe(200);
    expect((await api('GET', '/v0/users?_format=html')).status).toBe(500);
  });

  it('serves HEAD as GET without a body', async () => {
    const head = await api('HEAD', '/v0/users');
    const get = await api('GET', '/v0/users');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));
  });

  it('takes form bodies and query-string wrappers, merged with the body', async () => {
    const form = await api('POST', '/v0/rules', {
      raw: 'rule[destination]=10.20.0.0/16&rule[action]=accept',
      headers: {'content-type': 'application/x-www-form-urlencoded'},
    });
    expect(form.status).toBe(201);
    expect(data(form)).toMatchObject({destination: '10.20.0.0/16', action: 'accept'});
    const query = await api('POST', '/v0/rules?rule[destination]=10.21.0.0/16', {});
    expect(query.status).toBe(201);
    // a JSON body that is not an object is "_json"; the wrapper can still come from the query
    const mixed = await api('POST', '/v0/rules?rule[destination]=10.22.0.0/16', {raw: '[1]', headers: {'content-type': 'application/json'}});
    expect(mixed.status).toBe(201);
  });

  it('takes multipart form bodies', async () => {
    const boundary = 'XyZ';
    const raw = `--${boundary}\r\nContent-Disposition: form-data; name="rule[destination]"\r\n\r\n10.23.0.0/16\r\n--${boundary}--\r\n`;
    const res = await api('POST', '/v0/rules', {raw, headers: {'content-type': `multipart/form-data; boundary=${boundary}`}});
    expect(res.status).toBe(201);
  });

  it('ignores a JSON body sent without a JSON content type (so the wrapper is missing)', async () => {
    const res = await api('POST', '/v0/rules', {raw: '{"rule":{"destination":"10.24.0.0/16"}}', headers: {'content-type': 'text/plain'}});
    expect(res.status).toBe(500);
  });

  it('rewrites POST with a body _method', async () => {
    const rule = data(await api('POST', '/v0/rules', {body: {rule: {destination: '10.25.0.0/16'}}}));
    const res = await api('POST', `/v0/rules/${rule.id}`, {body: {_method: 'delete'}});
    expect(res.status).toBe(204);
    expect((await api('GET', `/v0/rules/${rule.id}`)).status).toBe(404);
  });

  it('refuses bodies over 8,000,000 bytes with the empty 500', async () => {
    const raw = `{"user":{"email":"${'a'.repeat(8_000_001)}"}}`;
    const res = await api('POST', '/v0/users', {raw, headers: {'content-type': 'application/json'}}).catch(() => null);
    // the connection may be closed while the body is still being sent; if a response arrives it is the empty 500
    if (res) {
      expect(res.status).toBe(500);
      expect(res.text).toBe('');
    }
  });

  it('lives under the EXTERNAL_URL path prefix, redirecting requests without it', async () => {
    const prefixed = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0, env: {EXTERNAL_URL: 'https://vpn.example.com/vpn/'}});
    try {
      const redirect = await send(prefixed.url, 'GET', '/v0/users?x=1', {token: prefixed.adminToken});
      expect([redirect.status, redirect.headers.location]).toEqual([302, '/vpn/v0/users?x=1']);
      const created = await send(prefixed.url, 'POST', '/vpn/v0/rules', {token: prefixed.adminToken, body: {rule: {destination: '10.0.0.0/8'}}});
      expect(created.headers.location).toBe(`/vpn/v0/rules/${data(created).id}`);
      const device = data(
        await send(prefixed.url, 'POST', '/vpn/v0/devices', {
          token: prefixed.adminToken,
          body: {
            device: {
              user_id: data<Array<{id: string}>>(await send(prefixed.url, 'GET', '/vpn/v0/users', {token: prefixed.adminToken}))[0]!.id,
              public_key: publicKey(),
            },
          },
        }),
      );
      expect(device.endpoint).toBe('vpn.example.com:51820');
    } finally {
      await prefixed.close();
    }
  });

  it('treats PATCH exactly like PUT', async () => {
    const res = await api('PATCH', '/v0/configuration', {body: {configuration: {default_client_mtu: 1300}}});
    expect(data(res).default_client_mtu).toBe(1300);
    await api('PUT', '/v0/configuration', {body: {configuration: {default_client_mtu: 1280}}});
  });
});
