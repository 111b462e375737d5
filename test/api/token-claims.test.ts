// The user a token acts for, read from its `sub` claim: the sandbox mints tokens as 0.7.36 does, so
// the admin token's subject is the admin user's id; anything that is not a JWT has no known user.
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {tokenSubject} from '../../src/api/token-claims.js';
import {startTestSandbox, type TestSandbox} from '../helpers/rig.js';

let fx: TestSandbox;
beforeAll(async () => {
  fx = await startTestSandbox({seed: 'demo'});
});
afterAll(async () => {
  await fx?.close();
});

const jwt = (claims: unknown) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;

describe('tokenSubject', () => {
  it("is the id of the token's user, as the server lists it", async () => {
    const users = (await fx.client.listUsers()).data;
    const admin = users.find((u) => u.email === 'admin@sandbox.test')!;
    expect(tokenSubject(fx.sandbox.adminToken)).toBe(admin.id);
    expect(fx.client.tokenUserId()).toBe(admin.id);
  });

  it('is null for what is not a JWT with a string sub', () => {
    expect(tokenSubject('garbage')).toBeNull();
    expect(tokenSubject('a.b')).toBeNull();
    expect(tokenSubject('a.%%%.c')).toBeNull();
    expect(tokenSubject(jwt({sub: 42}))).toBeNull();
    expect(tokenSubject(jwt({sub: ''}))).toBeNull();
    expect(tokenSubject(jwt(['sub']))).toBeNull();
    expect(tokenSubject(jwt(null))).toBeNull();
    expect(tokenSubject(`e30.${'A'.repeat(9000)}.sig`)).toBeNull();
    expect(tokenSubject(jwt({sub: 'u-1', api: 'x'}))).toBe('u-1');
  });
});
