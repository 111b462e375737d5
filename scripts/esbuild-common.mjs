import {fileURLToPath} from 'node:url';
import {inkOutputRows} from './ink-output-rows.mjs';
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
 * Ink switches to its CI mode when CI or CONTINUOUS_INTEGRATION is set (is-in-ci): it draws
 * nothing while running, prints only the last frame at exit and stops listening for resizes.
 * The console only ever draws to a terminal an admin is looking at, and admins do run it from
 * shells that carry CI=1 (a runner's container, a CI box they SSH into), where it was a blank
 * screen until they quit. The bundle's Ink therefore never takes that mode
 * (docs/terminal-notes.md, "CI mode renders only the last frame").
 */
export const noInkCiMode = {
  name: 'no-ink-ci-mode',
  setup(b) {
    b.onResolve({filter: /^is-in-ci$/}, () => ({path: 'is-in-ci', namespace: 'not-in-ci'}));
    b.onLoad({filter: /.*/, namespace: 'not-in-ci'}, () => ({contents: 'export default false;', loader: 'js'}));
  },
};

/**
 * string-width is a pure function that Ink calls for every line of every frame, and it takes
 * its slow path (Intl.Segmenter plus several Unicode regexes per grapheme) for any line with
 * a non-ASCII character — every table row has one (● ○ · – …). Text made only of characters
 * that are one cell each, coloured or not, is answered by src/ui/narrow-width.ts without it;
 * most other lines are the same from one frame to the next, so a bounded memo in front of it
 * removes most of the rest (npm run bench, keystroke → frame). Options-less calls only; the memo
 * is cleared when full. Every copy is wrapped, wrap-ansi's own (string-width 7.2) too: that one
 * counts 18 of the characters narrow-width answers for as two cells (© ® ‼ ⁉ ↔–↙ ↩ ↪ ▪ ▫ ▶ ◀ ◻ ◼,
 * text presentation, one cell in terminals), which Ink's measure (string-width 8.3) counts as
 * one, so answering both the same way keeps wrapping in step with layout.
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
import {narrowWidthStyled} from ${JSON.stringify(NARROW_WIDTH)};
const memo = new Map();
export default function stringWidth(text, options) {
  if (options !== undefined || typeof text !== 'string') return realStringWidth(text, options);
  const narrow = narrowWidthStyled(text);
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
 * A plugin that edits one file of a dependency as it is bundled: each [from, to] replaces the
 * first `from`, and an edit that is a function takes the text and returns it edited (it throws
 * when the text is not what it was written for). The build fails if a `from` is missing, so that
 * an upgrade of the dependency cannot silently drop a patch (review it instead).
 */
function patchPlugin(name, filter, what, edits) {
  return {
    name,
    setup(b) {
      b.onLoad({filter}, async (args) => {
        const {readFile} = await import('node:fs/promises');
        let code = await readFile(args.path, 'utf8');
        for (const edit of edits) {
          if (typeof edit === 'function') {
            code = edit(code);
            continue;
          }
          const [from, to] = edit;
          if (!code.includes(from)) throw new Error(`${name}: ${what} changed ("${from}" not found); review the patch`);
          code = code.replace(from, to);
        }
        return {contents: code, loader: 'js'};
      });
    },
  };
}

/**
 * Ink 6.8's output.js: frames are made row by row, and a row whose writes did not change is not
 * made again (scripts/ink-output-rows.mjs). And Ink builds a fresh per-frame cache of each line's
 * styled characters and widths; sharing one bounded cache across frames lets the new rows of a
 * frame skip ANSI tokenizing for lines they share with earlier frames. The styled characters are
 * one object per cell (V8 keeps them in dictionary mode, a hidden class apiece), so their cache
 * holds a few frames' lines, not thousands: bounded at 8,192 lines it grew, with live updates at
 * 50k devices, far past what a frame needs (docs/performance.md, "Frames"), and could reach ten
 * times that.
 */
export const inkSharedOutputCache = patchPlugin('ink-shared-output-cache', /[\\/]ink[\\/]build[\\/]output\.js$/, 'ink/build/output.js', [
  inkOutputRows,
  ['this.styledChars.set(line, cached);', 'if (this.styledChars.size >= 256) this.styledChars.clear();\n            this.styledChars.set(line, cached);'],
  ['this.widths.set(text, cached);', 'if (this.widths.size >= 8192) this.widths.clear();\n            this.widths.set(text, cached);'],
  ['this.blockWidths.set(text, cached);', 'if (this.blockWidths.size >= 8192) this.blockWidths.clear();\n            this.blockWidths.set(text, cached);'],
  ['export default class Output {', 'const sharedOutputCaches = new OutputCaches();\nexport default class Output {'],
  ['caches = new OutputCaches();', 'caches = sharedOutputCaches;'],
]);

/**
 * Ink turns every line of every frame back into a string with styledCharsToString
 * (@alcalzone/ansi-tokenize), which diffs the styles of each cell against the previous one: three
 * Sets and four arrays per cell, some 5,000 cells a frame. Two cells with the same styles (a run
 * of one colour, the blank cells) have an empty diff, so the patch skips it for them (and the
 * cells of a run share one styles array, so that is mostly an identity test), and the few real
 * diffs of a frame come from a small cache; the string is the same
 * (test/ui/ansi-tokenize-patches.test.ts holds the patched and the original to the same output).
 * At 50k devices that garbage made a refresh frame slow (docs/performance.md, "Frames").
 */
export const styledCharsSameStyles = patchPlugin(
  'styled-chars-same-styles',
  /[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]styledChars\.js$/,
  "ansi-tokenize's styledChars.js",
  [
    [
      'ret += ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, char.styles));',
      'if (!sameCodes(chars[i - 1].styles, char.styles)) ret += diffString(chars[i - 1].styles, char.styles);',
    ],
    ['ret += ansiCodesToString(diffAnsiCodes(char.styles, []));', 'if (char.styles.length > 0) ret += diffString(char.styles, []);'],
    // The characters of a run of one style share one copy of it (nothing changes a cell's
    // styles), so that the check above is an identity test for them.
    ['    let codes = [];\n    const ret = [];', '    let codes = [];\n    let runStyles;\n    const ret = [];'],
    ['codes = reduceAnsiCodesIncremental(codes, [token]);', 'codes = reduceAnsiCodesIncremental(codes, [token]);\n            runStyles = undefined;'],
    ['styles: [...codes],', 'styles: (runStyles ??= [...codes]),'],
    [
      'export function styledCharsToString(chars) {',
      `function sameCodes(a, b) {
if (a === b) return true;
if (a.length !== b.length) return false;
for (let k = 0; k < a.length; k++) if (a[k].code !== b[k].code || a[k].endCode !== b[k].endCode) return false;
return true;
}
// The escape codes between two style sets depend on their codes and end codes alone: a frame has a
// few hundred such changes, between a dozen distinct style sets, each diff three Sets and four arrays.
let diffStrings = new Map();
function diffString(from, to) {
let key = "";
for (const c of from) key += c.code + "\\u0000" + c.endCode + "\\u0000";
key += "\\u0001";
for (const c of to) key += c.code + "\\u0000" + c.endCode + "\\u0000";
let text = diffStrings.get(key);
if (text === undefined) {
    text = ansiCodesToString(diffAnsiCodes(from, to));
    if (diffStrings.size >= 4096) diffStrings = new Map();
    diffStrings.set(key, text);
}
return text;
}
export function styledCharsToString(chars) {`,
    ],
  ],
);

/**
 * ansi-tokenize's tokenize, which Ink runs on every new line of a frame, walks the line with
 * Intl.Segmenter: after a refresh at 50k devices that is every table line, microseconds per
 * character. A line made only of ESC and one-cell characters (src/ui/narrow-width.ts: none of them
 * joins a neighbour into a cluster) has one grapheme per code unit, which the patch yields without
 * the segmenter; any other line still goes through it. test/ui/ansi-tokenize-patches.test.ts checks
 * both claims.
 */
export const tokenizeNarrowLines = patchPlugin(
  'tokenize-narrow-lines',
  /[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize\.js$/,
  "ansi-tokenize's tokenize.js",
  [
    ['for (const { segment, index } of segmenter.segment(str)) {', 'for (const { segment, index } of graphemesOf(str)) {'],
    [
      'export function tokenize(',
      `import {isNarrow as __fzIsNarrow} from ${JSON.stringify(NARROW_WIDTH)};
// One result object and one segment object for the whole walk (the loop destructures each at
// once): a generator made two objects per character, ~60 MB a bench run at 50k devices.
function codeUnitsOf(str) {
let i = 0;
const value = { segment: "", index: 0 };
const result = { value, done: false };
return {
    [Symbol.iterator]() { return this; },
    next() {
        if (i >= str.length) return { value: undefined, done: true };
        value.segment = str[i];
        value.index = i++;
        return result;
    },
};
}
function graphemesOf(str) {
for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    if (c !== 0x1b && !__fzIsNarrow(c)) return segmenter.segment(str);
}
return codeUnitsOf(str);
}
export function tokenize(`,
    ],
  ],
);

/**
 * yoga-layout's Emscripten loader gets its WebAssembly, a base64 data: URL, with the global
 * fetch() when there is one (yoga-wasm-base64-esm.js, `ya`): in Node that loads Node's own undici
 * for fetch — compiling it before the console's first frame (docs/performance.md, "Start-up") —
 * to decode a string already in memory. The patch hands the loader the bytes instead
 * (its `wasmBinary`, which it takes when set), decoded with Buffer.
 */
export const yogaWasmWithoutFetch = patchPlugin(
  'yoga-wasm-without-fetch',
  /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/,
  "yoga-layout's wasm loader",
  [['function ya(){return w||"function"!=typeof fetch?', 'function ya(){w||(w=Buffer.from(H.slice(37),"base64"));return w||"function"!=typeof fetch?']],
);

/** Bundled CommonJS dependencies call require(); ESM output needs one. */
export const requireShim = "import {createRequire as __fzCreateRequire} from 'node:module';\nconst require = __fzCreateRequire(import.meta.url);";

export const commonOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  jsx: 'automatic',
  legalComments: 'none',
  plugins: [noReactDevtools, noInkCiMode, memoStringWidth, inkSharedOutputCache, styledCharsSameStyles, tokenizeNarrowLines, yogaWasmWithoutFetch],
  logLevel: 'warning',
};
