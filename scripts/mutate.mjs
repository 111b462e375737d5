// `npm run mutate`: StrykerJS over the modules that guard the admin, one run per group of
// test/mutation/stryker.config.mjs with that group's tests; prints the survivors, the score per
// file and per group, and fails when a group held to the threshold (`gate`) scores under it. CI
// runs it (docs/architecture.md, "Testing layers").
//
// Runs are incremental: test/mutation/incremental/<group>.json holds the last full result, and
// only mutants whose code or covering tests changed since are tested again (a few seconds to a
// minute per group instead of minutes). The files are read from the checkout and written to a
// temporary folder, so a run leaves the checkout as it was; `--update` writes them back (commit
// them with the change that moved the score).
//   npm run mutate -- --group keys     one group
//   npm run mutate -- --force          test every mutant again, ignoring the incremental files
//   npm run mutate -- --update         write the incremental files back into the checkout
//   npm run mutate -- --all            every module of src/ against every unit suite (long; local; no threshold)
import {spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {dirname, join, relative} from 'node:path';
import {GROUPS} from '../test/mutation/stryker.config.mjs';

/** The share of mutants a gated group's tests must kill; raise it as the tests get better, never lower it. */
const THRESHOLD = 85;

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const all = flag('--all');
const groupArg = flag('--group') ? args[args.indexOf('--group') + 1] : null;
const groups = all ? [{name: 'all', mutate: null, tests: null, gate: false}] : GROUPS.filter((g) => !groupArg || g.name === groupArg);
if (groups.length === 0) {
  console.error(`No group named ${groupArg}; groups: ${GROUPS.map((g) => g.name).join(', ')}`);
  process.exit(2);
}

const core = dirname(createRequire(import.meta.url).resolve('@stryker-mutator/core/package.json'));
// Reports and Stryker's sandboxes go to folders of our own, made fresh (0700, a name no one could
// guess and take first): a fixed name in a shared /tmp would be another user's to plant. Short
// names under /tmp, as the suite's own temporary folders: paths the tests print wrap where they
// do in a normal run.
const out = mkdtempSync('/tmp/fzr');
const sandboxes = mkdtempSync('/tmp/fzm');
process.on('exit', () => {
  rmSync(out, {recursive: true, force: true});
  rmSync(sandboxes, {recursive: true, force: true});
});
const root = process.cwd();
const kept = join(root, 'test/mutation/incremental');
const slug = (name) => name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();

const score = (c) => {
  // Stryker's score: detected (killed or timed out) over every valid mutant.
  const valid = c.killed + c.timeout + c.survived + c.noCoverage;
  return valid === 0 ? 100 : ((c.killed + c.timeout) * 100) / valid;
};
const empty = () => ({killed: 0, survived: 0, noCoverage: 0, timeout: 0});
const add = (into, c) => {
  for (const k of Object.keys(into)) into[k] += c[k];
};

/** A group's `mutate` patterns as regular expressions: `**`, `*` and `{a,b}`, as the config uses them. */
const patternOf = (glob) =>
  new RegExp(
    `^${glob
      .replace(/[.+^$()|[\]\\]/g, '\\$&')
      .replace(/\{([^}]*)\}/g, (_, alternatives) => `(${alternatives.split(',').join('|')})`)
      .replace(/\*\*\//g, '\0')
      .replace(/\*/g, '[^/]*')
      .replace(/\0/g, '(.*/)?')}$`,
  );
const inGroup = (group, path) => {
  if (!group.mutate) return true;
  const relativePath = relative(root, path) || path;
  const included = group.mutate.filter((g) => !g.startsWith('!')).some((g) => patternOf(g).test(relativePath));
  return included && !group.mutate.filter((g) => g.startsWith('!')).some((g) => patternOf(g.slice(1)).test(relativePath));
};

/** An incremental result with the files of `group` only. */
const copyGroupFiles = (group, from, to) => {
  const result = JSON.parse(readFileSync(from, 'utf8'));
  result.files = Object.fromEntries(Object.entries(result.files).filter(([path]) => inGroup(group, path)));
  writeFileSync(to, JSON.stringify(result, null, 2));
};

const files = new Map();
const byGroup = [];
const started = Date.now();
for (const [i, group] of groups.entries()) {
  console.log(`\n== mutate: ${group.name}`);
  const report = join(out, `report-${i}.json`);
  const incremental = join(out, `${slug(group.name)}.json`);
  const committed = join(kept, `${slug(group.name)}.json`);
  // Only the group's own files: Stryker reports every file of the incremental file, and a module
  // that moved to another group would still count in this one.
  if (existsSync(committed) && !flag('--force')) copyGroupFiles(group, committed, incremental);
  const env = {...process.env, FZ_MUTATE_REPORT: report, FZ_MUTATE_INCREMENTAL: incremental, FZ_MUTATE_SANDBOXES: sandboxes};
  if (group.mutate) {
    env.FZ_MUTATE_GROUP = group.name;
    env.FZ_MUTATE_TESTS = group.tests.join(',');
  }
  const run = spawnSync(process.execPath, [join(core, 'bin/stryker.js'), 'run', 'test/mutation/stryker.config.mjs', ...(flag('--force') ? ['--force'] : [])], {
    stdio: 'inherit',
    env,
  });
  if (run.status !== 0) {
    console.error(`Stryker failed on the group "${group.name}" (status ${run.status})`);
    process.exit(1);
  }
  if (flag('--update') && group.mutate) {
    mkdirSync(kept, {recursive: true});
    copyGroupFiles(group, incremental, committed);
  }
  const json = JSON.parse(readFileSync(report, 'utf8'));
  const total = empty();
  for (const [path, file] of Object.entries(json.files)) {
    if (!inGroup(group, path)) continue;
    const counts = files.get(path) ?? empty();
    const mine = empty();
    for (const m of file.mutants) {
      const key = {Killed: 'killed', Timeout: 'timeout', Survived: 'survived', NoCoverage: 'noCoverage'}[m.status];
      if (key) mine[key]++;
    }
    add(counts, mine);
    add(total, mine);
    files.set(path, counts);
  }
  byGroup.push({group, total});
}

const table = (rows, head) => {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (r) => r.map((v, i) => (i === 0 ? String(v).padEnd(widths[i]) : String(v).padStart(widths[i]))).join('  ');
  console.log(`\n${line(head)}`);
  for (const r of rows) console.log(line(r));
};
const row = (name, c) => [name, score(c).toFixed(1), c.killed + c.timeout, c.survived, c.noCoverage];
table(
  [...files].sort().map(([path, c]) => row(relative(root, path) || path, c)),
  ['file', 'score %', 'killed', 'survived', 'no coverage'],
);
const everything = empty();
for (const g of byGroup) add(everything, g.total);
table(
  [...byGroup.map((g) => [...row(g.group.name, g.total), g.group.gate ? `≥ ${THRESHOLD}` : 'not yet']), [...row('all guarded modules', everything), '']],
  ['group', 'score %', 'killed', 'survived', 'no coverage', 'held to'],
);
console.log(`\nMutation score ${score(everything).toFixed(1)}% in ${Math.round((Date.now() - started) / 1000)} s`);
const under = byGroup.filter((g) => g.group.gate && score(g.total) < THRESHOLD);
if (under.length > 0 && !all) {
  for (const g of under)
    console.error(
      `Mutation score of "${g.group.name}" is ${score(g.total).toFixed(1)}%, under the threshold of ${THRESHOLD}%: a guard changed without a test noticing (see its survivors above)`,
    );
  process.exit(1);
}
