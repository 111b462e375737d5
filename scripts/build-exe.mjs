// `npm run build:exe`: one file that runs with no Node installed (README, "One executable").
//
// A Node single executable application: the base is the `node` binary of the npm package
// node-linux-<arch> (the same source .ci/run takes Node 22 and 24 from; FZ_EXE_NODE names one
// already at hand), and the bundle in dist/ rides inside it as SEA assets. A SEA runs one CommonJS
// script, and the bundle is ES modules with top-level await (yoga-layout, Ink), so the script
// (src/sea-main.ts, bundled here to CommonJS) writes the bundle to a new folder of the user's alone
// (0700, files 0600, created exclusively, in a parent no other user can change:
// src/config/bundle-folder.ts), imports it from there and removes it at exit. The blob is made by
// the base binary itself (`--experimental-sea-config`: a blob must come from the same Node version)
// and injected with postject. Writes dist/exe/fz-console-linux-<arch> and a .sha256 beside it.
import {execFileSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative} from 'node:path';
import {build} from 'esbuild';
import {inject} from 'postject';

const ARCH = {x64: 'x64', arm64: 'arm64'}[process.arch];
if (!ARCH || process.platform !== 'linux') {
  console.error(`build:exe makes Linux executables on Linux x64 or arm64; this is ${process.platform}/${process.arch}`);
  process.exit(1);
}
// The Node major the executable carries (SEA is stable from 22 on).
const NODE_MAJOR = process.env.FZ_EXE_NODE_MAJOR ?? '22';
const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
if (!existsSync(join(dist, 'fz-console.js'))) execFileSync('npm', ['run', 'build', '--silent'], {cwd: root, stdio: 'inherit'});

const work = mkdtempSync(join(tmpdir(), 'fz-exe-'));
try {
  // The base binary.
  let base = process.env.FZ_EXE_NODE;
  if (!base) {
    const out = execFileSync('npm', ['pack', '--silent', '--no-audit', '--no-fund', `node-linux-${ARCH}@${NODE_MAJOR}`], {cwd: work, encoding: 'utf8'});
    const tarball = join(work, out.trim().split('\n').pop());
    execFileSync('tar', ['-xzf', tarball, '-C', work, '--strip-components=1', 'package/bin/node']);
    rmSync(tarball);
    base = join(work, 'bin', 'node');
  }
  const version = execFileSync(base, ['--version'], {encoding: 'utf8'}).trim();

  // The bundle as assets, with their list (SEA has no way to list its assets on Node 22).
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (relative(dist, path) !== 'exe') walk(path);
      } else files.push(relative(dist, path));
    }
  };
  walk(dist);
  files.sort();
  const manifest = join(work, 'manifest.json');
  writeFileSync(manifest, JSON.stringify(files));
  const assets = Object.fromEntries(files.map((f) => [f, join(dist, f)]));
  assets['manifest.json'] = manifest;
  // The script: one CommonJS file with nothing to resolve at run time but Node's own modules.
  const main = join(work, 'sea-main.cjs');
  await build({
    entryPoints: [join(root, 'src', 'sea-main.ts')],
    outfile: main,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    logLevel: 'warning',
  });
  const blob = join(work, 'sea-prep.blob');
  const config = join(work, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify({
      main,
      output: blob,
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: false,
      assets,
    }),
  );
  execFileSync(base, ['--experimental-sea-config', config], {stdio: 'inherit'});

  const outDir = join(dist, 'exe');
  mkdirSync(outDir, {recursive: true});
  const name = `fz-console-linux-${ARCH}`;
  const exe = join(outDir, name);
  rmSync(exe, {force: true});
  copyFileSync(base, exe);
  chmodSync(exe, 0o755);
  // postject writes a warning per ELF note it cannot name; they are harmless and say nothing here.
  const warn = console.warn;
  console.warn = () => {};
  try {
    await inject(exe, 'NODE_SEA_BLOB', readFileSync(blob), {sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'});
  } finally {
    console.warn = warn;
  }
  const sum = createHash('sha256').update(readFileSync(exe)).digest('hex');
  writeFileSync(`${exe}.sha256`, `${sum}  ${name}\n`);
  const size = statSync(exe).size;
  console.log(`${relative(root, exe)}: ${(size / 1024 / 1024).toFixed(1)} MiB, Node ${version}, ${files.length} bundle files; sha256 ${sum} (${name}.sha256)`);
} finally {
  rmSync(work, {recursive: true, force: true});
}
