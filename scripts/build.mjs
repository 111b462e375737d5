// Bundles the CLI into a few ESM files: loading them is far faster than resolving hundreds
// of node_modules files (see README "Cold start").
import {build} from 'esbuild';
import {readFileSync, chmodSync, rmSync} from 'node:fs';
import {commonOptions, requireShim} from './esbuild-common.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// The bundle is made again; dist/exe (npm run build:exe) stays until that script makes it again.
rmSync('dist/chunks', {recursive: true, force: true});
rmSync('dist/fz-console.js', {force: true});
rmSync('dist/devices-worker.js', {force: true});
await build({
  ...commonOptions,
  // The device poll's worker thread is its own entry: it loads the client, nothing of the console.
  entryPoints: {'fz-console': 'src/bin.ts', 'devices-worker': 'src/api/devices-worker.ts'},
  outdir: 'dist',
  // Chunks load on demand: --version and the sandbox never parse React and Ink.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  define: {
    'process.env.FZ_CONSOLE_VERSION': JSON.stringify(pkg.version),
    // React's development build is several times slower; the bundle is always production.
    'process.env.NODE_ENV': '"production"',
  },
  banner: {js: `#!/usr/bin/env node\n${requireShim}`},
});
chmodSync('dist/fz-console.js', 0o755);
