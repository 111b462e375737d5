// The start order the built bundle promises (docs/performance.md, "Start-up"): the first poll's
// requests leave before React and Ink are loaded, and neither undici nor zod is loaded before
// the first frame at all (a poll of well-formed lists needs neither). Checked on the chunks `npm test` has just built, by following their
// static imports (a dynamic import() loads only when the code reaches it).
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const chunks = join(dist, 'chunks');

function chunkNamed(prefix: string): string {
  const found = readdirSync(chunks).filter((f) => f.startsWith(`${prefix}-`) && f.endsWith('.js'));
  expect(found, `one ${prefix} chunk in dist/chunks`).toHaveLength(1);
  return join(chunks, found[0]!);
}

/** The files a chunk loads before its own code runs: itself and its static imports, transitively. */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/^(?:import|export)\s[^;]*?from\s*"(\.\/[^"]+)"|^import\s*"(\.\/[^"]+)"/gms)) {
    staticClosure(join(file, '..', (match[1] ?? match[2])!), seen);
  }
  return seen;
}

/** The packages bundled into these files, from esbuild's `// node_modules/<package>/…` markers. */
function packagesIn(files: Set<string>): Set<string> {
  const packages = new Set<string>();
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)) packages.add(match[1]!);
  }
  return packages;
}

describe('the built chunks', () => {
  it('the early chunk, which sends the first poll, loads none of undici, zod, React or Ink', () => {
    const packages = packagesIn(staticClosure(chunkNamed('early')));
    for (const heavy of ['undici', 'zod', 'react', 'ink', 'yoga-layout']) expect([...packages]).not.toContain(heavy);
  });

  it('the console (its UI chunk) loads React and Ink, but neither undici nor zod: they wait for the first request or response that needs them', () => {
    const packages = packagesIn(staticClosure(chunkNamed('cli')));
    for (const loaded of ['react', 'ink']) expect([...packages]).toContain(loaded);
    for (const later of ['undici', 'zod']) expect([...packages]).not.toContain(later);
  });

  it('zod and undici are there to load: each in a chunk of its own', () => {
    expect([...packagesIn(staticClosure(chunkNamed('schemas')))]).toContain('zod');
    expect([...packagesIn(staticClosure(chunkNamed('undici')))]).toContain('undici');
  });
});
