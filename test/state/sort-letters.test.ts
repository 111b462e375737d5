// Sorting in two keys (src/state/lists/sort-letters.ts): `s`, then a column's letter.
import {describe, expect, it} from 'vitest';
import {sortLetters, sortPickLines} from '../../src/state/lists/sort-letters.js';
import {headerText} from '../../src/ui/table/layout.js';
import {fitColumns} from '../../src/ui/table/Table.js';
import {open, seeded} from '../helpers/fake-console.js';

const col = (key: string, header: string, sortable = true) => ({key, header, ...(sortable ? {sortValue: () => 0} : {})});

describe('sortLetters', () => {
  it('the first letter of each title that no column before took; unsortable columns get none; no letter left: a digit', () => {
    const letters = sortLetters([
      col('state', ' ', false),
      col('name', 'NAME'),
      col('owner', 'OWNER'),
      col('ipv4', 'IPV4'),
      col('handshake', 'HANDSHAKE'),
      col('rx', 'RX'),
      col('tx', 'TX'),
      col('rxRate', 'RX/S'),
      col('txRate', 'TX/S'),
      col('x', 'X/'),
    ]);
    expect(Object.fromEntries([...letters].map(([k, v]) => [k, `${v.letter}@${v.at}`]))).toEqual({
      name: 'n@0',
      owner: 'o@0',
      ipv4: 'i@0',
      handshake: 'h@0',
      rx: 'r@0',
      tx: 't@0',
      rxRate: 'x@1',
      txRate: 's@3',
      x: '1@-1',
    });
  });

  it('the header marks the letters where the title shows them, right-aligned titles too', () => {
    const columns = [
      {key: 'name', header: 'NAME', width: 8, priority: 1, cell: () => '', sortValue: () => 0},
      {key: 'rx', header: 'RX/S', width: 8, priority: 1, align: 'right' as const, cell: () => '', sortValue: () => 0},
    ];
    const fitted = fitColumns(columns, 40);
    const marks: number[] = [];
    const line = headerText(fitted, null, sortLetters([col('name', 'NAME'), col('rx', 'RX/S')]), marks);
    expect(marks.map((m) => line[m])).toEqual(['N', 'R']);
    const again: number[] = [];
    // A letter further into a right-aligned title (RX/S's S).
    const line2 = headerText(
      fitted,
      null,
      new Map([
        ['name', {at: 0}],
        ['rx', {at: 3}],
      ]),
      again,
    );
    expect(again.map((m) => line2[m])).toEqual(['N', 'S']);
  });
});

describe('s, then a letter', () => {
  it('sorts by that column in its default direction; the same letter again reverses; Esc keeps the sort', async () => {
    const {c, press, message} = await open(seeded());
    press('s');
    expect(c.state.lists.devices.sortPicking).toBe(true);
    press('n');
    expect(c.state.lists.devices).toMatchObject({sortPicking: false, sort: {key: 'name', desc: false}});
    expect(c.activeList()!.view.rows.map((r) => (r as {name: string}).name)).toEqual(['ann-laptop', 'ann-phone', 'bob-desktop']);
    press('s', 'n');
    expect(c.state.lists.devices.sort).toEqual({key: 'name', desc: true});
    // Traffic starts with the most.
    press('s', 'r');
    expect(c.state.lists.devices.sort).toEqual({key: 'rx', desc: true});
    press('s', 'z');
    expect(c.state.lists.devices.sortPicking).toBe(true);
    expect(message()).toMatch(/^No column has the letter z here: press one of n o i h r t x s/);
    // Letters are the sort's now, not commands: d does not delete.
    press('d');
    expect(c.state.modals).toEqual([]);
    press('esc');
    expect(c.state.lists.devices).toMatchObject({sortPicking: false, sort: {key: 'rx', desc: true}});
  });

  it('the prompt: every title on one line where it fits, else the rest on the hints line, else the letters alone; never cut', async () => {
    const {c, press} = await open(seeded());
    press('s');
    const list = c.activeList()!;
    const wide = sortPickLines(list);
    expect(wide.hints).toBeNull();
    expect(wide.info).toMatch(/^sort by: n NAME · o OWNER · i IPV4 · h HANDSHAKE · .* · 0 \S.* · Esc cancels$/);
    const titles = wide.info.slice('sort by: '.length).split(' · ').slice(0, -2);
    for (const width of [wide.info.length, 100, 80]) {
      const {info, hints} = sortPickLines(list, width);
      expect([...info].length, `${width}: ${info}`).toBeLessThanOrEqual(width);
      if (hints !== null) expect([...hints].length, `${width}: ${hints}`).toBeLessThanOrEqual(width);
      const both = `${info}  ${hints ?? ''}`;
      for (const title of titles) expect(both, `${width}`).toContain(title);
      expect(both).toMatch(/Esc cancels\s*$/);
    }
    expect(sortPickLines(list, 80).hints).not.toBeNull();
    // Too narrow for the titles on two lines: the letters alone, on one.
    const narrow = sortPickLines(list, 60);
    expect(narrow.hints).toBeNull();
    expect(narrow.info).toMatch(/^sort by: n o i h /);
  });

  it('works on every list screen', async () => {
    const {c, press} = await open(seeded());
    press('2', 's', 'e');
    expect(c.state.lists.users.sort?.key).toBe('email');
    press('3', 's', 'd');
    expect(c.state.lists.rules.sort?.key).toBe('destination');
  });
});
