// What the bench scripts (run.mjs, bulk.mjs, activity.mjs) share: a sandbox process of the built
// binary, and writing a table into its section of README.md.
import {execFileSync, spawn} from 'node:child_process';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(root, 'dist/fz-console.js');

/** `fz-console sandbox --port 0 …args`; resolves with its URL and admin token once it has printed them. */
export function startSandbox(args) {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', ...args], {stdio: ['ignore', 'pipe', 'pipe']});
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.stdout.on('data', (d) => {
      out += d;
      const vars = Object.fromEntries(
        out
          .split('\n')
          .filter((l) => l.includes('='))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      if (vars.FZ_UNPRIVILEGED_TOKEN) resolve({child, url: vars.FZ_URL, token: vars.FZ_API_TOKEN});
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited ${code}: ${err}`)));
  });
}

/** Replaces the text between `<!-- NAME:start -->` and `<!-- NAME:end -->` in README.md with `table`. */
export function writeReadmeSection(name, table) {
  const readme = join(root, 'README.md');
  const text = readFileSync(readme, 'utf8');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  if (!text.includes(start) || !text.includes(end)) throw new Error(`README.md has no ${start} … ${end} section`);
  writeFileSync(readme, `${text.slice(0, text.indexOf(start) + start.length)}\n${table}\n${text.slice(text.indexOf(end))}`);
}

/**
 * A 120×40 tmux pane on its own server (`-L socket`) running a bare bash, without the CI variables
 * (the console would draw for CI), with `env` set; returns the `tmux` command bound to that server.
 */
export function benchPane(socket, env) {
  const tmux = (...args) => execFileSync('tmux', ['-L', socket, ...args], {encoding: 'utf8'});
  const vars = Object.entries({TERM: 'xterm-256color', ...env}).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'b', '-x', '120', '-y', '40', ...vars, 'env -u CI -u CONTINUOUS_INTEGRATION bash --norc --noprofile');
  return tmux;
}
