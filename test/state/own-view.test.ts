// A list's own view and its info-line summary are its spec's (src/state/screens/display.ts:
// `ownView`, `summary`): the list model and the info line read them for any screen, none by name.
// Shown here with a view the Rules screen does not have (its drop rules), and with the Devices
// list's stale view as the console turns it on and off. Expected texts are written out.
import {describe, expect, it} from 'vitest';
import type {ConsoleState} from '../../src/state/core/state.js';
import {buildSnapshot} from '../../src/state/data/snapshot.js';
import {ScreenLists} from '../../src/state/lists/screen-lists.js';
import {initialListState} from '../../src/state/lists/view-state.js';
import type {Rule} from '../../src/api/index.js';
import {SCREEN_SPECS} from '../../src/state/screens/index.js';
import type {ScreenDisplay} from '../../src/state/screens/display.js';
import {ActivityTracker} from '../../src/state/tracking/tracker.js';
import {listInfo} from '../../src/ui/views/ListScreen.js';
import {device, iso, rule, user} from '../fixtures/data.js';
import {open, seeded} from '../helpers/fake-console.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

const snapshot = buildSnapshot(
  {
    devices: [device({id: 'd-1', user_id: 'u-1'})],
    users: [user({id: 'u-1'})],
    rules: [
      rule({id: 'r-1', action: 'accept', destination: '10.1.0.0/16'}),
      rule({id: 'r-2', action: 'drop', destination: '10.2.0.0/16'}),
      rule({id: 'r-3', action: 'drop', destination: '10.3.0.0/16'}),
    ],
    configuration: null,
    issues: [],
  },
  null,
  T0,
);

/** Rules with a view of their drop rules, newest destination first, and a summary of their own. */
const rules: ScreenDisplay<Rule> = {
  ...SCREEN_SPECS.rules,
  summary: (s) => `${s.rules.length} in all`,
  ownView: {
    items: (s) => s.rules.filter((r) => r.action === 'drop').reverse(),
    noun: (settings) => `drop rules (of ${settings.staleDays} days)`,
    entered: () => 'Drop rules',
    left: 'All rules',
  },
};

function state(ownView: boolean): ConsoleState {
  return {
    snapshot,
    clock: T0,
    lists: {
      devices: initialListState(null),
      users: initialListState(null),
      rules: {...initialListState({key: 'destination', desc: false}), ownView},
      activity: initialListState(null),
    },
  } as unknown as ConsoleState;
}

describe("a list's own view", () => {
  const lists = new ScreenLists({...SCREEN_SPECS, rules: rules as ScreenDisplay<unknown>}, new ActivityTracker(), () => T0, {staleDays: 9});

  it('off: all the items, and the summary after the counts', () => {
    const list = lists.list('rules', state(false))!;
    expect(list.view.rows.map((r) => (r as Rule).id)).toEqual(['r-1', 'r-2', 'r-3']);
    expect(listInfo(list, snapshot, 120, 0, {staleDays: 9})).toBe('1/3 rules · 3 in all');
  });

  it('on: its items, named by it, without the summary', () => {
    const list = lists.list('rules', state(true))!;
    expect(list.total).toBe(2);
    expect(listInfo(list, snapshot, 120, 0, {staleDays: 9})).toBe('1/2 drop rules (of 9 days)');
  });
});

describe('the Devices list’s stale view', () => {
  it('S turns it on and off, the sort put back and the filter cleared; :devices NAME leaves it to open the device', async () => {
    const server = seeded();
    server.devices = [
      device({id: 'd-1', user_id: 'u-1', name: 'ann-laptop', latest_handshake: iso(Date.now() - 10_000)}),
      device({id: 'd-2', user_id: 'u-1', name: 'ann-old', latest_handshake: iso(Date.now() - 90 * 86_400_000)}),
    ];
    const {c, press, type, message} = await open(server, {staleDays: 30});
    press('>');
    const sort = c.state.lists.devices.sort;
    press('/');
    type('ann');
    press('enter', 'S');
    expect(c.state.lists.devices).toMatchObject({ownView: true, sort: null, filter: '', sortBeforeOwnView: sort});
    expect(c.activeList()!.view.rows.map((r) => (r as {id: string}).id)).toEqual(['d-2']);
    expect(message()).toBe('Stale devices: no handshake for 30 days (--stale-days), or never connected and created before that; oldest first; S shows all');
    // The same rows while the snapshot and the minute are the same: the list view is not made again.
    expect(c.list('devices')!.view).toBe(c.list('devices')!.view);
    press('S');
    expect(c.state.lists.devices).toMatchObject({ownView: false, sort, filter: ''});
    expect(message()).toBe('All devices');
    press('S', ':');
    type('devices ann-laptop');
    press('enter');
    expect(c.state.lists.devices).toMatchObject({ownView: false, sort, detailId: 'd-1'});
  });
});
