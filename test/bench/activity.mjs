// Change detection bench (issue #14): `node test/bench/activity.mjs [--devices N] [--polls N] [--write-readme]`.
// `npm run bench` runs it with 400 polls (the ring of 10,000 events fills at about 1,300, the history
// buffers are allocated after the first polls); the full hour is `--polls 3600` (half an hour of CPU).
// Bundles test/bench/activity-inproc.ts the way run.mjs bundles inproc.tsx, runs it in a fresh
// Node with --expose-gc, and prints a table against the budgets: ≤ 10 ms of change detection per
// refresh at 50k devices with stats changing every poll, and ≤ 30 MB held by the event ring, the
// row marks and the traffic history after an hour at one poll a second.
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {parseArgs} from 'node:util';
import {build} from 'esbuild';
import {commonOptions, requireShim} from '../../scripts/esbuild-common.mjs';
import {root, writeReadmeSection} from './common.mjs';

const {values} = parseArgs({
  options: {devices: {type: 'string', default: '50000'}, polls: {type: 'string', default: '3600'}, json: {type: 'boolean'}, 'write-readme': {type: 'boolean'}},
});
const work = mkdtempSync(join(tmpdir(), 'fzc-bench-activity-'));
const bundle = join(work, 'activity-inproc.mjs');

try {
  await build({...commonOptions, entryPoints: [join(root, 'test/bench/activity-inproc.ts')], outfile: bundle, banner: {js: requireShim}});
  const out = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', bundle, values.devices, values.polls], {stdio: ['ignore', 'pipe', 'inherit']});
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
    });
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`activity bench exited ${code}`))));
  });
  const r = JSON.parse(out.trim().split('\n').pop());
  if (values.json) {
    console.log(JSON.stringify(r));
  } else {
    const ms = (s) => `${s.p50} / ${s.p95} / ${s.max}`;
    const rows = [
      ['change detection per refresh (observe), p50 / p95 / max ms', ms(r.diffMs), '≤ 10 ms'],
      ['  same, nothing changed (identity path)', ms(r.unchangedDiffMs), ''],
      ['history.record per refresh, p50 / p95 / max ms', ms(r.recordMs), ''],
      ['(for scale) buildSnapshot per refresh, p50 / p95 / max ms', ms(r.buildSnapshotMs), ''],
      [`held by ring + marks + history after ${r.polls} polls`, `${r.retainedMB} MB`, '≤ 30 MB'],
      ['  of which history typed arrays', `${r.historyTypedArraysMB} MB (${r.historyTracked} devices)`, ''],
      ['events (in the ring / total)', `${r.ringEvents} / ${r.events}`, ''],
    ];
    const table = [
      `| change tracking, ${r.devices / 1000}k devices, stats changing every poll, ${r.polls} polls | result | budget |`,
      '|---|---|---|',
      ...rows.map(([a, b, c]) => `| ${a.trim()} | ${b} | ${c} |`),
      '',
      `Node ${process.version}, ${new Date().toISOString().slice(0, 10)}, ${r.seconds} s.`,
    ].join('\n');
    console.log(table);
    if (values['write-readme']) writeReadmeSection('bench-activity', table);
  }
} finally {
  rmSync(work, {recursive: true, force: true});
}
