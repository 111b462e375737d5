// The edges of the API's error texts (src/api/errors.ts): sizes and times said at their
// boundaries, a cut body said once and only where it changes what is known, hostile shapes of a
// body (JSON null, a key of Object's prototype, an HTML page's odd title), and surrogate pairs at a
// cut. Every expectation is written out by hand.
import {describe, expect, it} from 'vitest';
import {cutServerText, errorFromResponse, flattenFieldErrors, formatSize, timeoutError} from '../../src/api/errors.js';

const facts = (status: number, body: string, contentType = 'application/json; charset=utf-8') => ({
  method: 'POST',
  path: '/v0/devices',
  status,
  body,
  contentType,
});
const KiB16 = 16 * 1024;

describe('sizes and times in a message', () => {
  it('says bytes, KiB and MiB at their boundaries, whole numbers without a decimal', () => {
    expect(formatSize(0)).toBe('0 bytes');
    expect(formatSize(1023)).toBe('1023 bytes');
    expect(formatSize(1024)).toBe('1 KiB');
    expect(formatSize(1536)).toBe('1.5 KiB');
    expect(formatSize(1024 * 1024 - 1)).toBe('1024.0 KiB');
    expect(formatSize(1024 * 1024)).toBe('1 MiB');
    expect(formatSize(3 * 1024 * 1024)).toBe('3 MiB');
    expect(formatSize(250_000_000)).toBe('238.4 MiB');
  });

  it('a timeout says its time, and the console’s own busy time only from half a second', () => {
    expect(timeoutError('GET', '/v0/devices', 30_000, 0).message).toBe('Request timed out after 30 s: GET /v0/devices (server slow or unreachable)');
    expect(timeoutError('GET', '/v0/devices', 2500, 499).message).toBe('Request timed out after 2.5 s: GET /v0/devices (server slow or unreachable)');
    expect(timeoutError('GET', '/v0/devices', 2500, 500).message).toBe(
      'Request timed out after 2.5 s: GET /v0/devices (server slow or unreachable; not counting 0.5 s the console itself was busy)',
    );
    // Rounded to a tenth of a second.
    expect(timeoutError('DELETE', '/v0/rules/1', 10_000, 1249).message).toBe(
      'Request timed out after 10 s: DELETE /v0/rules/1 (server slow or unreachable; not counting 1.2 s the console itself was busy)',
    );
    expect(timeoutError('GET', '/v0/users', 5000, 3000).message).toContain('not counting 3 s the console');
  });
});

describe('a body cut to its start', () => {
  it('says its announced size, or only what was kept when none was announced', () => {
    expect(errorFromResponse({...facts(502, 'upstream said no'), cut: {kept: KiB16, announced: 250_000_000}}).message).toBe(
      'Server error 502 for POST /v0/devices; its body (238.4 MiB) was cut to its first 16 KiB, the rest not read',
    );
    expect(errorFromResponse({...facts(502, 'upstream said no'), cut: {kept: KiB16, announced: null}}).message).toBe(
      'Server error 502 for POST /v0/devices; its body was cut to its first 16 KiB, the rest not read',
    );
  });

  it('a 422 says it once; that its field errors are unknown only when the start could not be read', () => {
    const unreadable = errorFromResponse({...facts(422, '{"errors":{"name":["should be at most 255 char'), cut: {kept: KiB16, announced: 204_800}});
    expect(unreadable.kind).toBe('validation');
    expect(unreadable.fieldErrors).toEqual({});
    expect(unreadable.message).toBe(
      'Rejected by the server (422) for POST /v0/devices; its body (200 KiB) was cut to its first 16 KiB, the rest not read, so its field errors could not be read',
    );
    const readable = errorFromResponse({...facts(422, '{"errors":{"name":["is bad"]}}'), cut: {kept: KiB16, announced: 204_800}});
    expect(readable.message).toBe('Rejected: name: is bad; its body (200 KiB) was cut to its first 16 KiB, the rest not read');
    expect(errorFromResponse(facts(422, '{"errors":{"name":["is bad"]}}')).message).toBe('Rejected: name: is bad');
  });
});

describe('hostile and odd bodies', () => {
  it('JSON null is no object: no field errors, no crash', () => {
    expect(errorFromResponse(facts(422, 'null')).message).toBe('Rejected by the server (422) for POST /v0/devices');
    expect(errorFromResponse(facts(404, 'null')).message).toBe('Not found (404) for POST /v0/devices: is the server URL right?');
    expect(errorFromResponse(facts(401, 'null')).message).toBe('Unauthorized (401) for POST /v0/devices');
  });

  it('a 404 is "deleted" only with 0.7.36’s own body; another JSON error is said as the server’s', () => {
    expect(errorFromResponse(facts(404, '{"error":"no route"}')).message).toBe('Not found (404) for POST /v0/devices: no route: is the server URL right?');
  });

  it('an auth type that is a key of every object, or a list, is no auth type 0.7.36 knows', () => {
    for (const auth of ['"toString"', '"constructor"', '"__proto__"', '["unauthenticated"]']) {
      const err = errorFromResponse(facts(401, `{"errors":{"auth":${auth}}}`));
      expect(err.kind).toBe('forbidden');
      expect(err.isAuthFailure).toBe(false);
      expect(err.message).toBe('Unauthorized (401) for POST /v0/devices');
    }
  });

  it('a plain-text body is not read as JSON, whatever braces it holds', () => {
    expect(errorFromResponse(facts(500, '"a{"', 'text/plain')).message).toBe('Server error 500 for POST /v0/devices');
    expect(errorFromResponse(facts(500, '"a{"')).message).toBe('Server error 500 for POST /v0/devices: a{');
  });

  it('an HTML page is named by its title (with attributes), else its first heading; a blank one is not named', () => {
    const html = (inner: string) => errorFromResponse(facts(502, `<html><head>${inner}</head></html>`, 'text/html')).message;
    expect(html('<title lang="en"> Bad gateway </title>')).toBe('Server error 502 for POST /v0/devices: HTML page "Bad gateway" (from a proxy?)');
    expect(html('<title>   </title>')).toBe('Server error 502 for POST /v0/devices: an HTML page (from a proxy?)');
    expect(html('<h1 class="err">  Gateway timeout </h1>')).toBe('Server error 502 for POST /v0/devices: HTML page "Gateway timeout" (from a proxy?)');
    expect(html('<h1>  </h1>')).toBe('Server error 502 for POST /v0/devices: an HTML page (from a proxy?)');
  });

  it('a 429 or a 408 is worth retrying; a 400 is not', () => {
    expect(errorFromResponse(facts(429, '')).isTransient).toBe(true);
    expect(errorFromResponse(facts(408, '')).isTransient).toBe(true);
    expect(errorFromResponse(facts(400, '')).isTransient).toBe(false);
  });
});

describe('surrogate pairs at a cut', () => {
  it('never ends on the first half of a pair, whichever pair, and counts a pair as one character', () => {
    // U+10000 is D800 DC00 and U+10FFFF is DBFF DFFF: the first and last of each half's range.
    expect(cutServerText('a\u{10000}\u{10000}', 2)).toBe('a…(+2 characters)');
    expect(cutServerText('a\u{10FFFF}\u{10FFFF}', 2)).toBe('a…(+2 characters)');
    // A pair, then a letter: the cut looks at the unit before it, not past it.
    expect(cutServerText('a😀b', 2)).toBe('a…(+2 characters)');
    // Characters above the surrogates (U+E000 on) are counted as any other.
    expect(cutServerText('aｱｱｱ\uE000', 2)).toBe('aｱ…(+3 characters)');
  });
});

describe('field errors at their limits', () => {
  it('exactly 20 messages for a path are all kept, with no "more" note', () => {
    const twenty = Array.from({length: 20}, (_, i) => `m${i}`);
    expect(flattenFieldErrors({name: twenty})).toEqual({name: twenty});
  });

  it('lists nested 16 deep are read; 17 deep are said to be too deep, where the cut was', () => {
    const nest = (n: number): unknown => (n === 0 ? ['x'] : [nest(n - 1)]);
    expect(flattenFieldErrors(nest(16))).toEqual({['[0]'.repeat(16)]: ['x']});
    expect(flattenFieldErrors(nest(17))).toEqual({['[0]'.repeat(16)]: ['(error details nested too deeply to show)']});
  });

  it('past the last path nothing more is added, not even to a path already kept', () => {
    const errors: Record<string, unknown> = {'a.b': 'first'};
    for (let i = 1; i < 50; i++) errors[`f${i}`] = 'bad';
    errors.f50 = 'one too many';
    errors.a = {b: 'late'};
    const flat = flattenFieldErrors(errors);
    expect(flat['a.b']).toEqual(['first']);
    expect(flat.f50).toBeUndefined();
    expect(flat.base).toEqual(['(more field errors than the 50 shown)']);
  });
});
