// A list that holds an id twice is the server's error (issue #44): the diff reports no change of
// that list and names the ids, and the tracker keeps the last list that held each id once as the
// next poll's baseline. Before, a device listed twice under one id gave "renamed to …", and then
// "deleted" for a device that still existed.
import fc from 'fast-check';
import {describe, expect, it} from 'vitest';
import {ActivityTracker} from '../../../src/state/tracking/tracker.js';
import {diffPolls} from '../../../src/state/tracking/snapshot-diff.js';
import {ID_CHARS, listedTwiceText, repeatsIn} from '../../../src/state/tracking/id-pairing.js';
import {device, rule, user} from '../../fixtures/data.js';
import {T0, ann, bob, snap, type World} from './harness.js';

const laptop = device({id: 'd-1', name: 'laptop'});
const phone = device({id: 'd-2', name: 'phone', ipv4: '10.3.2.3'});
const tablet = device({id: 'd-3', name: 'tablet', ipv4: '10.3.2.4'});

/** A tracker fed polls 5 s apart; what each observe gave. */
function track(...worlds: World[]) {
  const tracker = new ActivityTracker();
  let previous = null as ReturnType<typeof snap> | null;
  return worlds.map((world, i) => {
    const s = snap(world, previous, T0 + i * 5000);
    previous = s;
    const events = tracker.observe(s, s.fetchedAt).map((e) => `${e.kind} ${e.object.id} ${e.object.label}`);
    return {events, twice: tracker.listedTwice.map((t) => listedTwiceText(t.twice, t.baseline))};
  });
}

const DEVICES_TWICE =
  'Server error: /v0/devices lists device id "d-1" more than once: no device changes are taken from it; the next poll is compared with the last list that held each id once';

describe('a device listed twice under one id', () => {
  it('gives no event, says so, and the next whole list is compared with the last whole one', () => {
    const [baseline, twice, whole] = track(
      {devices: [laptop, phone]},
      // The server's error: a second record under the laptop's id, another name.
      {devices: [laptop, phone, {...tablet, id: 'd-1'}]},
      {devices: [laptop, phone]},
    );
    expect(baseline).toEqual({events: [], twice: []});
    expect(twice).toEqual({events: [], twice: [DEVICES_TWICE]});
    // Before: "Device laptop renamed to tablet", then "Device tablet deleted" here.
    expect(whole).toEqual({events: [], twice: []});
  });

  it('a change made while the list repeats an id is reported once, when it is whole again', () => {
    const polls = track(
      {devices: [laptop, phone]},
      {devices: [laptop, {...phone, name: 'phone-2'}, {...laptop, name: 'copy'}]},
      {devices: [laptop, {...phone, name: 'phone-2'}, {...laptop, name: 'copy'}, tablet]},
      {devices: [laptop, {...phone, name: 'phone-2'}, tablet]},
      {devices: [laptop, {...phone, name: 'phone-2'}, tablet]},
    );
    expect(polls.map((p) => p.events)).toEqual([[], [], [], ['device.renamed d-2 phone-2', 'device.created d-3 tablet'], []]);
    expect(polls.map((p) => p.twice.length)).toEqual([0, 1, 1, 0, 0]);
  });

  it('the same record listed twice (not only two records under one id) is said too, wherever it is', () => {
    for (const devices of [
      [laptop, laptop, phone],
      [phone, laptop, laptop],
      [laptop, phone, tablet, phone],
      [tablet, tablet],
    ]) {
      const [, twice] = track({devices: [laptop, phone]}, {devices});
      expect(twice!.events).toEqual([]);
      expect(twice!.twice).toHaveLength(1);
    }
  });

  it('a first poll that repeats an id has no baseline for that list: the next whole list becomes it, and the one after is compared', () => {
    const polls = track({devices: [laptop, laptop], users: [ann]}, {devices: [laptop, phone], users: [ann, bob]}, {devices: [phone], users: [ann, bob]});
    expect(polls[0]!.twice).toEqual([
      'Server error: /v0/devices lists device id "d-1" more than once: no device changes are taken from it; the first list that holds each id once becomes the baseline',
    ]);
    // Users had a baseline: bob's creation is reported; devices take theirs now.
    expect(polls[1]).toEqual({events: ['user.created u-2 bob@example.com'], twice: []});
    expect(polls[2]).toEqual({events: ['device.deleted d-1 laptop'], twice: []});
  });
});

describe('users and rules listed twice', () => {
  it('a user list that repeats an id gives no user event, and the devices are still compared', () => {
    const [, twice, whole] = track(
      {devices: [laptop], users: [ann, bob]},
      {devices: [laptop, phone], users: [ann, {...bob, id: 'u-1'}]},
      {devices: [laptop, phone], users: [ann, bob]},
    );
    expect(twice).toEqual({
      events: ['device.created d-2 phone'],
      twice: [
        'Server error: /v0/users lists user id "u-1" more than once: no user changes are taken from it; the next poll is compared with the last list that held each id once',
      ],
    });
    expect(whole).toEqual({events: [], twice: []});
  });

  it('rules too', () => {
    const r1 = rule({id: 'r-1'});
    const r2 = rule({id: 'r-2', destination: '10.9.0.0/16'});
    const [, twice, whole] = track({rules: [r1]}, {rules: [r1, {...r2, id: 'r-1'}]}, {rules: [r1, r2]});
    expect(twice!.events).toEqual([]);
    expect(twice!.twice[0]).toMatch(/^Server error: \/v0\/rules lists rule id "r-1" more than once: no rule changes/);
    expect(whole!.events).toEqual(['rule.added r-2 DROP 10.9.0.0/16 all ports']);
  });
});

describe('what is said', () => {
  it('names at most three ids, each cut to ID_CHARS characters, and counts them all', () => {
    const long = 'x'.repeat(200);
    const twice = repeatsIn(
      'devices',
      ['a', 'b', 'c', 'd', long, 'a', 'b', 'c', 'd', long].map((id) => ({id})),
    );
    expect(twice).toEqual({list: 'devices', ids: ['a', 'b', 'c'], count: 5});
    expect(listedTwiceText(twice!, true)).toBe(
      'Server error: /v0/devices lists 5 device ids ("a", "b", "c", …) more than once: no device changes are taken from it; the next poll is compared with the last list that held each id once',
    );
    const cut = repeatsIn('users', [{id: long}, {id: long}])!;
    expect(cut.ids).toEqual([`${'x'.repeat(ID_CHARS - 1)}…`]);
    const fits = 'y'.repeat(ID_CHARS);
    expect(repeatsIn('users', [{id: fits}, {id: fits}])!.ids).toEqual([fits]);
    // Every id named: no "…".
    expect(listedTwiceText(repeatsIn('rules', [{id: 'a'}, {id: 'b'}, {id: 'a'}, {id: 'b'}])!, false)).toBe(
      'Server error: /v0/rules lists 2 rule ids ("a", "b") more than once: no rule changes are taken from it; the first list that holds each id once becomes the baseline',
    );
    expect(repeatsIn('rules', [{id: 'a'}, {id: 'b'}])).toBeNull();
  });
});

describe('the diff of any two polls, ids repeated or not (property)', () => {
  const ids = ['a', 'b', 'c', 'd', 'e'];
  const before = fc.uniqueArray(fc.constantFrom(...ids), {maxLength: ids.length});
  // Any order, any repeats; a flag per item renames it.
  const after = fc.array(fc.tuple(fc.constantFrom(...ids), fc.boolean()), {maxLength: 8});

  /** The repeated ids, counted by hand. */
  const repeated = (list: ReadonlyArray<readonly [string, boolean]>) => {
    const counts = new Map<string, number>();
    for (const [id] of list) counts.set(id, (counts.get(id) ?? 0) + 1);
    return [...counts].filter(([, n]) => n > 1).map(([id]) => id);
  };

  it('a list that repeats an id gives no event of its kind and names every repeated id; a list that does not gives its changes', () => {
    fc.assert(
      fc.property(before, after, after, after, (prev, nextDevices, nextUsers, nextRules) => {
        const first = snap(
          {
            devices: prev.map((id) => device({id, name: id})),
            users: prev.map((id) => user({id, email: `${id}@example.com`})),
            rules: prev.map((id) => rule({id, destination: `10.${ids.indexOf(id)}.0.0/16`})),
          },
          null,
          T0 - 5000,
        );
        const second = snap(
          {
            devices: nextDevices.map(([id, renamed]) => device({id, name: renamed ? `${id}-new` : id})),
            users: nextUsers.map(([id, renamed]) => user({id, email: `${renamed ? `${id}-new` : id}@example.com`})),
            rules: nextRules.map(([id, renamed]) => rule({id, destination: `10.${ids.indexOf(id)}.0.0/16`, action: renamed ? 'accept' : 'drop'})),
          },
          first,
          T0,
        );
        const {events, listedTwice} = diffPolls(first, second, T0);
        for (const [type, list, next] of [
          ['device', 'devices', nextDevices],
          ['user', 'users', nextUsers],
          ['rule', 'rules', nextRules],
        ] as const) {
          const twice = repeated(next);
          const found = listedTwice.find((l) => l.list === list);
          const of = events.filter((e) => e.object.type === type);
          if (twice.length > 0) {
            expect(of).toEqual([]);
            expect(found?.count).toBe(twice.length);
            for (const id of found!.ids) expect(twice).toContain(id);
          } else {
            expect(found).toBeUndefined();
            // Whole: created, deleted and renamed as a plain model says.
            const nextIds = next.map(([id]) => id);
            const expected = [
              ...next.filter(([id]) => !prev.includes(id)).map(([id]) => `new ${id}`),
              ...next.filter(([id, renamed]) => prev.includes(id) && renamed).map(([id]) => `changed ${id}`),
              ...prev.filter((id) => !nextIds.includes(id)).map((id) => `gone ${id}`),
            ].sort();
            const verb = (kind: string) => (/created|added/.test(kind) ? 'new' : /deleted|removed/.test(kind) ? 'gone' : 'changed');
            expect(of.map((e) => `${verb(e.kind)} ${e.object.id}`).sort()).toEqual(expected);
          }
        }
      }),
      {numRuns: 400},
    );
  });
});
