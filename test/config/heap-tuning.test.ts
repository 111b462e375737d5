// The heap's settings (src/config/heap-tuning.ts, docs/performance.md, "The heap's settings"),
// in processes of their own: V8 flags set in the test worker would change the worker. Each
// child runs the module as bundled and churns objects that live through a collection or two,
// yielding now and then as the console's sliced work does, and reports the young generation's
// size before and after. CI runs this on Node 20, 22 and 24: a V8 that stops knowing a flag, or
// stops reading it while running, fails here rather than in an admin's terminal.
import {spawnSync} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {bundleModule} from '../helpers/bundle.js';

let dir: string;
let child: string;

const MB = 1024 * 1024;

const CHILD = `
const {tuneHeap, youngGenerationBytes, YOUNG_GENERATION_CAP_BYTES} = await import(process.argv[2]);
const settings = JSON.parse(process.argv[3]);
const tuning = settings === null ? {applied: [], stop() {}} : tuneHeap(settings.execArgv, settings.nodeOptions);
const before = youngGenerationBytes();
// In slices of 5,000 objects (~0.5 MB) with the thread yielded in between, as the console
// decodes and derives: V8 grows the young generation only at a collection, and the observer
// that holds it at the cap runs between two slices.
const slice = () => new Promise((r) => setImmediate(r));
const live = [];
for (let i = 0; i < 100000; i++) {
  live.push({i, s: 'x' + i});
  if (i % 5000 === 0) await slice();
}
const ring = new Array(20000);
for (let k = 0; k < 1000000; k++) {
  ring[k % ring.length] = {k, a: [k, k + 1], s: 'y' + k};
  if (k % 5000 === 0) await slice();
}
tuning.stop();
process.stdout.write(JSON.stringify({applied: tuning.applied, before, after: youngGenerationBytes(), cap: YOUNG_GENERATION_CAP_BYTES, kept: live.length + ring.length}));
`;

interface Report {
  applied: string[];
  before: number;
  after: number;
  cap: number;
}

function run(settings: {execArgv: string[]; nodeOptions: string} | null): Report {
  const r = spawnSync(process.execPath, [child, pathToFileURL(join(dir, 'heap.mjs')).href, JSON.stringify(settings)], {
    encoding: 'utf8',
    env: {...process.env, NODE_OPTIONS: ''},
  });
  // Nothing on stderr: V8 reports a flag it does not know there, which in the console would land on the terminal.
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as Report;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fzc-heap-'));
  await bundleModule('config/heap-tuning.ts', dir, 'heap');
  child = join(dir, 'child.mjs');
  writeFileSync(child, CHILD);
}, 30_000);

afterAll(() => rmSync(dir, {recursive: true, force: true}));

describe('the heap settings', () => {
  it('let the young generation grow to the cap and hold it there, where V8 alone grows it further', () => {
    const untouched = run(null);
    // The churn is one that grows the young generation well past the cap (else the next check
    // proves nothing): V8 takes it to 32 MB (128 MB on Node 24).
    expect(untouched.after).toBeGreaterThanOrEqual(4 * untouched.cap);
    const tuned = run({execArgv: [], nodeOptions: ''});
    expect(tuned.cap).toBe(8 * MB);
    expect(tuned.before).toBeLessThan(tuned.cap);
    expect(tuned.applied).toEqual(['--heap-growing-percent=20', '--semi-space-growth-factor=1']);
    // At the cap, or a growth or two past it: V8 grows the generation at a collection and the
    // observer hears of it after the task; on a loaded machine (the whole suite on Node 24) it was
    // seen at 2.25× the cap (18 MB) once. Held all the same: under what V8 alone reaches (≥ 4×).
    expect(tuned.after).toBeGreaterThanOrEqual(tuned.cap);
    expect(tuned.after).toBeLessThan(4 * tuned.cap);
  });

  it('leave a setting the user gave Node themselves alone, and set the other', () => {
    const ownYoung = run({execArgv: ['--max-semi-space-size=64'], nodeOptions: ''});
    expect(ownYoung.applied).toEqual(['--heap-growing-percent=20']);
    expect(ownYoung.after).toBeGreaterThanOrEqual(4 * ownYoung.cap);
    const ownGrowth = run({execArgv: [], nodeOptions: '--heap-growing-percent=50'});
    expect(ownGrowth.applied).toEqual(['--semi-space-growth-factor=1']);
    expect(ownGrowth.after).toBeLessThanOrEqual(2 * ownGrowth.cap);
  });
});
