// Acceptance cases, "Rules" (docs/firezone-0.7.36.md, "Acceptance cases"); the suite's conventions
// and helpers are described in ./harness.ts.
import {randomUUID} from 'node:crypto';
import {beforeEach, describe, expect, it} from 'vitest';
import {
  UUID_RE,
  TS_RE,
  RULE_KEYS,
  fresh,
  main,
  expectStatus,
  expectData,
  expectList,
  expectNoContent,
  expectNotFound,
  expect422,
  createUser,
  createRule,
  listIds,
  useSharedSandbox,
} from './harness.js';

useSharedSandbox();

describe('Acceptance: Rules', () => {
  // Overlap constraints are global (docs/firezone-0.7.36.md, "Rules: overlap constraints"): every
  // case starts from an empty rule table.
  beforeEach(async () => {
    for (const id of await listIds(main.admin, '/v0/rules')) expectStatus(await main.admin.delete(`/v0/rules/${id}`), 204);
  });

  it('15.70 POST /v0/rules accept 1.1.1.1/24 udp "1 - 2" for a user → 201 echoed, Location', async () => {
    const attrs = {destination: '1.1.1.1/24', action: 'accept', port_type: 'udp', port_range: '1 - 2', user_id: main.adminId};
    const res = await main.admin.post('/v0/rules', {rule: attrs});
    const rule = expectData(res, 201);
    expect(Object.keys(rule)).toEqual(RULE_KEYS);
    expect(rule).toEqual({...attrs, id: expect.stringMatching(UUID_RE), inserted_at: expect.stringMatching(TS_RE), updated_at: rule.inserted_at});
    expect(res.headers.get('location')).toBe(`/v0/rules/${rule.id}`);
  });

  it('15.71 POST /v0/rules drop 5.5.5.5/24 tcp "1 - 65000" for a user → 201', async () => {
    const user = await createUser(main);
    const attrs = {destination: '5.5.5.5/24', action: 'drop', port_type: 'tcp', port_range: '1 - 65000', user_id: user.id};
    expect(await createRule(main, attrs)).toMatchObject(attrs);
  });

  it('15.72 POST /v0/rules {"rule":{"action":"invalid"}} → 422 exactly action + destination errors', async () => {
    expect422(await main.admin.post('/v0/rules', {rule: {action: 'invalid'}}), {action: ['is invalid'], destination: ["can't be blank"]});
  });

  it('15.73 POST /v0/rules {"rule":{"destination":"10.10.10.0/24"}} → 201 drop, no ports, global', async () => {
    expect(await createRule(main, {destination: '10.10.10.0/24'})).toMatchObject({
      destination: '10.10.10.0/24',
      action: 'drop',
      port_range: null,
      port_type: null,
      user_id: null,
    });
  });

  it('15.74 port_range without port_type / port_type without port_range → 422 exactly the missing one', async () => {
    expect422(await main.admin.post('/v0/rules', {rule: {destination: '10.74.0.0/16', port_range: '10-20'}}), {port_type: ["can't be blank"]});
    expect422(await main.admin.post('/v0/rules', {rule: {destination: '10.74.0.0/16', port_type: 'tcp'}}), {port_range: ["can't be blank"]});
  });

  it('15.75 port_range "20-10" → 422 {"errors":{"port_range":["lower value cannot be higher than upper value"]}}', async () => {
    expect422(await main.admin.post('/v0/rules', {rule: {destination: '10.75.0.0/16', port_type: 'tcp', port_range: '20-10'}}), {
      port_range: ['lower value cannot be higher than upper value'],
    });
  });

  it('15.76 existing global drop 10.10.10.1/24: accept for it → 201; user-scoped drop → 201', async () => {
    const user = await createUser(main);
    await createRule(main, {destination: '10.10.10.1/24', action: 'drop'});
    expect(await createRule(main, {destination: '10.10.10.1/24', action: 'accept'})).toMatchObject({action: 'accept', user_id: null});
    expect(await createRule(main, {destination: '10.10.10.1/24', action: 'drop', user_id: user.id})).toMatchObject({action: 'drop', user_id: user.id});
    // Control (docs/firezone-0.7.36.md, "Rules: overlap constraints"): within the same partition an overlapping rule is refused.
    expect422(await main.admin.post('/v0/rules', {rule: {destination: '10.10.10.0/24', action: 'drop'}}), {
      destination: ['destination overlaps with an existing rule'],
    });
  });

  it('15.77 port_range "80" → "80"; "100-200" → "100 - 200"', async () => {
    expect((await createRule(main, {destination: '10.77.1.0/24', port_type: 'tcp', port_range: '80'})).port_range).toBe('80');
    expect((await createRule(main, {destination: '10.77.2.0/24', port_type: 'tcp', port_range: '100-200'})).port_range).toBe('100 - 200');
  });

  // The upstream case list says "the accept params of case 91"; the evident meaning is case 70.
  it('15.78 PUT /v0/rules/<id> with the case-70 accept params minus user_id → 200 echoed; GET shows the same', async () => {
    const rule = await createRule(main, {destination: '10.78.0.0/16', action: 'drop'});
    const attrs = {destination: '1.1.1.1/24', action: 'accept', port_type: 'udp', port_range: '1 - 2'};
    const updated = expectData(await main.admin.put(`/v0/rules/${rule.id}`, {rule: attrs}));
    expect(updated).toEqual({...rule, ...attrs, updated_at: expect.stringMatching(TS_RE)});
    expect(expectData(await main.admin.get(`/v0/rules/${rule.id}`))).toEqual(updated);
  });

  it('15.79 PUT /v0/rules/<id> {"rule":{"action":"invalid"}} → 422 exactly {"errors":{"action":["is invalid"]}}', async () => {
    const rule = await createRule(main, {destination: '10.79.0.0/16'});
    expect422(await main.admin.put(`/v0/rules/${rule.id}`, {rule: {action: 'invalid'}}), {action: ['is invalid']});
  });

  it('15.80 PUT /v0/rules/<id> action and destination null → 422 exactly both "can\'t be blank"', async () => {
    const rule = await createRule(main, {destination: '10.80.0.0/16'});
    expect422(await main.admin.put(`/v0/rules/${rule.id}`, {rule: {action: null, destination: null}}), {
      action: ["can't be blank"],
      destination: ["can't be blank"],
    });
  });

  it('15.81 PUT /v0/rules/<id> {"rule":{"user_id":<existing user id>}} → 200 user_id set', async () => {
    const user = await createUser(main);
    const rule = await createRule(main, {destination: '10.81.0.0/16'});
    expect(rule.user_id).toBeNull();
    expect(expectData(await main.admin.put(`/v0/rules/${rule.id}`, {rule: {user_id: user.id}})).user_id).toBe(user.id);
    expect(expectData(await main.admin.get(`/v0/rules/${rule.id}`)).user_id).toBe(user.id);
  });

  it('15.82 GET unknown rule → 404; DELETE → 204 then GET → 404; DELETE unknown → 404', async () => {
    expectNotFound(await main.admin.get(`/v0/rules/${randomUUID()}`));
    const rule = await createRule(main, {destination: '10.82.0.0/16'});
    expect(expectData(await main.admin.get(`/v0/rules/${rule.id}`))).toEqual(rule);
    expectNoContent(await main.admin.delete(`/v0/rules/${rule.id}`), null);
    expectNotFound(await main.admin.get(`/v0/rules/${rule.id}`));
    expectNotFound(await main.admin.delete(`/v0/rules/${randomUUID()}`));
  });

  it('15.83 GET /v0/rules with 5 rules → 200, ids equal, exactly the 8 keys each', async () => {
    const ctx = await fresh();
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) ids.push(String((await createRule(ctx, {destination: `10.83.${i}.0/24`})).id));
    const list = expectList(await ctx.admin.get('/v0/rules'));
    expect(list.map((r) => String(r.id)).sort()).toEqual(ids.sort());
    for (const rule of list) expect(Object.keys(rule)).toEqual(RULE_KEYS);
  });
});
