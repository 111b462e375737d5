// The status-bar hints and the `?` help come from the one keymap table (src/state/input/keymap.ts):
// the expectations here are built from BINDINGS, never written out, so a binding added, renamed
// or re-keyed in the table is checked as it is. Read-only mode hides the hints of writes and
// refuses their keys with a message.
import {describe, expect, it} from 'vitest';
import {SCREEN_SPECS as RESOURCES} from '../../src/state/screens/index.js';
import {BINDINGS, displayKey, SCOPE_TITLES, type Action, type Binding, type Scope} from '../../src/state/input/keymap.js';
import {keyHelp} from '../../src/state/input/key-help.js';
import {renderApp, useSandbox, type Rig} from '../helpers/rig.js';

const fx = useSandbox({seed: 'demo'});

/** `key hint` for each binding with a hint in these scopes, innermost first, one per action. */
function hintsOf(scopes: readonly Scope[], hidden: (b: Binding) => boolean = () => false): {shown: string[]; hidden: string[]} {
  const seen = new Set<string>();
  const shown: string[] = [];
  const hiddenHints: string[] = [];
  for (const scope of scopes) {
    for (const b of BINDINGS) {
      if (b.scope !== scope || b.hint === undefined || seen.has(b.action)) continue;
      const text = `${displayKey(b.keys[0]!)} ${b.hint}`;
      if (hidden(b)) {
        hiddenHints.push(text);
        continue;
      }
      seen.add(b.action);
      shown.push(text);
    }
  }
  return {shown, hidden: hiddenHints};
}

function statusLine(app: Rig): string {
  return app.frame().split('\n').at(-1) ?? '';
}

/** Waits until the status bar shows exactly these hints (in this order) and none of the hidden ones. */
async function expectHints(app: Rig, hints: {shown: string[]; hidden: string[]}): Promise<void> {
  const wanted = hints.shown.join('  ');
  expect(wanted).not.toBe('');
  await app.waitFor(new RegExp(`${wanted.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`));
  const line = statusLine(app);
  for (const h of hints.hidden) expect(line, `hint "${h}" should be hidden`).not.toContain(h);
}

const WRITE_HINTS_EXIST = (scope: Scope) => BINDINGS.some((b) => b.scope === scope && b.writes && b.hint !== undefined);

describe('hints are generated from BINDINGS', () => {
  it('list, detail, form, picker, configuration and help each show their scope’s hints', async () => {
    const app = await renderApp({fixture: fx});
    app.resize(160, 40);
    // Devices list
    await expectHints(app, hintsOf(['list', 'global']));
    // Users detail: users have every detail action but reveal (nothing secret)
    await app.press('screen2');
    await app.waitFor('EMAIL');
    await app.press('open', 'list');
    await app.waitFor('VPN connection');
    expect(RESOURCES.users.revealable).not.toBe(true);
    await expectHints(
      app,
      hintsOf(['detail', 'global'], (b) => b.action === 'reveal'),
    );
    // Devices detail: no role, no "new device" from a device; reveal is there
    await app.press('back', 'detail');
    await app.press('screen1');
    await app.press('open', 'list');
    await app.waitFor('Preshared key');
    expect(RESOURCES.devices.actions.role).toBeUndefined();
    expect(RESOURCES.devices.actions.newDevice).toBeUndefined();
    await expectHints(
      app,
      hintsOf(['detail', 'global'], (b) => b.action === 'role' || b.action === 'newDevice'),
    );
    // a form, and the owner picker over it
    await app.press('back', 'detail');
    await app.press('new', 'list');
    await app.waitFor('Add device');
    await expectHints(app, hintsOf(['form']));
    await app.press('pick', 'form');
    await app.waitFor('pick a user');
    await expectHints(app, hintsOf(['picker']));
    await app.press('cancel', 'picker');
    await app.press('cancel', 'form');
    // the form was not changed: it closes without a dialog
    await app.waitFor(/1\/\d+ devices/);
    // configuration
    await app.press('screen4');
    await app.waitFor('Client defaults');
    await expectHints(app, hintsOf(['configuration', 'global']));
    // help
    await app.press('help');
    await app.waitFor('Keys — where you are first');
    await expectHints(app, hintsOf(['help', 'global']));
  });

  it('a hint or help text changed in the table shows up as it is', async () => {
    const filter = BINDINGS.find((b) => b.scope === 'list' && b.action === 'filter')! as Binding;
    const saved = {hint: filter.hint, help: filter.help};
    filter.hint = 'probe-hint';
    filter.help = 'probe help text from the table';
    try {
      const app = await renderApp({fixture: fx});
      app.resize(160, 40);
      await app.waitFor(new RegExp(`${displayKey(filter.keys[0]!)} probe-hint`));
      await app.press('help');
      await app.waitFor('probe help text from the table');
    } finally {
      filter.hint = saved.hint;
      filter.help = saved.help;
    }
  });

  it('? lists every binding of the table with its keys and help, under its scope title', async () => {
    const app = await renderApp({fixture: fx});
    // tall enough for the whole help at once
    app.resize(100, 240);
    await app.press('help');
    const frame = await app.waitFor('Keys — where you are first');
    expect(frame).not.toMatch(/scroll \(/);
    const lines = frame.split('\n');
    for (const scope of Object.keys(SCOPE_TITLES) as Scope[]) {
      if (BINDINGS.some((b) => b.scope === scope))
        expect(
          lines.some((l) => l.trim().replace(/ \(here\)$/, '') === SCOPE_TITLES[scope]),
          SCOPE_TITLES[scope],
        ).toBe(true);
    }
    for (const b of BINDINGS) {
      // long help texts are cut at the column's edge: the start of each is enough to find its row
      const row = `  ${b.keys.map(displayKey).join(' ').padEnd(18)} ${keyHelp(b).slice(0, 50)}`;
      expect(
        lines.some((l) => l.startsWith(row)),
        `${b.scope}/${b.action}: ${row}`,
      ).toBe(true);
    }
  });
});

describe('read-only mode', () => {
  // What the refusal names, per write action (a new write binding must be added here).
  const REFUSED: Record<string, Partial<Record<string, string>>> = {
    list: {new: 'creating users', edit: 'editing users', editor: 'editing users', delete: 'deleting users', role: 'changing roles', import: 'importing users'},
    detail: {newDevice: 'creating devices', edit: 'editing users', editor: 'editing users', delete: 'deleting users', role: 'changing roles'},
    configuration: {
      edit: 'changing the configuration',
      editor: 'changing the configuration',
      new: 'changing the configuration',
      delete: 'changing the configuration',
    },
  };
  // The write keys of Devices alone (Users has no such key), refused there.
  const REFUSED_ON_DEVICES: Record<string, Partial<Record<string, string>>> = {
    list: {newKey: 'making new keys'},
    detail: {newKey: 'making new keys'},
  };

  it('hides the hints of writes in lists, details and the configuration', async () => {
    for (const scope of ['list', 'detail', 'configuration'] as const) expect(WRITE_HINTS_EXIST(scope), scope).toBe(true);
    const app = await renderApp({fixture: fx, settings: {readOnly: true}});
    app.resize(160, 40);
    await app.waitFor('READ-ONLY');
    await app.press('screen2');
    await app.waitFor('EMAIL');
    await expectHints(
      app,
      hintsOf(['list', 'global'], (b) => b.writes === true),
    );
    expect(statusLine(app)).not.toMatch(/\bn new\b/);
    await app.press('open', 'list');
    await app.waitFor('VPN connection');
    await expectHints(
      app,
      hintsOf(['detail', 'global'], (b) => b.writes === true || b.action === 'reveal'),
    );
    expect(statusLine(app)).not.toMatch(/\be edit\b|\bd delete\b/);
    await app.press('back', 'detail');
    await app.press('screen4');
    await app.waitFor('Client defaults');
    await expectHints(
      app,
      hintsOf(['configuration', 'global'], (b) => b.writes === true),
    );
  });

  it('every write key says "Read-only mode: … is disabled" and sends nothing', async () => {
    const before = JSON.stringify((await fx.api('GET', '/v0/users')).json.data);
    const devicesBefore = JSON.stringify((await fx.api('GET', '/v0/devices')).json.data);
    const app = await renderApp({fixture: fx, settings: {readOnly: true}});
    await app.waitFor('READ-ONLY');
    await app.press('screen2');
    await app.waitFor('EMAIL');
    for (const scope of ['list', 'detail', 'configuration'] as const) {
      if (scope === 'detail') await app.press('open', 'list');
      if (scope === 'configuration') {
        await app.press('back', 'detail');
        await app.press('screen4');
        await app.waitFor('Client defaults');
      }
      for (const b of BINDINGS.filter((x) => x.scope === scope && x.writes && REFUSED_ON_DEVICES[scope]?.[x.action] === undefined)) {
        const what = REFUSED[scope]![b.action];
        expect(what, `no expected refusal for ${scope}/${b.action}`).toBeDefined();
        // a different message first, so each refusal is seen afresh
        await app.press('pause');
        await app.waitFor(/Live updates (paused|resumed)/);
        await app.press(b.action, scope);
        await app.waitFor(`Read-only mode: ${what} is disabled (started with --read-only)`);
        // nothing opened
        expect(app.frame()).not.toMatch(/Add user|Add device|Delete user|Promote|Demote|Save these changes/);
      }
    }
    await app.press('screen1');
    await app.waitFor(/1\/\d+ devices/);
    for (const scope of ['list', 'detail'] as const) {
      if (scope === 'detail') await app.press('open', 'list');
      for (const [action, what] of Object.entries(REFUSED_ON_DEVICES[scope]!)) {
        await app.press('pause');
        await app.waitFor(/Live updates (paused|resumed)/);
        await app.press(action as Action, scope);
        await app.waitFor(`Read-only mode: ${what} is disabled (started with --read-only)`);
        expect(app.frame()).not.toMatch(/New key for/);
      }
    }
    expect(JSON.stringify((await fx.api('GET', '/v0/users')).json.data)).toBe(before);
    expect(JSON.stringify((await fx.api('GET', '/v0/devices')).json.data)).toBe(devicesBefore);
  });
});
