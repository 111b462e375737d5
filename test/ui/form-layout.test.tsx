// A form on a short terminal with an error that wraps: the title, the focused field's value and
// its whole error stay on screen (the form counts wrapped rows; Ink squeezed them together when an
// error wrapped by itself).
import {describe, expect, it} from 'vitest';
import {renderApp, useSandbox} from '../helpers/rig.js';

const fx = useSandbox({seed: 'empty'});

describe('form layout at 80×24', () => {
  it('an error that wraps leaves the title, the value and every line of the error in view', async () => {
    const app = await renderApp({fixture: fx});
    app.resize(80, 24);
    await app.press('command');
    await app.type('user user@sandbox.test');
    await app.named('enter');
    await app.waitFor(/Devices \(0\)/);
    await app.named('n');
    await app.waitFor('Add device for user@sandbox.test');
    // To "Use default endpoint", off, then the endpoint itself.
    await app.press('nextField', 'form', 4);
    await app.named(' ');
    await app.press('nextField', 'form');
    await app.type('bad endpoint');
    await app.press('save');
    const frame = await app.waitFor('✗ bad endpoint is not a valid FQDN');
    const lines = frame.split('\n');
    expect(lines).toHaveLength(23);
    expect(frame).toContain('Add device for user@sandbox.test');
    expect(frame).toMatch(
      /› +Server endpoint +bad endpoint\n +✗ bad endpoint is not a valid FQDN\n +✗ must be one of: Elixir\.FzHttp\.Types\.IPPort,\n +string\n/,
    );
  });
});
