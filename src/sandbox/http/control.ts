// The sandbox's own control API under /_sandbox (src/sandbox/README.md): not part of Firezone, used by tests to
// set device stats and user fields the /v0 API cannot write, to mint and revoke tokens, and to
// inject faults. Admin token required; JSON in and out; bad input → 400 {"error": "<message>"}.

import type {IncomingMessage, ServerResponse} from 'node:http';
import {z} from 'zod';
import {authenticate, tokenJwt} from '../auth/auth.js';
import {findUser, isUuidShaped, newId, now, type SandboxCore} from '../core.js';
import {Crash, NotFound} from '../errors.js';
import {parseAddress} from '../inet.js';
import {encodeJson} from '../json.js';
import {cachedDeviceJson, dataFrame, userView} from '../render.js';
import type {TokenRow} from '../store.js';
import {MICROS_PER_DAY, MICROS_PER_SECOND, parseTimestamp} from '../time.js';
import type {FaultSettings} from './faults.js';
import {readBody} from './api.js';
import {JSON_TYPE} from './respond.js';

/** ISO-8601 string or Unix seconds → microseconds; null clears the field. */
const Timestamp = z.union([
  z.string().transform((text, ctx) => {
    const micros = parseTimestamp(text);
    if (micros === null) {
      ctx.addIssue({code: 'custom', message: 'expected an ISO-8601 timestamp'});
      return z.NEVER;
    }
    return micros;
  }),
  z
    .number()
    .int()
    .nonnegative()
    .transform((seconds) => seconds * MICROS_PER_SECOND),
  z.null(),
]);

const Bytes = z.number().int().nonnegative().nullable();

const StatsBody = z.strictObject({
  latest_handshake: Timestamp.optional(),
  remote_ip: z
    .string()
    .refine((s) => parseAddress(s) !== null, 'expected an IP address')
    .nullable()
    .optional(),
  rx_bytes: Bytes.optional(),
  tx_bytes: Bytes.optional(),
});

const UserBody = z.strictObject({
  disabled_at: Timestamp.optional(),
  last_signed_in_at: Timestamp.optional(),
  last_signed_in_method: z.string().nullable().optional(),
});

const TokenBody = z.strictObject({
  user_id: z.string(),
  /** Days until expiry; fractions are allowed and values ≤ 0 create an already-expired row. */
  expires_in_days: z.number().finite().default(30),
});

const FaultsBody = z.strictObject({
  mode: z.enum(['none', 'empty-500', 'html-502', 'malformed-json', 'reset', 'hang', 'apply-hang', 'duplicate-id']),
  rate: z.number().min(0).max(1).default(1),
  latency_ms: z.number().int().min(0).max(600_000).default(0),
});

interface ControlContext {
  core: SandboxCore;
  jwtSecret: string;
  faults: FaultSettings;
}

class BadRequest extends Error {}

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  const json = typeof body === 'string' ? body : encodeJson(body);
  res.writeHead(status, {'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(json))});
  res.end(json);
}

function parseBody<T extends z.ZodType>(schema: T, raw: Buffer | null): z.output<T> {
  let value: unknown = {};
  if (raw && raw.length > 0) {
    try {
      value = JSON.parse(raw.toString('utf8'));
    } catch (e) {
      throw new BadRequest(`invalid JSON body: ${(e as Error).message}`);
    }
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const path = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw new BadRequest(`${path}${issue.message}`);
  }
  return result.data;
}

export async function handleControl(ctx: ControlContext, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const {core} = ctx;
  const {store} = core;
  const auth = authenticate(core, ctx.jwtSecret, req.headersDistinct?.authorization ?? []);
  if (auth.kind !== 'ok') {
    send(res, 401, {errors: {auth: auth.kind === 'error' ? auth.type : 'invalid_token'}});
    return;
  }
  if (auth.subject.user.role !== 'admin') {
    send(res, 401, {error: 'Unauthorized'});
    return;
  }
  const raw = await readBody(req, 1_000_000);
  const method = req.method ?? 'GET';
  try {
    if (raw === null) throw new BadRequest('body larger than 1,000,000 bytes');
    let segments: string[];
    try {
      segments = path
        .split('/')
        .filter((s) => s !== '')
        .slice(1)
        .map((s) => decodeURIComponent(s));
    } catch {
      throw new BadRequest('malformed percent-encoding in the path');
    }
    const [first, second, third] = segments;
    if (method === 'PUT' && first === 'devices' && second !== undefined && third === 'stats' && segments.length === 3) {
      const body = parseBody(StatsBody, raw);
      const device = isUuidShaped(second) ? store.devices.get(second.toLowerCase()) : undefined;
      if (!device) throw new NotFound();
      if (body.latest_handshake !== undefined) device.latestHandshake = body.latest_handshake;
      if (body.remote_ip !== undefined) device.remoteIp = body.remote_ip === null ? null : parseAddress(body.remote_ip);
      if (body.rx_bytes !== undefined) device.rxBytes = body.rx_bytes;
      if (body.tx_bytes !== undefined) device.txBytes = body.tx_bytes;
      device.updatedAt = now();
      device.cache = null;
      // Stats set by hand are not touched by the simulation afterwards.
      device.sim = 'idle';
      send(res, 200, dataFrame(cachedDeviceJson(store, device, core.settings.renderedDefaults(store.config), core.serverPublicKey)));
      return;
    }
    if (method === 'PUT' && first === 'users' && second !== undefined && segments.length === 2) {
      const body = parseBody(UserBody, raw);
      const user = findUser(core, second);
      if (body.disabled_at !== undefined) user.disabledAt = body.disabled_at;
      if (body.last_signed_in_at !== undefined) user.lastSignedInAt = body.last_signed_in_at;
      if (body.last_signed_in_method !== undefined) user.lastSignedInMethod = body.last_signed_in_method;
      user.updatedAt = now();
      send(res, 200, {data: userView(user)});
      return;
    }
    if (method === 'POST' && first === 'tokens' && segments.length === 1) {
      const body = parseBody(TokenBody, raw);
      const user = isUuidShaped(body.user_id) ? store.users.get(body.user_id.toLowerCase()) : store.userByEmail(body.user_id);
      if (!user) throw new NotFound();
      const at = now();
      const row: TokenRow = {id: newId(), userId: user.id, expiresAt: at + Math.round(body.expires_in_days * MICROS_PER_DAY), insertedAt: at};
      store.tokens.set(row.id, row);
      send(res, 201, {id: row.id, token: tokenJwt(ctx.jwtSecret, row)});
      return;
    }
    if (method === 'DELETE' && first === 'tokens' && second !== undefined && segments.length === 2) {
      if (!store.tokens.delete(second.toLowerCase())) throw new NotFound();
      send(res, 204);
      return;
    }
    if (first === 'faults' && segments.length === 1 && (method === 'PUT' || method === 'GET')) {
      if (method === 'PUT') {
        const body = parseBody(FaultsBody, raw);
        ctx.faults.mode = body.mode;
        ctx.faults.rate = body.mode === 'none' ? 0 : body.rate;
        ctx.faults.latencyMs = body.latency_ms;
      }
      send(res, 200, {latency_ms: ctx.faults.latencyMs, mode: ctx.faults.mode, rate: ctx.faults.rate, hung: ctx.faults.hung});
      return;
    }
    send(res, 404, {error: 'not_found'});
  } catch (e) {
    if (e instanceof BadRequest) send(res, 400, {error: e.message});
    else if (e instanceof NotFound || e instanceof Crash) send(res, 404, {error: 'not_found'});
    else throw e;
  }
}
