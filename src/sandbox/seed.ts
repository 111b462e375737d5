// Seed data. Every seed has admin@sandbox.test (admin) and user@sandbox.test (unprivileged), each
// with a 30-day API token. The demo seed adds a small company: users with real-looking names on one
// domain, their laptops and phones plus some infrastructure, firewall rules, an OIDC and a SAML
// provider. Everything is drawn from the seeded PRNG relative to the start time, so the same
// `randomSeed` gives the same data. Seeding writes the store directly (no per-user device limit).

import {allocateAddress} from './allocate.js';
import type {SandboxCore} from './core.js';
import {castInet, readForm, type Inet, type Ip} from './inet.js';
import type {Prng} from './prng.js';
import {overlapsExisting} from './resources/rules.js';
import type {DeviceRow, OidcProvider, Role, RuleAction, RuleRow, SamlProvider, SimulationClass, TokenRow, UserRow} from './store.js';
import {MICROS_PER_DAY, MICROS_PER_SECOND} from './time.js';

export const ADMIN_EMAIL = 'admin@sandbox.test';
export const UNPRIVILEGED_EMAIL = 'user@sandbox.test';
const COMPANY_DOMAIN = 'example.com';

export const DEMO_DEFAULTS = {users: 40, devices: 90, rules: 25};
export const MAX_SEED_RULES = 40_000;

const FIRST_NAMES = [
  'ann',
  'ben',
  'carla',
  'david',
  'elena',
  'felix',
  'grace',
  'hugo',
  'iris',
  'jonas',
  'kate',
  'liam',
  'maria',
  'noah',
  'olivia',
  'paul',
  'quinn',
  'rosa',
  'samuel',
  'tara',
  'umar',
  'vera',
  'will',
  'xenia',
  'yusuf',
  'zoe',
  'aisha',
  'bruno',
  'chloe',
  'diego',
  'emma',
  'farid',
  'gina',
  'henrik',
  'ines',
  'jakob',
  'kenji',
  'lena',
  'marco',
  'nadia',
  'oscar',
  'priya',
  'rafael',
  'sofia',
  'tomas',
  'ursula',
  'victor',
  'wen',
  'yara',
  'zain',
  'amelie',
  'boris',
  'daria',
  'erik',
  'fatima',
  'gabriel',
  'hana',
  'ivan',
  'julia',
  'karim',
  'lucia',
  'mei',
  'nils',
  'omar',
  'petra',
  'ruben',
  'selin',
  'theo',
];

const LAST_NAMES = [
  'keller',
  'novak',
  'garcia',
  'chen',
  'okafor',
  'schmidt',
  'rossi',
  'nakamura',
  'petrov',
  'silva',
  'muller',
  'kowalski',
  'haddad',
  'johansson',
  'dubois',
  'fischer',
  'lopez',
  'tanaka',
  'moreau',
  'singh',
  'andersen',
  'bianchi',
  'costa',
  'dimitrov',
  'evans',
  'fernandez',
  'gruber',
  'horvat',
  'ivanova',
  'jensen',
  'kim',
  'lindqvist',
  'martin',
  'nguyen',
  'oconnor',
  'park',
  'quintero',
  'ramirez',
  'sato',
  'thomsen',
  'ulrich',
  'varga',
  'weber',
  'yilmaz',
  'zimmermann',
  'adams',
  'baker',
  'clarke',
  'dalton',
  'ellis',
  'foster',
  'green',
  'hughes',
  'irwin',
  'jordan',
  'knight',
  'lambert',
  'mason',
  'nash',
  'owens',
  'palmer',
  'reid',
  'shaw',
  'turner',
  'vaughn',
  'walsh',
  'young',
  'brandt',
  'coelho',
];

const PERSONAL_KINDS = ['laptop', 'phone', 'desktop', 'tablet', 'workstation', 'macbook', 'pixel', 'iphone', 'thinkpad', 'ipad'];
const DESCRIPTIONS: Record<string, string[]> = {
  laptop: ['Work laptop', 'Company laptop (2023 refresh)', 'Travel laptop'],
  phone: ['Personal phone', 'Work phone', 'On-call phone'],
  desktop: ['Office desktop', 'Home office PC'],
  tablet: ['Tablet for field visits'],
  workstation: ['Build workstation', 'GPU workstation'],
};
const INFRA_NAMES = [
  'build-server',
  'ci-runner-1',
  'ci-runner-2',
  'db-backup',
  'staging-gw',
  'monitoring',
  'jump-host',
  'nas',
  'printer-gw',
  'k8s-node-1',
  'k8s-node-2',
  'grafana',
  'vault',
  'log-shipper',
  'office-router',
  'lab-pi',
];
const INFRA_DESCRIPTIONS = [
  'Jenkins agent in rack 2',
  'Nightly Postgres dumps',
  'Bastion for the prod VPC',
  'Prometheus + Alertmanager',
  'Raspberry Pi in the lab',
];
const SIGN_IN_METHODS = ['email', 'google', 'okta', 'magic_link'];

// Public-looking first octets (ordinary ISP allocations, no private or reserved ranges).
const PUBLIC_FIRST_OCTETS = [
  24, 31, 37, 46, 62, 77, 78, 79, 80, 81, 82, 84, 85, 86, 87, 88, 89, 90, 91, 93, 94, 95, 109, 145, 176, 178, 185, 188, 212, 213, 217,
];

export function publicLookingIp(random: Prng): Ip {
  const value = random.pick(PUBLIC_FIRST_OCTETS) * 0x1000000 + random.int(0, 255) * 0x10000 + random.int(0, 255) * 0x100 + random.int(1, 254);
  return {family: 4, value: BigInt(value)};
}

const key = (random: Prng): string => random.bytes(32).toString('base64');

interface SeedResult {
  adminToken: TokenRow;
  unprivilegedToken: TokenRow;
}

interface SeedPlan {
  kind: 'demo' | 'empty';
  users: number;
  devices: number;
  rules: number;
}

function makeUser(random: Prng, email: string, role: Role, insertedAt: number): UserRow {
  return {
    id: random.uuid(),
    email,
    role,
    passwordHash: null,
    disabledAt: null,
    lastSignedInAt: null,
    lastSignedInMethod: null,
    insertedAt,
    updatedAt: insertedAt,
  };
}

function addToken(core: SandboxCore, random: Prng, user: UserRow, now: number): TokenRow {
  const token: TokenRow = {id: random.uuid(), userId: user.id, expiresAt: now + 30 * MICROS_PER_DAY, insertedAt: now};
  core.store.tokens.set(token.id, token);
  return token;
}

export function seedStore(core: SandboxCore, plan: SeedPlan, random: Prng, now: number): SeedResult {
  const {store} = core;
  const past = (minDays: number, maxDays: number): number => now - Math.floor((minDays + random.next() * (maxDays - minDays)) * MICROS_PER_DAY);

  // A fresh install (empty seed) was set up just now; the demo company has a history.
  const demo = plan.kind === 'demo';
  const admin = makeUser(random, ADMIN_EMAIL, 'admin', demo ? past(400, 420) : now);
  const unprivileged = makeUser(random, UNPRIVILEGED_EMAIL, 'unprivileged', demo ? past(380, 400) : now);
  store.insertUser(admin);
  store.insertUser(unprivileged);
  const result = {adminToken: addToken(core, random, admin, now), unprivilegedToken: addToken(core, random, unprivileged, now)};
  if (!demo) return result;

  // ---- users
  const people: Array<{user: UserRow; first: string}> = [];
  const combos = FIRST_NAMES.length * LAST_NAMES.length;
  const order = Array.from({length: combos}, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const extra = Math.max(0, plan.users - 2);
  const adminCount = Math.max(3, Math.round(extra * 0.05));
  for (let i = 0; i < extra; i++) {
    const combo = order[i % order.length]!;
    const first = FIRST_NAMES[combo % FIRST_NAMES.length]!;
    const last = LAST_NAMES[Math.floor(combo / FIRST_NAMES.length)]!;
    const round = Math.floor(i / order.length);
    const email = `${first}.${last}${round > 0 ? round + 1 : ''}@${COMPANY_DOMAIN}`;
    const insertedAt = past(1, 360);
    const user = makeUser(random, email, i < adminCount ? 'admin' : 'unprivileged', insertedAt);
    if (random.chance(0.2)) {
      user.lastSignedInAt = Math.max(insertedAt, past(0.01, 20));
      user.lastSignedInMethod = random.pick(SIGN_IN_METHODS);
      user.updatedAt = user.lastSignedInAt;
    }
    if (i === adminCount + 4) {
      user.disabledAt = past(2, 30);
      user.updatedAt = Math.max(user.updatedAt, user.disabledAt);
    }
    store.insertUser(user);
    people.push({user, first});
  }

  // ---- devices
  const kindsUsed = new Map<string, Map<string, number>>();
  const uniqueName = (user: UserRow, base: string): string => {
    let used = kindsUsed.get(user.id);
    if (!used) {
      used = new Map();
      kindsUsed.set(user.id, used);
    }
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  };
  const owners: Array<{user: UserRow; first: string}> = [{user: admin, first: 'admin'}, {user: unprivileged, first: 'user'}, ...people];
  const admins = owners.filter((o) => o.user.role === 'admin');
  const infraCount = Math.min(plan.devices, Math.max(0, Math.round(plan.devices * 0.1)));
  const taken = (ip: Ip): boolean => store.addressTaken(ip);
  for (let i = 0; i < plan.devices; i++) {
    let owner: {user: UserRow; first: string};
    let name: string;
    let description: string | null = null;
    if (i === 0 || i === 1) {
      owner = owners[1]!;
      name = uniqueName(owner.user, `user-${i === 0 ? 'laptop' : 'phone'}`);
    } else if (i < 2 + infraCount) {
      owner = admins[i % admins.length]!;
      name = uniqueName(owner.user, INFRA_NAMES[(i - 2) % INFRA_NAMES.length]!);
      if (random.chance(0.5)) description = random.pick(INFRA_DESCRIPTIONS);
    } else {
      owner = owners[(i - 2 - infraCount) % owners.length]!;
      const kind = PERSONAL_KINDS[Math.floor((i - 2 - infraCount) / owners.length) % PERSONAL_KINDS.length]!;
      name = uniqueName(owner.user, `${owner.first}-${kind}`);
      const choices = DESCRIPTIONS[kind];
      if (choices && random.chance(0.4)) description = random.pick(choices);
    }
    const insertedAt = Math.max(owner.user.insertedAt, past(0.5, 300));
    const custom = random.chance(0.12);
    const device: DeviceRow = {
      id: random.uuid(),
      userId: owner.user.id,
      name,
      description,
      publicKey: key(random),
      presharedKey: key(random),
      useDefaultAllowedIps: true,
      useDefaultDns: true,
      useDefaultEndpoint: true,
      useDefaultMtu: true,
      useDefaultPersistentKeepalive: true,
      allowedIps: [],
      dns: [],
      endpoint: null,
      mtu: null,
      persistentKeepalive: null,
      ipv4: core.settings.ipv4.enabled ? allocateAddress(core.settings.ipv4, taken, core.random.alloc) : null,
      ipv6: core.settings.ipv6.enabled ? allocateAddress(core.settings.ipv6, taken, core.random.alloc) : null,
      remoteIp: null,
      latestHandshake: null,
      rxBytes: null,
      txBytes: null,
      insertedAt,
      updatedAt: insertedAt,
      sim: 'never',
      cache: null,
      cacheVersion: 0,
    };
    if (custom) {
      // split tunnel to the office networks, internal resolver, smaller MTU for a flaky uplink
      device.useDefaultAllowedIps = false;
      device.allowedIps = ['10.0.0.0/8', '192.168.10.0/24'].map((s) => castInet(s)!);
      if (random.chance(0.5)) {
        device.useDefaultDns = false;
        device.dns = ['10.10.0.2'];
      }
      if (random.chance(0.4)) {
        device.useDefaultMtu = false;
        device.mtu = 1380;
      }
      if (random.chance(0.3)) {
        device.useDefaultPersistentKeepalive = false;
        device.persistentKeepalive = 15;
      }
    }
    const roll = random.next();
    const sim: SimulationClass = i < 2 ? (i === 0 ? 'busy' : 'never') : roll < 0.2 ? 'never' : roll < 0.5 ? 'idle' : 'busy';
    device.sim = sim;
    if (sim !== 'never') {
      const handshakeSeconds =
        sim === 'busy' ? Math.floor(now / MICROS_PER_SECOND) - random.int(5, 150) : Math.floor(now / MICROS_PER_SECOND) - random.int(3600, 30 * 86400);
      device.latestHandshake = Math.max(insertedAt, handshakeSeconds * MICROS_PER_SECOND);
      device.latestHandshake -= device.latestHandshake % MICROS_PER_SECOND;
      device.remoteIp = publicLookingIp(random);
      device.rxBytes = random.int(200_000, sim === 'busy' ? 20_000_000_000 : 2_000_000_000);
      device.txBytes = Math.floor(device.rxBytes * (0.05 + random.next() * 0.5));
      device.updatedAt = Math.min(now, Math.max(insertedAt, device.latestHandshake + random.int(1, 59) * MICROS_PER_SECOND));
    }
    store.insertDevice(device);
  }

  // ---- rules
  seedRules(
    core,
    plan.rules,
    random,
    owners.map((o) => o.user),
    past,
  );

  // ---- configuration: identity providers and a public endpoint, as a real install would have
  const config = store.config;
  config.default_client_endpoint = `vpn.${COMPANY_DOMAIN}:${core.settings.wireguardPort}`;
  const oidc: OidcProvider = {
    id: 'google',
    label: 'Google Workspace',
    scope: 'openid email profile',
    response_type: 'code',
    client_id: `${random.int(100000000000, 999999999999)}-${random.bytes(12).toString('hex')}.apps.googleusercontent.com`,
    client_secret: `GOCSPX-${random.bytes(21).toString('base64url')}`,
    discovery_document_uri: 'https://accounts.google.com/.well-known/openid-configuration',
    redirect_uri: null,
    auto_create_users: false,
  };
  const saml: SamlProvider = {
    id: 'okta',
    label: 'Okta',
    base_url: core.settings.samlBaseUrl,
    metadata: samlMetadata(random),
    sign_requests: true,
    sign_metadata: true,
    signed_assertion_in_resp: true,
    signed_envelopes_in_resp: true,
    auto_create_users: true,
  };
  config.openid_connect_providers = [oidc];
  config.saml_identity_providers = [saml];
  config.updatedAt = past(0.5, 30);
  store.renderVersion++;
  return result;
}

interface RuleTemplate {
  destination: string;
  action: RuleAction;
  ports?: [PortTypeName, string];
  perUser?: boolean;
}
type PortTypeName = 'tcp' | 'udp';

const RULE_TEMPLATES: RuleTemplate[] = [
  {destination: '169.254.169.254', action: 'drop'},
  {destination: '10.10.0.0/16', action: 'drop'},
  {destination: '10.10.5.0/24', action: 'accept'},
  {destination: '10.10.20.15', action: 'accept', ports: ['tcp', '443']},
  {destination: '10.10.20.16', action: 'accept', ports: ['tcp', '5432'], perUser: true},
  {destination: '192.168.0.0/16', action: 'drop'},
  {destination: '192.168.50.0/24', action: 'accept', perUser: true},
  {destination: '10.20.0.0/16', action: 'accept', ports: ['tcp', '22'], perUser: true},
  {destination: '10.30.1.10', action: 'accept', ports: ['tcp', '8000 - 8100']},
  {destination: 'fd00:10::/32', action: 'drop'},
  {destination: '172.16.5.10', action: 'accept', ports: ['udp', '1194'], perUser: true},
  {destination: '10.10.30.0/24', action: 'accept', ports: ['tcp', '80']},
  {destination: '10.10.30.0/24', action: 'accept', ports: ['tcp', '443']},
  {destination: '10.40.0.0/16', action: 'drop', perUser: true},
  {destination: '172.16.0.0/12', action: 'drop'},
  {destination: '172.16.8.0/24', action: 'accept', ports: ['tcp', '3389'], perUser: true},
  {destination: '10.10.40.5', action: 'accept', ports: ['tcp', '9090 - 9093']},
  {destination: '10.10.40.6', action: 'accept', ports: ['udp', '514']},
  {destination: '8.8.8.8', action: 'drop', ports: ['udp', '53']},
  {destination: '10.50.0.0/16', action: 'accept', perUser: true},
  {destination: 'fd00:20::/48', action: 'accept', ports: ['tcp', '443']},
  {destination: '10.10.60.0/24', action: 'drop', ports: ['tcp', '25']},
  {destination: '203.0.113.0/24', action: 'drop'},
  {destination: '10.10.70.20', action: 'accept', ports: ['tcp', '6443'], perUser: true},
  {destination: '10.60.0.0/16', action: 'drop', ports: ['udp', '1 - 1024']},
];

function seedRules(core: SandboxCore, count: number, random: Prng, users: UserRow[], past: (a: number, b: number) => number): void {
  const {store} = core;
  const addRule = (destination: Inet, action: RuleAction, ports: [PortTypeName, string] | undefined, userId: string | null, checkOverlap: boolean): boolean => {
    let lower: number | null = null;
    let upper: number | null = null;
    if (ports) {
      const [l, u] = ports[1].split(' - ').map(Number) as [number, number | undefined];
      lower = l;
      upper = u ?? l;
    }
    const stored = readForm(destination);
    if (
      checkOverlap &&
      overlapsExisting(store, {id: null, action, destination: stored, portType: ports?.[0] ?? null, portLower: lower, portUpper: upper, userId})
    )
      return false;
    const insertedAt = past(1, 300);
    const rule: RuleRow = {
      id: random.uuid(),
      action,
      destination: stored,
      portType: ports?.[0] ?? null,
      portRange: ports?.[1] ?? null,
      portLower: lower,
      portUpper: upper,
      userId,
      insertedAt,
      updatedAt: insertedAt,
    };
    store.rules.set(rule.id, rule);
    return true;
  };
  let made = 0;
  for (const template of RULE_TEMPLATES) {
    if (made >= count) return;
    const userId = template.perUser ? random.pick(users).id : null;
    if (addRule(castInet(template.destination)!, template.action, template.ports, userId, true)) made++;
  }
  // Beyond the templates: one distinct /24 each from 10.64.0.0 upwards, where no template points,
  // so these never overlap and need no pairwise check (MAX_SEED_RULES keeps them inside 10.0.0.0/8).
  const portChoices: Array<[PortTypeName, string]> = [
    ['tcp', '22'],
    ['tcp', '443'],
    ['tcp', '8080 - 8090'],
    ['udp', '53'],
    ['udp', '5000 - 5100'],
  ];
  for (let k = 0; made < count; k++) {
    const destination: Inet = {ip: {family: 4, value: BigInt(10 * 0x1000000 + (64 + Math.floor(k / 256)) * 0x10000 + (k % 256) * 0x100)}, netmask: 24};
    const ports = random.chance(0.4) ? random.pick(portChoices) : undefined;
    const userId = random.chance(0.3) ? random.pick(users).id : null;
    addRule(destination, random.chance(0.6) ? 'accept' : 'drop', ports, userId, false);
    made++;
  }
}

/** IdP metadata as Okta publishes it (the certificate is random bytes, not a real certificate). */
function samlMetadata(random: Prng): string {
  const org = random.bytes(10).toString('hex');
  const cert = random.bytes(600).toString('base64');
  return `<?xml version="1.0" encoding="UTF-8"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="http://www.okta.com/exk${org}"><md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${cert}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor><md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat><md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://${COMPANY_DOMAIN.split('.')[0]}.okta.com/app/${COMPANY_DOMAIN.split('.')[0]}_firezone_1/exk${org}/sso/saml"/><md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://${COMPANY_DOMAIN.split('.')[0]}.okta.com/app/${COMPANY_DOMAIN.split('.')[0]}_firezone_1/exk${org}/sso/saml"/></md:IDPSSODescriptor></md:EntityDescriptor>`;
}
