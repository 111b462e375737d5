// The single executable's script (scripts/build-exe.mjs bundles it to CommonJS: a Node SEA runs
// one CommonJS script, and the console's bundle is ES modules with top-level await). The bundle
// rides in the executable as assets; this writes it to a new folder of this user's alone
// (src/config/bundle-folder.ts says where, and why), its files 0600, each created exclusively,
// checks that folder again, and imports the bundle from there through a regular module (the
// injected script itself cannot import()). The folder is removed at exit, and on SIGHUP, SIGINT or
// SIGTERM when nothing else handles them, the process still ending by the signal (128 + n).
import {lstatSync, mkdirSync, rmSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {getAsset} from 'node:sea';
import {pathToFileURL} from 'node:url';
import {checkBundleFolder, makeBundleFolder} from './config/bundle-folder.js';

function fail(message: string): never {
  process.stderr.write(`fz-console: ${message}\n`);
  process.exit(1);
}

function main(): void {
  let dir: string;
  try {
    dir = makeBundleFolder(process.env);
  } catch (err) {
    fail((err as Error).message);
  }
  const remove = () => rmSync(dir, {recursive: true, force: true});
  process.on('exit', remove);
  for (const signal of ['SIGHUP', 'SIGINT', 'SIGTERM'] as const) {
    const onSignal = () => {
      // Another listener (the console, the recorder, the sandbox's Ctrl-C) ends the process
      // through process.exit, which runs `remove`.
      if (process.listenerCount(signal) > 1) return;
      process.off(signal, onSignal);
      remove();
      // No listener left: the signal's own action, and the process ends by it.
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
  const made = lstatSync(dir);
  for (const key of JSON.parse(getAsset('manifest.json', 'utf8')) as string[]) {
    const file = join(dir, key);
    mkdirSync(dirname(file), {recursive: true, mode: 0o700});
    writeFileSync(file, Buffer.from(getAsset(key)), {mode: 0o600, flag: 'wx'});
  }
  const loader = join(dir, 'load.cjs');
  writeFileSync(loader, 'module.exports = (url) => import(url);\n', {mode: 0o600, flag: 'wx'});
  try {
    checkBundleFolder(dir, made);
  } catch (err) {
    fail((err as Error).message);
  }
  const load = createRequire(loader)(loader) as (url: string) => Promise<unknown>;
  load(pathToFileURL(join(dir, 'fz-console.js')).href).catch((err: unknown) => {
    fail(err instanceof Error ? (err.stack ?? err.message) : String(err));
  });
}

main();
