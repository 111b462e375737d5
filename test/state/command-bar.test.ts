// The `:` command bar (src/state/commands/): screens by name and alias, a user or a device by name,
// Tab completion, the session's history, and an unknown command said with the text kept.
import {readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {commandNamed, commandsMarkdown, COMMAND_LIST, COMMANDS} from '../../src/state/commands/registry.js';
import type {CommandRecord} from '../../src/state/commands/command.js';
import {CANDIDATES_SHOWN} from '../../src/state/commands/command-bar.js';
import {topModal} from '../../src/state/core/state.js';
import {device, iso, user} from '../fixtures/data.js';
import {open, running, seeded, until} from '../helpers/fake-console.js';
import {Controller} from '../../src/state/controller.js';

type Console = Awaited<ReturnType<typeof open>>;

/** Opens the bar, types `text` and presses `then` (Enter by default). */
function command({press, type}: Console, text: string, ...then: string[]) {
  press(':');
  type(text);
  press(...(then.length ? then : ['enter']));
}

describe('the command table', () => {
  it('names, aliases and unique prefixes; an ambiguous or unknown word is not a command', () => {
    expect(commandNamed('users')).toMatchObject({name: 'users'});
    expect(commandNamed('USR')).toMatchObject({name: 'users'});
    expect(commandNamed('cfg')).toMatchObject({name: 'configuration'});
    expect(commandNamed('dev')).toMatchObject({name: 'devices'});
    expect(commandNamed('ru')).toMatchObject({name: 'rules'});
    expect(commandNamed('q')).toMatchObject({name: 'quit'});
    expect(commandNamed('frobnicate')).toBeNull();
    expect(commandNamed('')).toMatchObject({ambiguous: COMMAND_LIST});
  });

  it("the README's examples of unique prefixes and short forms each name one command", () => {
    const text = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    const sentence = /A unique prefix of a command works \(([^)]*)\), and so do the short forms \(([^)]*)\)/.exec(text);
    expect(sentence).not.toBeNull();
    const examples = [...`${sentence![1]} ${sentence![2]}`.matchAll(/`:([a-z]+)`/g)].map((m) => m[1]!);
    expect(examples.length).toBeGreaterThanOrEqual(4);
    for (const word of examples) expect(commandNamed(word), word).toHaveProperty('name');
    // `:u` was the README's example once: users or undo.
    expect(commandNamed('u')).toHaveProperty('ambiguous');
  });

  it('no alias is used twice or shadows a name', () => {
    const words = COMMAND_LIST.flatMap((c) => [c.name, ...c.aliases]);
    expect(new Set(words).size).toBe(words.length);
  });

  it('the record holds every command, each under its own name (anything else does not compile)', () => {
    const {help: _help, ...withoutHelp} = COMMANDS;
    // @ts-expect-error: a record without :help is not a CommandRecord
    const missing: CommandRecord = withoutHelp;
    // @ts-expect-error: nor is one with :quit under the name of :help
    const misnamed: CommandRecord = {...COMMANDS, help: COMMANDS.quit};
    expect(Object.keys(missing)).not.toContain('help');
    expect(misnamed.help.name).toBe('quit');
    for (const [name, c] of Object.entries(COMMANDS)) expect(c.name).toBe(name);
    expect(COMMAND_LIST).toEqual(Object.values(COMMANDS));
  });

  it("read-only mode's refusal is worded in one file, and no command checks read-only mode itself", () => {
    const src = new URL('../../src/', import.meta.url);
    const files = readdirSync(src, {recursive: true, encoding: 'utf8'}).filter((f) => /\.tsx?$/.test(f));
    expect(files.length).toBeGreaterThan(100);
    const wording = files.filter((f) => readFileSync(new URL(f, src), 'utf8').includes('Read-only mode:'));
    expect(wording).toEqual(['state/input/read-only.ts']);
    const checking = files.filter((f) => f.startsWith('state/commands/') && /\breadOnly\b/.test(readFileSync(new URL(f, src), 'utf8')));
    expect(checking).toEqual([]);
  });

  it('the README command table is generated from the table (UPDATE_README=1 rewrites it)', () => {
    const readme = new URL('../../README.md', import.meta.url);
    const text = readFileSync(readme, 'utf8');
    const start = /<!-- commands:start[^>]*-->\n/.exec(text);
    expect(start).not.toBeNull();
    const from = start!.index + start![0].length;
    const to = text.indexOf('<!-- commands:end -->');
    const expected = `${commandsMarkdown()}\n`;
    if (process.env.UPDATE_README === '1') {
      writeFileSync(readme, text.slice(0, from) + expected + text.slice(to));
      return;
    }
    expect(text.slice(from, to)).toBe(expected);
  });
});

describe('the command bar', () => {
  it(':users switches screens, by name or alias; Esc closes the bar without running it', async () => {
    const con = await open(seeded());
    const {c, press, type} = con;
    command(con, 'users');
    expect(c.state).toMatchObject({screen: 'users', command: null});
    command(con, 'cfg');
    expect(c.state.screen).toBe('configuration');
    command(con, 'act');
    expect(c.state.screen).toBe('activity');
    command(con, 'rules');
    expect(c.state.screen).toBe('rules');
    press(':');
    type('devices');
    press('esc');
    expect(c.state).toMatchObject({screen: 'rules', command: null});
  });

  it('letters typed in the bar are text, not keys: q, d and n do nothing but type', async () => {
    const con = await open(seeded());
    const {c, io, press, type} = con;
    press(':');
    type('qdn');
    expect(c.state.command).toMatchObject({value: 'qdn', cursor: 3});
    expect(io.exited).toBe(false);
    expect(topModal(c.state)).toBeNull();
    // The line editor works in it.
    press('ctrl+w');
    expect(c.state.command?.value).toBe('');
  });

  it('an unknown command says so and keeps the text to be fixed', async () => {
    const con = await open(seeded());
    const {c, press, type} = con;
    command(con, 'usres');
    expect(c.state.command).toMatchObject({value: 'usres', error: 'unknown command "usres" (Tab lists the commands)'});
    expect(c.state.screen).toBe('devices');
    press('ctrl+u');
    type('users');
    expect(c.state.command?.error).toBeNull();
    press('enter');
    expect(c.state.screen).toBe('users');
  });

  it('a command that takes no argument says so', async () => {
    const con = await open(seeded());
    command(con, 'rules everything');
    expect(con.c.state.command).toMatchObject({error: ':rules takes no argument'});
    expect(con.c.state.screen).toBe('devices');
  });

  it(':users EMAIL opens that user; :devices NAME opens that device; an unknown one is said', async () => {
    const con = await open(seeded());
    const {c} = con;
    command(con, 'users bob@example.com');
    expect(c.state.screen).toBe('users');
    expect(c.state.lists.users.detailId).toBe('u-2');
    command(con, 'dev ann-phone');
    expect(c.state.screen).toBe('devices');
    expect(c.state.lists.devices.detailId).toBe('d-2');
    command(con, 'users nobody@example.com');
    expect(con.message()).toBe('No user nobody@example.com');
    command(con, 'devices nothing');
    expect(con.message()).toBe('No device named nothing');
    expect(c.state.message?.tone).toBe('info');
    // Failing an exact name, the one name that holds the text; several: the list filtered to them.
    command(con, 'users bo');
    expect(c.state.lists.users.detailId).toBe('u-2');
    command(con, 'dev ann');
    expect(c.state.lists.devices).toMatchObject({detailId: null, filter: '"ann"'});
    expect(con.message()).toBe('2 devices match ann: the list is filtered to them');
    expect(c.activeList()!.view.rows).toHaveLength(2);
  });

  it('two devices of one name: the list is filtered to them', async () => {
    const server = seeded();
    server.devices.push(device({id: 'd-9', user_id: 'u-2', name: 'ann-phone', ipv4: '10.3.2.9'}));
    const con = await open(server);
    command(con, 'devices ann-phone');
    expect(con.c.state.lists.devices).toMatchObject({detailId: null, filter: '"ann-phone"'});
    expect(con.message()).toBe('2 devices are named ann-phone: the list is filtered to them');
    expect(con.c.activeList()!.view.rows).toHaveLength(2);
  });

  it('Tab completes a command, then its argument; several candidates fill their common part and are listed', async () => {
    const con = await open(seeded());
    const {c, press, type} = con;
    press(':');
    type('us');
    press('tab');
    expect(c.state.command).toMatchObject({value: 'users ', candidates: []});
    type('b');
    press('tab');
    expect(c.state.command).toMatchObject({value: 'users bob@example.com', candidates: []});
    press('ctrl+u');
    type('devices ann');
    press('tab');
    expect(c.state.command).toMatchObject({value: 'devices ann-', candidates: ['ann-laptop', 'ann-phone']});
    type('l');
    press('tab');
    expect(c.state.command?.value).toBe('devices ann-laptop');
    press('enter');
    expect(c.state.lists.devices.detailId).toBe('d-1');
    // Nothing to complete: said.
    press(':');
    type('zz');
    press('tab');
    expect(c.state.command).toMatchObject({value: 'zz', error: 'nothing starts with "zz"'});
    // An empty line lists the commands.
    press('ctrl+u', 'tab');
    expect(c.state.command?.candidates).toEqual(COMMAND_LIST.map((x) => x.name));
  });

  it('long candidate lists are cut and counted', async () => {
    const server = seeded();
    for (let i = 0; i < CANDIDATES_SHOWN + 5; i++) server.users.push(user({id: `u-x${i}`, email: `x${String(i).padStart(3, '0')}@example.com`}));
    const con = await open(server);
    con.press(':');
    con.type('users x');
    con.press('tab');
    const shown = con.c.state.command!.candidates;
    expect(shown).toHaveLength(CANDIDATES_SHOWN + 1);
    expect(shown.at(-1)).toBe('… 5 more');
    expect(con.c.state.command!.value).toBe('users x0');
  });

  it('↑/↓ walk the session history; the line being typed comes back', async () => {
    const con = await open(seeded());
    const {c, press, type} = con;
    command(con, 'users');
    command(con, 'rules');
    command(con, 'rules');
    expect(c.state.commandHistory).toEqual(['users', 'rules']);
    press(':');
    type('act');
    press('up');
    expect(c.state.command?.value).toBe('rules');
    press('up');
    expect(c.state.command?.value).toBe('users');
    press('up');
    expect(c.state.command?.value).toBe('users');
    press('down', 'down');
    expect(c.state.command?.value).toBe('act');
    press('up', 'enter');
    expect(c.state.screen).toBe('rules');
  });

  it('a paste goes into the bar as one line; control characters are refused', async () => {
    const con = await open(seeded());
    const {c, press} = con;
    press(':');
    c.paste('users\n');
    expect(c.state.command?.value).toBe('users');
    c.paste('\x1b[31m');
    expect(c.state.command?.value).toBe('users');
    // Said in the bar itself: the status line is covered while the bar is open.
    expect(c.state.command?.error).toContain('which the command bar does not take');
    press('enter');
    expect(c.state.screen).toBe('users');
  });

  it(':help opens the help; :quit quits; : works from a detail and the help, not inside a filter', async () => {
    const con = await open(seeded());
    const {c, io, press, type} = con;
    command(con, 'help');
    expect(c.state.help.open).toBe(true);
    command(con, 'devices');
    expect(c.state.help.open).toBe(false);
    press('/');
    type('a:b');
    expect(c.state.lists.devices.filter).toBe('a:b');
    expect(c.state.command).toBeNull();
    press('esc');
    press('enter');
    expect(c.state.lists.devices.detailId).not.toBeNull();
    command(con, 'q');
    expect(io.exited).toBe(true);
  });

  it('in read-only mode the bar still navigates (it runs no writes)', async () => {
    const server = seeded();
    const con = await open(server, {readOnly: true});
    command(con, 'users ann@example.com');
    expect(con.c.state.lists.users.detailId).toBe('u-1');
    expect(server.calls).toEqual([]);
  });

  it('read-only mode refuses :undo N as it refuses u: the same message, and nothing sent; :undo alone still lists', async () => {
    const server = seeded();
    const con = await open(server, {readOnly: true});
    const {c, press} = con;
    press('u');
    const byKey = c.state.message;
    expect(byKey).toEqual({tone: 'warning', fades: true, text: 'Read-only mode: undoing a delete is disabled (started with --read-only)'});
    c.message(null);
    command(con, 'undo 1');
    // Said in the key path's words, and fading as it does: one refusal for keys and commands.
    expect(c.state.message).toEqual(byKey);
    expect(c.state.command).toBeNull();
    command(con, 'undo');
    expect(topModal(c.state)).toMatchObject({kind: 'report', title: 'Deletes and new keys of this session'});
    expect(server.calls).toEqual([]);
  });

  it('Tab completes WHO of :trace (emails and device names, not DEST) and the profile of :profile; nothing where there is nothing', async () => {
    const profiles = {
      current: 'alpha',
      known: [
        {name: 'alpha', url: 'https://a.example.com'},
        {name: 'beta', url: 'https://b.example.com'},
      ],
      list: async () => profiles.known,
      switchTo: async () => null,
    };
    const con = await open(seeded(), {}, {profiles});
    const {c, press, type} = con;
    press(':');
    type('trace b');
    press('tab');
    expect(c.state.command).toMatchObject({value: 'trace bob', candidates: ['bob-desktop', 'bob@example.com']});
    type('@');
    press('tab');
    expect(c.state.command).toMatchObject({value: 'trace bob@example.com', candidates: []});
    type(' 10');
    press('tab');
    expect(c.state.command).toMatchObject({value: 'trace bob@example.com 10', error: 'nothing starts with "bob@example.com 10"'});
    press('ctrl+u');
    type('ctx b');
    press('tab');
    expect(c.state.command).toMatchObject({value: 'ctx beta', candidates: []});
    press('ctrl+u');
    type('reach 10');
    press('tab');
    expect(c.state.command).toMatchObject({value: 'reach 10', error: 'nothing starts with "10"'});
    press('ctrl+u');
    type('rules x');
    press('tab');
    expect(c.state.command).toMatchObject({value: 'rules x', error: ':rules takes no argument'});
  });

  it(':trace WHO DEST opens the explainer; t on a user or device fills WHO in; a bad DEST is said in the bar', async () => {
    const con = await open(seeded());
    const {c, press, type} = con;
    // bob has a drop of 10.0.0.0/8 of his own (the seeded rule r-1).
    command(con, 'trace bob@example.com 10.1.2.3:443/tcp');
    let m = topModal(c.state);
    expect(m).toMatchObject({kind: 'report', title: 'Trace: bob@example.com → 10.1.2.3:443/tcp'});
    expect(m?.kind === 'report' && m.lines[0]!.text).toBe('Verdict: DROP');
    press('esc');
    command(con, 'trace ann-laptop 10.1.2.3');
    m = topModal(c.state);
    expect(m?.kind === 'report' && m.lines.slice(0, 2).map((l) => l.text)).toEqual([
      'Verdict: ACCEPT',
      "no rule matches: the forward chain's policy accepts (whatever the protocol and port)",
    ]);
    press('esc');
    command(con, 'trace bob@example.com nowhere');
    expect(c.state.command).toMatchObject({
      value: 'trace bob@example.com nowhere',
      error: '"nowhere" is not an IP address (DEST is ADDRESS or ADDRESS:PORT/tcp|udp)',
    });
    press('esc');
    command(con, 'trace');
    expect(c.state.command?.error).toBe(':trace takes WHO and DEST, e.g. :trace ann@example.com 10.2.3.4:53/udp');
    press('esc');
    // t on a user's detail: the bar opens with the user filled in; DEST is typed.
    press('2', 'j', 'enter', 't');
    expect(c.state.command).toMatchObject({value: 'trace bob@example.com '});
    type('10.9.9.9');
    press('enter');
    expect(topModal(c.state)).toMatchObject({kind: 'report', title: 'Trace: bob@example.com → 10.9.9.9'});
    press('esc', 'esc', '1', 't');
    expect(c.state.command?.value).toBe('trace 10.3.2.2 ');
    press('esc');
    // :reach DEST: every user's answer, grouped.
    command(con, 'reach 10.1.2.3');
    const r = topModal(c.state);
    expect(r).toMatchObject({kind: 'report', title: 'Reach: 10.1.2.3'});
    expect(r?.kind === 'report' && r.lines.map((l) => l.text).filter((t) => /^(ACCEPT|DROP):/.test(t))).toEqual(['ACCEPT: 1 user', 'DROP: 1 user']);
    press('esc');
    command(con, 'reach');
    expect(c.state.command?.error).toBe(':reach takes one DEST, e.g. :reach 10.2.3.4:443/tcp');
  });

  it(":trace and :reach count a user whose VPN session has expired (the Users screen's EXPIRED) as off WireGuard", async () => {
    const server = seeded();
    // Sessions last an hour; ann signed in two hours ago, bob never (API-provisioned: never expires).
    server.config = {...server.config, vpn_session_duration: 3600};
    server.users = [{...server.users[0]!, last_signed_in_at: iso(Date.now() - 2 * 3600_000)}, server.users[1]!];
    const con = await open(server);
    const {c, press} = con;
    command(con, 'trace ann@example.com 10.1.2.3');
    const t = topModal(c.state);
    expect(t?.kind === 'report' && t.lines[0]!.text).toMatch(/^Verdict: no traffic passes: ann@example.com's VPN session has expired/);
    press('esc');
    command(con, 'reach 10.1.2.3');
    const r = topModal(c.state);
    const lines = r?.kind === 'report' ? r.lines.map((l) => l.text) : [];
    expect(lines).toContain('VPN session expired, so off WireGuard until they sign in again (no traffic, whatever the rules): 1 user');
    expect(lines[lines.indexOf('VPN session expired, so off WireGuard until they sign in again (no traffic, whatever the rules): 1 user') + 1]).toBe(
      '    ann@example.com',
    );
    press('esc');
    // Sessions that never expire: ann's sign-in two hours ago does not matter.
    server.config = {...server.config, vpn_session_duration: 0};
    await con.polled();
    command(con, 'trace ann@example.com 10.1.2.3');
    const again = topModal(c.state);
    expect(again?.kind === 'report' && again.lines[0]!.text).not.toMatch(/no traffic passes/);
  });

  it(":trace reads a device's AllowedIPs as its client config has them: the configuration's default, or its own", async () => {
    const server = seeded();
    server.config = {...server.config, default_client_allowed_ips: ['10.0.0.0/8']};
    const con = await open(server);
    const {c, press} = con;
    const verdict = () => {
      const m = topModal(c.state);
      return m?.kind === 'report' ? m.lines[0]!.text : '';
    };
    // bob's one device uses the default: 8.8.4.4 stays outside the tunnel.
    command(con, 'trace bob@example.com 8.8.4.4');
    expect(verdict()).toMatch(/^Verdict: not through the tunnel: its client config does not route 8\.8\.4\.4 into WireGuard/);
    press('esc');
    command(con, 'trace bob@example.com 10.1.2.3');
    expect(verdict()).not.toMatch(/not through the tunnel/);
    press('esc');
    // Its own list, when it does not use the default.
    server.devices = server.devices.map((d) => (d.user_id === 'u-2' ? {...d, use_default_allowed_ips: false, allowed_ips: ['0.0.0.0/0']} : d));
    await con.polled();
    command(con, 'trace bob@example.com 8.8.4.4');
    expect(verdict()).not.toMatch(/not through the tunnel/);
  });

  it(':profile: lists the profiles; a form opened while the other server is asked is not thrown away', async () => {
    const server = seeded();
    let answer: (() => void) | null = null;
    const asked: string[] = [];
    const profiles = {
      current: 'alpha',
      known: [
        {name: 'alpha', url: 'https://a.example.com'},
        {name: 'beta', url: 'https://b.example.com'},
      ],
      list: async () => profiles.known,
      switchTo: (name: string, stay?: () => string | null) =>
        new Promise<string | null>((resolve) => {
          asked.push(name);
          answer = () => resolve(stay?.() ?? null);
        }),
    };
    const c = new Controller(
      server,
      {label: 'alpha', refreshSeconds: 0, readOnly: false, insecure: false, demo: false},
      {writeRaw: () => undefined, exit: () => undefined, profiles},
    );
    running.push(c);
    c.start();
    await until(() => c.state.snapshot !== null, 'the first poll');
    const press = (...keys: string[]) => keys.forEach((k) => c.key(k, [...k].length === 1 ? k : ''));
    press(':', ...'profile', 'enter');
    await until(() => topModal(c.state)?.kind === 'report', 'the profile list');
    const m = topModal(c.state);
    expect(m?.kind === 'report' && m.lines.slice(0, 2).map((l) => l.text)).toEqual(['* alpha  https://a.example.com', '  beta   https://b.example.com']);
    press('esc', ':', ...'profile beta', 'enter');
    expect(asked).toEqual(['beta']);
    expect(c.state.message?.text).toBe('Connecting with profile beta…');
    press('n');
    expect(topModal(c.state)?.kind).toBe('form');
    answer!();
    await until(() => c.state.message?.tone === 'error', 'the answer');
    expect(c.state.message?.text).toBe(
      'Profile beta: it answered, but a form or dialog is open here, so the console did not switch (close it and run :profile again) (still connected with alpha)',
    );
    expect(topModal(c.state)?.kind).toBe('form');
  });
});
