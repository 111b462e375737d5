// Bundles the CLI into a few ESM files: loading them is far faster than resolving hundreds
// of node_modules files (see README "Cold start").
import {build} from 'esbuild';
import {readFileSync, chmodSync, rmSync} from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

rmSync('dist', {recursive: true, force: true});
await build({
  entryPoints: {'fz-console': 'src/bin.ts'},
  outdir: 'dist',
  // Chunks load on demand: --version and the sandbox never parse React and Ink.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  jsx: 'automatic',
  minify: false,
  sourcemap: false,
  legalComments: 'none',
  plugins: [{
    // Ink loads the React devtools bridge only when DEV=true, and it is not installed: an
    // external import would be hoisted and fail at start, so it becomes an inert stub.
    name: 'no-react-devtools',
    setup(b) {
      b.onResolve({filter: /^react-devtools-core$/}, () => ({path: 'react-devtools-core', namespace: 'stub'}));
      b.onLoad({filter: /.*/, namespace: 'stub'}, () => ({contents: 'export default {initialize() {}, connectToDevTools() {}};', loader: 'js'}));
    },
  }],
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
