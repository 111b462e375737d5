// The console's validators held in step with the sandbox's (issue #11 item 6): the shared part.
// Every input of a table goes through the console's validator AND, as the console would send it,
// through the matching /v0 route of a real sandbox; the messages for the field must be equal (both
// [] when both accept). Where the two legitimately differ, the row carries an explicit `differs`
// entry with both sides' messages and the reason; nothing is skipped silently. The tables are the
// *.test.ts files of this folder, a resource each.
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSandbox, type SandboxHandle} from '../../../src/sandbox/index.js';
import {parseInteger, type Messages} from '../../../src/state/data/validators.js';
import {data, publicKey, send, type RawResponse} from '../../sandbox/helpers.js';
import {plainWords} from '../../../src/api/errors.js';

export let sb: SandboxHandle;
export let ownerId: string;
export let deviceId: string;

/** Opens the test file's sandbox, with a device to probe device updates on, before its tests; closes it after them. */
export function useProbeSandbox(): void {
  beforeAll(async () => {
    sb = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0, maxDevicesPerUser: 100});
    const users = data<Array<{id: string; email: string}>>(await send(sb.url, 'GET', '/v0/users', {token: sb.adminToken}));
    ownerId = users.find((u) => u.email === 'admin@sandbox.test')!.id;
    const created = await send(sb.url, 'POST', '/v0/devices', {
      token: sb.adminToken,
      body: {device: {user_id: ownerId, public_key: publicKey(), name: 'probe'}},
    });
    expect(created.status).toBe(201);
    deviceId = data<{id: string}>(created).id;
  });
  afterAll(async () => {
    await sb.close();
  });
}

/** Field → messages; a field without messages is left out, so "both accept" is `{}` on both sides. */
export type FieldMessages = Record<string, Messages>;

/** An empty 500 from the sandbox (a deliberate 0.7.36 crash). */
export const SERVER_CRASH: FieldMessages = {'<500>': []};

export function pick(source: Record<string, unknown> | undefined, fields: readonly string[]): FieldMessages {
  const out: FieldMessages = {};
  for (const f of fields) {
    const m = source?.[f];
    // As the client shows them (0.7.36's Elixir module names in plain words: src/api/errors.ts).
    if (Array.isArray(m) && m.length > 0) out[f] = (m as Messages).map(plainWords);
  }
  return out;
}

export function compact(messages: FieldMessages): FieldMessages {
  return Object.fromEntries(Object.entries(messages).filter(([, m]) => m.length > 0));
}

/** The sandbox's answer as field messages: a 2xx is `{}`, a 422 its messages for `fields`, an empty 500 is SERVER_CRASH. */
export function answer(res: RawResponse, fields: readonly string[], nested?: string): FieldMessages {
  if (res.status >= 200 && res.status < 300) return {};
  if (res.status === 500 && res.text === '') return SERVER_CRASH;
  if (res.status !== 422) throw new Error(`unexpected ${res.status}: ${res.text}`);
  const errors = (res.json as {errors: Record<string, unknown>}).errors;
  const source = nested === undefined ? errors : (errors[nested] as Array<Record<string, unknown>> | undefined)?.[0];
  const picked = pick(source, fields);
  // Only the rule's own fields may fail: anything else means the probe's fixed values are wrong.
  const others = nested === undefined ? Object.keys(errors).filter((k) => !fields.includes(k)) : Object.keys(source ?? {}).filter((k) => !fields.includes(k));
  if (others.length > 0) throw new Error(`probe fixture rejected: ${res.text}`);
  return picked;
}

export const admin = (method: string, path: string, body: unknown) => send(sb.url, method, path, {token: sb.adminToken, body});

/** Creates, then removes what a 2xx created (so later rows start from the same state). */
export async function createAndRemove(path: string, body: unknown, fields: readonly string[]): Promise<FieldMessages> {
  const res = await admin('POST', path, body);
  if (res.status === 201) expect((await admin('DELETE', `${path}/${data<{id: string}>(res).id}`, undefined)).status).toBe(204);
  return answer(res, fields);
}

export let emails = 0;
export const freshEmail = () => `in-step-${++emails}@example.com`;

// What the console sends for a text input (mirroring the screens' forms.ts and src/state/screens/configuration/sections.ts):
// strings trimmed, comma lists through parseList, integers as parsed — or, when the console cannot
// parse the text, the trimmed text itself, so the server judges the same characters.
export const asInteger = (text: string): number | string | null => (text.trim() === '' ? null : (parseInteger(text) ?? text.trim()));

// Values every configuration row starts from: 0.7.36 validates a field's stored value when the sent one fails to
// cast, so a value left by an earlier row (say "1.1.1.1, 1.1.1.1/32", read back as two 1.1.1.1) would leak into the
// next row's messages.
export const CONFIG_BASELINE = {
  default_client_mtu: null,
  default_client_persistent_keepalive: null,
  default_client_endpoint: null,
  default_client_dns: [],
  default_client_allowed_ips: [],
  vpn_session_duration: 0,
  openid_connect_providers: [],
  saml_identity_providers: [],
};

export async function configPatch(field: string, value: unknown): Promise<RawResponse> {
  expect((await admin('PATCH', '/v0/configuration', {configuration: CONFIG_BASELINE})).status).toBe(200);
  return admin('PATCH', '/v0/configuration', {configuration: {[field]: value}});
}

export const OIDC_OK = {
  id: 'okta',
  label: 'Okta',
  scope: 'openid email profile',
  response_type: 'code',
  client_id: 'cid',
  client_secret: 's3cret',
  discovery_document_uri: 'https://accounts.example.com/.well-known/openid-configuration',
  auto_create_users: false,
};
export const SAML_OK = {
  id: 'corp',
  label: 'Corp',
  metadata: '<EntityDescriptor><IDPSSODescriptor/></EntityDescriptor>',
  sign_requests: true,
  sign_metadata: true,
  signed_assertion_in_resp: true,
  signed_envelopes_in_resp: true,
  auto_create_users: false,
};

export async function oidcProbe(field: string, value: unknown): Promise<FieldMessages> {
  const provider: Record<string, unknown> = {...OIDC_OK};
  if (value === undefined) delete provider[field];
  else provider[field] = value;
  return answer(await configPatch('openid_connect_providers', [provider]), [field], 'openid_connect_providers');
}

export async function deviceCreate(fields: Record<string, unknown>, checked: readonly string[]): Promise<FieldMessages> {
  return createAndRemove('/v0/devices', {device: {user_id: ownerId, public_key: publicKey(), ...fields}}, checked);
}

export interface Exception {
  /** Why the two sides legitimately differ. */
  why: string;
  console: FieldMessages;
  sandbox: FieldMessages;
}

export interface Row<I> {
  input: I;
  differs?: Exception;
}

export interface Rule<I> {
  name: string;
  /** Route the sandbox side goes through, for the test title. */
  route: string;
  console: (input: I) => FieldMessages;
  sandbox: (input: I) => Promise<FieldMessages>;
  rows: Array<Row<I>>;
}

export const row = <I>(input: I, differs?: Exception): Row<I> => (differs ? {input, differs} : {input});
export const text =
  (field: string, validate: (v: string) => Messages) =>
  (v: string): FieldMessages =>
    compact({[field]: validate(v)});

// A lenient-parse quirk of 0.7.36 (behaviour doc, quirk 18) the console deliberately refuses: the
// server silently reinterprets the text ("10.1" → 10.0.0.1, "80abc" → 80), which in a terminal
// form is almost always a typo.
export const lenient = (field: string, consoleMessage: string, reading: string): Exception => ({
  why: `0.7.36 parses this leniently (${reading}); the console refuses it instead of storing a silent reinterpretation`,
  console: {[field]: [consoleMessage]},
  sandbox: {},
});

// A value 0.7.36 accepts through validation and then fails in Postgres (an empty 500, behaviour doc
// "Empty-body 500s"); the console stops it with the message the field would show for a bad value.
export const crash = (field: string, consoleMessage: string, reason: string): Exception => ({
  why: `0.7.36 crashes on it (${reason}); the console refuses it before sending`,
  console: {[field]: [consoleMessage]},
  sandbox: SERVER_CRASH,
});

export const label = (input: unknown): string => {
  const s = JSON.stringify(input);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
};

/**
 * The test file's rows, each through the console's validator and the sandbox's route, with the
 * test file's own count of rules (a rule dropped from a table fails here, not silently).
 */
export function checkInStep(rules: Array<Rule<never>>, count: number): void {
  describe('console validators and the sandbox give the same messages', () => {
    for (const rule of rules) {
      describe(`${rule.name} (${rule.route})`, () => {
        for (const r of rule.rows) {
          const title = r.differs ? `${label(r.input)} — exception: ${r.differs.why || 'see the row'}` : label(r.input);
          it(title, async () => {
            const mine = rule.console(r.input);
            const theirs = await rule.sandbox(r.input);
            if (r.differs) {
              expect(mine, 'console').toEqual(r.differs.console);
              expect(theirs, 'sandbox').toEqual(r.differs.sandbox);
              // an exception that stopped differing must be removed from the table
              expect(mine).not.toEqual(theirs);
            } else {
              expect(mine).toEqual(theirs);
            }
          });
        }
      });
    }
  });

  it('the table covers every rule the console checks', () => {
    expect(rules.map((r) => r.name)).toHaveLength(count);
  });
}
