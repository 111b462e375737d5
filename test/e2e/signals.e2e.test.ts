// SIGTERM, SIGHUP and SIGINT end the console quietly: the terminal is restored, nothing is
// printed, and the shell sees 128 + the signal number. Run many times, against a sandbox
// process and with --demo (an in-process sandbox, more to tear down), because the failure
// this guards against (a second close() racing the first, printed as an error, exit 1) came
// and went with timing.
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {BIN as BUILT, hasBinary, hasTmux, startSandboxProcess, Terminal, type SandboxProcess} from './harness.js';

const enabled = hasTmux() && hasBinary();
// FZ_E2E_BIN: run against another build (e.g. an older commit's, to see this test fail there).
const BIN = process.env.FZ_E2E_BIN ?? BUILT;
let sandbox: SandboxProcess;
const terminals: Terminal[] = [];
const STATUS: Record<string, number> = {SIGTERM: 143, SIGHUP: 129, SIGINT: 130};

function terminal(): Terminal {
  const t = Terminal.start({width: 100, height: 30, env: {FZ_URL: sandbox.url, FZ_API_TOKEN: sandbox.adminToken, NO_COLOR: '1'}});
  terminals.push(t);
  return t;
}

let run = 0;
async function exitBySignal(t: Terminal, args: string, signal: NodeJS.Signals): Promise<void> {
  const n = ++run;
  t.run(`clear; node ${BIN} ${args}; echo "exit=$? run=${n}"`);
  await t.waitFor(/1 Devices \d+/);
  expect(t.altScreen).toBe(true);
  const pid = t.childPid();
  expect(pid).not.toBeNull();
  process.kill(pid!, signal);
  const screen = await t.waitFor(new RegExp(`exit=\\d+ run=${n}\\n`));
  const context = `${signal} ${args || '(sandbox process)'} run ${n}; screen:\n${screen}`;
  expect(screen, context).toContain(`exit=${STATUS[signal]} run=${n}`);
  // Nothing but the command line, the status line and the prompt.
  const lines = screen
    .split('\n')
    .map((l) => l.trimEnd())
    .filter(Boolean);
  expect(
    lines.filter((l) => !l.startsWith('SHELL-READY$') && !l.startsWith('exit=')),
    context,
  ).toEqual([]);
  expect(screen, context).not.toMatch(/error|fz-console:|\bat /i);
  expect(t.altScreen, context).toBe(false);
  expect(t.cursorVisible, context).toBe(true);
}

describe.skipIf(!enabled)('signals end to end (tmux)', {timeout: 120_000}, () => {
  beforeAll(async () => {
    sandbox = await startSandboxProcess(['--seed', 'demo', '--stats-interval', '0']);
  });
  afterAll(async () => {
    for (const t of terminals) t.kill();
    await sandbox?.stop();
  });

  it("Ctrl-Z while live, fg once the clock's timers fell due, q: nothing of the console is left on the shell's screen", async () => {
    const t = terminal();
    t.run(`clear; node ${BIN} --refresh 1`);
    await t.waitFor(/1 Devices \d+/);
    t.keys('C-z');
    await t.waitFor(/Stopped/);
    await t.waitUntil(() => !t.altScreen, 'the main screen');
    // Stopped for longer than the header clock's second and the refresh: on fg their timers run
    // before the SIGCONT handler has taken the alternate screen back (their frames went to the
    // shell's screen: "live 1s · refreshing" over the prompt).
    await new Promise((r) => setTimeout(r, 2500));
    t.run('fg');
    await t.waitUntil(() => t.altScreen && /1 Devices \d+/.test(t.screen()), 'the console back');
    t.keys('q');
    await t.waitUntil(() => !t.altScreen, 'the console to quit');
    t.run('echo "status=$?"');
    const screen = await t.waitFor('status=0');
    const console = screen.split('\n').filter((l) => /Devices|Users|live|refreshing|updated|online/.test(l));
    expect(console, screen).toEqual([]);
  });

  it('after Ctrl-Z and fg the cursor is hidden again, as before the stop; shown on the shell meanwhile and after q', async () => {
    const t = terminal();
    t.run(`clear; node ${BIN} --refresh 0`);
    await t.waitFor(/1 Devices \d+/);
    await t.waitUntil(() => !t.cursorVisible, 'the cursor hidden by the console');
    t.keys('C-z');
    await t.waitFor(/Stopped/);
    await t.waitUntil(() => !t.altScreen && t.cursorVisible, 'the shell with its cursor');
    t.run('fg');
    await t.waitUntil(() => t.altScreen && /1 Devices \d+/.test(t.screen()), 'the console back');
    // Drawn again, and still no cursor: wait past the first repaint for a stray show to land.
    t.keys('j');
    await t.waitFor(/2\/\d+ devices/);
    expect(t.cursorVisible).toBe(false);
    t.keys('q');
    await t.waitUntil(() => !t.altScreen, 'the console to quit');
    expect(t.cursorVisible).toBe(true);
  });

  it('Ctrl-Z with no shell to go back to (the console leads its session: `exec`, tmux or ssh running it) says so and stays', async () => {
    const t = terminal();
    // exec: the console takes the shell's place and leads the session; its group is orphaned,
    // and the kernel would discard its SIGTSTP (it stayed running with the screen given up).
    t.run(`clear; exec node ${BIN} --refresh 0`);
    await t.waitFor(/1 Devices \d+/);
    t.keys('C-z');
    await t.waitFor(/nothing to suspend to here/);
    expect(t.altScreen).toBe(true);
    t.keys('j');
    await t.waitFor(/2\/\d+ devices/);
  });

  // Two terminals side by side keep the file well under a minute on two cores.
  it('20 exits on SIGTERM and SIGHUP, with a server and with --demo: quiet, 143/129, terminal restored', async () => {
    const plan: [string, NodeJS.Signals][] = [];
    for (let i = 0; i < 5; i++) plan.push(['', 'SIGTERM'], ['--demo', 'SIGHUP'], ['--demo', 'SIGTERM'], ['', 'SIGHUP']);
    const lanes = [terminal(), terminal()];
    await Promise.all(
      lanes.map(async (t, lane) => {
        for (let i = lane; i < plan.length; i += lanes.length) await exitBySignal(t, plan[i]![0], plan[i]![1]);
      }),
    );
    expect(run).toBe(20);
  });

  it('SIGINT sent to the process: quiet, 130', async () => {
    const t = terminal();
    await exitBySignal(t, '', 'SIGINT');
    await exitBySignal(t, '--demo', 'SIGINT');
  });
});
