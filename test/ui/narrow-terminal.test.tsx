// At 80×24 the Devices screen still says which devices move traffic now: RX/S and TX/S stay (IPv4
// and the totals go first), and the header keeps the total rates in a compact form.
import {FILTER_LIMIT} from '../../src/state/input/limits.js';
import {afterEach, describe, expect, it} from 'vitest';
import {cleanupRigs, renderApp, useSandbox} from '../helpers/rig.js';

const fx = useSandbox({seed: 'empty'});
afterEach(() => cleanupRigs());

const iso = (ms: number) => new Date(ms).toISOString();

describe('an 80×24 terminal', () => {
  it('keeps the rate columns and the header totals', async () => {
    const users = (await fx.api('GET', '/v0/users')).json.data as Array<{id: string}>;
    const created = await fx.api('POST', '/v0/devices', {
      device: {user_id: users[0]!.id, name: 'busy-laptop', public_key: 'kQvbXRbBSRh7F1L5Y7nYH2hF0t8mnVfS2QfTaoUZ0mE='},
    });
    expect(created.status).toBe(201);
    const id = (created.json as {data: {id: string}}).data.id;
    const stats = (rx: number, tx: number) =>
      fx.api('PUT', `/_sandbox/devices/${id}/stats`, {latest_handshake: iso(Date.now() - 5000), remote_ip: '198.51.100.7', rx_bytes: rx, tx_bytes: tx});
    await stats(1_000_000, 100_000);
    const app = await renderApp({fixture: fx});
    app.resize(80, 24);
    await app.waitFor(/RX\/S/);
    // Two polls a moment apart give a rate.
    await stats(60_000_000, 2_000_000);
    await app.press('refresh');
    const frame = await app.waitFor(/↓\d[\d.]*[KMG]? ↑\d/);
    const header = frame.split('\n').find((l) => l.includes('NAME'))!;
    expect(header).toMatch(/NAME.*RX\/S.*TX\/S/);
    expect(frame.split('\n').every((l) => l.length <= 80)).toBe(true);
    expect(frame).toMatch(/busy-laptop.*\d[\d.]* [KM]iB\/s/);
  });

  it('a form keeps its labels and values in two columns (a long placeholder took cells from the label)', async () => {
    const app = await renderApp({fixture: fx});
    app.resize(80, 24);
    await app.press('screen4');
    // Configuration: defaults → security → + add OIDC.
    await app.named('down', 'down', 'enter');
    const frame = await app.waitFor('Add OpenID Connect provider');
    const line = (label: string) => frame.split('\n').find((l) => l.includes(label))!;
    expect(line('Discovery document URI').indexOf('(e.g.')).toBe(30);
    expect(line('Redirect URI').indexOf('(optional')).toBe(30);
    expect(line('Label').trimEnd()).toBe('  Label');
    expect(frame.split('\n').every((l) => l.length <= 80)).toBe(true);
  });

  it('a long filter (as long as a filter may be) still leaves the counts in view', async () => {
    const app = await renderApp({fixture: fx});
    app.resize(80, 24);
    await app.paste('x'.repeat(FILTER_LIMIT.units));
    const frame = await app.waitFor(/0\/0 of \d+ devices/, 8000);
    const line = frame.split('\n').find((l) => l.includes('0/0 of'))!;
    expect(line).toMatch(/^\/…x+▌ {2}0\/0 of \d+ devices/);
    await app.named('enter');
    const kept = await app.waitFor(/filter "/);
    expect(kept).toMatch(/filter "x+…" \(Esc clears\) {2}0\/0 of \d+ devices?/);
  });
});
