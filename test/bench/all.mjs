// `npm run bench`: the list and live figures (run.mjs), the bulk figures (bulk.mjs), change
// tracking (activity.mjs) and what hostile input costs (hostile.mjs), each in its own process, with
// the same arguments (--write-readme updates their tables in README.md).
import {spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';

const runs = [['run.mjs'], ['bulk.mjs'], ['activity.mjs', '--polls', '400'], ['hostile.mjs']];
for (const [script, ...args] of runs) {
  const result = spawnSync(process.execPath, [fileURLToPath(new URL(script, import.meta.url)), ...args, ...process.argv.slice(2)], {stdio: 'inherit'});
  if (result.status !== 0) process.exit(result.status ?? 1);
}
