// The /v0 request pipeline in 0.7.36's plug order (docs/firezone-0.7.36.md, "Request parsing"): path prefix → request id →
// parsers → method override → HEAD → router (unknown routes rendered by Accept) → `accepts json` →
// Guardian → controller (wrapper clause match) → FallbackController. One difference: the token is
// checked before the parsers, and a request whose token fails is answered without its query or
// body being decoded (src/sandbox/README.md, "Deviations from 0.7.36").

import type {IncomingMessage, ServerResponse} from 'node:http';
import {authenticate} from '../auth/auth.js';
import type {SandboxCore, Subject} from '../core.js';
import {Crash, Forbidden, Invalid, NotFound} from '../errors.js';
import {encodeJson, isParamsMap, JsonSyntaxError, newParams, parseJson, type Params} from '../json.js';
import {cachedDeviceJson, configurationView, dataFrame, deviceJson, encodeData, ruleView, userView} from '../render.js';
import {showConfiguration, updateConfiguration} from '../resources/configuration.js';
import {createDevice, deleteDevice, findDevice, listDevices, updateDevice} from '../resources/devices.js';
import {createRule, deleteRule, findRule, listRules, updateRule} from '../resources/rules.js';
import {createUser, deleteUser, listUsers, showUser, updateUser} from '../resources/users.js';
import {decodeMultipart, decodeQuery, MalformedRequest, MAX_FORM_BODY_BYTES, negotiateFormat, parseMediaType} from './params.js';
import {baseHeaders, requestId, sendEmpty500, sendJson, sendJsonList, sendNoContent} from './respond.js';

/** Plug.Parsers' default `:length` (JSON and multipart; a form body has MAX_FORM_BODY_BYTES). */
const MAX_BODY_BYTES = 8_000_000;

type Resource = 'configuration' | 'users' | 'devices' | 'rules';
type Action = 'index' | 'show' | 'create' | 'update' | 'delete';

interface Route {
  resource: Resource;
  action: Action;
  id: string | null;
}

const WRAPPERS: Record<Resource, string> = {configuration: 'configuration', users: 'user', devices: 'device', rules: 'rule'};

/** The router (docs/firezone-0.7.36.md, "Routes"); `segments` are raw (still percent-encoded) and non-empty. */
function matchRoute(method: string, segments: readonly string[]): Route | null {
  if (segments[0] !== 'v0' || segments.length < 2 || segments.length > 3) return null;
  const resource = segments[1];
  if (resource === 'configuration') {
    if (segments.length !== 2) return null;
    if (method === 'GET') return {resource, action: 'show', id: null};
    if (method === 'PUT' || method === 'PATCH') return {resource, action: 'update', id: null};
    return null;
  }
  if (resource !== 'users' && resource !== 'devices' && resource !== 'rules') return null;
  if (segments.length === 2) {
    if (method === 'GET') return {resource, action: 'index', id: null};
    if (method === 'POST') return {resource, action: 'create', id: null};
    return null;
  }
  const id = segments[2]!;
  if (method === 'GET') return {resource, action: 'show', id};
  if (method === 'PUT' || method === 'PATCH') return {resource, action: 'update', id};
  if (method === 'DELETE') return {resource, action: 'delete', id};
  return null;
}

/** URI.decode/1 of a path parameter (no "+" handling); malformed escapes raise in Phoenix. */
function decodePathParam(raw: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === '%') {
      const hex = raw.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new Crash(`URI.decode: malformed ${raw}`);
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      // the path is the raw bytes read as latin1; anything wider came from a JS string
      const code = raw.charCodeAt(i);
      if (code < 0x100) bytes.push(code);
      else bytes.push(...Buffer.from(raw[i]!, 'utf8'));
    }
  }
  try {
    return new TextDecoder('utf-8', {fatal: true}).decode(Uint8Array.from(bytes));
  } catch {
    throw new Crash('Postgrex: invalid UTF-8 in a path parameter');
  }
}

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) {
        done = true;
        resolve(Buffer.concat(chunks));
      }
    });
    req.on('error', (e) => {
      if (!done) {
        done = true;
        reject(e);
      }
    });
  });
}

export interface ApiContext {
  core: SandboxCore;
  jwtSecret: string;
}

class TooLarge extends Error {}

/** Whether Plug.Parsers would read this request's body: a JSON, urlencoded or multipart one that has bytes. */
function hasBodyToRead(req: IncomingMessage): boolean {
  const header = req.headers['content-type'];
  const media = header === undefined ? null : parseMediaType(header);
  if (!media) return false;
  const readable =
    (media.type === 'application' && (media.subtype === 'json' || media.subtype.endsWith('+json') || media.subtype === 'x-www-form-urlencoded')) ||
    (media.type === 'multipart' && (media.subtype === 'form-data' || media.subtype === 'mixed'));
  return readable && (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0);
}

/** Plug.Parsers: JSON, urlencoded and multipart bodies; any other content type is not read. */
async function bodyParams(req: IncomingMessage): Promise<Params> {
  const header = req.headers['content-type'];
  if (header === undefined) return newParams();
  const media = parseMediaType(header);
  if (!media) throw new MalformedRequest(`unsupported media type ${header}`);
  const isJson = media.type === 'application' && (media.subtype === 'json' || media.subtype.endsWith('+json'));
  const isForm = media.type === 'application' && media.subtype === 'x-www-form-urlencoded';
  const isMultipart = media.type === 'multipart' && (media.subtype === 'form-data' || media.subtype === 'mixed');
  if (!isJson && !isForm && !isMultipart) return newParams();
  const body = await readBody(req, isForm ? MAX_FORM_BODY_BYTES : MAX_BODY_BYTES);
  if (body === null) throw new TooLarge();
  if (isForm) {
    const text = body.toString('latin1');
    return decodeQuery(text);
  }
  if (isMultipart) {
    const boundary = media.params.boundary;
    if (!boundary) throw new MalformedRequest('multipart without boundary');
    return decodeMultipart(body, boundary);
  }
  if (body.length === 0) return newParams();
  let text: string;
  try {
    text = new TextDecoder('utf-8', {fatal: true}).decode(body);
  } catch {
    throw new MalformedRequest('invalid UTF-8 in JSON body');
  }
  const value = parseJson(text);
  if (isParamsMap(value)) return value;
  const wrapped = newParams();
  wrapped._json = value;
  return wrapped;
}

async function dispatch(ctx: ApiContext, route: Route, subject: Subject, params: Params, res: ServerResponse, rid: string): Promise<void> {
  const {core} = ctx;
  const {store, settings, serverPublicKey} = core;
  const prefix = settings.pathPrefix;
  const wrapperKey = WRAPPERS[route.resource];
  if ((route.action === 'create' || route.action === 'update') && !Object.prototype.hasOwnProperty.call(params, wrapperKey)) {
    throw new Crash(`Phoenix.ActionClauseError: no "${wrapperKey}" param`);
  }
  const wrapper = params[wrapperKey];
  const id = route.id === null ? '' : decodePathParam(route.id);
  const location = (kind: string, rowId: string): Record<string, string> => ({location: `${prefix}/v0/${kind}/${rowId}`});

  switch (route.resource) {
    case 'users':
      switch (route.action) {
        case 'index':
          return sendJson(res, rid, 200, encodeData(listUsers(core, subject).map(userView)));
        case 'show':
          return sendJson(res, rid, 200, encodeData(userView(showUser(core, subject, id))));
        case 'create': {
          const user = createUser(core, subject, wrapper);
          return sendJson(res, rid, 201, encodeData(userView(user)), location('users', user.id));
        }
        case 'update':
          return sendJson(res, rid, 200, encodeData(userView(updateUser(core, subject, id, wrapper))));
        case 'delete':
          deleteUser(core, subject, id);
          return sendNoContent(res, rid, true);
      }
      break;
    case 'devices': {
      const defaults = settings.renderedDefaults(store.config);
      switch (route.action) {
        case 'index': {
          const devices = listDevices(core, subject);
          return sendJsonList(res, rid, devices.length, (i) => cachedDeviceJson(store, devices[i]!, defaults, serverPublicKey));
        }
        case 'show':
          return sendJson(res, rid, 200, dataFrame(cachedDeviceJson(store, findDevice(core, subject, id), defaults, serverPublicKey)));
        case 'create': {
          const {device, allowedIpsEcho} = createDevice(core, subject, wrapper);
          return sendJson(
            res,
            rid,
            201,
            dataFrame(deviceJson(device, defaults, serverPublicKey, {allowedIps: allowedIpsEcho})),
            location('devices', device.id),
          );
        }
        case 'update':
          return sendJson(res, rid, 200, dataFrame(cachedDeviceJson(store, updateDevice(core, subject, id, wrapper), defaults, serverPublicKey)));
        case 'delete':
          deleteDevice(core, subject, id);
          return sendNoContent(res, rid, false);
      }
      break;
    }
    case 'rules':
      switch (route.action) {
        case 'index':
          return sendJson(res, rid, 200, encodeData(listRules(core, subject).map((r) => ruleView(r))));
        case 'show':
          return sendJson(res, rid, 200, encodeData(ruleView(findRule(core, subject, id))));
        case 'create': {
          const {rule, echo} = createRule(core, subject, wrapper);
          return sendJson(res, rid, 201, encodeData(ruleView(rule, echo)), location('rules', rule.id));
        }
        case 'update': {
          const {rule, echo} = updateRule(core, subject, id, wrapper);
          return sendJson(res, rid, 200, encodeData(ruleView(rule, echo)));
        }
        case 'delete':
          deleteRule(core, subject, id);
          return sendNoContent(res, rid, false);
      }
      break;
    case 'configuration':
      if (route.action === 'show') return sendJson(res, rid, 200, encodeData(configurationView(showConfiguration(core, subject))));
      {
        const {config, echo} = updateConfiguration(core, subject, wrapper);
        return sendJson(res, rid, 200, encodeData(configurationView(config, echo)));
      }
  }
  throw new Crash(`no action for ${route.resource}.${route.action}`);
}

/** Handles one request whose path (after the EXTERNAL_URL prefix) is `path`. */
export async function handleApi(ctx: ApiContext, req: IncomingMessage, res: ServerResponse, path: string, query: string): Promise<void> {
  const {core} = ctx;
  try {
    const rid = requestId(req);
    // The token is checked first, the query and body decoded after, and only for a token that
    // passes (src/sandbox/README.md, "Deviations from 0.7.36"). 0.7.36's Plug.Parsers decodes both
    // before the token is looked at: anyone could make it read 8 MB or decode a deeply nested query.
    const auth = authenticate(core, ctx.jwtSecret, req.headersDistinct?.authorization ?? []);
    if (auth.kind !== 'ok' && hasBodyToRead(req)) {
      // Not read at all: the connection is closed once the answer is out.
      res.setHeader('connection', 'close');
      res.once('finish', () => req.socket.destroy());
      if (auth.kind === 'crash') throw new Crash(auth.reason);
      return sendJson(res, rid, 401, encodeJson({errors: {auth: auth.type}}));
    }
    // A request whose token fails goes on with no params: what it is answered (404, the empty 500
    // of an unacceptable Accept, the token's 401) follows from its method, path and headers alone.
    let params = newParams();
    let body = newParams();
    if (auth.kind === 'ok') {
      try {
        params = decodeQuery(query);
      } catch (e) {
        if (e instanceof MalformedRequest) throw new Crash(`Plug.Conn.InvalidQueryError: ${e.message}`);
        throw e;
      }
      try {
        body = await bodyParams(req);
      } catch (e) {
        if (e instanceof TooLarge) {
          res.setHeader('connection', 'close');
          res.once('finish', () => req.socket.destroy());
          throw new Crash('Plug.Parsers.RequestTooLargeError');
        }
        if (e instanceof MalformedRequest || e instanceof JsonSyntaxError) throw new Crash(`Plug.Parsers.ParseError: ${e.message}`);
        throw e;
      }
      Object.assign(params, body);
    }

    let method = (req.method ?? 'GET').toUpperCase();
    if (method === 'POST' && typeof body._method === 'string' && ['PUT', 'PATCH', 'DELETE'].includes(body._method.toUpperCase())) {
      method = body._method.toUpperCase();
    }
    if (method === 'HEAD') method = 'GET';

    const segments = path.split('/').filter((s) => s !== '');
    const route = matchRoute(method, segments);
    const acceptValues = req.headersDistinct?.accept;
    const accept = acceptValues && acceptValues.length > 0 ? acceptValues[0] : undefined;
    if (!route) {
      // Phoenix.Router.NoRouteError rendered by ErrorView: only "404.json" has an explicit clause.
      if (negotiateFormat(accept, params._format, ['html', 'json']) === 'json') {
        return sendJson(res, rid, 404, encodeJson({error: 'not_found'}));
      }
      throw new Crash('Phoenix.Router.NoRouteError rendered as html');
    }
    if (negotiateFormat(accept, params._format, ['json']) === null) throw new Crash('Phoenix.NotAcceptableError');

    if (auth.kind === 'crash') throw new Crash(auth.reason);
    if (auth.kind === 'error') return sendJson(res, rid, 401, encodeJson({errors: {auth: auth.type}}));

    try {
      await dispatch(ctx, route, auth.subject, params, res, rid);
    } catch (e) {
      if (e instanceof NotFound) return sendJson(res, rid, 404, encodeJson({error: 'not_found'}));
      if (e instanceof Forbidden) return sendJson(res, rid, 401, encodeJson({error: 'Unauthorized'}));
      if (e instanceof Invalid) return sendJson(res, rid, 422, encodeJson({errors: e.errors}));
      throw e;
    }
  } catch (e) {
    if (e instanceof Crash) {
      core.log(`  empty 500 (${e.reason})`);
    } else {
      core.log(`  empty 500 (sandbox error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)})`);
    }
    sendEmpty500(res);
  }
}

/** Phoenix's redirect to the prefixed path when EXTERNAL_URL has one and the request lacks it. */
export function redirectToPrefix(req: IncomingMessage, res: ServerResponse, target: string): void {
  const body = `<html><body>You are being <a href="${target.replace(/"/g, '&quot;')}">redirected</a>.</body></html>`;
  res.writeHead(302, {
    ...baseHeaders(requestId(req)),
    location: target,
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}
