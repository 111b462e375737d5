// The mouse below the UI: the hit-tests as pure functions of what was drawn (src/state/input/mouse-hit.ts),
// and what a click, a double-click and the wheel do once the decoder has read them
// (src/state/input/mouse.ts), through the real decoder and router, with the geometry the UI would
// report given by hand. test/ui/mouse.test.tsx clicks where the real frame drew things.
import {afterEach, describe, expect, it, vi} from 'vitest';
import {topModal} from '../../src/state/core/state.js';
import type {DrawnEntries, DrawnForm, DrawnTab, DrawnTable} from '../../src/state/core/drawn.js';
import {InputDecoder} from '../../src/state/input/decoder.js';
import {DOUBLE_CLICK_MS, entryAt, fieldAt, isDoubleClick, rowAt, tabAt} from '../../src/state/input/mouse-hit.js';
import {InputRouter} from '../../src/ui/keys.js';
import {open, seeded, until} from '../helpers/fake-console.js';

const TABS: DrawnTab[] = [
  {screen: 'devices', from: 0, to: 13},
  {screen: 'users', from: 13, to: 22},
  {screen: 'rules', from: 22, to: 31},
  {screen: 'configuration', from: 31, to: 48},
  {screen: 'activity', from: 48, to: 60},
];

describe('hit-testing (pure)', () => {
  it('tabAt: the tab whose cells hold the column, on the tabs line only', () => {
    expect(tabAt(TABS, 0, 1)).toBe('devices');
    expect(tabAt(TABS, 12, 1)).toBe('devices');
    expect(tabAt(TABS, 13, 1)).toBe('users');
    expect(tabAt(TABS, 59, 1)).toBe('activity');
    // Right of the last tab (the traffic totals), the header line, the body, nonsense cells.
    expect(tabAt(TABS, 60, 1)).toBeNull();
    expect(tabAt(TABS, 5, 0)).toBeNull();
    expect(tabAt(TABS, 5, 2)).toBeNull();
    expect(tabAt(TABS, -1, 1)).toBeNull();
    expect(tabAt(TABS, 1.5, 1)).toBeNull();
    expect(tabAt([], 0, 1)).toBeNull();
  });

  it('rowAt: the list position under the cell, from the first row drawn and the scroll offset', () => {
    const table: DrawnTable = {screen: 'devices', firstRow: 3, rows: 4, left: 0, width: 66, top: 10};
    expect(rowAt(table, 0, 3)).toBe(10);
    expect(rowAt(table, 65, 6)).toBe(13);
    // The header line above the rows, the line below the last row drawn, beside the table (the side panel).
    expect(rowAt(table, 5, 2)).toBeNull();
    expect(rowAt(table, 5, 7)).toBeNull();
    expect(rowAt(table, 66, 4)).toBeNull();
    expect(rowAt({...table, left: 10}, 9, 4)).toBeNull();
    expect(rowAt({...table, rows: 0}, 5, 3)).toBeNull();
    expect(rowAt(null, 5, 3)).toBeNull();
    expect(rowAt(table, 5, Number.NaN)).toBeNull();
  });

  it('entryAt: the entry drawn on the row (any of its wrapped lines), whatever the column', () => {
    const entries: DrawnEntries = {
      owner: 'configuration',
      rows: [
        {row: 2, entry: 'defaults'},
        {row: 9, entry: 'security'},
        {row: 12, entry: 'oidc:okta'},
        {row: 13, entry: 'oidc:okta'},
      ],
    };
    expect(entryAt(entries, 0, 2)).toBe('defaults');
    expect(entryAt(entries, 90, 9)).toBe('security');
    expect(entryAt(entries, 4, 13)).toBe('oidc:okta');
    expect(entryAt(entries, 4, 3)).toBeNull();
    expect(entryAt(entries, -1, 2)).toBeNull();
    expect(entryAt(entries, 1, 2.5)).toBeNull();
    expect(entryAt(null, 0, 2)).toBeNull();
  });

  it('fieldAt: the field a drawn row belongs to (its line, its errors, its help)', () => {
    const form: DrawnForm = {
      modal: 7,
      rows: [
        {row: 3, field: 0},
        {row: 4, field: 1},
        {row: 5, field: 1},
        {row: 6, field: 2},
      ],
    };
    expect(fieldAt(form, 0, 3)).toBe(0);
    expect(fieldAt(form, 70, 5)).toBe(1);
    expect(fieldAt(form, 2, 6)).toBe(2);
    expect(fieldAt(form, 2, 2)).toBeNull();
    expect(fieldAt(form, 2, 7)).toBeNull();
    expect(fieldAt(null, 2, 3)).toBeNull();
    expect(fieldAt(form, -3, 3)).toBeNull();
  });

  it('isDoubleClick: a second press on the same cell within 400 ms', () => {
    const first = {col: 5, row: 9, at: 1000};
    expect(DOUBLE_CLICK_MS).toBe(400);
    expect(isDoubleClick(null, first)).toBe(false);
    expect(isDoubleClick(first, {col: 5, row: 9, at: 1000})).toBe(true);
    expect(isDoubleClick(first, {col: 5, row: 9, at: 1400})).toBe(true);
    expect(isDoubleClick(first, {col: 5, row: 9, at: 1401})).toBe(false);
    expect(isDoubleClick(first, {col: 6, row: 9, at: 1100})).toBe(false);
    expect(isDoubleClick(first, {col: 5, row: 10, at: 1100})).toBe(false);
    // A clock that went back is no double-click.
    expect(isDoubleClick(first, {col: 5, row: 9, at: 900})).toBe(false);
  });
});

afterEach(() => {
  vi.useRealTimers();
});

const sgr = (b: number, col: number, row: number, final: 'M' | 'm' = 'M') => `\x1b[<${b};${col + 1};${row + 1}${final}`;
const click = (col: number, row: number) => sgr(0, col, row) + sgr(0, col, row, 'm');

/** A console whose reads go through the decoder and router, with a clock of the test's. */
async function console3(settings: {readOnly?: boolean; mouse?: boolean} = {}) {
  const server = seeded();
  const opened = await open(server, settings);
  const decoder = new InputDecoder();
  const router = new InputRouter(opened.c);
  let reads = 0;
  const read = (bytes: string) => router.handle(decoder.feed(bytes), ++reads);
  // A double-click is timed with the clock (Date only is faked: the console's timers run as usual).
  vi.useFakeTimers({toFake: ['Date']});
  vi.setSystemTime(10_000);
  const later = (ms: number) => vi.setSystemTime(Date.now() + ms);
  // What the UI would report at 100 columns: the tabs, and the devices' table under its header at row 3.
  opened.c.measuredTabs(TABS);
  const table = (top = 0) => {
    opened.c.measuredTable({screen: 'devices', firstRow: 3, left: 0, width: 100, capacity: 20, total: 3});
    opened.c.measuredTableTop('devices', top);
  };
  table();
  return {...opened, server, read, later, table};
}

describe('what the mouse does', () => {
  it('a click on a tab goes to that screen, as its number key', async () => {
    const {c, read} = await console3();
    read(click(15, 1));
    expect(c.state.screen).toBe('users');
    read(click(50, 1));
    expect(c.state.screen).toBe('activity');
    // Off the tabs (their line's right end, the header): nothing.
    read(click(70, 1) + click(3, 0));
    expect(c.state.screen).toBe('activity');
  });

  it('a click on a row puts the cursor there; a double-click opens it, as Enter; the wheel is ↓/↑ three times', async () => {
    const {c, read, later} = await console3();
    const shown = () => c.activeList()!.selection;
    expect(shown().id).toBe('d-1');
    read(click(20, 5));
    expect(shown()).toEqual({id: 'd-3', index: 2});
    // The header line, and under the last row: nothing moves.
    read(click(20, 2));
    later(1000);
    read(click(20, 9));
    expect(shown().index).toBe(2);
    // Two presses on the same cell, 300 ms apart: the second opens the row under the cursor.
    later(1000);
    read(click(10, 4));
    expect(shown().id).toBe('d-2');
    expect(c.state.lists.devices.detailId).toBeNull();
    later(300);
    read(click(10, 4));
    expect(c.state.lists.devices.detailId).toBe('d-2');
    // In the detail a click on the rows drawn before does nothing; the wheel scrolls it.
    read(click(10, 3));
    expect(c.state.lists.devices.detailId).toBe('d-2');
    read(sgr(65, 10, 10));
    expect(c.state.lists.devices.detailScroll).toBe(3);
    read(sgr(64, 10, 10));
    expect(c.state.lists.devices.detailScroll).toBe(0);
  });

  it("on the Configuration and in a user's detail a click puts the cursor on the entry drawn there; a double-click acts as Enter", async () => {
    const {c, read, later} = await console3();
    read(click(40, 1));
    expect(c.state.screen).toBe('configuration');
    // What the Configuration would report: its entries' rows.
    c.measuredEntries({
      owner: 'configuration',
      rows: [
        {row: 2, entry: 'defaults'},
        {row: 12, entry: 'security'},
      ],
    });
    read(click(5, 12));
    expect(c.state.configuration.entry).toBe('security');
    // A row with no entry, and another screen's entries: nothing moves.
    later(1000);
    read(click(5, 7));
    c.measuredEntries({owner: 'users', rows: [{row: 2, entry: 'device:d-1'}]});
    read(click(5, 2));
    expect(c.state.configuration.entry).toBe('security');
    expect(c.state.modals).toEqual([]);
    c.measuredEntries({owner: 'configuration', rows: [{row: 2, entry: 'defaults'}]});
    later(1000);
    read(click(5, 2));
    later(200);
    read(click(5, 2));
    expect(c.state.configuration.entry).toBe('defaults');
    expect(topModal(c.state)).toMatchObject({kind: 'form', title: 'Client defaults'});
    read('\x1b');
    // A user's detail: its device lines.
    read(click(15, 1));
    read('\r');
    const user = c.state.lists.users.detailId;
    expect(user).not.toBeNull();
    c.measuredEntries({
      owner: 'users',
      rows: [
        {row: 14, entry: 'device:d-2'},
        {row: 15, entry: 'device:d-1'},
      ],
    });
    later(1000);
    read(click(3, 15));
    expect(c.state.lists.users.detailEntry).toBe('device:d-1');
    read(click(3, 14));
    expect(c.state.lists.users.detailEntry).toBe('device:d-2');
    later(100);
    read(click(3, 14));
    expect(c.state.screen).toBe('devices');
    expect(c.state.lists.devices.detailId).toBe('d-2');
  });

  it('two clicks too far apart in time, or on two cells, are two clicks', async () => {
    const {c, read, later} = await console3();
    read(click(10, 4));
    later(DOUBLE_CLICK_MS + 1);
    read(click(10, 4));
    expect(c.state.lists.devices.detailId).toBeNull();
    later(100);
    read(click(11, 4));
    expect(c.state.lists.devices.detailId).toBeNull();
    // A key, the wheel or another button between the two presses: two clicks.
    for (const between of ['j', sgr(65, 0, 0), sgr(2, 11, 4)]) {
      later(1000);
      read(click(11, 4));
      later(50);
      read(between);
      later(50);
      read(click(11, 4));
      expect([JSON.stringify(between), c.state.lists.devices.detailId]).toEqual([JSON.stringify(between), null]);
    }
    // A third press after a double-click is a click again.
    later(1000);
    read(click(11, 3));
    later(100);
    read(click(11, 3));
    expect(c.state.lists.devices.detailId).toBe('d-1');
  });

  it('the row clicked is the one drawn there: the table scrolled by 1 shows d-2 on its first row', async () => {
    const {c, read, table} = await console3();
    table(1);
    read(click(0, 3));
    expect(c.activeList()!.selection.id).toBe('d-2');
    // Another list's table is not this one's.
    c.measuredTableTop('users', 0);
    read(click(0, 4));
    expect(c.activeList()!.selection.id).toBe('d-2');
  });

  it('the wheel moves the list three rows a notch, and scrolls the help', async () => {
    const {c, read, press} = await console3();
    read(sgr(65, 0, 10));
    expect(c.activeList()!.selection.index).toBe(2);
    read(sgr(64, 0, 10));
    expect(c.activeList()!.selection.index).toBe(0);
    press('?');
    c.measuredHelp(50);
    read(sgr(65, 0, 10) + sgr(65, 0, 10));
    expect(c.state.help.scroll).toBe(6);
    // A tab click over the help goes to the screen (and closes the help), as the number key.
    read(click(24, 1));
    expect(c.state.help.open).toBe(false);
    expect(c.state.screen).toBe('rules');
  });

  it('clicks never answer a dialog, never reach the list under a modal, and never type into a filter', async () => {
    const {c, read, server, press, later} = await console3();
    press('d');
    expect(topModal(c.state)).toMatchObject({kind: 'dialog'});
    read(click(10, 4));
    later(100);
    read(click(10, 4) + sgr(65, 1, 1) + click(15, 1));
    expect(topModal(c.state)).toMatchObject({kind: 'dialog'});
    expect(c.state.screen).toBe('devices');
    expect(c.activeList()!.selection.id).toBe('d-1');
    press('n');
    await until(() => topModal(c.state) === null, 'the dialog to close');
    expect(server.calls).toEqual([]);
    // While a filter is typed, a tab's number would be text: the tab click does nothing.
    press('/');
    read(click(15, 1));
    expect(c.state.screen).toBe('devices');
    expect(c.state.lists.devices.filter).toBe('');
  });

  it('a click in a form focuses the field drawn on that row; not a disabled one, nor while it saves', async () => {
    const {c, read, press} = await console3();
    press('e');
    const form = () => {
      const m = topModal(c.state);
      if (m?.kind !== 'form') throw new Error('no form');
      return m;
    };
    expect(form().form.focus).toBe(0);
    // As FormView would report: the title on row 2, a field a row from row 3 on, field 1 with two error lines.
    const rows = form().form.specs.map((_, i) => ({row: 3 + i, field: i}));
    c.measuredForm({modal: form().key, rows});
    read(click(40, 4));
    expect(form().form.focus).toBe(1);
    read(click(0, 3));
    expect(form().form.focus).toBe(0);
    // The rows of another form (one closed before) are not this one's.
    c.measuredForm({modal: (form().key ?? 0) + 100, rows});
    read(click(0, 4));
    expect(form().form.focus).toBe(0);
    c.measuredForm({modal: form().key, rows});
    // The wheel does not move between fields (↓ would).
    read(sgr(65, 0, 4));
    expect(form().form.focus).toBe(0);
    // While it saves, a click does nothing (keys wait too).
    c.set((s) => ({...s, modals: s.modals.map((m) => (m.kind === 'form' ? {...m, form: {...m.form, submitting: true}} : m))}));
    read(click(0, 4));
    expect(form().form.focus).toBe(0);
  });

  it('read-only: a click and a double-click only move and open; nothing is written', async () => {
    const {c, read, server, later} = await console3({readOnly: true});
    read(click(3, 5));
    later(50);
    read(click(3, 5));
    expect(c.state.lists.devices.detailId).toBe('d-3');
    expect(server.calls).toEqual([]);
    expect(c.state.message).toBeNull();
  });

  it('--no-mouse (settings.mouse false): a mouse report that arrives anyway does nothing', async () => {
    const {c, read} = await console3({mouse: false});
    read(click(15, 1) + click(3, 5) + sgr(65, 3, 5));
    expect(c.state.screen).toBe('devices');
    expect(c.activeList()!.selection.id).toBe('d-1');
  });

  it('"terminal too small" takes no click', async () => {
    const {c, read} = await console3();
    c.setViewport(60, 20);
    read(click(15, 1) + click(3, 5));
    expect(c.state.screen).toBe('devices');
    expect(c.activeList()!.selection.id).toBe('d-1');
  });

  it('a y that comes with a click is not a key typed alone: it answers no question', async () => {
    const {c, read, server} = await console3();
    read('d');
    read(`${click(90, 20)}y`);
    expect(topModal(c.state)).toMatchObject({kind: 'dialog'});
    expect(server.calls).toEqual([]);
  });
});
