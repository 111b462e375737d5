// The command bar and sorting in two keys as drawn (src/ui/CommandBar.tsx, the table header).
import {describe, expect, it} from 'vitest';
import type {AppSettings} from '../../src/ui/App.js';
import {renderApp, useSandbox} from '../helpers/rig.js';

const fx = useSandbox({seed: 'demo'});
const settings: Partial<AppSettings> = {label: 'test', refreshSeconds: 0, readOnly: false, insecure: false, demo: true};

describe('navigation as drawn', () => {
  it('the command bar: the line at the bottom, its keys above it, an unknown command said in place', async () => {
    const app = await renderApp({fixture: fx, settings, ready: /1\/\d+ devices/});
    await app.press('command', 'global');
    let frame = await app.waitFor('Enter run  Tab complete');
    expect(frame.split('\n').at(-1)).toMatch(/^: *$/);
    await app.type('usres');
    await app.named('enter');
    frame = await app.waitFor('unknown command "usres" (Tab lists the commands)');
    expect(frame.split('\n').at(-1)).toMatch(/^:usres/);
    await app.named('ctrl+u');
    await app.type('us');
    await app.named('tab');
    await app.waitFor(/^:users\s*$/m);
    await app.named('enter');
    await app.waitFor('EMAIL');
  });

  it('s lists each column letter; the letter sorts', async () => {
    const app = await renderApp({fixture: fx, settings, ready: /1\/\d+ devices/});
    app.resize(200, 40);
    await app.press('sortBy', 'list');
    // The letters are listed on the info line with their titles where it holds them (the header
    // underlines them where colours are on: test/ui/table.test.tsx).
    const frame = await app.waitFor('sort by: n NAME · o OWNER · i IPV4 · h HANDSHAKE');
    expect(frame).toContain('Esc cancel');
    await app.named('n');
    await app.waitFor('NAME▲');
    // Narrower: the titles the info line cannot hold go on the line under it (where the key hints
    // were), never cut before a letter or Esc: a column the width hides has no title above to
    // read its letter in.
    for (const columns of [120, 100, 80]) {
      app.resize(columns, 40);
      await app.press('sortBy', 'list');
      const lines = (await app.waitFor(/Esc cancels/)).split('\n');
      const at = lines.findIndex((l) => l.includes('sort by:'));
      const both = `${lines[at]} ${lines[at + 1]}`;
      expect(both, both).toMatch(/Esc cancels\s*$/);
      for (const [letter, title] of [
        ['n', 'NAME'],
        ['o', 'OWNER'],
        ['i', 'IPV4'],
        ['h', 'HANDSHAKE'],
        ['c', 'CREATED'],
      ])
        expect(both, both).toContain(`${letter} ${title}`);
      await app.press('cancel', 'sortPick');
    }
  });

  it('s then 0 takes the sort away: the rules go back to the firewall order', async () => {
    const app = await renderApp({fixture: fx, settings, ready: /1\/\d+ devices/});
    app.resize(160, 40);
    await app.press('screen3');
    await app.waitFor('DESTINATION');
    await app.press('sortBy', 'list');
    await app.waitFor(/sort by: .*· 0 firewall order · Esc cancels/);
    await app.named('a');
    await app.waitFor('ACTION▲');
    await app.press('sortBy', 'list');
    await app.named('0');
    const frame = await app.waitFor(/^(?![\s\S]*ACTION▲)/);
    // The level column says it is a level, not a rule's number (many rules share one).
    expect(frame).toMatch(/LVL +ACTION/);
    // In precedence order again: the LVL column counts up from the first row.
    const ranks = frame
      .split('\n')
      .map((l) => /^\S?\s+(\d+) (ACCEPT|DROP) /.exec(l)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number);
    expect(ranks.length).toBeGreaterThan(3);
    expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
  });

  it("P on a wide terminal: the cursor row's detail beside the list, following the cursor; narrower, it says from what width", async () => {
    const devices = (await fx.api<{data: Array<{name: string; public_key: string}>}>('GET', '/v0/devices')).json.data;
    const app = await renderApp({fixture: fx, settings, ready: /1\/\d+ devices/});
    app.resize(120, 40);
    await app.press('sidePanel', 'list');
    await app.waitFor('Detail beside the list: on, shown from 160 columns (this terminal has 120)');
    app.resize(180, 40);
    // The first row's detail, its public key (a detail line) beside the list.
    let frame = await app.waitFor(devices[0]!.public_key);
    // The divider is drawn, not escaped: no "\n" shown as text anywhere.
    expect(frame).not.toContain('\\n');
    expect(frame.split('\n').filter((l) => l.charAt(Math.floor(180 * 0.55)) === '│').length).toBeGreaterThan(20);
    const line = frame.split('\n').find((l) => l.includes(devices[0]!.public_key))!;
    expect(line.indexOf(devices[0]!.public_key)).toBeGreaterThan(Math.floor(180 * 0.55));
    await app.press('down', 'list');
    frame = await app.waitFor(devices[1]!.public_key);
    expect(frame).not.toContain(devices[0]!.public_key);
    await app.press('sidePanel', 'list');
    await app.waitFor('Detail beside the list: off');
    expect(app.frame()).not.toContain(devices[1]!.public_key);
  });
});
