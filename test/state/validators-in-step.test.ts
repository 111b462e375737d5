// Issue #11 item 6: the console's client-side validators (src/state/data/validators.ts) and the sandbox's
// server-side rules (src/sandbox) held in step. Every input of the table goes through the console's
// validator AND, as the console would send it, through the matching /v0 route of a real sandbox; the
// messages for the field must be equal (both [] when both accept). Where the two legitimately differ,
// the row carries an explicit `differs` entry with both sides' messages and the reason; nothing is
// skipped silently.
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {startSandbox, type SandboxHandle} from '../../src/sandbox/index.js';
import {
  parseInteger,
  parseList,
  validateAllowedIps,
  validateDescription,
  validateDestination,
  validateDeviceName,
  validateDnsList,
  validateEmail,
  validateEndpoint,
  validateKeepalive,
  validateMtu,
  validatePassword,
  validatePortPair,
  validateProviderId,
  validateRedirectUri,
  validateRequired,
  validateScope,
  validateSessionDuration,
  validateTunnelAddress,
  type Messages,
} from '../../src/state/data/validators.js';
import {data, publicKey, send, type RawResponse} from '../sandbox/helpers.js';

let sb: SandboxHandle;
let ownerId: string;
let deviceId: string;

beforeAll(async () => {
  sb = await startSandbox({port: 0, seed: 'empty', statsIntervalSeconds: 0, maxDevicesPerUser: 100});
  const users = data<Array<{id: string; email: string}>>(await send(sb.url, 'GET', '/v0/users', {token: sb.adminToken}));
  ownerId = users.find((u) => u.email === 'admin@sandbox.test')!.id;
  const created = await send(sb.url, 'POST', '/v0/devices', {token: sb.adminToken, body: {device: {user_id: ownerId, public_key: publicKey(), name: 'probe'}}});
  expect(created.status).toBe(201);
  deviceId = data<{id: string}>(created).id;
});

afterAll(async () => {
  await sb.close();
});

/** Field → messages; a field without messages is left out, so "both accept" is `{}` on both sides. */
type FieldMessages = Record<string, Messages>;

/** An empty 500 from the sandbox (a deliberate 0.7.36 crash). */
const SERVER_CRASH: FieldMessages = {'<500>': []};

function pick(source: Record<string, unknown> | undefined, fields: readonly string[]): FieldMessages {
  const out: FieldMessages = {};
  for (const f of fields) {
    const m = source?.[f];
    if (Array.isArray(m) && m.length > 0) out[f] = m as Messages;
  }
  return out;
}

function compact(messages: FieldMessages): FieldMessages {
  return Object.fromEntries(Object.entries(messages).filter(([, m]) => m.length > 0));
}

/** The sandbox's answer as field messages: a 2xx is `{}`, a 422 its messages for `fields`, an empty 500 is SERVER_CRASH. */
function answer(res: RawResponse, fields: readonly string[], nested?: string): FieldMessages {
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

const admin = (method: string, path: string, body: unknown) => send(sb.url, method, path, {token: sb.adminToken, body});

/** Creates, then removes what a 2xx created (so later rows start from the same state). */
async function createAndRemove(path: string, body: unknown, fields: readonly string[]): Promise<FieldMessages> {
  const res = await admin('POST', path, body);
  if (res.status === 201) expect((await admin('DELETE', `${path}/${data<{id: string}>(res).id}`, undefined)).status).toBe(204);
  return answer(res, fields);
}

let emails = 0;
const freshEmail = () => `in-step-${++emails}@example.com`;

// What the console sends for a text input (mirroring the screens' forms.ts and src/state/screens/configuration/sections.ts):
// strings trimmed, comma lists through parseList, integers as parsed — or, when the console cannot
// parse the text, the trimmed text itself, so the server judges the same characters.
const asInteger = (text: string): number | string | null => (text.trim() === '' ? null : (parseInteger(text) ?? text.trim()));

// Values every configuration row starts from: 0.7.36 validates a field's stored value when the sent one fails to
// cast, so a value left by an earlier row (say "1.1.1.1, 1.1.1.1/32", read back as two 1.1.1.1) would leak into the
// next row's messages.
const CONFIG_BASELINE = {
  default_client_mtu: null,
  default_client_persistent_keepalive: null,
  default_client_endpoint: null,
  default_client_dns: [],
  default_client_allowed_ips: [],
  vpn_session_duration: 0,
  openid_connect_providers: [],
  saml_identity_providers: [],
};

async function configPatch(field: string, value: unknown): Promise<RawResponse> {
  expect((await admin('PATCH', '/v0/configuration', {configuration: CONFIG_BASELINE})).status).toBe(200);
  return admin('PATCH', '/v0/configuration', {configuration: {[field]: value}});
}

const OIDC_OK = {
  id: 'okta',
  label: 'Okta',
  scope: 'openid email profile',
  response_type: 'code',
  client_id: 'cid',
  client_secret: 's3cret',
  discovery_document_uri: 'https://accounts.example.com/.well-known/openid-configuration',
  auto_create_users: false,
};
const SAML_OK = {
  id: 'corp',
  label: 'Corp',
  metadata: '<EntityDescriptor><IDPSSODescriptor/></EntityDescriptor>',
  sign_requests: true,
  sign_metadata: true,
  signed_assertion_in_resp: true,
  signed_envelopes_in_resp: true,
  auto_create_users: false,
};

async function oidcProbe(field: string, value: unknown): Promise<FieldMessages> {
  const provider: Record<string, unknown> = {...OIDC_OK};
  if (value === undefined) delete provider[field];
  else provider[field] = value;
  return answer(await configPatch('openid_connect_providers', [provider]), [field], 'openid_connect_providers');
}

async function deviceCreate(fields: Record<string, unknown>, checked: readonly string[]): Promise<FieldMessages> {
  return createAndRemove('/v0/devices', {device: {user_id: ownerId, public_key: publicKey(), ...fields}}, checked);
}

interface Exception {
  /** Why the two sides legitimately differ. */
  why: string;
  console: FieldMessages;
  sandbox: FieldMessages;
}

interface Row<I> {
  input: I;
  differs?: Exception;
}

interface Rule<I> {
  name: string;
  /** Route the sandbox side goes through, for the test title. */
  route: string;
  console: (input: I) => FieldMessages;
  sandbox: (input: I) => Promise<FieldMessages>;
  rows: Array<Row<I>>;
}

const row = <I>(input: I, differs?: Exception): Row<I> => (differs ? {input, differs} : {input});
const text =
  (field: string, validate: (v: string) => Messages) =>
  (v: string): FieldMessages =>
    compact({[field]: validate(v)});

// A lenient-parse quirk of 0.7.36 (behaviour doc, quirk 18) the console deliberately refuses: the
// server silently reinterprets the text ("10.1" → 10.0.0.1, "80abc" → 80), which in a terminal
// form is almost always a typo.
const lenient = (field: string, consoleMessage: string, reading: string): Exception => ({
  why: `0.7.36 parses this leniently (${reading}); the console refuses it instead of storing a silent reinterpretation`,
  console: {[field]: [consoleMessage]},
  sandbox: {},
});

// A value 0.7.36 accepts through validation and then fails in Postgres (an empty 500, behaviour doc
// "Empty-body 500s"); the console stops it with the message the field would show for a bad value.
const crash = (field: string, consoleMessage: string, reason: string): Exception => ({
  why: `0.7.36 crashes on it (${reason}); the console refuses it before sending`,
  console: {[field]: [consoleMessage]},
  sandbox: SERVER_CRASH,
});

const rules: Array<Rule<never>> = [
  {
    name: 'email',
    route: 'POST /v0/users',
    console: text('email', validateEmail),
    sandbox: (v: string) => createAndRemove('/v0/users', {user: {email: v.trim(), role: 'unprivileged'}}, ['email']),
    rows: [
      row(''),
      row('   '),
      row('not-an-email'),
      row('a@b'),
      row(' spaced@example.com '),
      row('@'),
      row('two@@example.com'),
      row('admin@sandbox.test', {why: 'uniqueness is a database check the console cannot make', console: {}, sandbox: {email: ['has already been taken']}}),
    ],
  } satisfies Rule<string>,
  {
    name: 'password length and confirmation',
    route: 'POST /v0/users',
    console: ([password, confirmation]: [string, string]) => compact(validatePassword(password, confirmation)),
    // userCreateBody: both keys only when a password was typed
    sandbox: ([password, confirmation]: [string, string]) =>
      createAndRemove('/v0/users', {user: {email: freshEmail(), ...(password === '' ? {} : {password, password_confirmation: confirmation})}}, [
        'password',
        'password_confirmation',
      ]),
    rows: [
      row(['', '']),
      row(['', 'ignored']),
      row(['test1234', 'test1234']),
      row(['x'.repeat(11), 'x'.repeat(11)]),
      row(['x'.repeat(12), 'x'.repeat(12)]),
      row(['x'.repeat(64), 'x'.repeat(64)]),
      row(['x'.repeat(65), 'x'.repeat(65)]),
      row(['correct horse battery', 'correct horse']),
      row(['correct horse battery', 'correct horse battery']),
      // graphemes, not code points or UTF-16 units: 12 × "e + combining acute" is 12 characters
      row(['e\u0301'.repeat(12), 'e\u0301'.repeat(12)]),
      row(['👍🏽'.repeat(11), '👍🏽'.repeat(11)]),
      row(['test1234', ''], {
        // KNOWN MISMATCH, not fixable in validators.ts: userCreateBody/userUpdateBody (src/state/screens/devices/forms.ts) send
        // `password_confirmation: ""`, which 0.7.36's validate_confirmation compares with the password ("does not match
        // confirmation"); only an absent key is "can't be blank" (the documented upstream example, which the console's
        // message and test/state/provision.test.ts follow). Fix: omit an empty confirmation from the bodies.
        why: 'the console sends an empty confirmation instead of leaving it out (src/state/screens/users/forms.ts)',
        console: {password: ['should be at least 12 character(s)'], password_confirmation: ["can't be blank"]},
        sandbox: {password: ['should be at least 12 character(s)'], password_confirmation: ['does not match confirmation']},
      }),
    ],
  } satisfies Rule<[string, string]>,
  {
    name: 'device name',
    route: 'PATCH /v0/devices/:id',
    console: text('name', validateDeviceName),
    // the edit form; on create a blank name is generated by the server (see the device-create rows below)
    sandbox: async (v: string) => answer(await admin('PATCH', `/v0/devices/${deviceId}`, {device: {name: v.trim()}}), ['name']),
    rows: [
      row(''),
      row('   '),
      row('laptop'),
      row('  padded  '),
      row('x'.repeat(255)),
      row('x'.repeat(256)),
      row('e\u0301'.repeat(255)),
      row('e\u0301'.repeat(256)),
      row('日本'.repeat(128)),
      row('🇫🇷'.repeat(255)),
    ],
  } satisfies Rule<string>,
  {
    name: 'device name on create',
    route: 'POST /v0/devices',
    console: text('name', validateDeviceName),
    sandbox: (v: string) => deviceCreate({name: v.trim()}, ['name']),
    rows: [
      row('phone'),
      row('x'.repeat(256)),
      row('', {
        why: '0.7.36 generates a name for a blank one on create; the console pre-fills a generated name and requires one',
        console: {name: ["can't be blank"]},
        sandbox: {},
      }),
    ],
  } satisfies Rule<string>,
  {
    name: 'device description',
    route: 'PATCH /v0/devices/:id',
    console: text('description', validateDescription),
    sandbox: async (v: string) => answer(await admin('PATCH', `/v0/devices/${deviceId}`, {device: {description: v.trim()}}), ['description']),
    rows: [
      row(''),
      row('work laptop'),
      row('d'.repeat(2048)),
      row('d'.repeat(2049)),
      row(` ${'d'.repeat(2048)} `),
      row('e\u0301'.repeat(2048)),
      row('e\u0301'.repeat(2049)),
    ],
  } satisfies Rule<string>,
  {
    name: 'MTU (configuration default)',
    route: 'PATCH /v0/configuration',
    console: text('default_client_mtu', (v) => validateMtu(v)),
    sandbox: async (v: string) => answer(await configPatch('default_client_mtu', asInteger(v)), ['default_client_mtu']),
    rows: [row(''), row('576'), row('575'), row('1500'), row('1501'), row('100'), row(' 1280 '), row('+1280'), row('-1'), row('1.5'), row('abc'), row('1e3')],
  } satisfies Rule<string>,
  {
    name: 'MTU (device)',
    route: 'POST /v0/devices',
    console: text('mtu', (v) => validateMtu(v)),
    sandbox: (v: string) => deviceCreate({use_default_mtu: false, ...(asInteger(v) === null ? {} : {mtu: asInteger(v)})}, ['mtu']),
    rows: [row(''), row('1280'), row('575'), row('1501'), row('x')],
  } satisfies Rule<string>,
  {
    name: 'persistent keepalive (configuration default)',
    route: 'PATCH /v0/configuration',
    console: text('default_client_persistent_keepalive', (v) => validateKeepalive(v)),
    sandbox: async (v: string) => answer(await configPatch('default_client_persistent_keepalive', asInteger(v)), ['default_client_persistent_keepalive']),
    rows: [row(''), row('0'), row('25'), row('120'), row('121'), row('-1'), row('1.5'), row('+5'), row('twenty')],
  } satisfies Rule<string>,
  {
    name: 'persistent keepalive (device)',
    route: 'POST /v0/devices',
    console: text('persistent_keepalive', (v) => validateKeepalive(v)),
    sandbox: (v: string) =>
      deviceCreate({use_default_persistent_keepalive: false, ...(asInteger(v) === null ? {} : {persistent_keepalive: asInteger(v)})}, ['persistent_keepalive']),
    rows: [row('0'), row('121'), row('-5'), row('x')],
  } satisfies Rule<string>,
  {
    name: 'endpoint (configuration default)',
    route: 'PATCH /v0/configuration',
    console: text('default_client_endpoint', validateEndpoint),
    sandbox: async (v: string) => answer(await configPatch('default_client_endpoint', v.trim()), ['default_client_endpoint']),
    rows: [
      row(''),
      row('vpn.example.com'),
      row('vpn.example.com:51820'),
      row('1.2.3.4'),
      row('1.2.3.4:51820'),
      row('[fd00::1]:8080'),
      row('[fd00::1]'),
      row('fd00::1'),
      row('123'),
      row('localhost'),
      row('!!!'),
      row('!!!:80'),
      row('host:99999'),
      row('host:0'),
      row('host:65535'),
      row('host:+80'),
      row('host:abc'),
      row('a:b:c'),
      row('[fd00::1]:99999'),
      row('[zz]:80'),
      row('1.2.3.4:0'),
      row(' spaced.example.com '),
      row('vpn example.com'),
      row('10.1:51820'),
      row('under_score.example.com'),
    ],
  } satisfies Rule<string>,
  {
    name: 'endpoint (device)',
    route: 'POST /v0/devices',
    console: text('endpoint', (v) => (v.trim() === '' ? ["can't be blank"] : validateEndpoint(v))),
    sandbox: (v: string) => deviceCreate({use_default_endpoint: false, endpoint: v.trim()}, ['endpoint']),
    rows: [row(''), row('vpn.example.com:51820'), row('!!!'), row('host:70000'), row('[fd00::1]:51820')],
  } satisfies Rule<string>,
  {
    name: 'DNS list (configuration default)',
    route: 'PATCH /v0/configuration',
    console: text('default_client_dns', (v) => validateDnsList(parseList(v))),
    sandbox: async (v: string) => answer(await configPatch('default_client_dns', parseList(v)), ['default_client_dns']),
    rows: [
      row(''),
      row('1.1.1.1'),
      row('1.1.1.1, 1.0.0.1'),
      row('dns.example.com'),
      row('fd00::1'),
      row('1.1.1.1:53'),
      row('!!!'),
      row('!!!:53'),
      row('[fd00::1]:53'),
      row('fd00::g'),
      row('1.1.1.1, 1.1.1.1'),
      row('!!!, !!!'),
      row('!!!, 1.1.1.1:53, ok.example.com'),
      row('dns.example.com:53'),
      row('1.1.1.1,1.1.1.1, 2.2.2.2:53'),
      row('10.1'),
      row('a b'),
    ],
  } satisfies Rule<string>,
  {
    name: 'DNS list (device)',
    route: 'POST /v0/devices',
    console: text('dns', (v) => validateDnsList(parseList(v))),
    sandbox: (v: string) => deviceCreate({use_default_dns: false, dns: parseList(v)}, ['dns']),
    rows: [row(''), row('1.1.1.1, 1.0.0.1'), row('1.1.1.1:53'), row('x, x')],
  } satisfies Rule<string>,
  {
    name: 'allowed IPs (configuration default)',
    route: 'PATCH /v0/configuration',
    console: text('default_client_allowed_ips', (v) => validateAllowedIps(parseList(v))),
    sandbox: async (v: string) => answer(await configPatch('default_client_allowed_ips', parseList(v)), ['default_client_allowed_ips']),
    rows: [
      row(''),
      row('0.0.0.0/0, ::/0'),
      row('10.0.0.0/8'),
      row('1.1.1.1'),
      row('fd00::/64'),
      row('foobar'),
      row('1.1.1.1, foobar'),
      row('1.1.1.1, 1.1.1.1'),
      row('1.1.1.1, 1.1.1.1/32'),
      row('fd00::1, FD00:0::1'),
      row('10.0.0.0/8, 10.0.0.0/08'),
      row('256.0.0.1'),
      row('10.0 0.0/24'),
      row('1.1.1.1/x'),
      row('::ffff:1.2.3.4, ::ffff:102:304'),
      row('10.0.0.0/33', crash('default_client_allowed_ips', 'is invalid', 'Postgres refuses the /33 netmask')),
      row('fd00::/129', crash('default_client_allowed_ips', 'is invalid', 'Postgres refuses the /129 netmask')),
      row('10.1', lenient('default_client_allowed_ips', 'is invalid', '"10.1" is 10.0.0.1')),
      row('010.0.0.1', lenient('default_client_allowed_ips', 'is invalid', 'a leading 0 is octal')),
    ],
  } satisfies Rule<string>,
  {
    name: 'allowed IPs (device)',
    route: 'POST /v0/devices',
    console: text('allowed_ips', (v) => validateAllowedIps(parseList(v))),
    sandbox: (v: string) => deviceCreate({use_default_allowed_ips: false, allowed_ips: parseList(v)}, ['allowed_ips']),
    rows: [row(''), row('10.0.0.0/8, fd00::/64'), row('nope'), row('1.1.1.1, 1.1.1.1')],
  } satisfies Rule<string>,
  {
    name: 'tunnel addresses',
    route: 'POST /v0/devices',
    console: ([family, v]: [4 | 6, string]) => compact({[`ipv${family}`]: validateTunnelAddress(v, family)}),
    sandbox: ([family, v]: [4 | 6, string]) => deviceCreate(v.trim() === '' ? {} : {[`ipv${family}`]: v.trim()}, [`ipv${family}`]),
    rows: [
      row([4, '']),
      row([4, '10.3.2.77']),
      row([4, 'nope']),
      row([6, 'fd00::3:2:77']),
      row([6, 'nope']),
      row([4, '10.3.2.0/24']),
      row([4, '10.0.0.5'], {
        why: "the network is the server's setting; the console does not know it",
        console: {},
        sandbox: {ipv4: ['is not in the CIDR 10.3.2.0/24']},
      }),
      row([6, 'fd00::99:1'], {
        why: "the network is the server's setting; the console does not know it",
        console: {},
        sandbox: {ipv6: ['is not in the CIDR fd00::3:2:0/120']},
      }),
      row([6, '10.3.2.78'], crash('ipv6', 'is invalid', 'an IPv4 address compared with the IPv6 network raises')),
      row([4, '10.3.2.1.5']),
      row([6, '10.3.2.78/128']),
    ],
  } satisfies Rule<[4 | 6, string]>,
  {
    name: 'destination CIDR',
    route: 'POST /v0/rules',
    console: text('destination', validateDestination),
    sandbox: (v: string) =>
      createAndRemove('/v0/rules', {rule: {action: 'accept', destination: v.trim(), port_type: null, port_range: null, user_id: null}}, ['destination']),
    rows: [
      row(''),
      row('   '),
      row('1.1.1.1'),
      row('1.1.1.1/24'),
      row('10.0.0.0/8'),
      row('fd00::/64'),
      row('::1'),
      row('256.0.0.1'),
      row('10.0 0.0/24'),
      row('example.com'),
      row('1.1.1.1/'),
      row('1.1.1.1/x'),
      row('1.1.1.1/-1', crash('destination', 'is invalid', 'Postgres refuses a negative netmask')),
      row('10.0.0.0/33', crash('destination', 'is invalid', 'Postgres refuses the /33 netmask')),
      row('fd00::/129', crash('destination', 'is invalid', 'Postgres refuses the /129 netmask')),
      row('10.1', lenient('destination', 'is invalid', '"10.1" is 10.0.0.1')),
      row('11/32', lenient('destination', 'is invalid', '"11" is 0.0.0.11')),
    ],
  } satisfies Rule<string>,
  {
    name: 'port range syntax, bounds and port type pairing',
    route: 'POST /v0/rules',
    console: ([type, range]: [string, string]) => compact(validatePortPair(type || null, range)),
    // ruleBody: no port range without a port type
    sandbox: ([type, range]: [string, string]) =>
      createAndRemove(
        '/v0/rules',
        {
          rule: {
            action: 'drop',
            destination: '10.9.0.0/16',
            user_id: null,
            port_type: type === '' ? null : type,
            port_range: type === '' ? null : range.trim(),
          },
        },
        ['port_type', 'port_range'],
      ),
    rows: [
      row(['', '']),
      row(['tcp', '80']),
      row(['udp', '100-200']),
      row(['tcp', '100 - 200']),
      row(['tcp', ' 100 -200 ']),
      row(['tcp', '20-10']),
      row(['tcp', '1-65535']),
      row(['tcp', '65535']),
      row(['tcp', '65534']),
      row(['tcp', '1']),
      row(['tcp', '0']),
      row(['tcp', '0-10']),
      row(['udp', 'http']),
      row(['tcp', '']),
      row(['tcp', '   ']),
      row(['tcp', '[80,90]']),
      row(['tcp', '(80,90)']),
      row(['tcp', '[80, 90)']),
      row(['tcp', '(0,2)']),
      row(['tcp', '[1,65535)']),
      row(['tcp', '[1,65535]']),
      row(['tcp', '(90,80)']),
      row(['tcp', '-']),
      row(['tcp', '65534-65534']),
      // The console's form only offers a range after a type; the pair rule is still in step when a range is typed first.
      row(['', '10-20'], {
        why: 'the console never sends a range without a type (ruleBody sends null), so the server sees neither',
        console: {port_type: ["can't be blank"]},
        sandbox: {},
      }),
      row(['tcp', '-80'], lenient('port_range', 'bad format', 'a leading "-" is ignored')),
      row(['tcp', '80abc'], lenient('port_range', 'bad format', 'trailing junk is ignored')),
      row(['tcp', '80-90-100'], lenient('port_range', 'bad format', '"80-90-100" is 80 - 90')),
      row(['tcp', '+80'], lenient('port_range', 'bad format', 'Integer.parse takes the "+"')),
      row(['tcp', '80-'], lenient('port_range', 'bad format', 'an empty upper bound is dropped: "80-" is 80')),
    ],
  } satisfies Rule<[string, string]>,
  {
    name: 'OIDC provider id',
    route: 'PATCH /v0/configuration (openid_connect_providers)',
    console: text('id', validateProviderId),
    sandbox: (v: string) => oidcProbe('id', v.trim()),
    rows: [row(''), row('   '), row('okta'), row('identity'), row('saml'), row('magic_link'), row(' saml '), row('corp:legacy'), row('SAML')],
  } satisfies Rule<string>,
  {
    name: 'SAML provider id',
    route: 'PATCH /v0/configuration (saml_identity_providers)',
    console: text('id', validateProviderId),
    sandbox: async (v: string) => answer(await configPatch('saml_identity_providers', [{...SAML_OK, id: v.trim()}]), ['id'], 'saml_identity_providers'),
    rows: [row(''), row('corp'), row('identity'), row('magic_link')],
  } satisfies Rule<string>,
  {
    name: 'OIDC scope',
    route: 'PATCH /v0/configuration (openid_connect_providers)',
    console: text('scope', validateScope),
    sandbox: (v: string) => oidcProbe('scope', v.trim()),
    rows: [
      row('openid email profile'),
      row('openid email'),
      row('profile'),
      row('openid profile'),
      row('email profile'),
      row('OPENID EMAIL'),
      // 0.7.36 matches substrings (validate_format ~r/openid/): these pass on both sides
      row('openid,email'),
      row('openidx emailx'),
      row('', {
        why: '0.7.36 replaces a blank scope with its default "openid email profile"; the console pre-fills that default and requires a scope',
        console: {scope: ["can't be blank"]},
        sandbox: {},
      }),
    ],
  } satisfies Rule<string>,
  {
    name: 'OIDC redirect URI',
    route: 'PATCH /v0/configuration (openid_connect_providers)',
    console: text('redirect_uri', (v) => validateRedirectUri(v, {required: false})),
    // oidcFromValues: a blank redirect URI is left out
    sandbox: (v: string) => oidcProbe('redirect_uri', v.trim() === '' ? undefined : v.trim()),
    rows: [
      row(''),
      row('https://vpn.example.com/auth/oidc/okta/callback/'),
      row('http://localhost:4000/cb'),
      row('HTTPS://VPN.EXAMPLE.COM/'),
      row('ftp://x'),
      row('example.com/cb'),
      row('//example.com/cb'),
      row('http:foo'),
      row('https://'),
      row('not a uri'),
      row('https://ex ample.com'),
      row('https://[fd00::1]:8443/cb'),
      row('https://[fd00::1'),
      row('https://host:port/'),
      row('https://host:/x'),
      row('https://user@host/cb'),
      row('a:b'),
      row('x:y/z'),
      row('1x:y'),
      row('https://example.com/%zz'),
      row('https://example.com/%41'),
      row('mailto:a@b'),
    ],
  } satisfies Rule<string>,
  {
    name: 'SAML base URL',
    route: 'PATCH /v0/configuration (saml_identity_providers)',
    console: text('base_url', (v) => validateRedirectUri(v, {required: false})),
    // samlFromValues: a blank base URL is left out (0.7.36 then uses EXTERNAL_URL/auth/saml)
    sandbox: async (v: string) =>
      answer(
        await configPatch('saml_identity_providers', [{...SAML_OK, ...(v.trim() === '' ? {} : {base_url: v.trim()})}]),
        ['base_url'],
        'saml_identity_providers',
      ),
    rows: [row(''), row('https://vpn.example.com/auth/saml'), row('ftp://x'), row('vpn.example.com'), row('bad uri')],
  } satisfies Rule<string>,
  {
    name: 'OIDC discovery document URI',
    route: 'PATCH /v0/configuration (openid_connect_providers)',
    console: text('discovery_document_uri', (v) => validateRedirectUri(v, {required: true})),
    sandbox: (v: string) => oidcProbe('discovery_document_uri', v.trim()),
    rows: [
      row(''),
      row('https://accounts.google.com/.well-known/openid-configuration'),
      // 0.7.36 fetches the document during validation ("is invalid. Reason: <reason>"); the sandbox stands in with a URL
      // shape check (src/sandbox/README.md, "Deviations"); the console can only check the URI's shape, in validate_uri's words.
      row('ftp://x', {
        why: 'the server fetches the document; the console checks the URI shape',
        console: {discovery_document_uri: ['only http, https schemes are supported']},
        sandbox: {discovery_document_uri: ['is invalid. Reason: :invalid_uri']},
      }),
      row('accounts.google.com', {
        why: 'the server fetches the document; the console checks the URI shape',
        console: {discovery_document_uri: ['does not contain a scheme or a host']},
        sandbox: {discovery_document_uri: ['is invalid. Reason: :invalid_uri']},
      }),
    ],
  } satisfies Rule<string>,
  {
    name: 'OIDC required texts (label, client id, client secret)',
    route: 'PATCH /v0/configuration (openid_connect_providers)',
    console: ([field, v]: [string, string]) => compact({[field]: validateRequired(v)}),
    // oidcFromValues trims all but the secret
    sandbox: ([field, v]: [string, string]) => oidcProbe(field, field === 'client_secret' ? v : v.trim()),
    rows: [
      row(['label', '']),
      row(['label', '  ']),
      row(['label', 'Okta']),
      row(['client_id', '']),
      row(['client_id', 'cid']),
      row(['client_secret', '']),
      row(['client_secret', '   ']),
      row(['client_secret', ' s3cret ']),
    ],
  } satisfies Rule<[string, string]>,
  {
    name: 'VPN session duration',
    route: 'PATCH /v0/configuration',
    console: text('vpn_session_duration', validateSessionDuration),
    sandbox: async (v: string) => answer(await configPatch('vpn_session_duration', asInteger(v)), ['vpn_session_duration']),
    rows: [
      row('0'),
      row('3600'),
      row('2147483647'),
      row('2147483648'),
      row('-1'),
      row('1.5'),
      row('soon'),
      row(' 60 '),
      row('+60'),
      row('', crash('vpn_session_duration', "can't be blank", 'null violates the NOT NULL column')),
    ],
  } satisfies Rule<string>,
] as unknown as Array<Rule<never>>;

const label = (input: unknown): string => {
  const s = JSON.stringify(input);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
};

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
  expect(rules.map((r) => r.name)).toHaveLength(26);
  expect(rules.reduce((n, r) => n + r.rows.length, 0)).toBeGreaterThan(250);
});
