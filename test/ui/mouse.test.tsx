// The mouse against what the real frame drew (src/ui/App.tsx with ink-testing-library): each click
// is aimed at a cell found in the frame's text (a tab's title, a device's name, a form label), so
// the geometry the UI reports (Tabs, ListScreen's table, FormView) is held to what it drew.
import {describe, expect, it} from 'vitest';
import type {AppSettings} from '../../src/ui/App.js';
import {renderApp, useSandbox, type Rig} from '../helpers/rig.js';

const fx = useSandbox({seed: 'demo'});
const settings: Partial<AppSettings> = {label: 'test', refreshSeconds: 0, readOnly: false, insecure: false, demo: true};

const sgr = (b: number, col: number, row: number, final: 'M' | 'm' = 'M') => `\x1b[<${b};${col + 1};${row + 1}${final}`;

/** The cell where `text` is drawn in the frame (its first character), from the top left. */
function cellOf(frame: string, text: string | RegExp): {col: number; row: number} {
  const lines = frame.split('\n');
  for (let row = 0; row < lines.length; row++) {
    const m = typeof text === 'string' ? lines[row]!.indexOf(text) : (text.exec(lines[row]!)?.index ?? -1);
    if (m >= 0) return {col: m, row};
  }
  throw new Error(`${String(text)} is not drawn:\n${frame}`);
}

async function click(app: Rig, at: {col: number; row: number}): Promise<void> {
  await app.keys(sgr(0, at.col, at.row) + sgr(0, at.col, at.row, 'm'));
}

/** The device name on a table line (after the mark and the state glyph). */
const nameOn = (line: string) => line.trim().split(/\s+/)[1]!;

const position = (frame: string) => /(\d+)\/(\d+) devices/.exec(frame)?.slice(1).map(Number) ?? [];

describe('the mouse on what was drawn', () => {
  it('a click on a tab switches screens; on a row moves the cursor there; a double-click opens it; the wheel moves the list', async () => {
    const app = await renderApp({fixture: fx, settings, ready: /1\/\d+ devices/});
    let frame = app.frame();
    const total = position(frame)[1]!;
    // The tabs, by their titles on the second line.
    await click(app, cellOf(frame, '2 Users'));
    frame = await app.waitFor(/1\/\d+ users/);
    expect(frame).toContain('EMAIL');
    await click(app, cellOf(frame, '1 Devices'));
    frame = await app.waitFor(/1\/\d+ devices/);
    // The fourth row drawn, by the name in it: the cursor goes there.
    const lines = frame.split('\n');
    const header = cellOf(frame, 'NAME').row;
    const name = nameOn(lines[header + 4]!);
    await click(app, {col: 30, row: header + 4});
    frame = await app.waitFor(`4/${total} devices`);
    // Its line is the one drawn inverse now (the cursor bar): the same name.
    expect(frame.split('\n')[header + 4]).toContain(name);
    // The header line is no row.
    await click(app, {col: 30, row: header});
    await app.keys(sgr(0, 1, 1, 'm'));
    expect(position(app.frame())[0]).toBe(4);
    // The wheel: three rows a notch, down then up.
    await app.keys(sgr(65, 30, header + 2));
    await app.waitFor(`7/${total} devices`);
    await app.keys(sgr(64, 30, header + 2), sgr(64, 30, header + 2));
    await app.waitFor(`1/${total} devices`);
    // A double-click on a row opens that row's detail, as Enter.
    frame = app.frame();
    const second = nameOn(frame.split('\n')[header + 2]!);
    // Both clicks in one write, as a terminal sends a quick double-click.
    await app.keys(sgr(0, 5, header + 2) + sgr(0, 5, header + 2, 'm') + sgr(0, 5, header + 2) + sgr(0, 5, header + 2, 'm'));
    frame = await app.waitFor('Device ›');
    expect(frame).toContain(`Device › ${second}`);
    await app.unmount();
  });

  it('a row deep in a scrolled list: the click lands on the row drawn under it', async () => {
    const app = await renderApp({fixture: fx, settings, ready: /1\/\d+ devices/});
    const total = position(app.frame())[1]!;
    // To the end: the table's window scrolls, so the first row drawn is not the list's first.
    await app.press('end', 'list');
    let frame = await app.waitFor(`${total}/${total} devices`);
    const header = cellOf(frame, 'NAME').row;
    const lines = frame.split('\n');
    const name = nameOn(lines[header + 1]!);
    await click(app, {col: 10, row: header + 1});
    frame = await app.waitFor(new RegExp(`\\d+/${total} devices`));
    await app.press('open', 'list');
    frame = await app.waitFor('Device ›');
    expect(frame).toContain(`Device › ${name}`);
    await app.unmount();
  });

  it('a click on a form field focuses it; on the title above the fields, nothing', async () => {
    const app = await renderApp({fixture: fx, settings, ready: /1\/\d+ devices/});
    await app.press('edit', 'list');
    let frame = await app.waitFor('Ctrl-S save');
    expect(frame).toMatch(/^› Name /m);
    await click(app, cellOf(frame, 'Edit device'));
    await click(app, {col: 60, row: cellOf(frame, 'Description').row});
    frame = await app.waitFor(/^› Description /m);
    expect(frame).toMatch(/^ {2}Name /m);
    await click(app, cellOf(frame, 'Name'));
    await app.waitFor(/^› Name /m);
    await app.unmount();
  });

  it('on the Configuration a click puts the cursor on the entry drawn there, and a double-click edits it, as Enter', async () => {
    const app = await renderApp({fixture: fx, settings, ready: /1\/\d+ devices/});
    await app.press('screen4', 'global');
    let frame = await app.waitFor('Security  (Enter edits)');
    // The cursor starts on the client defaults; a click on the Security heading moves it there.
    await click(app, cellOf(frame, 'Security  (Enter edits)'));
    await app.press('edit', 'configuration');
    frame = await app.waitFor('Ctrl-S save');
    expect(frame).toContain('Local auth ');
    await app.press('cancel', 'form');
    frame = await app.waitFor('Security  (Enter edits)');
    // A line that is no entry (a value under a heading) takes no click: Enter still edits Security.
    await click(app, {col: 2, row: cellOf(frame, 'Client defaults').row + 1});
    await app.press('edit', 'configuration');
    await app.waitFor('Local auth ');
    await app.press('cancel', 'form');
    frame = await app.waitFor('Security  (Enter edits)');
    const defaults = cellOf(frame, 'Client defaults  (Enter edits)');
    await app.keys(
      sgr(0, defaults.col, defaults.row) +
        sgr(0, defaults.col, defaults.row, 'm') +
        sgr(0, defaults.col, defaults.row) +
        sgr(0, defaults.col, defaults.row, 'm'),
    );
    frame = await app.waitFor('Ctrl-S save');
    expect(frame).toContain('Allowed IPs');
    await app.unmount();
  });

  it("in a user's detail a click puts the cursor on the device line drawn there, and a double-click opens that device", async () => {
    const app = await renderApp({fixture: fx, settings, ready: /1\/\d+ devices/});
    await app.press('screen2', 'global');
    await app.waitFor(/1\/\d+ users/);
    // A user with two devices or more (the demo's first users have several).
    let frame = app.frame();
    for (let i = 0; i < 40 && !/Devices \([2-9]/.test(frame); i++) {
      if (i > 0) {
        await app.press('back', 'detail');
        await app.press('down', 'list');
      }
      await app.press('open', 'list');
      frame = await app.waitFor('User ›');
    }
    // Under "Devices (n)": a state glyph, the name, the address, the handshake.
    const all = frame.split('\n');
    const from = all.findIndex((l) => /^Devices \(\d+\)/.test(l)) + 1;
    const deviceLines = all.slice(from, from + 2);
    expect(deviceLines.every((l) => /^\S \S+ {2}\d+\.\d+\.\d+\.\d+/.test(l))).toBe(true);
    const second = deviceLines[1]!.split(/\s+/)[1]!;
    await click(app, cellOf(frame, deviceLines[1]!.trim()));
    await app.press('open', 'detail');
    frame = await app.waitFor('Device ›');
    expect(frame).toContain(`Device › ${second}`);
    await app.press('back', 'detail');
    frame = await app.waitFor('User ›');
    const first = deviceLines[0]!.split(/\s+/)[1]!;
    const at = cellOf(frame, deviceLines[0]!.trim());
    await app.keys(sgr(0, at.col, at.row) + sgr(0, at.col, at.row, 'm') + sgr(0, at.col, at.row) + sgr(0, at.col, at.row, 'm'));
    frame = await app.waitFor('Device ›');
    expect(frame).toContain(`Device › ${first}`);
    await app.unmount();
  });
});
