// Change detection: the configuration, sections a token cannot see, and "by you" (writes of this
// console credited to it, the pairing of polls by id). Helpers in ./harness.ts; the mutation group
// "change detection" runs these (test/mutation/).
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {Highlights, HIGHLIGHT_MS} from '../../../src/state/tracking/highlights.js';
import {LocalWrites} from '../../../src/state/tracking/local-writes.js';
import {configurationChanges, DeviceScan, diffSnapshots} from '../../../src/state/tracking/snapshot-diff.js';
import {configuration, device, iso, rule, user} from '../../fixtures/data.js';
import {T0, ann, bob, snap, type Run, diff, lines, online} from './harness.js';

describe('configuration', () => {
  it('one change or several: the count in the text, the lines as detail', () => {
    const one = diff({}, {config: configuration({default_client_mtu: 1420})});
    expect(lines(one)).toEqual([
      'configuration.changed configuration:c [Configuration] owner=null by=null | Configuration changed (1 change) | MTU: 1280 → 1420',
    ]);
    const two = diff({}, {config: configuration({default_client_mtu: 1420, logo: {url: 'https://example.com/logo.png'}})});
    expect(two.events.map((e) => e.text)).toEqual(['Configuration changed (2 changes)']);
    expect(two.events[0]!.detail.at(-1)).toBe('Logo changed');
    // The same values in a new object: nothing.
    expect(diff({}, {config: configuration()}).events).toEqual([]);
  });

  it('a secret of 4 characters or more is masked wherever it turns up; a shorter one would mask ordinary words, so it is not', () => {
    const provider = (secret: string, label: string) => ({
      id: 'google',
      label,
      scope: 'openid',
      response_type: 'code',
      client_id: 'id',
      client_secret: secret,
      discovery_document_uri: 'https://accounts.google.com/.well-known/openid-configuration',
      redirect_uri: null,
      auto_create_users: false,
    });
    const withProvider = (secret: string, label: string) => configuration({openid_connect_providers: [provider(secret, label)]});
    expect(configurationChanges(withProvider('abcd', 'one'), withProvider('abcd', 'has abcd')).join('\n')).not.toContain('abcd');
    expect(configurationChanges(withProvider('abc', 'one'), withProvider('abc', 'abcdef')).join('\n')).toContain('abcdef');
  });
});

describe('sections a token cannot see', () => {
  it('a hidden section is skipped, the others are still compared', () => {
    const r = diff({users: [ann, bob], rules: [rule()], hidden: ['rules']}, {users: [ann], rules: [], hidden: ['rules']});
    expect(r.events.map((e) => e.kind)).toEqual(['user.deleted']);
    expect(diff({users: [ann], rules: [rule()], hidden: ['users']}, {users: [], rules: [], hidden: ['users']}).events.map((e) => e.kind)).toEqual([
      'rule.removed',
    ]);
    expect(diff({hidden: ['configuration']}, {config: configuration({default_client_mtu: 1420}), hidden: ['configuration']}).events).toEqual([]);
    // Hidden in one of the two polls (a user demoted, or made admin, between them): not compared either.
    expect(diff({users: [ann, bob]}, {users: [], hidden: ['users']}).events).toEqual([]);
  });
});

describe('"by you"', () => {
  it('a configuration write is matched and settled', () => {
    const local = new LocalWrites();
    local.note({type: 'configuration', id: 'anything', action: 'updated'}, T0 - 1000);
    const r = diff({}, {config: configuration({default_client_mtu: 1420})}, T0, local);
    expect(r.events.map((e) => e.by)).toEqual(['you']);
    expect(local.size).toBe(0);
  });

  it("a configuration save is credited with its own change only: another admin's before it (re-applied over) or after it is not", () => {
    const at = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}.000000Z`;
    const prev = configuration({updated_at: at(1), default_client_mtu: 1420});
    // Another admin set the MTU; this console, shown that conflict, re-applied its DNS edit over it.
    const base = configuration({updated_at: at(2), default_client_mtu: 1300});
    const saved = configuration({updated_at: at(3), default_client_mtu: 1300, default_client_dns: ['9.9.9.9']});
    const credited = (next: ReturnType<typeof configuration>) => {
      const local = new LocalWrites();
      local.note({type: 'configuration', id: 'configuration', action: 'updated'}, T0 - 1000);
      local.noteConfigurationSave({base, saved}, T0 - 900);
      const r = diff({config: prev}, {config: next}, T0, local);
      return {
        events: r.events.map((e) => `${e.by ?? 'other'}: ${e.detail.join('; ')}`),
        pending: local.size,
        saves: local.configurationSaves(prev, saved)?.included.length ?? 0,
      };
    };
    expect(credited(saved)).toEqual({events: ['other: MTU: 1420 → 1300', 'you: DNS servers: 1.1.1.1, 1.0.0.1 → 9.9.9.9'], pending: 0, saves: 0});
    // And a change made after the save, shown by the same poll: someone else's too.
    const later = configuration({updated_at: at(4), default_client_mtu: 1500, default_client_dns: ['9.9.9.9']});
    expect(credited(later).events).toEqual(['other: MTU: 1420 → 1300', 'you: DNS servers: 1.1.1.1, 1.0.0.1 → 9.9.9.9', 'other: MTU: 1300 → 1500']);
    // A poll older than the save shows only the other admin's change; the save waits for the poll that shows it.
    const older = configuration({updated_at: at(2), default_client_mtu: 1300});
    expect(credited(older)).toEqual({events: ['other: MTU: 1420 → 1300'], pending: 1, saves: 1});
  });

  it('two saves before one poll: each is credited with its own change; a poll between them credits the first and keeps the second', () => {
    const at = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}.000000Z`;
    const prev = configuration({updated_at: at(1)});
    const first = configuration({updated_at: at(2), default_client_mtu: 1300});
    const other = configuration({updated_at: at(3), default_client_mtu: 1300, default_client_dns: ['9.9.9.9']});
    const second = configuration({updated_at: at(4), default_client_mtu: 1300, default_client_dns: ['9.9.9.9'], default_client_persistent_keepalive: 15});
    const local = () => {
      const l = new LocalWrites();
      l.note({type: 'configuration', id: 'configuration', action: 'updated'}, T0 - 1000);
      l.noteConfigurationSave({base: prev, saved: first}, T0 - 900);
      l.noteConfigurationSave({base: other, saved: second}, T0 - 800);
      return l;
    };
    const by = (r: Run) => r.events.map((e) => `${e.by ?? 'other'}: ${e.detail.join('; ')}`);
    const both = local();
    expect(by(diff({config: prev}, {config: second}, T0, both))).toEqual([
      'you: MTU: 1280 → 1300',
      'other: DNS servers: 1.1.1.1, 1.0.0.1 → 9.9.9.9',
      'you: Persistent keepalive: 25 → 15',
    ]);
    expect([both.size, both.configurationSaves(prev, second)]).toEqual([0, null]);
    // A poll that shows the first save and the other admin's change, not the second save yet.
    const between = local();
    expect(by(diff({config: prev}, {config: other}, T0, between))).toEqual(['you: MTU: 1280 → 1300', 'other: DNS servers: 1.1.1.1, 1.0.0.1 → 9.9.9.9']);
    expect([between.size, between.configurationSaves(other, second)?.included.length]).toEqual([1, 1]);
  });

  it('a save shown by a poll that overtook its answer is not reported again by the next poll', () => {
    const at = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}.000000Z`;
    const prev = configuration({updated_at: at(1)});
    const saved = configuration({updated_at: at(2), default_client_mtu: 1400});
    const local = new LocalWrites();
    local.note({type: 'configuration', id: 'configuration', action: 'updated'}, T0 - 1000);
    // The poll came back before the save's answer: the note made before sending credits it.
    const first = diff({config: prev}, {config: saved}, T0, local);
    expect(first.events.map((e) => `${e.by ?? 'other'}: ${e.detail.join('; ')}`)).toEqual(['you: MTU: 1280 → 1400']);
    local.noteConfigurationSave({base: prev, saved}, T0);
    // The next poll shows another admin's change after it: that alone is reported.
    const later = configuration({updated_at: at(3), default_client_mtu: 1500});
    expect(diff({config: saved}, {config: later}, T0, local).events.map((e) => `${e.by ?? 'other'}: ${e.detail.join('; ')}`)).toEqual([
      'other: MTU: 1400 → 1500',
    ]);
    expect(local.configurationSaves(later, later)).toBeNull();
  });

  it('a time that cannot be read leaves the attribution to the note made before sending', () => {
    const saved = configuration({updated_at: 'not a time', default_client_mtu: 1300});
    for (const [save, next] of [
      [saved, configuration({default_client_mtu: 1300})],
      [configuration({default_client_mtu: 1300}), configuration({updated_at: 'not a time', default_client_mtu: 1300})],
    ] as const) {
      const local = new LocalWrites();
      local.note({type: 'configuration', id: 'configuration', action: 'updated'}, T0 - 1000);
      local.noteConfigurationSave({base: configuration(), saved: save}, T0 - 900);
      expect(local.configurationSaves(configuration(), next)).toBeNull();
      expect(diff({}, {config: next}, T0, local).events.map((e) => e.by)).toEqual(['you']);
    }
  });

  it('after a user deleted here, only its deletions are ours: a device created for the id meanwhile, and a global rule removed, are not', () => {
    const local = new LocalWrites();
    local.note({type: 'user', id: 'u-2', action: 'deleted'}, T0 - 1000);
    const r = diff(
      {
        devices: [device({id: 'd-2', user_id: 'u-2', name: 'phone'})],
        rules: [rule({id: 'r-2', user_id: 'u-2'}), rule({id: 'r-g', destination: '10.9.0.0/16'})],
      },
      {users: [ann], devices: [device({id: 'd-3', user_id: 'u-2', name: 'late'})], rules: []},
      T0,
      local,
    );
    expect(r.events.map((e) => `${e.kind} ${e.object.id} ${e.by}`)).toEqual([
      'user.deleted u-2 you',
      'device.created d-3 null',
      'device.deleted d-2 you',
      'rule.removed r-2 you',
      'rule.removed r-g null',
    ]);
  });

  it('an edit of a user here does not make that user’s device deletions ours', () => {
    const local = new LocalWrites();
    local.note({type: 'user', id: 'u-2', action: 'updated'}, T0 - 1000);
    const r = diff({devices: [device({id: 'd-2', user_id: 'u-2'})]}, {users: [ann, {...bob, role: 'admin'}], devices: []}, T0, local);
    expect(r.events.map((e) => `${e.kind} ${e.by}`)).toEqual(['user.role you', 'device.deleted null']);
  });
});

describe('bookkeeping', () => {
  it('event numbers only grow, within a batch and across batches', () => {
    const a = diff({users: [ann]}, {users: [ann, bob]}).events;
    const b = diff({users: [ann, bob]}, {users: []}).events;
    const seqs = [...a, ...b].map((e) => e.seq);
    expect(seqs).toHaveLength(3);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]!).toBeGreaterThan(seqs[i - 1]!);
  });

  it('the highlights are pruned and their version moves on each diff (the lists redraw their marks)', () => {
    const hl = new Highlights();
    const first = snap({devices: []}, null, T0 - 5000);
    const second = snap({devices: [device()]}, first, T0);
    diffSnapshots(first, second, T0, {highlights: hl});
    expect(hl.version).toBe(1);
    expect(hl.size('device')).toBe(1);
    const third = snap({devices: [device()]}, second, T0 + 1000);
    diffSnapshots(second, third, T0 + 1000, {highlights: hl});
    expect(hl.version).toBe(2);
    diffSnapshots(third, snap({devices: [device()]}, third, T0 + HIGHLIGHT_MS + 1), T0 + HIGHLIGHT_MS + 1, {highlights: hl});
    expect(hl.version).toBeGreaterThan(2);
    expect(hl.size('device')).toBe(0);
  });

  it('a prepared scan is used only when made for these rows and times', () => {
    const hs = T0 - 180_000 - 2000;
    const world = {devices: [online({latest_handshake: iso(hs)})]};
    const first = snap(world, null, T0 - 5000);
    const second = snap(world, first, T0);
    const other = snap({devices: []}, first, T0);
    const expected = diffSnapshots(first, second, T0).map((e) => e.kind);
    expect(expected).toEqual(['device.idle']);
    // Scans made for other rows or other times would say something else; each is ignored.
    const wrong = [
      new DeviceScan(first.devices, other.devices, first.fetchedAt, T0),
      new DeviceScan(other.devices, second.devices, first.fetchedAt, T0),
      new DeviceScan(first.devices, second.devices, T0 - 1000, T0),
      new DeviceScan(first.devices, second.devices, first.fetchedAt, T0 - 4000),
    ];
    for (const scan of wrong) expect(diffSnapshots(first, second, T0, {scan}).map((e) => e.kind)).toEqual(expected);
    expect(diffSnapshots(first, second, T0, {scan: new DeviceScan(first.devices, second.devices, first.fetchedAt, T0)}).map((e) => e.kind)).toEqual(expected);
  });
});

describe('pairing two polls by id, whatever the order (property)', () => {
  // A plain model: created = ids only in the new poll, deleted = ids only in the old one, renamed =
  // ids in both whose name differs. The diff pairs by position while it can and by id after.
  const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
  const poll = fc
    .uniqueArray(fc.constantFrom(...ids), {maxLength: ids.length})
    .chain((order) => fc.tuple(fc.constant(order), fc.array(fc.boolean(), {minLength: order.length, maxLength: order.length})));

  function model(prev: readonly string[], next: readonly string[], renamed: ReadonlySet<string>): string[] {
    const out: string[] = [];
    for (const id of next) {
      if (!prev.includes(id)) out.push(`created ${id}`);
      else if (renamed.has(id)) out.push(`renamed ${id}`);
    }
    for (const id of prev) if (!next.includes(id)) out.push(`deleted ${id}`);
    return out.sort();
  }

  it('devices, users and rules', () => {
    fc.assert(
      fc.property(poll, poll, ([before], [after, flips]) => {
        const renamed = new Set(after.filter((id, i) => flips[i] && before.includes(id)));
        const name = (id: string, later: boolean) => (later && renamed.has(id) ? `${id}-new` : id);
        const expected = model(before, after, renamed);
        const r = diff(
          {
            devices: before.map((id) => device({id, name: name(id, false)})),
            users: before.map((id) => user({id, email: `${name(id, false)}@example.com`})),
            rules: before.map((id) => rule({id, destination: `10.${ids.indexOf(id)}.0.0/16`, action: 'drop'})),
          },
          {
            devices: after.map((id) => device({id, name: name(id, true)})),
            users: after.map((id) => user({id, email: `${name(id, true)}@example.com`})),
            rules: after.map((id) => rule({id, destination: `10.${ids.indexOf(id)}.0.0/16`, action: renamed.has(id) ? 'accept' : 'drop'})),
          },
        );
        const of = (type: string, verbs: Record<string, string>) =>
          r.events
            .filter((e) => e.object.type === type)
            .map((e) => `${verbs[e.kind]} ${e.object.id}`)
            .sort();
        expect(of('device', {'device.created': 'created', 'device.deleted': 'deleted', 'device.renamed': 'renamed'})).toEqual(expected);
        expect(of('user', {'user.created': 'created', 'user.deleted': 'deleted', 'user.email': 'renamed'})).toEqual(expected);
        expect(of('rule', {'rule.added': 'created', 'rule.removed': 'deleted', 'rule.changed': 'renamed'})).toEqual(expected);
      }),
      {numRuns: 300},
    );
  });
});
