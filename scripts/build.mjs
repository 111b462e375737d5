// Bundles the CLI into one ESM file: a single file loads far faster than
// hundreds of node_modules files (see README "Cold start").
import {build} from 'esbuild';
import {readFileSync, chmodSync} from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: ['src/cli.tsx'],
  outfile: 'dist/fz-console.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  jsx: 'automatic',
  minify: false,
  sourcemap: false,
  legalComments: 'none',
  define: {
    'process.env.FZ_CONSOLE_VERSION': JSON.stringify(pkg.version),
    // React's development build is several times slower; the bundle is always production.
    'process.env.NODE_ENV': '"production"',
  },
  banner: {
    // Bundled CommonJS dependencies call require(); ESM output needs one.
    js: "#!/usr/bin/env node\nimport {createRequire as __fzCreateRequire} from 'node:module';\nconst require = __fzCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
chmodSync('dist/fz-console.js', 0o755);
