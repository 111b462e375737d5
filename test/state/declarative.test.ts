// The server as a file, its pure parts: the document read with every problem at its line, what
// 0.7.36 normalises never shown as a change, and the plan's operations. Expectations are written
// out by hand.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import type {Configuration, Device, Rule, User} from '../../src/api/index.js';
import {DocumentError, parseServerDocument, serialiseDocument} from '../../src/state/declarative/document.js';
import {exportDocument, type ServerState} from '../../src/state/declarative/export.js';
import {canonicalCidr, canonicalPortRange, overlappingPairs, type RuleShape} from '../../src/state/declarative/normalise.js';
import {makePlan} from '../../src/state/declarative/plan.js';
import {planLines} from '../../src/state/declarative/plan-text.js';
import {backupDocument, deviceCreateBody} from '../../src/state/declarative/apply.js';

const T = '2026-01-01T00:00:00.000000Z';
const KEY_A = 'mLN9py6whsGt+Lg9jP4lX+Cqqlf02plODqWg2UqOmPI=';
const KEY_B = 'Xw3UOt3dCNgstvGKWXh/uR64+5uFzGl3gWq9nwTayZw=';
const PSK = 'qrcrAnUh7ryP69SwfseKdBNElOSjOC9/Wv7Z+EBxs50=';

function user(id: string, email: string, role: User['role'] = 'unprivileged'): User {
  return {id, email, role, disabled_at: null, last_signed_in_at: null, last_signed_in_method: null, inserted_at: T, updated_at: T};
}

function device(over: Partial<Device>): Device {
  return {
    id: 'd1',
    user_id: 'u1',
    name: 'laptop',
    description: null,
    public_key: KEY_A,
    preshared_key: PSK,
    server_public_key: null,
    ipv4: '10.3.2.5',
    ipv6: 'fd00::3:2:5',
    allowed_ips: ['0.0.0.0/0', '::/0'],
    dns: ['1.1.1.1'],
    endpoint: 'vpn.example.com:51820',
    mtu: 1280,
    persistent_keepalive: 25,
    use_default_allowed_ips: true,
    use_default_dns: true,
    use_default_endpoint: true,
    use_default_mtu: true,
    use_default_persistent_keepalive: true,
    latest_handshake: null,
    remote_ip: null,
    rx_bytes: null,
    tx_bytes: null,
    inserted_at: T,
    updated_at: T,
    ...over,
  };
}

function rule(over: Partial<Rule>): Rule {
  return {id: 'r1', action: 'accept', destination: '10.0.0.5', port_range: null, port_type: null, user_id: null, inserted_at: T, updated_at: T, ...over};
}

const configuration: Configuration = {
  id: 'c',
  allow_unprivileged_device_configuration: true,
  allow_unprivileged_device_management: true,
  default_client_allowed_ips: ['0.0.0.0/0', '::/0'],
  default_client_dns: ['1.1.1.1', '1.0.0.1'],
  default_client_endpoint: 'vpn.example.com:51820',
  default_client_mtu: 1280,
  default_client_persistent_keepalive: 25,
  disable_vpn_on_oidc_error: false,
  local_auth_enabled: true,
  vpn_session_duration: 0,
  logo: {},
  openid_connect_providers: [],
  saml_identity_providers: [],
  inserted_at: T,
  updated_at: T,
};

function state(over: Partial<ServerState> = {}): ServerState {
  return {
    users: [user('u1', 'Alice@Example.com', 'admin'), user('u2', 'bob@example.com')],
    devices: [device({})],
    rules: [
      rule({id: 'r1', destination: '10.0.0.5', user_id: 'u2'}),
      rule({id: 'r2', action: 'drop', destination: '10.0.0.0/8', port_type: 'tcp', port_range: '80 - 443'}),
    ],
    configuration,
    ...over,
  };
}

const plan = (text: string, s: ServerState, prune = false) => {
  const {document, lineOf} = parseServerDocument(text, 'f.yaml');
  return makePlan(document, lineOf, s, {prune, selfUserId: 'u1'});
};

const problemsOf = (text: string): Array<{line: number; message: string}> => {
  try {
    parseServerDocument(text, 'f.yaml');
  } catch (err) {
    expect(err).toBeInstanceOf(DocumentError);
    return (err as DocumentError).problems;
  }
  return [];
};

describe('the document', () => {
  it('an unknown key, a wrong type, a YAML error and a repeated key are each reported at their line', () => {
    expect(problemsOf('version: 1\nusers:\n  - email: a@b\n    role: admin\n    colour: red\n')).toEqual([
      {line: 5, message: expect.stringMatching(/^users\[0\]\.colour: .*colour/) as string},
    ]);
    expect(problemsOf('version: 1\nrules:\n  - action: allow\n    destination: 10.0.0.1\n')[0]).toMatchObject({line: 3});
    expect(problemsOf('version: 1\nusers: [\n')[0]!.line).toBeGreaterThan(0);
    expect(problemsOf('version: 1\nversion: 1\n')[0]).toMatchObject({line: 2});
    expect(problemsOf('version: 2\n')[0]).toMatchObject({line: 1});
  });

  it('exporting gives the same bytes whatever order the server lists things in, and JSON reads back as YAML does', () => {
    const a = state();
    const b = state({users: [...a.users].reverse(), rules: [...a.rules].reverse()});
    const yamlA = serialiseDocument(exportDocument(a, {withSecrets: false}), 'yaml');
    expect(serialiseDocument(exportDocument(b, {withSecrets: false}), 'yaml')).toBe(yamlA);
    expect(yamlA).not.toContain(PSK);
    expect(serialiseDocument(exportDocument(a, {withSecrets: true}), 'yaml')).toContain(`preshared_key: ${PSK}`);
    const json = serialiseDocument(exportDocument(a, {withSecrets: false}), 'json');
    expect(parseServerDocument(json, 'f.json').document).toEqual(parseServerDocument(yamlA, 'f.yaml').document);
  });

  it('a device that uses the server defaults leaves its settings out; its own values are written, null included', () => {
    const doc = exportDocument(state({devices: [device({use_default_mtu: false, mtu: null, use_default_dns: false, dns: ['9.9.9.9']})]}), {withSecrets: false});
    expect(doc.devices[0]).toEqual({
      owner: 'Alice@Example.com',
      name: 'laptop',
      description: null,
      public_key: KEY_A,
      ipv4: '10.3.2.5',
      ipv6: 'fd00::3:2:5',
      dns: ['9.9.9.9'],
      mtu: null,
    });
  });
});

describe('what 0.7.36 normalises', () => {
  it('the lost /32 and /128, IPv6 forms, and port ranges', () => {
    expect(canonicalCidr('10.0.0.5/32')).toBe('10.0.0.5');
    expect(canonicalCidr(' 10.0.0.5 ')).toBe('10.0.0.5');
    expect(canonicalCidr('fd00:0:0::5/128')).toBe('fd00::5');
    expect(canonicalCidr('10.1.2.3/24')).toBe('10.1.2.3/24');
    expect(canonicalPortRange('80-443')).toBe('80 - 443');
    expect(canonicalPortRange('[80,443)')).toBe('80 - 442');
    expect(canonicalPortRange('53-53')).toBe('53');
  });

  it('export then plan is no change; /32, "80-443", email case and list order in the file are no change either', () => {
    const s = state({devices: [device({use_default_allowed_ips: false, allowed_ips: ['10.0.0.0/8', '192.168.1.1']})]});
    const text = serialiseDocument(exportDocument(s, {withSecrets: false}), 'yaml');
    expect(plan(text, s).steps).toEqual([]);
    const edited = text
      .replace('destination: 10.0.0.5\n', 'destination: 10.0.0.5/32\n')
      .replace('port_range: 80 - 443', 'port_range: 80-443')
      .replace('email: Alice@Example.com', 'email: ALICE@example.COM')
      .replace('      - 10.0.0.0/8\n      - 192.168.1.1\n', '      - 192.168.1.1/32\n      - 10.0.0.0/8\n');
    expect(edited).not.toBe(text);
    const p = plan(edited, s);
    expect(p.problems).toEqual([]);
    expect(p.steps).toEqual([]);
  });
});

describe('the plan', () => {
  const base = () => serialiseDocument(exportDocument(state(), {withSecrets: false}), 'yaml');

  it('a new user, a role change, a renamed device and a changed rule are create, update, update, delete + create', () => {
    const text = base()
      .replace('users:\n', 'users:\n  - email: carol@example.com\n    role: unprivileged\n')
      .replace('  - email: bob@example.com\n    role: unprivileged', '  - email: bob@example.com\n    role: admin')
      .replace('name: laptop', 'name: work-laptop')
      .replace('destination: 10.0.0.5\n', 'destination: 10.0.0.6\n');
    const p = plan(text, state(), true);
    expect(p.problems).toEqual([]);
    expect(p.steps.map((s) => `${s.op} ${s.label} ${s.fields.map((f) => `${f.field}: ${f.old} → ${f.new}`).join('; ')}`.trim())).toEqual([
      'create user carol@example.com (unprivileged)',
      'update user bob@example.com role: unprivileged → admin',
      'update device laptop of Alice@Example.com name: laptop → work-laptop',
      'delete rule accept 10.0.0.5 for bob@example.com',
      'create rule accept 10.0.0.6 for bob@example.com',
    ]);
    expect(planLines(p, {file: 'f.yaml', replace: false}).at(-1)).toBe('Plan: 2 to create, 2 to update, 0 to replace, 1 to delete.');
  });

  it('a network setting or an address is a replace, which keeps the addresses and the server’s preshared key', () => {
    const text = base().replace('    ipv6: fd00::3:2:5\n', '    ipv6: fd00::3:2:5\n    allowed_ips:\n      - 10.0.0.0/8\n');
    const p = plan(text, state());
    expect(p.steps).toHaveLength(1);
    const step = p.steps[0]!;
    expect(step).toMatchObject({op: 'replace', fields: [{field: 'allowed_ips', old: 'default', new: '10.0.0.0/8'}]});
    if (step.op !== 'replace') throw new Error('expected a replace');
    const {ipv4: _4, ipv6: _6, ...withoutAddresses} = step.device;
    expect(deviceCreateBody(withoutAddresses, 'u1', step.server)).toMatchObject({
      user_id: 'u1',
      public_key: KEY_A,
      preshared_key: PSK,
      ipv4: '10.3.2.5',
      ipv6: 'fd00::3:2:5',
      use_default_allowed_ips: false,
      allowed_ips: ['10.0.0.0/8'],
      use_default_dns: true,
    });
    expect(planLines(p, {file: 'f.yaml', replace: false}).join('\n')).toContain('apply needs --replace');
  });

  it('what is only on the server is kept without --prune and deleted with it, except the token’s own user', () => {
    const text = 'version: 1\nusers:\n  - email: bob@example.com\n    role: unprivileged\n';
    const kept = plan(text, state());
    expect(kept.steps).toEqual([]);
    expect(kept.kept).toEqual([
      'rule accept 10.0.0.5 for bob@example.com',
      'rule drop 10.0.0.0/8 tcp 80 - 443',
      'device laptop of Alice@Example.com',
      'user Alice@Example.com',
    ]);
    const pruned = plan(text, state(), true);
    expect(pruned.steps.map((s) => `${s.op} ${s.label}`)).toEqual([
      'delete rule accept 10.0.0.5 for bob@example.com',
      'delete rule drop 10.0.0.0/8 tcp 80 - 443',
      'delete device laptop of Alice@Example.com',
    ]);
    expect(pruned.kept).toEqual(["user Alice@Example.com (the token's own user: never deleted)"]);
    const backup = backupDocument(pruned, state());
    expect(backup?.rules).toEqual([
      {action: 'accept', destination: '10.0.0.5', user: 'bob@example.com'},
      {action: 'drop', destination: '10.0.0.0/8', port_type: 'tcp', port_range: '80 - 443'},
    ]);
    expect(backup?.users).toEqual([
      {email: 'bob@example.com', role: 'unprivileged'},
      {email: 'Alice@Example.com', role: 'admin'},
    ]);
    // The backup keeps the preshared key, so that applying it gives the client its device back.
    expect(backup?.devices).toEqual([
      {owner: 'Alice@Example.com', name: 'laptop', description: null, public_key: KEY_A, preshared_key: PSK, ipv4: '10.3.2.5', ipv6: 'fd00::3:2:5'},
    ]);
  });

  it('duplicates, an unknown owner, overlapping rules and a rule overlapping a kept one are problems at their lines, and nothing is planned', () => {
    const text = [
      'version: 1', // 1
      'users:', // 2
      '  - email: a@example.com', // 3
      '    role: admin', // 4
      '  - email: A@EXAMPLE.com', // 5
      '    role: admin', // 6
      'devices:', // 7
      '  - owner: nobody@example.com', // 8
      '    name: x', // 9
      `    public_key: ${KEY_B}`, // 10
      'rules:', // 11
      '  - action: drop', // 12
      '    destination: 10.0.0.0/8', // 13
      '  - action: drop', // 14
      '    destination: 10.1.0.0/16', // 15
      '  - action: drop', // 16
      '    destination: 10.0.0.0/24', // 17
      '    port_type: tcp', // 18
      '    port_range: 100-200', // 19
      '',
    ].join('\n');
    const p = plan(text, state());
    expect(p.steps).toEqual([]);
    expect(p.problems.map((q) => q.line)).toEqual([5, 8, 14, 16]);
    expect(p.problems[0]!.message).toContain('already in the file (line 3)');
    expect(p.problems[2]!.message).toContain('overlaps the rule at line 12');
    expect(p.problems[3]!.message).toContain('overlaps rule drop 10.0.0.0/8 tcp 80 - 443, which is on the server');
    // With --prune that server rule goes, so it no longer counts.
    expect(plan(text, state(), true).problems.map((q) => q.line)).toEqual([5, 8, 14]);
  });

  it('the configuration: changed fields old → new; lists as sets; a provider without its secret keeps the server’s', () => {
    const withProvider: Configuration = {
      ...configuration,
      openid_connect_providers: [
        {
          id: 'google',
          label: 'Google',
          scope: 'openid email profile',
          response_type: 'code',
          client_id: 'id',
          client_secret: 'SECRET',
          discovery_document_uri: 'https://accounts.google.com/.well-known/openid-configuration',
          redirect_uri: null,
          auto_create_users: false,
        },
      ],
    };
    const s = state({configuration: withProvider});
    const text = serialiseDocument(exportDocument(s, {withSecrets: false}), 'yaml');
    expect(text).not.toContain('SECRET');
    expect(plan(text, s).steps).toEqual([]);
    const edited = text
      .replace('default_client_mtu: 1280', 'default_client_mtu: 1380')
      .replace('    - 1.1.1.1\n    - 1.0.0.1\n', '    - 1.0.0.1\n    - 1.1.1.1\n')
      .replace('label: Google', 'label: Google Workspace');
    const p = plan(edited, s);
    expect(p.steps).toHaveLength(1);
    expect(p.steps[0]).toMatchObject({
      op: 'update',
      kind: 'configuration',
      fields: [
        {field: 'default_client_mtu', old: '1280', new: '1380'},
        {field: 'openid_connect_providers', old: 'google*', new: 'google*'},
      ],
      body: {default_client_mtu: 1380, openid_connect_providers: [{id: 'google', label: 'Google Workspace', client_secret: 'SECRET'}]},
    });
  });
});

describe('overlapping rules', () => {
  /** The constraint as 0.7.36 states it, pair by pair, with IPv4 blocks as numbers: the oracle. */
  function clash(a: RuleShape, b: RuleShape): boolean {
    if (a.action !== b.action || a.user !== b.user || (a.port_type === null) !== (b.port_type === null)) return false;
    const block = (d: string) => {
      const [ip, bits] = d.split('/');
      const value = ip!.split('.').reduce((n, part) => n * 256 + Number(part), 0);
      const size = 2 ** (32 - Number(bits ?? 32));
      const first = Math.floor(value / size) * size;
      return [first, first + size - 1] as const;
    };
    const [a1, a2] = block(a.destination);
    const [b1, b2] = block(b.destination);
    if (a2 < b1 || b2 < a1) return false;
    if (a.port_type === null) return true;
    const ports = (r: string) => r.split(' - ').map(Number);
    const [p1, p2 = p1] = ports(a.port_range!);
    const [q1, q2 = q1] = ports(b.port_range!);
    return a.port_type === b.port_type && p1! <= q2! && q1! <= p2!;
  }
  const shape = fc
    .record({
      action: fc.constantFrom('accept' as const, 'drop' as const),
      destination: fc
        .tuple(fc.constantFrom('10.0.0.0', '10.0.1.0', '10.0.1.128', '10.1.0.0', '192.168.0.1'), fc.constantFrom('', '/8', '/16', '/24', '/25', '/32'))
        .map(([a, b]) => a + b),
      port_type: fc.constantFrom(null, 'tcp' as const, 'udp' as const),
      port_range: fc.constantFrom('80', '80 - 90', '85 - 100', '443'),
      user: fc.constantFrom(null, 'a@x'),
    })
    .map((r): RuleShape => ({...r, port_range: r.port_type === null ? null : r.port_range}));

  it('the sweep finds exactly the pairs that a pair-by-pair check finds', () => {
    fc.assert(
      fc.property(fc.array(shape, {maxLength: 30}), (rules) => {
        const found = new Set(
          overlappingPairs(
            rules.map((r, i) => ({r, i})),
            (x) => x.r,
          ).map(([a, b]) => [Math.min(a.i, b.i), Math.max(a.i, b.i)].join(',')),
        );
        const expected = new Set<string>();
        for (let i = 0; i < rules.length; i++) for (let j = i + 1; j < rules.length; j++) if (clash(rules[i]!, rules[j]!)) expected.add(`${i},${j}`);
        expect([...found].sort()).toEqual([...expected].sort());
      }),
      {numRuns: 300},
    );
  });
});
