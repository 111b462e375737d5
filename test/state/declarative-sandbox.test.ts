// The server as a file against real sandboxes over HTTP (property): for random server states,
// written with plain `fetch` (not with the code under test), export then plan is "no changes";
// and applying the export of a state A to a server in another state B (--prune --replace) makes
// B export as A, byte for byte.
import {generateKeyPairSync} from 'node:crypto';
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {FirezoneClient} from '../../src/api/index.js';
import {startSandbox, type SandboxHandle} from '../../src/sandbox/index.js';
import {applyPlan} from '../../src/state/declarative/apply.js';
import {parseServerDocument, serialiseDocument} from '../../src/state/declarative/document.js';
import {exportDocument, readServerState} from '../../src/state/declarative/export.js';
import {makePlan} from '../../src/state/declarative/plan.js';

const KEYS = Array.from({length: 12}, () =>
  generateKeyPairSync('x25519', {publicKeyEncoding: {type: 'spki', format: 'der'}, privateKeyEncoding: {type: 'pkcs8', format: 'der'}})
    .publicKey.subarray(12)
    .toString('base64'),
);
// Each identity has one spelling (0.7.36 keeps an email's case; comparing ignores it).
const EMAILS = ['Ana@Example.com', 'bo@example.com', 'CY@EXAMPLE.COM', 'di@example.com'];
const NAMES = ['laptop', 'phone', 'pi'];
const DESTS = ['10.0.0.0/8', '10.1.0.5/32', '192.168.1.0/24', 'fd00::/64', '172.16.0.1'];

const device = fc.record({
  owner: fc.integer({min: 0, max: EMAILS.length - 1}),
  name: fc.constantFrom(...NAMES),
  key: fc.integer({min: 0, max: KEYS.length - 1}),
  description: fc.option(fc.constantFrom('lab', 'home'), {nil: undefined}),
  allowed: fc.option(fc.shuffledSubarray(['10.0.0.0/8', '192.168.1.1/32', '0.0.0.0/0'], {minLength: 1}), {nil: undefined}),
  mtu: fc.option(fc.constantFrom(1280, 1420), {nil: undefined}),
  dns: fc.option(fc.shuffledSubarray(['1.1.1.1', '9.9.9.9'], {minLength: 1}), {nil: undefined}),
});
const rule = fc.record({
  action: fc.constantFrom('accept', 'drop'),
  destination: fc.constantFrom(...DESTS),
  ports: fc.option(fc.record({type: fc.constantFrom('tcp', 'udp'), range: fc.constantFrom('80', '443-445', '1000 - 2000')}), {nil: null}),
  user: fc.option(fc.integer({min: 0, max: EMAILS.length - 1}), {nil: null}),
});
const serverState = fc.record({
  users: fc.array(fc.record({email: fc.integer({min: 0, max: EMAILS.length - 1}), admin: fc.boolean()}), {maxLength: 4}),
  devices: fc.array(device, {maxLength: 5}),
  rules: fc.array(rule, {maxLength: 5}),
  mtu: fc.constantFrom(1280, 1400),
  dns: fc.shuffledSubarray(['1.1.1.1', '1.0.0.1', '8.8.8.8'], {minLength: 1}),
});
type State = typeof serverState extends fc.Arbitrary<infer T> ? T : never;

/** A request with plain fetch; refusals (a duplicate, an overlap) are part of making a random state. */
async function send(sandbox: SandboxHandle, method: string, path: string, body: unknown): Promise<{id?: string} | null> {
  const res = await fetch(`${sandbox.url}/v0${path}`, {
    method,
    headers: {authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json'},
    body: JSON.stringify(body),
  });
  return res.status === 201 || res.status === 200 ? ((await res.json()) as {data: {id: string}}).data : null;
}

async function makeState(s: State): Promise<SandboxHandle> {
  const sandbox = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0});
  const ids = new Map<number, string>();
  for (const u of s.users) {
    const made = await send(sandbox, 'POST', '/users', {user: {email: EMAILS[u.email], role: u.admin ? 'admin' : 'unprivileged'}});
    if (made?.id) ids.set(u.email, made.id);
  }
  for (const d of s.devices) {
    const owner = ids.get(d.owner);
    if (!owner) continue;
    await send(sandbox, 'POST', '/devices', {
      device: {
        user_id: owner,
        name: d.name,
        public_key: KEYS[d.key],
        ...(d.description ? {description: d.description} : {}),
        ...(d.allowed ? {use_default_allowed_ips: false, allowed_ips: d.allowed} : {}),
        ...(d.mtu ? {use_default_mtu: false, mtu: d.mtu} : {}),
        ...(d.dns ? {use_default_dns: false, dns: d.dns} : {}),
      },
    });
  }
  for (const r of s.rules) {
    const user = r.user === null ? null : ids.get(r.user);
    if (user === undefined) continue;
    await send(sandbox, 'POST', '/rules', {
      rule: {action: r.action, destination: r.destination, user_id: user, ...(r.ports ? {port_type: r.ports.type, port_range: r.ports.range} : {})},
    });
  }
  await send(sandbox, 'PATCH', '/configuration', {configuration: {default_client_mtu: s.mtu, default_client_dns: s.dns}});
  return sandbox;
}

async function exported(client: FirezoneClient): Promise<string> {
  return serialiseDocument(exportDocument(await readServerState(client), {withSecrets: true}), 'yaml');
}

describe('the server as a file, against sandboxes (property)', () => {
  it('export then plan is no change; applying the export of A to B (--prune --replace) makes B export as A', async () => {
    await fc.assert(
      fc.asyncProperty(serverState, serverState, async (a, b) => {
        const sandboxA = await makeState(a);
        const sandboxB = await makeState(b);
        const clientA = new FirezoneClient({baseUrl: sandboxA.url, token: sandboxA.adminToken, timeoutMs: 5000});
        const clientB = new FirezoneClient({baseUrl: sandboxB.url, token: sandboxB.adminToken, timeoutMs: 5000});
        try {
          const textA = await exported(clientA);
          const {document, lineOf} = parseServerDocument(textA, 'a.yaml');
          for (const prune of [false, true]) {
            const again = makePlan(document, lineOf, await readServerState(clientA), {prune, selfUserId: clientA.tokenUserId()});
            expect(again.problems).toEqual([]);
            expect(again.steps).toEqual([]);
          }
          const stateB = await readServerState(clientB);
          const plan = makePlan(document, lineOf, stateB, {prune: true, selfUserId: clientB.tokenUserId()});
          expect(plan.problems).toEqual([]);
          const result = await applyPlan(plan, stateB, clientB, () => undefined);
          expect(result.failed).toEqual([]);
          // The token's own user is the sandboxes' one admin of the same email in both.
          expect(await exported(clientB)).toBe(textA);
        } finally {
          await clientA.close();
          await clientB.close();
          await sandboxA.close();
          await sandboxB.close();
        }
      }),
      {numRuns: 15},
    );
  }, 120_000);

  it('two devices that swap public keys and addresses are both replaced, one request at a time: the old ones go before the new ones come', async () => {
    const sandbox = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0});
    const client = new FirezoneClient({baseUrl: sandbox.url, token: sandbox.adminToken, timeoutMs: 5000});
    try {
      const owner = await send(sandbox, 'POST', '/users', {user: {email: 'swap@example.com'}});
      const a = {user_id: owner!.id, name: 'laptop', public_key: KEYS[0], ipv4: '10.3.2.10'};
      const b = {user_id: owner!.id, name: 'phone', public_key: KEYS[1], ipv4: '10.3.2.11'};
      for (const device of [a, b]) expect(await send(sandbox, 'POST', '/devices', {device})).not.toBeNull();
      const text = serialiseDocument(exportDocument(await readServerState(client), {withSecrets: false}), 'yaml');
      const swapped = text
        .replace(`public_key: ${KEYS[0]}\n    ipv4: 10.3.2.10`, 'public_key: KEY-B\n    ipv4: ADDRESS-B')
        .replace(`public_key: ${KEYS[1]}\n    ipv4: 10.3.2.11`, `public_key: ${KEYS[0]}\n    ipv4: 10.3.2.10`)
        .replace('public_key: KEY-B\n    ipv4: ADDRESS-B', `public_key: ${KEYS[1]}\n    ipv4: 10.3.2.11`);
      expect(swapped).not.toBe(text);
      const {document, lineOf} = parseServerDocument(swapped, 'swap.yaml');
      const state = await readServerState(client);
      const plan = makePlan(document, lineOf, state, {prune: false, selfUserId: client.tokenUserId()});
      expect(plan.steps.map((step) => `${step.op} ${step.label}`)).toEqual([
        'replace device laptop of swap@example.com',
        'replace device phone of swap@example.com',
      ]);
      const result = await applyPlan(plan, state, client, () => undefined, {concurrency: 1});
      expect(result.failed).toEqual([]);
      const res = await fetch(`${sandbox.url}/v0/devices`, {headers: {authorization: `Bearer ${sandbox.adminToken}`}});
      const now = ((await res.json()) as {data: Array<{name: string; public_key: string; ipv4: string}>}).data;
      expect(now.map((d) => [d.name, d.public_key, d.ipv4]).sort()).toEqual([
        ['laptop', KEYS[1], '10.3.2.11'],
        ['phone', KEYS[0], '10.3.2.10'],
      ]);
    } finally {
      await client.close();
      await sandbox.close();
    }
  });

  it('apply has at most four requests in flight (counted around the real client), and does use four', async () => {
    const sandbox = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0, latencyMs: 40});
    const client = new FirezoneClient({baseUrl: sandbox.url, token: sandbox.adminToken, timeoutMs: 5000});
    try {
      const emails = Array.from({length: 12}, (_, i) => `u${i}@example.com`);
      const text = `version: 1\nusers:\n${emails.map((e) => `  - email: ${e}\n    role: unprivileged\n`).join('')}`;
      const {document, lineOf} = parseServerDocument(text, 'many.yaml');
      const state = await readServerState(client);
      const plan = makePlan(document, lineOf, state, {prune: false, selfUserId: client.tokenUserId()});
      let inFlight = 0;
      let most = 0;
      // The real client, its createUser counted.
      const counted = Object.assign(Object.create(client) as FirezoneClient, {
        createUser: async (body: Parameters<FirezoneClient['createUser']>[0]) => {
          most = Math.max(most, ++inFlight);
          try {
            return await client.createUser(body);
          } finally {
            inFlight--;
          }
        },
      });
      const result = await applyPlan(plan, state, counted, () => undefined);
      expect(result.applied).toHaveLength(12);
      expect(most).toBe(4);
    } finally {
      await client.close();
      await sandbox.close();
    }
  });
});
