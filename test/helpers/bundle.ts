// One source module bundled into a folder of its own, for tests that run it in a child process
// (V8 flags or natives syntax that must not touch the test worker).
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';
import {requireShim} from '../../scripts/esbuild-common.mjs';

/**
 * Bundles `src/<path>` (ESM, for Node) into `dir` as `<name>.mjs`; returns the file's path. A
 * CommonJS dependency (undici) requires Node's built-ins: the release build's `require` shim
 * (scripts/esbuild-common.mjs) gives the bundle one.
 */
export async function bundleModule(path: string, dir: string, name: string): Promise<string> {
  const outfile = join(dir, `${name}.mjs`);
  await build({
    entryPoints: [fileURLToPath(new URL(`../../src/${path}`, import.meta.url))],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    banner: {js: requireShim},
  });
  return outfile;
}
