// Seeded random keystrokes across every screen, form and dialog against a demo sandbox: no
// crash, no unhandled rejection, no React warning, and the frame never taller than the
// terminal. The seed is printed on failure; MONKEY_SEED and MONKEY_KEYS override.
import React from 'react';
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest';
import {render} from 'ink-testing-library';
import {FirezoneClient} from '../../src/api/index.js';
import {startSandbox, type SandboxHandle} from '../../src/sandbox/index.js';
import {App} from '../../src/ui/App.js';
import {strip} from '../helpers/ink.js';
import {seededRandom} from '../helpers/seeded.js';

const SEED = Number(process.env.MONKEY_SEED ?? 20261122);
const KEYS = Number(process.env.MONKEY_KEYS ?? 20000);
const ROWS = 30; // ink-testing-library's stdout has no rows: the App falls back to 100×30

// Weighted: navigation and commands most, then text, control keys and escape sequences.
const ALPHABET: Array<[string, number]> = [
  ['j', 8],
  ['k', 6],
  ['\x1b[B', 6],
  ['\x1b[A', 5],
  ['\r', 6],
  ['\x1b', 7],
  ['\t', 6],
  ['\x1b[Z', 2],
  ['1', 3],
  ['2', 3],
  ['3', 3],
  ['4', 3],
  ['5', 2],
  ['S', 1],
  ['*', 1],
  ['I', 1],
  ['X', 1],
  ['/', 3],
  ['o', 2],
  ['O', 1],
  ['G', 2],
  ['g', 2],
  ['n', 4],
  ['e', 3],
  ['d', 3],
  ['y', 3],
  ['v', 2],
  ['c', 1],
  ['R', 2],
  ['p', 2],
  ['r', 1],
  ['?', 2],
  ['w', 2],
  ['Q', 2],
  ['a', 1],
  [' ', 3],
  ['\x1b[C', 2],
  ['\x1b[D', 2],
  ['\x13', 3],
  ['\x15', 1],
  ['\x7f', 3],
  ['\x1b[5~', 1],
  ['\x1b[6~', 1],
  ['x', 2],
  ['@', 1],
  ['.', 1],
  ['0', 1],
  ['-', 1],
  ['é', 1],
  ['漢', 1],
  ['jjj', 1],
  ['\x1b2', 1],
];
const TOTAL_WEIGHT = ALPHABET.reduce((sum, [, w]) => sum + w, 0);

function pick(random: () => number): string {
  let r = random() * TOTAL_WEIGHT;
  for (const [key, weight] of ALPHABET) {
    r -= weight;
    if (r < 0) return key;
  }
  return 'j';
}

let sandbox: SandboxHandle;
let client: FirezoneClient;

beforeAll(async () => {
  sandbox = await startSandbox({port: 0, seed: 'demo', statsIntervalSeconds: 1});
  client = new FirezoneClient({baseUrl: sandbox.url, token: sandbox.adminToken});
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

describe('monkey', () => {
  it(`survives ${KEYS} seeded random keys (seed ${SEED})`, {timeout: 240_000}, async () => {
    const errors: string[] = [];
    const consoleError = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      errors.push(args.map(String).join(' '));
    });
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    const random = seededRandom(SEED);
    // Writes would only prove that random keys can delete the demo data; the monkey is about
    // the console surviving, so the exit key is disarmed and everything else is live.
    const ui = render(
      <App
        client={client}
        settings={{label: 'monkey', refreshSeconds: 1, readOnly: false, insecure: false, demo: true}}
        writeRaw={() => undefined}
        escapeDelayMs={0}
      />,
    );
    const history: string[] = [];
    try {
      let helpSeen = 0;
      for (let i = 0; i < KEYS; i++) {
        // Now and then walk back out of forms and dialogs so every screen keeps being reached.
        if (i % 150 === 149) {
          // Each Esc alone, then a timer turn: a terminal sends Esc with silence after it (an ESC
          // followed at once by a key is that key with Alt).
          for (const k of ['\x1b', 'y', '\x1b', '\x1b']) {
            ui.stdin.write(k);
            await new Promise((r) => setTimeout(r, 0));
          }
        }
        let key = pick(random);
        if (key === 'q' || key === '\x03') key = 'j';
        history.push(key);
        ui.stdin.write(key);
        if (key === '\x1b') await new Promise((r) => setTimeout(r, 0));
        if (i % 4 === 0) await new Promise((r) => setImmediate(r));
        if (i % 50 === 0) {
          await new Promise((r) => setTimeout(r, 0));
          const frame = strip(ui.lastFrame());
          // A render error makes Ink replace the UI with its error overview.
          if (!frame.startsWith('fz-console')) throw new Error(`the console stopped rendering after key ${i}:\n${frame.slice(0, 600)}`);
          if (frame.includes('Keys — where you are first')) helpSeen++;
          const lines = frame.split('\n').length;
          if (lines > ROWS - 1) throw new Error(`frame of ${lines} lines in a ${ROWS}-row terminal after key ${i}`);
        }
        if (errors.length > 0 || rejections.length > 0) break;
      }
      await new Promise((r) => setTimeout(r, 50));
      // The walk must have reached the overlays it is meant to exercise.
      expect(helpSeen, 'help was never open at a checkpoint: the walk is too narrow').toBeGreaterThan(0);
      expect(errors, `React/console errors (seed ${SEED}); last keys ${JSON.stringify(history.slice(-30))}`).toEqual([]);
      expect(rejections, `unhandled rejections (seed ${SEED})`).toEqual([]);
      expect(strip(ui.lastFrame()).startsWith('fz-console')).toBe(true);
    } catch (err) {
      throw new Error(`monkey failed with seed ${SEED} (MONKEY_SEED=${SEED} to replay): ${(err as Error).message}`, {cause: err});
    } finally {
      ui.unmount();
      consoleError.mockRestore();
      process.off('unhandledRejection', onRejection);
    }
  });
});
