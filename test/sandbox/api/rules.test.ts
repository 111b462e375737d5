// The /v0 API over real HTTP: rules' quirks (docs/firezone-0.7.36.md, "Rules: …"). The sandbox
// these tests share, and their helpers, are in ./harness.ts.
import {describe, expect, it} from 'vitest';
import {data} from '../helpers.js';
import {adminId, api, newUser, useApiSandbox} from './harness.js';

useApiSandbox();

// See docs/firezone-0.7.36.md, "Rules: fields and port ranges" through "Rules and nftables precedence".
describe('rules', () => {
  it('creates with defaults and echoes values', async () => {
    const res = await api('POST', '/v0/rules', {body: {rule: {destination: '10.10.10.0/24'}}});
    expect(res.status).toBe(201);
    expect(data(res)).toMatchObject({action: 'drop', port_range: null, port_type: null, user_id: null, destination: '10.10.10.0/24'});
    expect(Object.keys(data(res))).toEqual(['action', 'destination', 'id', 'inserted_at', 'port_range', 'port_type', 'updated_at', 'user_id']);
    const full = data(
      await api('POST', '/v0/rules', {body: {rule: {destination: '1.1.1.1/24', action: 'accept', port_type: 'udp', port_range: '1 - 2', user_id: adminId}}}),
    );
    expect(full).toMatchObject({destination: '1.1.1.1/24', action: 'accept', port_type: 'udp', port_range: '1 - 2', user_id: adminId});
  });

  it('validates with 0.7.36 messages', async () => {
    const cases: Array<[unknown, unknown]> = [
      [{action: 'invalid'}, {action: ['is invalid'], destination: ["can't be blank"]}],
      [{destination: '10.30.0.0/24', port_range: '10-20'}, {port_type: ["can't be blank"]}],
      [{destination: '10.30.0.0/24', port_type: 'tcp'}, {port_range: ["can't be blank"]}],
      [{destination: '10.30.0.0/24', port_type: 'tcp', port_range: '20-10'}, {port_range: ['lower value cannot be higher than upper value']}],
      [{destination: '10.30.0.0/24', port_type: 'tcp', port_range: 'abc'}, {port_range: ['bad format']}],
      [{destination: '10.30.0.0/24', port_type: 'sctp', port_range: '80'}, {port_type: ['is invalid']}],
      [{destination: '10.30.0.0/24', port_type: 'tcp', port_range: '1-65535'}, {port_range: ['port is not within valid range']}],
      [{destination: '256.0.0.1'}, {destination: ['is invalid']}],
      [{destination: '10.0 0.0/24'}, {destination: ['is invalid']}],
      [{destination: '10.30.0.0/24', user_id: crypto.randomUUID()}, {user: ['does not exist']}],
    ];
    for (const [rule, errors] of cases) {
      const res = await api('POST', '/v0/rules', {body: {rule}});
      expect([res.status, res.json], JSON.stringify(rule)).toEqual([422, {errors}]);
    }
  });

  it('crashes on a numeric port_range, an out-of-range prefix and a non-UUID user_id', async () => {
    for (const rule of [
      {destination: '10.31.0.0/24', port_type: 'tcp', port_range: 80},
      {destination: '10.0.0.0/33'},
      {destination: '10.31.0.0/24', user_id: 'not-a-uuid'},
    ]) {
      const res = await api('POST', '/v0/rules', {body: {rule}});
      expect([res.status, res.text], JSON.stringify(rule)).toEqual([500, '']);
    }
  });

  it('normalises port ranges leniently', async () => {
    const range = async (port_range: unknown, destination: string) =>
      data(await api('POST', '/v0/rules', {body: {rule: {destination, port_type: 'tcp', port_range}}})).port_range;
    expect(await range('80', '10.40.0.1')).toBe('80');
    expect(await range('100-200', '10.40.0.2')).toBe('100 - 200');
    expect(await range('-80', '10.40.0.3')).toBe('80');
    expect(await range('80abc', '10.40.0.4')).toBe('80');
    expect(await range([1000, 1001], '10.40.0.5')).toBe('1000 - 1001');
  });

  it('excludes overlaps only within a partition (same action, same scope, ports)', async () => {
    const user = String((await newUser()).id);
    const post = (rule: Record<string, unknown>) => api('POST', '/v0/rules', {body: {rule}});
    expect((await post({destination: '10.50.10.1/24', action: 'drop'})).status).toBe(201);
    expect((await post({destination: '10.50.10.200/24', action: 'drop'})).json).toEqual({
      errors: {destination: ['destination overlaps with an existing rule']},
    });
    expect((await post({destination: '10.50.10.1/24', action: 'accept'})).status).toBe(201);
    expect((await post({destination: '10.50.10.1/24', action: 'drop', user_id: user})).status).toBe(201);
    expect((await post({destination: '10.50.10.1/24', action: 'drop', port_type: 'tcp', port_range: '80'})).status).toBe(201);
    expect((await post({destination: '10.50.10.0/24', action: 'drop', port_type: 'tcp', port_range: '70-90'})).status).toBe(422);
    expect((await post({destination: '10.50.10.0/24', action: 'drop', port_type: 'udp', port_range: '70-90'})).status).toBe(201);
    expect((await post({destination: '10.50.10.0/24', action: 'drop', port_type: 'tcp', port_range: '81-90'})).status).toBe(201);
    // Ranges that only share an end port still overlap (the constraint's int4range is inclusive).
    for (const port_range of ['80-85', '75-80', '80', '90-95', '60-81']) {
      expect((await post({destination: '10.50.10.0/24', action: 'drop', port_type: 'tcp', port_range})).status, port_range).toBe(422);
    }
    expect((await post({destination: '10.50.10.0/24', action: 'drop', port_type: 'tcp', port_range: '91-95'})).status).toBe(201);
  });

  it('echoes /32 and the given user_id on write, normalises on read', async () => {
    const created = await api('POST', '/v0/rules', {body: {rule: {destination: '10.60.0.1/32', user_id: adminId.toUpperCase()}}});
    expect(data(created)).toMatchObject({destination: '10.60.0.1/32', user_id: adminId.toUpperCase()});
    expect(data(await api('GET', `/v0/rules/${data(created).id}`))).toMatchObject({destination: '10.60.0.1', user_id: adminId});
  });

  it('updates any cast field; invalid and blank updates are refused', async () => {
    const rule = data(await api('POST', '/v0/rules', {body: {rule: {destination: '10.61.0.0/24'}}}));
    expect((await api('PUT', `/v0/rules/${rule.id}`, {body: {rule: {action: 'invalid'}}})).json).toEqual({errors: {action: ['is invalid']}});
    expect((await api('PUT', `/v0/rules/${rule.id}`, {body: {rule: {action: null, destination: null}}})).json).toEqual({
      errors: {action: ["can't be blank"], destination: ["can't be blank"]},
    });
    const updated = data(await api('PUT', `/v0/rules/${rule.id}`, {body: {rule: {action: 'accept', port_type: 'udp', port_range: '1-2', user_id: adminId}}}));
    expect(updated).toMatchObject({action: 'accept', port_type: 'udp', port_range: '1 - 2', user_id: adminId});
    expect(data(await api('PUT', `/v0/rules/${rule.id}`, {body: {rule: {action: ''}}})).action).toBe('drop');
    expect((await api('GET', '/v0/rules/003da73d-2dd9-4492-8136-3282843545e8')).status).toBe(404);
    expect((await api('DELETE', `/v0/rules/${rule.id}`)).headers['content-type']).toBeUndefined();
  });
});
