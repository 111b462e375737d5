import {fileURLToPath} from 'node:url';
// Settings every esbuild bundle of the console shares (the CLI and the bench's in-process half).

/**
 * Ink loads the React devtools bridge only when DEV=true, and it is not installed: an
 * external import would be hoisted and fail at start, so it becomes an inert stub.
 */
export const noReactDevtools = {
  name: 'no-react-devtools',
  setup(b) {
    b.onResolve({filter: /^react-devtools-core$/}, () => ({path: 'react-devtools-core', namespace: 'stub'}));
    b.onLoad({filter: /.*/, namespace: 'stub'}, () => ({contents: 'export default {initialize() {}, connectToDevTools() {}};', loader: 'js'}));
  },
};

/**
 * string-width is a pure function that Ink calls for every line of every frame, and it takes
 * its slow path (Intl.Segmenter plus several Unicode regexes per grapheme) for any line with
 * a non-ASCII character — every table row has one (● ○ · – …). Text made only of characters
 * that are one cell each is answered by src/ui/narrow-width.ts without it; most other lines are
 * the same from one frame to the next, so a bounded memo in front of it removes most of the rest
 * (npm run bench, keystroke → frame). Options-less calls only; the memo is cleared when full.
 */
const NARROW_WIDTH = fileURLToPath(new URL('../src/ui/narrow-width.ts', import.meta.url));

export const memoStringWidth = {
  name: 'memo-string-width',
  setup(b) {
    b.onResolve({filter: /^string-width$/}, async (args) => {
      if (args.pluginData === 'memo-string-width') return undefined;
      const real = await b.resolve('string-width', {resolveDir: args.resolveDir, kind: args.kind, pluginData: 'memo-string-width'});
      if (real.errors.length > 0) return undefined;
      return {path: real.path, namespace: 'memo-string-width'};
    });
    b.onLoad({filter: /.*/, namespace: 'memo-string-width'}, (args) => ({
      contents: `import realStringWidth from ${JSON.stringify(args.path)};
import {narrowWidth} from ${JSON.stringify(NARROW_WIDTH)};
const memo = new Map();
export default function stringWidth(text, options) {
  if (options !== undefined || typeof text !== 'string') return realStringWidth(text, options);
  const narrow = narrowWidth(text);
  if (narrow !== null) return narrow;
  let width = memo.get(text);
  if (width === undefined) {
    width = realStringWidth(text);
    if (memo.size >= 8192) memo.clear();
    memo.set(text, width);
  }
  return width;
}`,
      loader: 'js',
      resolveDir: '.',
    }));
  },
};

/**
 * Ink 6.8 builds a fresh per-frame cache of each line's styled characters and widths
 * (ink/build/output.js). Sharing one bounded cache across frames lets the unchanged lines of
 * a frame skip ANSI tokenizing. The build fails if Ink's code no longer looks as expected, so
 * an Ink upgrade cannot silently drop this.
 */
export const inkSharedOutputCache = {
  name: 'ink-shared-output-cache',
  setup(b) {
    b.onLoad({filter: /[\\/]ink[\\/]build[\\/]output\.js$/}, async (args) => {
      const {readFile} = await import('node:fs/promises');
      let code = await readFile(args.path, 'utf8');
      const edits = [
        [
          'this.styledChars.set(line, cached);',
          'if (this.styledChars.size >= 8192) this.styledChars.clear();\n            this.styledChars.set(line, cached);',
        ],
        ['this.widths.set(text, cached);', 'if (this.widths.size >= 8192) this.widths.clear();\n            this.widths.set(text, cached);'],
        [
          'this.blockWidths.set(text, cached);',
          'if (this.blockWidths.size >= 8192) this.blockWidths.clear();\n            this.blockWidths.set(text, cached);',
        ],
        ['export default class Output {', 'const sharedOutputCaches = new OutputCaches();\nexport default class Output {'],
        ['caches = new OutputCaches();', 'caches = sharedOutputCaches;'],
      ];
      for (const [from, to] of edits) {
        if (!code.includes(from)) throw new Error(`ink-shared-output-cache: ink/build/output.js changed ("${from}" not found); review the patch`);
        code = code.replace(from, to);
      }
      return {contents: code, loader: 'js'};
    });
  },
};

/** Bundled CommonJS dependencies call require(); ESM output needs one. */
export const requireShim = "import {createRequire as __fzCreateRequire} from 'node:module';\nconst require = __fzCreateRequire(import.meta.url);";

export const commonOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  jsx: 'automatic',
  legalComments: 'none',
  plugins: [noReactDevtools, memoStringWidth, inkSharedOutputCache],
  logLevel: 'warning',
};
