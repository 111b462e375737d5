// A status message, or the command bar's error, longer than the line is shown whole on two lines
// instead of being cut.
import {afterEach, describe, expect, it} from 'vitest';
import {cleanupRigs, renderApp, useSandbox} from '../helpers/rig.js';

const fx = useSandbox({seed: 'demo'});
afterEach(async () => {
  await cleanupRigs();
  await fx.api('PUT', '/_sandbox/faults', {mode: 'none', rate: 0, latency_ms: 0});
});

describe('long messages', () => {
  it("an empty 500's explanation is not cut off at 100 columns", async () => {
    const app = await renderApp({fixture: fx, settings: {refreshSeconds: 1}});
    await fx.api('PUT', '/_sandbox/faults', {mode: 'empty-500', rate: 1, latency_ms: 0});
    const frame = await app.waitFor(/Refresh failed: Server error 500 with an empty body/, 10_000);
    const joined = frame.replace(/\s*\n\s*/g, ' ');
    expect(joined).toMatch(/Refresh failed: Server error 500 with an empty body.*0\.7\.36/);
    // The info line stays; the frame keeps its height, one row short of the terminal.
    expect(frame).toMatch(/1\/\d+ devices/);
    expect(frame.split('\n').length).toBeLessThanOrEqual(29);
  });

  it("the command bar's error is not cut off at 80 columns, and the row it took comes back once it goes", async () => {
    const app = await renderApp({fixture: fx});
    app.resize(80, 24);
    await app.waitFor(/1\/\d+ devices/);
    // The frame is one row short of the terminal, whatever the bar shows.
    const rowsBefore = 23;
    await app.press('command');
    await app.type('trace aisha-laptop 10.0.0.5:443/tcp');
    await app.named('enter');
    const frame = await app.waitFor(/2 devices are named aisha-laptop/);
    const joined = frame.replace(/\s*\n\s*/g, ' ');
    expect(joined).toContain("2 devices are named aisha-laptop: give the device's tunnel address or the user's email :trace aisha-laptop");
    const lines = frame.split('\n');
    const bar = lines.findIndex((l) => l.startsWith(':trace'));
    expect(lines.slice(bar - 2, bar).join(' ')).not.toContain('…');
    expect(frame.split('\n').length).toBe(rowsBefore);
    // An edit clears the error: the bar's keys are back on one line.
    await app.named('backspace');
    const edited = await app.waitFor(/Enter run {2}Tab complete/);
    expect(edited).not.toContain('devices are named');
    expect(edited.split('\n').length).toBe(rowsBefore);
  });
});
