// The mouse end to end: the built binary in tmux against a sandbox process, at 120×40 and 80×24,
// mouse reports sent as the bytes a terminal sends them (SGR 1006, `send-keys -H`): a click on a
// tab switches screens, a click on a row moves the cursor there, a double-click opens the detail,
// and the wheel moves the list. tmux says which mouse modes the console asked for: on while it
// runs, off on the shell after Ctrl-Z, after quitting and after a crash, never with --no-mouse.
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {BIN, hasBinary, hasTmux, startSandboxProcess, Terminal, type SandboxProcess} from './harness.js';

const enabled = hasTmux() && hasBinary();
let sandbox: SandboxProcess;
const terms: Terminal[] = [];

/** A terminal running the console on the sandbox, with `hex` to send bytes as a terminal would. */
function open(width: number, height: number, env: Record<string, string> = {}) {
  const t = Terminal.start({width, height, env: {FZ_URL: sandbox.url, FZ_API_TOKEN: sandbox.adminToken, NO_COLOR: '1', ...env}});
  terms.push(t);
  const hex = (bytes: string) => t.tmux('send-keys', '-t', t.name, '-H', ...[...Buffer.from(bytes, 'latin1')].map((b) => b.toString(16).padStart(2, '0')));
  /** A report: button code, the cell from 0 (the report counts from 1), press (M) or release (m). */
  const report = (b: number, col: number, row: number, final: 'M' | 'm') => hex(`\x1b[<${b};${col + 1};${row + 1}${final}`);
  const click = (col: number, row: number) => {
    report(0, col, row, 'M');
    report(0, col, row, 'm');
  };
  /** Whether the terminal sends clicks and the wheel (1000) as SGR reports (1006): tmux's own record of the modes. */
  const mouseModes = () => t.format('#{mouse_standard_flag}#{mouse_sgr_flag}');
  return {t, hex, report, click, mouseModes};
}

/** The cell where `text` is drawn on the screen (its first character). */
function cellOf(screen: string, text: string): {col: number; row: number} {
  const lines = screen.split('\n');
  for (let row = 0; row < lines.length; row++) {
    const col = lines[row]!.indexOf(text);
    if (col >= 0) return {col, row};
  }
  throw new Error(`"${text}" is not on the screen:\n${screen}`);
}

/** The device name on a table line: after the mark and the state glyph. */
const nameOn = (line: string) => line.trim().split(/\s+/)[1]!;

describe.skipIf(!enabled)('the mouse (tmux)', {timeout: 120_000}, () => {
  beforeAll(async () => {
    sandbox = await startSandboxProcess(['--seed', 'demo', '--stats-interval', '0']);
  });
  afterAll(async () => {
    for (const t of terms) t.kill();
    await sandbox?.stop();
  });

  for (const [width, height] of [
    [120, 40],
    [80, 24],
  ] as const) {
    it(`a tab, a row, a double-click and the wheel at ${width}×${height}; the mouse given back on Ctrl-Z and on quitting`, async () => {
      const {t, hex, report, click, mouseModes} = open(width, height);
      expect(mouseModes()).toBe('00');
      t.run(`clear; node ${BIN} --refresh 0; echo "exit=$?"`);
      let screen = await t.waitFor(/1\/(\d+) devices/);
      const total = Number(/1\/(\d+) devices/.exec(screen)![1]);
      expect(mouseModes()).toBe('11');

      // A click on a tab switches screens: Users, then Devices again.
      click(cellOf(screen, '2 Users').col + 1, 1);
      screen = await t.waitFor(/1\/\d+ users/);
      expect(screen).toContain('EMAIL');
      click(cellOf(screen, '1 Devices').col + 1, 1);
      screen = await t.waitFor(`1/${total} devices`);

      // A click on the fifth row drawn puts the cursor there.
      const header = cellOf(screen, 'NAME').row;
      const fifth = nameOn(screen.split('\n')[header + 5]!);
      click(20, header + 5);
      screen = await t.waitFor(`5/${total} devices`);

      // The wheel moves the list three rows a notch: down twice, up once.
      report(65, 20, header + 3, 'M');
      report(65, 20, header + 3, 'M');
      await t.waitFor(`11/${total} devices`);
      report(64, 20, header + 3, 'M');
      await t.waitFor(`8/${total} devices`);
      // The keys still move it, from where the wheel left it.
      hex('k');
      await t.waitFor(`7/${total} devices`);

      // Back up by the wheel (the window has not scrolled at this height), then a double-click
      // on the fifth row, as a terminal sends it (two clicks at once): the first puts the cursor
      // there, the second opens it.
      report(64, 20, header + 3, 'M');
      await t.waitFor(`4/${total} devices`);
      click(20, header + 5);
      click(20, header + 5);
      screen = await t.waitFor('Device ›');
      expect(screen).toContain(`Device › ${fifth}`);
      hex('\x1b');
      await t.waitFor(`5/${total} devices`);

      // A mouse report typed into the filter is not text: the filter stays empty.
      hex('/');
      await t.waitFor(/Enter keep\s+Esc clear/);
      click(20, header + 2);
      hex('\x1b[<0;1');
      hex(';1M');
      hex('x');
      await t.waitFor(/^\/x\S?\s+\d+\/\d+ devices/m);
      hex('\x1b');
      await t.waitFor((s) => !s.includes('Esc clear'));

      // Ctrl-Z: the shell gets the terminal without the mouse; fg takes it back.
      t.keys('C-z');
      await t.waitUntil(() => !t.altScreen, 'the shell');
      expect(mouseModes()).toBe('00');
      t.run('fg');
      await t.waitUntil(() => t.altScreen && /1 Devices \d+/.test(t.screen()), 'the console back');
      expect(mouseModes()).toBe('11');
      click(cellOf(t.screen(), '3 Rules').col + 1, 1);
      await t.waitFor(/1\/\d+ rules/);

      // q: the console ends (fg's status is its own), the shell has no mouse reports.
      hex('q');
      await t.waitUntil(() => !t.altScreen, 'the console to quit');
      t.run('echo "fg=$?"');
      await t.waitFor('fg=0');
      expect(mouseModes()).toBe('00');
    });
  }

  it('--no-mouse: the terminal keeps the mouse, and a report that arrives anyway does nothing', async () => {
    const {t, click, mouseModes} = open(100, 30);
    t.run(`clear; node ${BIN} --refresh 0 --no-mouse; echo "exit=$?"`);
    const screen = await t.waitFor(/1\/(\d+) devices/);
    expect(mouseModes()).toBe('00');
    click(cellOf(screen, '2 Users').col + 1, 1);
    // r after the click: once its message shows, the click has been read.
    t.keys('r');
    await t.waitFor('Refreshing');
    expect(t.screen()).toMatch(/1\/\d+ devices/);
    t.keys('q');
    await t.waitFor('exit=0');
  });

  it('a crash gives the mouse back with the rest of the terminal', async () => {
    const {t, mouseModes} = open(100, 30, {FZ_CONSOLE_TEST_CRASH: 'render'});
    t.run(`clear; node ${BIN} --refresh 0; echo "exit=$?"`);
    await t.waitFor(/exit=1/);
    expect(t.altScreen).toBe(false);
    expect(mouseModes()).toBe('00');
  });
});
