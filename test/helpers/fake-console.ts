// The Controller without Ink, for the state tests (test/state/dispatch.test.ts, scopes.test.ts): an
// in-memory server with every call it got (no HTTP here; the client itself is tested against the
// sandbox in test/api), keys pressed by name, and waits on conditions, never on time.
import {DeviceColumns} from '../../src/api/device-columns.js';
import {afterEach} from 'vitest';
import {ApiError, type Configuration, type Device, type DeviceCreate, type Rule, type RuleWrite, type User, type UserCreate} from '../../src/api/index.js';
import type {ConsoleClient, ConsoleIO, ConsoleSettings} from '../../src/state/core/context.js';
import {Controller} from '../../src/state/controller.js';
import {topModal} from '../../src/state/core/state.js';
import {generateKeyPair} from '../../src/wireguard/index.js';
import {configuration, device, iso, rule, user} from '../fixtures/data.js';

/** The server the console talks to, in memory, with every call it got. */
export class FakeServer implements ConsoleClient {
  devices: Device[] = [];
  users: User[] = [];
  rules: Rule[] = [];
  config: Configuration = configuration();
  readonly calls: string[] = [];
  /** Whose token the console holds (the `sub` claim); null: not known. */
  tokenUser: string | null = null;
  tokenUserId() {
    return this.tokenUser;
  }
  /** The next create of a user answers 422 with these field errors. */
  rejectNextUser: Record<string, string[]> | null = null;
  private nextId = 100;
  private readonly serverKey = generateKeyPair().publicKey;

  private result<T>(data: T) {
    return Promise.resolve({data, issues: []});
  }
  /** The devices list comes back over the body limit. */
  listsTooLarge = false;
  listDevices() {
    if (this.listsTooLarge)
      return Promise.reject(
        new ApiError({kind: 'too_large', method: 'GET', path: '/v0/devices', message: 'Response too large from GET /v0/devices: more than 256 MiB; aborted'}),
      );
    if (this.listsFail) return Promise.reject(new ApiError({kind: 'network', method: 'GET', path: '/v0/devices', message: 'connection refused'}));
    return this.result([...this.devices]);
  }
  getDevice(id: string) {
    this.calls.push(`getDevice ${id}`);
    const found = this.devices.find((d) => d.id === id);
    if (!found) return Promise.reject(new ApiError({kind: 'not_found', method: 'GET', path: `/v0/devices/${id}`, message: 'Not found (404)', status: 404}));
    return this.result(found);
  }
  pollDevices() {
    return this.listDevices().then(({data, issues}) => ({data: DeviceColumns.from(data), issues}));
  }
  listUsers() {
    return this.result([...this.users]);
  }
  listRules() {
    return this.result([...this.rules]);
  }
  getConfiguration() {
    return this.result(this.config);
  }
  updateConfiguration() {
    this.calls.push('updateConfiguration');
    return this.result(this.config);
  }
  /** Every device create's body, in order. */
  readonly deviceBodies: DeviceCreate[] = [];
  /** The next device creates fail with these errors, one each, in order. */
  readonly failDeviceCreates: ApiError[] = [];
  /**
   * Creates refuse an address, a public key or a name (per user) another device has, as 0.7.36 does
   * (off unless a test asks: the seeded devices share an IPv6 address).
   */
  unique = false;
  createDevice(body: DeviceCreate) {
    this.calls.push(`createDevice ${body.name}`);
    this.deviceBodies.push(body);
    const failure = this.failDeviceCreates.shift();
    if (failure) return Promise.reject(failure);
    if (this.unique) {
      const taken: Record<string, string[]> = {};
      for (const field of ['ipv4', 'ipv6', 'public_key'] as const)
        if (body[field] && this.devices.some((d) => d[field] === body[field])) taken[field] = ['has already been taken'];
      if (this.devices.some((d) => d.user_id === body.user_id && d.name === body.name)) taken.user_id = ['has already been taken'];
      if (Object.keys(taken).length > 0)
        return Promise.reject(
          new ApiError({kind: 'validation', message: '422 Unprocessable Entity', method: 'POST', path: '/v0/devices', status: 422, fieldErrors: taken}),
        );
    }
    // What the body says of the device is kept (undo and K send addresses, keys and settings).
    const given = Object.fromEntries(Object.entries(body).filter(([key, value]) => value !== undefined && key !== 'user_id')) as Partial<Device>;
    const d = device({
      preshared_key: null,
      ...given,
      id: `d-${this.nextId++}`,
      user_id: body.user_id,
      name: body.name,
      public_key: body.public_key,
      server_public_key: this.serverKey,
    });
    this.devices.push(d);
    return this.result(d);
  }
  updateDevice(id: string) {
    this.calls.push(`updateDevice ${id}`);
    return this.result(this.devices.find((d) => d.id === id)!);
  }
  /**
   * How a device delete goes wrong: its connection breaks after the server applied it or before;
   * `gone`: 404 (deleted elsewhere); `refused`: the server's 500; `hang`: no answer until release().
   */
  readonly breakDelete = new Map<string, 'after' | 'before' | 'gone' | 'refused' | 'hang'>();
  private readonly hung: Array<() => void> = [];
  /** Every list request fails (the server went away). */
  listsFail = false;
  /** Answers the deletes held by `hang`. */
  release(): void {
    for (const go of this.hung.splice(0)) go();
  }
  deleteDevice(id: string) {
    this.calls.push(`deleteDevice ${id}`);
    const broken = this.breakDelete.get(id);
    const err = (kind: 'network' | 'not_found' | 'server', message: string, status?: number) =>
      new ApiError({kind, method: 'DELETE', path: `/v0/devices/${id}`, message, ...(status ? {status} : {})});
    if (broken === 'gone') return Promise.reject(err('not_found', 'Not found (404)', 404));
    if (broken === 'refused') return Promise.reject(err('server', 'Server error 500 with an empty body', 500));
    if (broken === 'hang')
      return new Promise<void>((resolve) => this.hung.push(resolve)).then(() => {
        this.devices = this.devices.filter((d) => d.id !== id);
      });
    if (broken !== 'before') this.devices = this.devices.filter((d) => d.id !== id);
    if (broken) return Promise.reject(err('network', 'connection closed unexpectedly'));
    return Promise.resolve();
  }
  createUser(body: UserCreate) {
    this.calls.push(`createUser ${body.email}`);
    const errors = this.rejectNextUser;
    if (errors) {
      this.rejectNextUser = null;
      return Promise.reject(
        new ApiError({kind: 'validation', message: '422 Unprocessable Entity', method: 'POST', path: '/v0/users', status: 422, fieldErrors: errors}),
      );
    }
    const u = user({id: `u-${this.nextId++}`, email: body.email, role: body.role ?? 'unprivileged'});
    this.users.push(u);
    return this.result(u);
  }
  updateUser(id: string) {
    this.calls.push(`updateUser ${id}`);
    return this.result(this.users.find((u) => u.id === id)!);
  }
  deleteUser(id: string) {
    this.calls.push(`deleteUser ${id}`);
    this.users = this.users.filter((u) => u.id !== id);
    this.devices = this.devices.filter((d) => d.user_id !== id);
    this.rules = this.rules.filter((r) => r.user_id !== id);
    return Promise.resolve();
  }
  createRule(body: RuleWrite) {
    this.calls.push(`createRule ${body.destination}`);
    const r = rule({id: `r-${this.nextId++}`, ...body});
    this.rules.push(r);
    return this.result(r);
  }
  updateRule(id: string) {
    this.calls.push(`updateRule ${id}`);
    return this.result(this.rules.find((r) => r.id === id)!);
  }
  deleteRule(id: string) {
    this.calls.push(`deleteRule ${id}`);
    this.rules = this.rules.filter((r) => r.id !== id);
    return Promise.resolve();
  }
}

export function seeded(): FakeServer {
  const server = new FakeServer();
  server.users = [user({id: 'u-1', email: 'ann@example.com'}), user({id: 'u-2', email: 'bob@example.com', role: 'admin'})];
  server.devices = [
    device({id: 'd-1', user_id: 'u-1', name: 'ann-laptop', latest_handshake: iso(Date.now() - 10_000)}),
    device({id: 'd-2', user_id: 'u-1', name: 'ann-phone', ipv4: '10.3.2.3'}),
    device({id: 'd-3', user_id: 'u-2', name: 'bob-desktop', ipv4: '10.3.2.4'}),
  ];
  server.rules = [rule({id: 'r-1', user_id: 'u-2', destination: '10.0.0.0/8'})];
  return server;
}

export const running: Controller[] = [];
afterEach(() => {
  for (const c of running.splice(0)) c.stop();
});

/** Resolves when `ready` holds, checking after every turn of the event loop; fails after 5 s. */
export async function until(ready: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

/** `more` adds to the console's IO (an activity log). */
export async function open(server: FakeServer, settings: Partial<ConsoleSettings> = {}, more: Partial<ConsoleIO> = {}) {
  const io = {raw: [] as string[], exited: false};
  const c = new Controller(
    server,
    {label: 'test', refreshSeconds: 0, readOnly: false, insecure: false, demo: false, ...settings},
    {writeRaw: (data) => io.raw.push(data), exit: () => (io.exited = true), ...more},
  );
  running.push(c);
  c.start();
  await until(() => c.state.snapshot !== null, 'the first poll');
  /** Presses keys by their normalised names; a printable name is also its input. */
  const press = (...names: string[]) => {
    for (const name of names) c.key(name, [...name].length === 1 ? name : '');
  };
  const type = (text: string) => press(...[...text]);
  /** A poll after the one shown now, applied. */
  const polled = async () => {
    const before = c.state.snapshot;
    c.refresh();
    await until(() => c.state.snapshot !== before, 'a refresh');
  };
  return {c, io, press, type, polled, message: () => c.state.message?.text ?? ''};
}

/** The lines of the report modal once its job has finished (a bulk delete's summary). */
export async function finishedReport(c: Controller): Promise<string[]> {
  await until(() => {
    const m = topModal(c.state);
    return m?.kind === 'report' && m.phase === 'finished';
  }, 'the report to finish');
  const m = topModal(c.state);
  return m?.kind === 'report' ? m.lines.map((l) => l.text) : [];
}
