// Text out costs what is visible (#24): a value the API accepts but no screen can show whole — a
// device with 10,000 allowed IPs (an unprivileged user may set them), a name of one letter and
// 100,000 combining marks (one grapheme for 0.7.36's length check) — draws like any other. Before,
// the detail took 47 s to draw (the segmenter ran over the whole value on every render) and the
// name was written whole, ~200 KB, in every frame.
import {afterEach, describe, expect, it} from 'vitest';
import {generateKeyPair} from '../../src/wireguard/index.js';
import {cleanupRigs, renderApp, useSandbox} from '../helpers/rig.js';

const fx = useSandbox({seed: 'demo'});
afterEach(async () => {
  await cleanupRigs();
});

async function ownerId(): Promise<string> {
  const users = await fx.api<{data: Array<{id: string; role: string}>}>('GET', '/v0/users');
  return users.json.data.find((u) => u.role === 'unprivileged')!.id;
}

describe('huge values', () => {
  it('a device with 10,000 allowed IPs: its detail draws, scrolls and closes at once', async () => {
    const allowed = Array.from({length: 10_000}, (_, i) => `10.${(i >> 8) & 255}.${i & 255}.0/24`);
    const created = await fx.api('POST', '/v0/devices', {
      device: {
        user_id: await ownerId(),
        name: 'aaa-many-routes',
        public_key: generateKeyPair().publicKey,
        use_default_allowed_ips: false,
        allowed_ips: allowed,
      },
    });
    expect(created.status).toBe(201);
    const app = await renderApp({fixture: fx});
    await app.press('filter');
    await app.type('aaa-many');
    await app.named('enter', 'enter');
    // 5 s is a generous bound for a frame that takes a few milliseconds; before it was 47 s.
    const frame = await app.waitFor(/Allowed IPs\s+10\.0\.0\.0\/24, 10\.0\.1\.0\/24/, 5000);
    expect(frame).toMatch(/↓ \d+ more lines/);
    // Only what fits is drawn: the frame is the terminal's size, not the value's.
    expect(app.lastFrame()!.length).toBeLessThan(12_000);
    await app.named('j', 'j', 'j');
    await app.waitFor(/more lines/, 5000);
    await app.named('esc');
    await app.waitFor(/1\/\d+ of \d+ devices|\d+\/\d+ devices/, 5000);
  });

  it('a name of one digit and 100,000 combining marks is drawn as the digit, 12 marks and a token that counts the rest', async () => {
    const name = `0${'\u0301'.repeat(100_000)}`;
    const created = await fx.api('POST', '/v0/devices', {device: {user_id: await ownerId(), name, public_key: generateKeyPair().publicKey}});
    expect(created.status).toBe(201);
    const app = await renderApp({fixture: fx});
    // A paste on the list opens the filter with it: the name's first two characters find it.
    await app.paste('0\u0301');
    await app.waitFor('+99988 marks', 5000);
    // Every frame since is bounded by the screen, not by the name (the name alone was ~200 KB).
    const before = app.frames.length;
    await app.named('enter', 'enter');
    await app.waitFor(/Device › 0/, 5000);
    for (const written of app.frames.slice(before)) expect(written.length).toBeLessThan(20_000);
  });
});
