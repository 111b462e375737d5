// The device poll on a worker thread (src/api/poll-worker.ts, src/api/devices-worker.ts) against
// the real sandbox over HTTP: a long list is decoded on the worker once the first poll showed it
// long, and the console's thread gets the very table the decoder makes on its own (every value,
// poll after poll of edits), an unchanged poll the same table, the worker's requests for the debug
// log, its errors as the ApiErrors they are; and when the worker cannot serve, the poll says so
// and the next is decoded on the console's thread. The worker is the built script, as it runs.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {build} from 'esbuild';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {ApiError, FirezoneClient, type RequestEvent} from '../../src/api/index.js';
import {POLL_WORKER_MIN_DEVICES, pollWorkerScript, setPollWorkerScript} from '../../src/api/poll-worker.js';
import {startSandbox, type SandboxHandle} from '../../src/sandbox/index.js';
import {commonOptions, requireShim} from '../../scripts/esbuild-common.mjs';

let sandbox: SandboxHandle;
let folder: string;
let script: URL;
const clients: FirezoneClient[] = [];

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'fzc-worker-'));
  script = pathToFileURL(join(folder, 'devices-worker.mjs'));
  await build({
    ...commonOptions,
    entryPoints: [fileURLToPath(new URL('../../src/api/devices-worker.ts', import.meta.url))],
    outfile: join(folder, 'devices-worker.mjs'),
    banner: {js: requireShim},
  });
  sandbox = await startSandbox({port: 0, seed: 'demo', devices: POLL_WORKER_MIN_DEVICES + 10, users: 50, rules: 5, statsIntervalSeconds: 0});
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sandbox?.close();
  rmSync(folder, {recursive: true, force: true});
});

function client(options: {worker?: URL | null; events?: RequestEvent[]; token?: string} = {}): FirezoneClient {
  const c = new FirezoneClient({
    baseUrl: sandbox.url,
    token: options.token ?? sandbox.adminToken,
    pollWorker: options.worker ?? null,
    ...(options.events ? {onRequest: (e: RequestEvent) => options.events!.push(e)} : {}),
  });
  clients.push(c);
  return c;
}

/** Whether the client's polls go to a worker that serves them. */
const onWorker = (c: FirezoneClient) => (c as unknown as {worker: {serving: boolean} | null}).worker?.serving === true;

describe('the device poll on a worker thread', () => {
  it('gives, poll after poll of edits, the table a poll on the console’s thread gives', async () => {
    const events: RequestEvent[] = [];
    const viaWorker = client({worker: script, events});
    const plain = client();
    const first = await viaWorker.pollDevices();
    expect(onWorker(viaWorker)).toBe(false); // the first poll tells how long the list is
    expect(first.data.length).toBeGreaterThanOrEqual(POLL_WORKER_MIN_DEVICES);
    const requestsBefore = events.length;
    const second = await viaWorker.pollDevices();
    expect(onWorker(viaWorker)).toBe(true);
    expect(second.data.materialiseAll()).toEqual((await plain.pollDevices()).data.materialiseAll());
    // The worker's requests reach the debug log as the console's own do.
    expect(events.slice(requestsBefore)).toEqual([expect.objectContaining({method: 'GET', path: '/v0/devices', status: 200})]);
    // Nothing changed: the same table, which everything after the decoder recognises by identity.
    const third = await viaWorker.pollDevices();
    expect(third.data).toBe(second.data);
    // A rename, a device gone and one added: told as the difference, rebuilt equal.
    const devices = second.data.materialiseAll();
    await plain.updateDevice(devices[3]!.id, {name: 'renamed-by-test'});
    await plain.deleteDevice(devices[10]!.id);
    // For a new user: 0.7.36 limits devices per user, and the demo's have many.
    const owner = (await plain.createUser({email: 'worker-test@example.com'})).data;
    await plain.createDevice({user_id: owner.id, name: 'added-by-test', public_key: 'kQvbkv8VbYWUJDEY5ZTa9mk5tOcwzXPQDOjQ2P/Kvz0='});
    const fourth = await viaWorker.pollDevices();
    const expected = (await plain.pollDevices()).data.materialiseAll();
    expect(fourth.data.materialiseAll()).toEqual(expected);
    expect(expected.some((d) => d.name === 'renamed-by-test') && expected.some((d) => d.name === 'added-by-test')).toBe(true);
    // The values it keeps are the ones it had (not copies), as the decoder's own tables share them.
    expect(fourth.data.id[0]).toBe(second.data.id[0]);
  }, 60_000);

  it('fails a poll with the server’s ApiError, and takes a new token', async () => {
    const viaWorker = client({worker: script});
    await viaWorker.pollDevices();
    await viaWorker.pollDevices();
    expect(onWorker(viaWorker)).toBe(true);
    viaWorker.setToken(`${sandbox.adminToken.slice(0, -4)}AAAA`);
    const err = await viaWorker.pollDevices().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).kind).toBe('invalid_token');
    expect((err as ApiError).isAuthFailure).toBe(true);
    viaWorker.setToken(sandbox.adminToken);
    expect((await viaWorker.pollDevices()).data.length).toBeGreaterThanOrEqual(POLL_WORKER_MIN_DEVICES);
    expect(onWorker(viaWorker)).toBe(true);
  }, 60_000);

  it('says a worker that cannot serve, and decodes the next poll on the console’s thread', async () => {
    const broken = join(folder, 'broken-worker.mjs');
    writeFileSync(broken, "throw new Error('no worker today');\n");
    const c = client({worker: pathToFileURL(broken)});
    await c.pollDevices();
    const err = await c.pollDevices().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toMatch(/^Polling the devices stopped: its worker thread (failed \(no worker today\)|exited)/);
    expect((err as ApiError).isTransient).toBe(true);
    expect(onWorker(c)).toBe(false);
    expect((await c.pollDevices()).data.length).toBeGreaterThanOrEqual(POLL_WORKER_MIN_DEVICES);
  }, 60_000);

  it('keeps a short list on the console’s thread', async () => {
    const small = await startSandbox({port: 0, seed: 'demo', statsIntervalSeconds: 0});
    try {
      const c = new FirezoneClient({baseUrl: small.url, token: small.adminToken, pollWorker: script});
      await c.pollDevices();
      await c.pollDevices();
      expect(onWorker(c)).toBe(false);
      await c.close();
    } finally {
      await small.close();
    }
  }, 60_000);
});

describe('whether the executable polls on a worker', () => {
  it('is off unless FZ_POLL_WORKER=1, whatever script the entry found', () => {
    const saved = process.env.FZ_POLL_WORKER;
    setPollWorkerScript(new URL('file:///opt/fz/devices-worker.js'));
    try {
      delete process.env.FZ_POLL_WORKER;
      expect(pollWorkerScript()).toBeNull();
      process.env.FZ_POLL_WORKER = '0';
      expect(pollWorkerScript()).toBeNull();
      process.env.FZ_POLL_WORKER = '1';
      expect(pollWorkerScript()?.href).toBe('file:///opt/fz/devices-worker.js');
    } finally {
      setPollWorkerScript(null);
      if (saved === undefined) delete process.env.FZ_POLL_WORKER;
      else process.env.FZ_POLL_WORKER = saved;
    }
  });
});
