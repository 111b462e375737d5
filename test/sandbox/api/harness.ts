// The /v0 API tests' shared part: a sandbox per test file and the request helpers. The tests
// (protocol layer, auth, permissions and each resource's 0.7.36 quirks) are the *.test.ts files
// of this folder.
import {afterAll, beforeAll, expect} from 'vitest';
import {startSandbox, type SandboxHandle} from '../../../src/sandbox/index.js';
import {data, publicKey, send, type RawRequest} from '../helpers.js';

export const SECRET = 'sandbox-api-test-secret';
export let sb: SandboxHandle;
export let adminId: string;
export let unprivilegedId: string;

export const api = (method: string, path: string, options: RawRequest = {}) => send(sb.url, method, path, {token: sb.adminToken, ...options});

export async function newUser(role: 'admin' | 'unprivileged' = 'unprivileged'): Promise<Record<string, unknown>> {
  const res = await api('POST', '/v0/users', {body: {user: {email: `u-${Math.random().toString(36).slice(2)}@example.com`, role}}});
  expect(res.status).toBe(201);
  return data(res);
}

export async function newDevice(userId: string, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const res = await api('POST', '/v0/devices', {body: {device: {user_id: userId, public_key: publicKey(), ...extra}}});
  expect(res.status, res.text).toBe(201);
  return data(res);
}

/** Opens the test file's sandbox (seed 'empty') before its tests, and closes it after them. */
export function useApiSandbox(): void {
  beforeAll(async () => {
    sb = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0, jwtSecret: SECRET});
    const users = data<Array<{id: string; email: string}>>(await api('GET', '/v0/users'));
    adminId = users.find((u) => u.email === 'admin@sandbox.test')!.id;
    unprivilegedId = users.find((u) => u.email === 'user@sandbox.test')!.id;
  });
  afterAll(async () => {
    await sb.close();
  });
}
