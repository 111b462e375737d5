// `y` (#47): an item as the server sent it, pretty JSON in a modal of its own — on every list and
// detail that has items from the server, and on Configuration; secrets masked until v (copied as
// shown), / keeps the lines holding a text (typed letters are text then, not keys), Esc clears
// the search, then closes.
import {describe, expect, it} from 'vitest';
import {topModal} from '../../src/state/core/state.js';
import {hints} from '../../src/state/input/scopes.js';
import {open, seeded} from '../helpers/fake-console.js';

const raw = (c: Awaited<ReturnType<typeof open>>['c']) => {
  const m = topModal(c.state);
  if (m?.kind !== 'raw') throw new Error(`no JSON view open (${m?.kind ?? 'none'})`);
  return m;
};

describe('the JSON view', () => {
  it('shows the device as the server has it, its preshared key masked until v, and copies what it shows', async () => {
    const server = seeded();
    const {c, io, press} = await open(server);
    press('y');
    const m = raw(c);
    const first = server.devices.find((d) => d.name === 'ann-laptop')!;
    expect(m.title).toBe('ann-laptop (ann@example.com), as the server sent it');
    expect(JSON.parse(m.revealed.join('\n'))).toEqual(first);
    expect(m.shown).toBe(m.masked);
    expect(m.masked.join('\n')).not.toContain(first.preshared_key!);
    expect(m.masked).toContain('  "preshared_key": "••••••••••••",');
    // c copies what is shown: masked (OSC 52 to the terminal).
    press('c');
    // eslint-disable-next-line no-control-regex -- OSC 52 is what the terminal is sent
    const copied = () => Buffer.from(/\x1b\]52;c;([A-Za-z0-9+/=]*)\x07/.exec(io.raw.at(-1) ?? '')?.[1] ?? '', 'base64').toString('utf8');
    expect(copied()).toContain('"preshared_key": "••••••••••••"');
    press('v');
    expect(raw(c).shown.join('\n')).toContain(first.preshared_key!);
    press('c');
    expect(JSON.parse(copied())).toEqual(first);
    press('esc');
    expect(topModal(c.state)).toBeNull();
  });

  it('/ keeps the lines holding a text; letters are text while typing; Esc clears, then closes', async () => {
    const {c, press, type, message} = await open(seeded());
    press('enter', 'y');
    expect(raw(c).title).toMatch(/as the server sent it$/);
    press('j');
    expect(raw(c).scroll).toBeGreaterThanOrEqual(0);
    press('/');
    expect(hints(c.state, false)).toBe('Enter keep  Esc clear');
    type('vc');
    // v and c typed into the search, not taken as reveal and copy.
    expect(raw(c).search).toBe('vc');
    expect(raw(c).reveal).toBe(false);
    press('backspace', 'backspace');
    type('ipv');
    expect(raw(c).shown.map((l) => l.trim().split(':')[0])).toEqual(['"ipv4"', '"ipv6"']);
    press('enter');
    expect(raw(c).searching).toBe(false);
    press('esc');
    expect(raw(c).search).toBe('');
    expect(raw(c).shown).toBe(raw(c).masked);
    press('esc');
    // Back in the device's detail it was opened from.
    expect(topModal(c.state)).toBeNull();
    expect(c.state.lists.devices.detailId).not.toBeNull();
    // A user holds no secret: v says so.
    press('esc', '2', 'y');
    expect(raw(c).secret).toBe(false);
    press('v');
    expect(message()).toBe('Nothing secret here to reveal');
  });

  it('on Configuration, the providers’ client secrets masked; Activity has none', async () => {
    const server = seeded();
    server.config = {
      ...server.config,
      openid_connect_providers: [
        {
          id: 'okta',
          label: 'Okta',
          scope: 'openid',
          response_type: 'code',
          client_id: 'cid',
          client_secret: 'very-secret-value',
          discovery_document_uri: 'https://x/.well-known/openid-configuration',
          redirect_uri: null,
          auto_create_users: false,
        },
      ],
    } as typeof server.config;
    const {c, press, message} = await open(server);
    press('4', 'y');
    expect(raw(c).title).toBe('Configuration, as the server sent it');
    expect(JSON.parse(raw(c).revealed.join('\n'))).toEqual(server.config);
    expect(raw(c).masked.join('\n')).not.toContain('very-secret-value');
    expect(raw(c).masked).toContain('      "client_secret": "••••••••••••",');
    press('esc', '5', 'y');
    expect(topModal(c.state)).toBeNull();
    expect(message()).toMatch(/^y does nothing here/);
  });
});
