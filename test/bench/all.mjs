// `npm run bench`: the list and live figures (run.mjs), then the bulk figures (bulk.mjs), each in
// its own process, with the same arguments (--write-readme updates both tables in README.md).
import {spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';

for (const script of ['run.mjs', 'bulk.mjs']) {
  const result = spawnSync(process.execPath, [fileURLToPath(new URL(script, import.meta.url)), ...process.argv.slice(2)], {stdio: 'inherit'});
  if (result.status !== 0) process.exit(result.status ?? 1);
}
