import {describe, expect, it} from 'vitest';
import {ApiError, cutServerText, errorFromResponse, errorFromTransport, flattenFieldErrors, joinFieldErrors} from '../../src/api/errors.js';

const facts = (status: number, body: string, contentType = 'application/json; charset=utf-8') => ({
  method: 'GET',
  path: '/v0/users',
  status,
  body,
  contentType,
});

describe('errorFromResponse', () => {
  it.each([
    ['unauthenticated', 'unauthenticated'],
    ['invalid_token', 'invalid_token'],
    ['no_resource_found', 'no_resource_found'],
  ])('401 errors.auth=%s → kind %s', (type, kind) => {
    const err = errorFromResponse(facts(401, JSON.stringify({errors: {auth: type}})));
    expect(err.kind).toBe(kind);
    expect(err.isAuthFailure).toBe(true);
    expect(err.message).toContain(`401 ${type}`);
  });

  it('401 {"error":"Unauthorized"} is a permission failure, not an auth failure', () => {
    const err = errorFromResponse(facts(401, '{"error":"Unauthorized"}'));
    expect(err.kind).toBe('forbidden');
    expect(err.isAuthFailure).toBe(false);
    expect(err.message).toMatch(/not an admin/);
  });

  it('404 {"error":"not_found"}', () => {
    const err = errorFromResponse(facts(404, '{"error":"not_found"}'));
    expect(err.kind).toBe('not_found');
    expect(err.message).toBe('Not found: GET /v0/users (it may have been deleted)');
  });

  it('404 HTML from a wrong base URL hints at the URL', () => {
    const err = errorFromResponse(facts(404, '<html><head><title>404 Not Found</title></head></html>', 'text/html'));
    expect(err.kind).toBe('not_found');
    expect(err.message).toMatch(/HTML page "404 Not Found".*is the server URL right/);
  });

  it('422 flattens nested provider errors into paths and joins them', () => {
    const body = {
      errors: {
        openid_connect_providers: [{}, {client_id: ["can't be blank"], scope: ['must include email scope', 'must include openid scope']}],
        vpn_session_duration: ['must be greater than or equal to 0'],
      },
    };
    const err = errorFromResponse({...facts(422, JSON.stringify(body)), method: 'PATCH', path: '/v0/configuration'});
    expect(err.kind).toBe('validation');
    expect(err.fieldErrors).toEqual({
      'openid_connect_providers[1].client_id': ["can't be blank"],
      'openid_connect_providers[1].scope': ['must include email scope', 'must include openid scope'],
      vpn_session_duration: ['must be greater than or equal to 0'],
    });
    expect(err.message).toBe(
      "Rejected: openid_connect_providers[1].client_id: can't be blank; openid_connect_providers[1].scope: must include email scope, must include openid scope; vpn_session_duration: must be greater than or equal to 0",
    );
  });

  it('422 base errors read as plain sentences', () => {
    const err = errorFromResponse(
      facts(422, JSON.stringify({errors: {base: ['Maximum device limit reached. Remove an existing device before creating a new one.']}})),
    );
    expect(err.message).toBe('Rejected: Maximum device limit reached. Remove an existing device before creating a new one.');
  });

  it("0.7.36's empty-body 500 is explained, with the request id", () => {
    const err = errorFromResponse({...facts(500, '', ''), requestId: 'F1x2'});
    expect(err.kind).toBe('server');
    expect(err.message).toMatch(/empty body.*0\.7\.36.*request id F1x2/);
    expect(err.isTransient).toBe(true);
  });

  it('a proxy HTML 502 names the page title', () => {
    const html =
      '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
    const err = errorFromResponse(facts(502, html, 'text/html'));
    expect(err.kind).toBe('server');
    expect(err.message).toBe('Server error 502 for GET /v0/users: HTML page "502 Bad Gateway" (from a proxy?)');
  });

  it('other statuses are kind http; old 0.7.x JSON string bodies are shown', () => {
    const err = errorFromResponse(facts(400, '"Bad Request"'));
    expect(err.kind).toBe('http');
    expect(err.message).toBe('Unexpected HTTP 400 for GET /v0/users: Bad Request');
  });
});

describe('flattenFieldErrors / joinFieldErrors', () => {
  it("says 0.7.36's two messages that name Elixir modules in plain words; any other message, an inherited name included, as sent", () => {
    expect(
      flattenFieldErrors({
        default_client_dns: ['!!! is not a valid FQDN', 'must be one of: Elixir.FzHttp.Types.IP, string'],
        default_client_endpoint: ['must be one of: Elixir.FzHttp.Types.IPPort, string'],
        other: ['must be one of: Elixir.FzHttp.Types.INET, string', 'toString', 'constructor', '__proto__'],
      }),
    ).toEqual({
      default_client_dns: ['!!! is not a valid FQDN', 'must be IP addresses or host names, without a port'],
      default_client_endpoint: ['must be an IP address or a host name, with an optional :port'],
      other: ['must be one of: Elixir.FzHttp.Types.INET, string', 'toString', 'constructor', '__proto__'],
    });
  });

  it('skips valid list entries and keeps message order', () => {
    expect(flattenFieldErrors({saml_identity_providers: [{metadata: ["can't be blank"]}, {}]})).toEqual({
      'saml_identity_providers[0].metadata': ["can't be blank"],
    });
    expect(joinFieldErrors({email: ['has already been taken'], password: ['a', 'b']})).toBe('email: has already been taken; password: a, b');
  });
});

describe('hostile 422 bodies', () => {
  it('100,000 nested arrays give a sensible message, not a stack overflow', () => {
    const body = `{"errors":{"email":${'['.repeat(100_000)}"x"${']'.repeat(100_000)}}}`;
    const err = errorFromResponse({...facts(422, body), method: 'POST', path: '/v0/users'});
    expect(err.kind).toBe('validation');
    expect(err.message).toMatch(/^Rejected: email(\[0\])+: \(error details nested too deeply to show\)$/);
  });

  it('100,000 nested objects likewise', () => {
    const body = `{"errors":${'{"a":'.repeat(100_000)}"x"${'}'.repeat(100_000)}}`;
    const err = errorFromResponse(facts(422, body));
    expect(err.kind).toBe('validation');
    expect(err.message).toMatch(/^Rejected: a(\.a)+: \(error details nested too deeply to show\)$/);
    expect(err.message.length).toBeLessThan(200);
  });

  it('caps the number of paths and says so', () => {
    const errors = Object.fromEntries(Array.from({length: 10_000}, (_, i) => [`f${i}`, ['bad']]));
    const fields = flattenFieldErrors(errors);
    expect(Object.keys(fields)).toHaveLength(51);
    expect(fields.f49).toEqual(['bad']);
    expect(fields.f50).toBeUndefined();
    expect(fields.base).toEqual(['(more field errors than the 50 shown)']);
  });
});

describe('errorFromTransport', () => {
  it('maps a refused connection through undici causes', () => {
    const err = errorFromTransport(
      Object.assign(new TypeError('fetch failed'), {cause: Object.assign(new Error('connect ECONNREFUSED'), {code: 'ECONNREFUSED'})}),
      'GET',
      '/v0/devices',
      'http://127.0.0.1:1',
    );
    expect(err.kind).toBe('network');
    expect(err.message).toBe('Cannot reach 127.0.0.1:1 (GET /v0/devices): connection refused (ECONNREFUSED)');
  });
  it('explains self-signed certificates', () => {
    const err = errorFromTransport(
      Object.assign(new Error('self-signed certificate'), {code: 'DEPTH_ZERO_SELF_SIGNED_CERT'}),
      'GET',
      '/v0/devices',
      'https://h',
    );
    expect(err.message).toMatch(/self-signed.*--ca-file/);
  });
});

describe('errors, case by case', () => {
  const r = (status: number, body: string, contentType = 'application/json; charset=utf-8', requestId?: string) =>
    errorFromResponse({...facts(status, body, contentType), ...(requestId ? {requestId} : {})});

  it('keeps what was asked and what came back on every error', () => {
    const err = r(422, '{"errors":{"email":["has already been taken"]}}', undefined, 'req-1');
    expect(err).toMatchObject({method: 'GET', path: '/v0/users', status: 422, requestId: 'req-1', kind: 'validation'});
    expect(err.fieldErrors).toEqual({email: ['has already been taken']});
    expect(err.message).toBe('Rejected: email: has already been taken');
    expect(r(422, '{}').message).toBe('Rejected by the server (422) for GET /v0/users');
    expect(r(422, 'not json', 'text/plain').message).toBe('Rejected by the server (422) for GET /v0/users');
  });

  it('names 401s that are not 0.7.36 auth answers, 403s and other statuses', () => {
    expect(r(401, '{"errors":{"auth":"other"}}')).toMatchObject({kind: 'forbidden', message: 'Unauthorized (401) for GET /v0/users'});
    expect(r(401, '"Unauthorized"')).toMatchObject({kind: 'forbidden', message: 'Unauthorized (401) for GET /v0/users: Unauthorized'});
    expect(r(403, '')).toMatchObject({kind: 'forbidden', message: 'Forbidden (403) for GET /v0/users'});
    expect(r(404, '{"error":"other"}').message).toBe('Not found (404) for GET /v0/users: other: is the server URL right?');
    expect(r(429, '')).toMatchObject({kind: 'http', message: 'Unexpected HTTP 429 for GET /v0/users'});
  });

  it('says what an empty 5xx means, with the request id when there is one', () => {
    expect(r(500, '  \n', 'text/plain', 'abc').message).toBe(
      'Server error 500 with an empty body for GET /v0/users (Firezone 0.7.36 answers unhandled errors this way, a malformed API token among them; see the server log, request id abc)',
    );
    expect(r(500, '').message).toBe(
      'Server error 500 with an empty body for GET /v0/users (Firezone 0.7.36 answers unhandled errors this way, a malformed API token among them; see the server log)',
    );
    expect(r(502, '')).toMatchObject({kind: 'server', message: 'Server error 502 with an empty body for GET /v0/users'});
  });

  it('retries a GET only where the server may recover by itself', () => {
    const kinds = (statuses: Array<[number, string]>) => statuses.map(([s, b]) => r(s, b).isTransient);
    expect(
      kinds([
        [500, ''],
        [502, ''],
        [408, ''],
        [429, ''],
        [400, ''],
        [404, '{"error":"not_found"}'],
        [422, '{}'],
        [401, '{"errors":{"auth":"invalid_token"}}'],
      ]),
    ).toEqual([true, true, true, true, false, false, false, false]);
    const at = (kind: 'timeout' | 'network' | 'schema' | 'cancelled' | 'too_large') =>
      new ApiError({kind, method: 'GET', path: '/', message: kind}).isTransient;
    expect([at('timeout'), at('network'), at('schema'), at('cancelled'), at('too_large')]).toEqual([true, true, true, false, false]);
  });

  it('keeps the cause of a transport error, and none when there is none', () => {
    const cause = new Error('ECONNRESET');
    expect(new ApiError({kind: 'network', method: 'GET', path: '/', message: 'x', cause}).cause).toBe(cause);
    expect('cause' in new ApiError({kind: 'network', method: 'GET', path: '/', message: 'x'})).toBe(false);
  });
});

describe('flattenFieldErrors, shape by shape', () => {
  it('takes strings, lists of strings, nested objects and lists, and other scalars as text', () => {
    expect(flattenFieldErrors({email: 'is invalid'})).toEqual({email: ['is invalid']});
    expect(flattenFieldErrors({a: ['x', 'y'], b: {c: ['z']}, d: [{}, {e: ['w']}], n: 5, t: true, u: null, v: undefined})).toEqual({
      a: ['x', 'y'],
      'b.c': ['z'],
      'd[1].e': ['w'],
      n: ['5'],
      t: ['true'],
    });
    expect(flattenFieldErrors(['x', 1])).toEqual({'[1]': ['1'], '[0]': ['x']});
    expect(flattenFieldErrors({a: ['x']}, 'provider')).toEqual({'provider.a': ['x']});
  });

  it('cuts nesting at its depth and says so; an empty object that deep says nothing', () => {
    let deep: unknown = {leaf: ['x']};
    for (let i = 0; i < 20; i++) deep = {k: deep};
    const flat = flattenFieldErrors(deep);
    const [path, messages] = Object.entries(flat)[0]!;
    expect(messages).toEqual(['(error details nested too deeply to show)']);
    expect(path.split('.').length).toBe(16);
    let empty: unknown = {};
    for (let i = 0; i < 16; i++) empty = {k: empty};
    expect(flattenFieldErrors(empty)).toEqual({});
    let list: unknown = [{a: ['x']}];
    for (let i = 0; i < 20; i++) list = [list];
    expect(Object.values(flattenFieldErrors(list))[0]).toEqual(['(error details nested too deeply to show)']);
  });
});

describe('what an error says about the body and the connection', () => {
  const r = (status: number, body: string, contentType = 'text/plain') => errorFromResponse(facts(status, body, contentType));

  it('names an HTML page by its title, else its first heading, whatever the content type says', () => {
    expect(r(502, '<html><title> Bad\n gateway </title></html>', 'text/html').message).toBe(
      'Server error 502 for GET /v0/users: HTML page "Bad gateway" (from a proxy?)',
    );
    expect(r(502, '  <!DOCTYPE html><h1>Oops</h1>').message).toBe('Server error 502 for GET /v0/users: HTML page "Oops" (from a proxy?)');
    expect(r(502, '<html><body>no title</body></html>').message).toBe('Server error 502 for GET /v0/users: an HTML page (from a proxy?)');
    // Not HTML: text that merely mentions a tag later on.
    expect(r(502, 'x <html><title>T</title>').message).toBe('Server error 502 for GET /v0/users');
  });

  it('reads JSON by its content type or its first character; a JSON error or string is quoted, cut to one line', () => {
    expect(r(502, '  {"error":"upstream\\n down"}').message).toBe('Server error 502 for GET /v0/users: upstream down');
    expect(r(502, '"maintenance"', 'application/json').message).toBe('Server error 502 for GET /v0/users: maintenance');
    expect(r(502, '"maintenance"').message).toBe('Server error 502 for GET /v0/users');
    expect(r(502, '{"error":1}').message).toBe('Server error 502 for GET /v0/users');
    expect(r(502, '{broken', 'application/json').message).toBe('Server error 502 for GET /v0/users');
    expect(r(401, '{"errors":{"auth":"invalid_token"}}', 'text/plain').kind).toBe('invalid_token');
    expect(r(401, 'null', 'application/json').kind).toBe('forbidden');
    expect(r(404, '["not_found"]', 'application/json').message).toBe('Not found (404) for GET /v0/users: is the server URL right?');
    expect(r(422, '["x"]', 'application/json').message).toBe('Rejected by the server (422) for GET /v0/users');
    expect(r(502, `{"error":"${'e'.repeat(100)}"}`).message).toBe(`Server error 502 for GET /v0/users: ${'e'.repeat(79)}…`);
  });

  it('names a transport failure by the first known code down the cause chain, else by the innermost message', () => {
    const chain = (...links: Array<Record<string, unknown>>) => links.reduceRight<unknown>((cause, link) => (cause ? {...link, cause} : link), undefined);
    const t = (err: unknown) => errorFromTransport(err, 'GET', '/v0/devices', 'https://vpn.example.com:8443').message;
    expect(t(chain({message: 'fetch failed'}, {code: 'UND_ERR_X'}, {code: 'ECONNRESET'}))).toBe(
      'Cannot reach vpn.example.com:8443 (GET /v0/devices): connection reset by the server (ECONNRESET)',
    );
    expect(t(chain({message: 'fetch failed'}, {message: ' socket\n hang up '}))).toBe('Cannot reach vpn.example.com:8443 (GET /v0/devices): socket hang up');
    expect(t(chain({message: 'fetch failed', code: 42}, {message: 7}))).toBe('Cannot reach vpn.example.com:8443 (GET /v0/devices): request failed');
    expect(t('a string')).toBe('Cannot reach vpn.example.com:8443 (GET /v0/devices): request failed');
    // Five links deep at most: a code further down is not looked for.
    expect(t(chain({}, {}, {}, {}, {}, {code: 'ECONNREFUSED'}))).toBe('Cannot reach vpn.example.com:8443 (GET /v0/devices): request failed');
    expect(t(chain({}, {}, {}, {}, {code: 'ECONNREFUSED'}))).toBe('Cannot reach vpn.example.com:8443 (GET /v0/devices): connection refused (ECONNREFUSED)');
    expect(errorFromTransport(new Error('x'), 'GET', '/', 'http://h').message).toBe('Cannot reach h (GET /): x');
    expect(errorFromTransport(new Error('x'), 'GET', '/', 'my-http://h').message).toBe('Cannot reach my-http://h (GET /): x');
  });

  it('cuts a field-error list at its limit and says how many paths there were room for', () => {
    const many = Object.fromEntries(Array.from({length: 60}, (_, i) => [`f${i}`, ['bad']]));
    const flat = flattenFieldErrors({...many, g: 'late'});
    expect(Object.keys(flat)).toHaveLength(51);
    expect(flat.base).toEqual(['(more field errors than the 50 shown)']);
    expect(flat.f49).toEqual(['bad']);
    expect(flat.f50).toBeUndefined();
    // Two messages for one path are one path.
    expect(flattenFieldErrors({a: ['x'], b: {'': 'y'}})).toEqual({a: ['x'], 'b.': ['y']});
    expect(flattenFieldErrors([['x'], ['y']])).toEqual({'[0]': ['x'], '[1]': ['y']});
  });
});

describe('server text cut before an error keeps it', () => {
  it('keeps text within the limit as it is; past it, says how many characters were dropped, never cutting a pair in two', () => {
    expect(cutServerText('abc', 3)).toBe('abc');
    expect(cutServerText('abcd', 3)).toBe('abc…(+1 character)');
    expect(cutServerText('😀'.repeat(400), 300)).toBe(`${'😀'.repeat(150)}…(+250 characters)`);
    expect(cutServerText(`a${'😀'.repeat(400)}`, 300)).toBe(`a${'😀'.repeat(149)}…(+251 characters)`);
    expect(cutServerText('é'.repeat(5000), 10)).toBe(`${'é'.repeat(10)}…(+4,990 characters)`);
  });

  it('cuts messages, the messages of a path and paths themselves, across nesting and lists', () => {
    const flat = flattenFieldErrors({
      providers: [{}, {scope: Array.from({length: 21}, (_, i) => `m${i}`)}],
      ['k'.repeat(250)]: 'ü'.repeat(301),
    });
    expect(flat['providers[1].scope']).toEqual([...Array.from({length: 20}, (_, i) => `m${i}`), '(+1 more message)']);
    expect(flat[`${'k'.repeat(200)}…(+50 characters)`]).toEqual([`${'ü'.repeat(300)}…(+1 character)`]);
    // Messages of one path given in two places count together.
    expect(flattenFieldErrors({'a.b': Array(15).fill('x'), a: {b: Array(10).fill('y')}})).toEqual({
      'a.b': [...Array(15).fill('x'), ...Array(5).fill('y'), '(+5 more messages)'],
    });
  });

  it('does not call a cut body empty, whatever its start holds', () => {
    const err = errorFromResponse({...facts(500, ' '.repeat(16 * 1024)), cut: {kept: 16 * 1024, announced: 20_000}});
    expect(err.message).toBe('Server error 500 for GET /v0/users; its body (19.5 KiB) was cut to its first 16 KiB, the rest not read');
  });
});
