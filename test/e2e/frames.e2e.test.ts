// Frames sent as changes (src/ui/frame-writer.ts), end to end: the built binary in tmux against a
// sandbox process whose stats change every second, refreshed every second. After random keys
// (cursor moves, filter typing, screen switches, details), live updates and a resize, the pane
// must hold, cell by cell (character and SGR attributes, from `capture-pane -e`), what a whole
// draw of the same state holds: updates are paused (`p`), the pane is captured, then Ctrl-Z and
// `fg` make the console draw its last frame whole on a blank screen (src/cli.tsx), and the pane
// is captured again. And a cursor move costs far less than the whole frame it used to.
import {mkdtempSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {BIN, hasBinary, hasTmux, startSandboxProcess, Terminal} from './harness.js';
import {VirtualTerminal} from '../helpers/vt.js';
import {seededRandom} from '../helpers/seeded.js';

const canRun = hasTmux() && hasBinary();

/** A small seeded generator, so that a failing run can be replayed (FRAMES_SEED). */

/** The pane as cells: `capture-pane -e` (text with SGR) replayed into a virtual terminal of its size. */
function cells(t: Terminal): {dump: string[]; text: string[]} {
  const {width, height} = t.size;
  const captured = t.tmux('capture-pane', '-e', '-p', '-t', t.name).split('\n').slice(0, height);
  const vt = new VirtualTerminal(width, height);
  captured.forEach((line, r) => vt.write(`\x1b[${r + 1}H\x1b[0m${line}`));
  expect(vt.unknown).toEqual([]);
  return {dump: vt.dump(), text: vt.text()};
}

let term: Terminal | null = null;
let work: string | null = null;
afterEach(() => {
  term?.kill();
  term = null;
  if (work) rmSync(work, {recursive: true, force: true});
  work = null;
});

describe.skipIf(!canRun)('frames sent as changes, in tmux', () => {
  it('after random keys, live updates and a resize, the pane is what a whole draw of the same state shows', async () => {
    const seed = Number(process.env.FRAMES_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const rand = seededRandom(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const sandbox = await startSandboxProcess(['--seed', 'demo', '--stats-interval', '1']);
    work = mkdtempSync(join(tmpdir(), 'fzc-frames-'));
    const bytesFile = join(work, 'pane.bytes');
    const t = Terminal.start({width: 120, height: 40, env: {FZ_URL: sandbox.url, FZ_API_TOKEN: sandbox.adminToken}});
    term = t;
    const written = () => {
      try {
        return statSync(bytesFile).size;
      } catch {
        return 0;
      }
    };
    /** Until the console has written nothing for `ms` (a frame is out, whatever it was). */
    const quiet = async (ms = 120) => {
      let last = written();
      let since = Date.now();
      while (Date.now() - since < ms) {
        await new Promise((r) => setTimeout(r, 20));
        if (written() !== last) {
          last = written();
          since = Date.now();
        }
      }
    };
    const context = () => `(FRAMES_SEED=${seed})`;

    /** Paused, the pane now against the pane after Ctrl-Z and fg (the last frame drawn whole). */
    const compareWithWholeDraw = async (when: string) => {
      t.keys('p');
      await t.waitFor(/PAUSED/);
      await quiet(300);
      const before = cells(t);
      t.keys('C-z');
      await t.waitFor(/Stopped/);
      await t.waitUntil(() => !t.altScreen, 'the main screen');
      t.run('fg');
      await t.waitUntil(() => t.altScreen && /PAUSED/.test(t.screen()), 'the console back');
      await quiet(300);
      const after = cells(t);
      for (let r = 0; r < after.dump.length; r++) {
        if (before.dump[r] !== after.dump[r]) {
          const c = [...Array(after.dump[r]!.length).keys()].find((i) => before.dump[r]![i] !== after.dump[r]![i]) ?? 0;
          throw new Error(
            `${when} ${context()}: row ${r} differs from a whole draw near ${JSON.stringify(after.dump[r]!.slice(c, c + 120))}\n` +
              `sent as changes: ${before.text[r]}\nwhole draw:      ${after.text[r]}`,
          );
        }
      }
      t.keys('p');
      await t.waitUntil(() => !/PAUSED/.test(t.screen()), 'live updates again');
    };

    const KEYS = ['j', 'j', 'j', 'k', 'k', 'PageDown', 'PageUp', 'g', 'G', '1', '2', '3', '5', 'Tab', 'r'] as const;
    const randomKeys = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const roll = rand();
        if (roll < 0.12) {
          // A filter typed, partly taken back, kept (Enter), and half the time cleared on the list (Esc).
          // On a list (elsewhere the letters would be keys, and Enter could open a form).
          t.keys(pick(['1', '2', '3']));
          await quiet();
          t.keys('/');
          await quiet();
          t.type(pick(['lap', 'user', 'ci-', '10.3', 'a', 'zz']));
          await quiet();
          if (rand() < 0.5) t.keys('BSpace');
          await quiet();
          t.keys('Enter');
          if (rand() < 0.5) {
            await quiet();
            t.keys('Escape');
          }
        } else if (roll < 0.2) {
          // A detail opened, scrolled and closed.
          t.keys('1');
          await quiet();
          t.keys('Enter');
          await quiet();
          t.keys(pick(['j', 'k', 'PageDown']));
          await quiet();
          t.keys('Escape');
        } else t.keys(pick(KEYS));
        await quiet();
      }
    };

    try {
      t.tmux('pipe-pane', '-o', '-t', t.name, `cat >> ${bytesFile}`);
      t.run(`node ${BIN} --refresh 1`);
      await t.waitFor(/1\/\d+ devices/);
      await randomKeys(40);
      await compareWithWholeDraw('after random keys and live updates');

      t.resize(100, 30);
      await t.waitUntil(() => t.size.width === 100, 'the resize');
      await randomKeys(20);
      t.resize(120, 40);
      await t.waitUntil(() => t.size.width === 120, 'the resize back');
      await randomKeys(20);
      await compareWithWholeDraw('after resizes, random keys and live updates');

      // A cursor move, paused: the two rows whose highlight moved, not the whole frame (~5.7 KB).
      // Each key alone: Esc with a key right behind it is that key with Alt.
      for (const key of ['1', 'Escape', 'g', 'p']) {
        t.keys(key);
        await quiet();
      }
      await t.waitFor(/PAUSED/);
      // The whole list (Esc cleared any filter), the cursor on its first row.
      await t.waitFor((s) => /(?<!\d)1\/\d+ devices/.test(s) && !/ of \d+ devices/.test(s));
      const moves: number[] = [];
      for (let i = 2; i <= 11; i++) {
        await quiet();
        const before = written();
        t.keys('j');
        await t.waitFor(new RegExp(`(?<!\\d)${i}/\\d+ devices`));
        await quiet();
        moves.push(written() - before);
      }
      expect(Math.max(...moves), `bytes per cursor move ${moves.join(', ')}`).toBeLessThan(1000);
      t.keys('q');
      await t.waitUntil(() => !t.altScreen, 'the console to quit');
    } finally {
      t.kill();
      term = null;
      await sandbox.stop();
    }
  }, 180_000);
});
