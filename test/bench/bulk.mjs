// The bulk figures of `npm run bench` (README.md, "Performance"): onboarding 500 users with a
// device each from a CSV, and deleting 1,000 marked devices, through the real App against a
// sandbox process started with --latency-ms 20 (a real 0.7.36 server rewrites WireGuard and
// nftables on every write, so a bulk run must not flood it). Prints a table; with
// --write-readme also replaces the bulk table in README.md.
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {build} from 'esbuild';
import {commonOptions, requireShim} from '../../scripts/esbuild-common.mjs';
import {root, startSandbox, writeReadmeSection} from './common.mjs';

const writeReadme = process.argv.includes('--write-readme');
const IMPORT_ROWS = 500;
const DELETE_DEVICES = 1000;

const work = mkdtempSync(join(tmpdir(), 'fzc-bench-bulk-'));
const script = join(work, 'bulk.mjs');
await build({
  ...commonOptions,
  entryPoints: [join(root, 'test/bench/bulk.tsx')],
  outfile: script,
  define: {'process.env.NODE_ENV': '"production"'},
  banner: {js: requireShim},
});

function runChild(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {stdio: ['ignore', 'pipe', 'inherit']});
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop())) : reject(new Error(`bulk bench exited ${code}`))));
  });
}

async function measure(sandboxArgs, mode, count) {
  process.stderr.write(`bench: ${mode} ${count}…\n`);
  const sandbox = await startSandbox(['--stats-interval', '0', '--latency-ms', '20', ...sandboxArgs]);
  try {
    return await runChild([mode, sandbox.url, sandbox.token, String(count)]);
  } finally {
    sandbox.child.kill('SIGTERM');
  }
}

try {
  const imported = await measure(['--seed', 'empty', '--ipv4-network', '10.3.0.0/16', '--ipv6-network', 'fd00::3:0:0/112'], 'import', IMPORT_ROWS);
  const deleted = await measure(
    ['--seed', 'demo', '--devices', String(DELETE_DEVICES), '--users', '200', '--max-devices-per-user', '100'],
    'delete',
    DELETE_DEVICES,
  );
  const fmt = (n) => n.toFixed(1);
  const lines = [
    '| bulk figure (sandbox `--latency-ms 20`) | result | budget |',
    '|---|---|---|',
    `| import ${IMPORT_ROWS} rows, one device each (s) | ${fmt(imported.seconds)} (${imported.requests} requests, at most ${imported.peakInFlight} in flight; the bar showed ${imported.progressSteps} steps) | < 60 |`,
    `| bulk delete ${DELETE_DEVICES} marked devices (s) | ${fmt(deleted.seconds)} (${deleted.requests} requests, at most ${deleted.peakInFlight} in flight; the bar showed ${deleted.progressSteps} steps) | < 30 |`,
  ];
  const table = `${lines.join('\n')}\n\nNode ${process.version}, ${new Date().toISOString().slice(0, 10)}.`;
  console.log(table);
  if (writeReadme) writeReadmeSection('bench-bulk', table);
} finally {
  rmSync(work, {recursive: true, force: true});
}
