// A form on a short terminal with an error that wraps: the title, the focused field's value and
// its whole error stay on screen (the form counts wrapped rows; Ink squeezed them together when an
// error wrapped by itself).
import {describe, expect, it} from 'vitest';
import {renderApp, useSandbox} from '../helpers/rig.js';

const fx = useSandbox({seed: 'empty'});

describe('form layout', () => {
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
      /› +Server endpoint +bad endpoint\n +✗ bad endpoint is not a valid FQDN\n +✗ must be an IP address or a host name, with an\n +optional :port\n/,
    );
  });

  it("the label column is as wide as the form's longest label: the Security form's names are whole at 120 columns, and the screen's", async () => {
    const app = await renderApp({fixture: fx});
    app.resize(120, 40);
    await app.press('screen4');
    await app.waitFor('Client defaults');
    await app.press('down', 'configuration');
    await app.press('edit', 'configuration');
    const frame = await app.waitFor(/^Security/m);
    const form = frame.slice(frame.search(/^Security/m));
    for (const label of ['Unprivileged device management', 'Unprivileged device configuration', 'Disable VPN on OIDC error', 'VPN session duration']) {
      expect(form).toMatch(new RegExp(`^[ ›] ${label} {2,}\\S`, 'm'));
    }
    expect(form).not.toContain('…');
  });
});
