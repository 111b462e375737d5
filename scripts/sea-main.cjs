// The single executable's script (scripts/build-exe.mjs): a Node SEA runs one CommonJS script, and
// the console's bundle is ES modules with top-level await. The bundle rides in the executable as
// assets; this writes it to a new private folder (mkdtemp: 0700, files 0600, each created
// exclusively, so nothing that was there can be read as ours), imports it from there through a
// regular module (the injected script itself cannot import()), and removes the folder at exit.
const sea = require('node:sea');
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const {createRequire} = require('node:module');
const {pathToFileURL} = require('node:url');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fz-console-'));
process.on('exit', () => fs.rmSync(dir, {recursive: true, force: true}));
for (const key of JSON.parse(sea.getAsset('manifest.json', 'utf8'))) {
  const file = path.join(dir, key);
  fs.mkdirSync(path.dirname(file), {recursive: true, mode: 0o700});
  fs.writeFileSync(file, Buffer.from(sea.getAsset(key)), {mode: 0o600, flag: 'wx'});
}
const loader = path.join(dir, 'load.cjs');
fs.writeFileSync(loader, 'module.exports = (url) => import(url);\n', {mode: 0o600, flag: 'wx'});
createRequire(loader)(loader)(pathToFileURL(path.join(dir, 'fz-console.js')).href).catch((err) => {
  process.stderr.write(`fz-console: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
