// A status message longer than the line is shown whole on two lines instead of being cut.
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
});
