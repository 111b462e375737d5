import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

// Layer boundaries (issue #11), with ESLint's own `no-restricted-imports`. Imports inside src/ are
// relative, and a pattern is matched against the import as written, so a rule that means "src/ui/"
// has to spell the way up to src/ for each folder depth: `layer()` writes one config block per depth.
const MAX_DEPTH = 4;

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `files` globs for the .ts/.tsx files exactly `depth` folders below src/ inside `folder`. */
function filesAt(folder, depth) {
  return [`src/${folder}/${'*/'.repeat(depth - 1)}*.{ts,tsx}`];
}

/** From a file `depth` folders below src/, a relative import that lands in one of `targets` (src/ subfolders). */
function into(targets, depth, message) {
  const up = escape('../'.repeat(depth));
  return {regex: `^${up}(${targets.map(escape).join('|')})(/|\\.js$|$)`, message};
}

/** From a file `depth` folders below src/, a relative import that leaves src/<folder>/ for anything but `allowed`. */
function outsideOf(allowed, depth, message) {
  const up = escape('../'.repeat(depth));
  const keep = allowed.length ? `(?!(${allowed.map(escape).join('|')})/)` : '';
  return {regex: `^${up}${keep}`, message};
}

const NO_UI_PACKAGES = [
  {regex: '^(react|react-dom|ink)(/|$)', message: 'Only src/ui/ (and the entry points) may use React or Ink.'},
  {regex: '^ink-', message: 'Only src/ui/ (and the entry points) may use Ink packages.'},
];

/**
 * One block per depth for src/<folder>/: `forbid` (src/ subfolders it must not import), `only`
 * (when set, the only src/ subfolders besides itself that it may import) and `patterns` (package
 * restrictions, the same at every depth). Every block sets the whole rule: flat config does not
 * merge the options of two blocks, so a folder's restrictions must all be in its own block.
 */
function layer(folder, {forbid = [], only, patterns = [], paths = [], why}) {
  return Array.from({length: MAX_DEPTH}, (_, i) => {
    const depth = i + 1;
    const relative = only ? [outsideOf(only, depth, why)] : forbid.length ? [into(forbid, depth, why)] : [];
    return {
      files: filesAt(folder, depth),
      rules: {'no-restricted-imports': ['error', {paths, patterns: [...relative, ...patterns]}]},
    };
  });
}

// Screen facts live on the screen specs (src/state/screens/<screen>/, docs/architecture.md, "Adding
// an action"): shared code compares no list screen's id. `configuration` is not among them: the one
// screen that is not a list is told from the others by its id (TypeScript narrows ScreenId to
// ListScreenId on it), and the same word is a scope and an API object type, which a selector
// cannot tell apart.
const SCREEN_ID = '/^(devices|users|rules|activity)$/';
const SCREEN_ID_MESSAGE = 'A screen fact belongs on its spec (src/state/screens/<screen>/): shared code compares no screen id.';
const NO_SCREEN_IDS = [
  {selector: `BinaryExpression[operator=/^[!=]==?$/] > Literal[value=${SCREEN_ID}]`, message: SCREEN_ID_MESSAGE},
  {selector: `SwitchCase > Literal.test[value=${SCREEN_ID}]`, message: SCREEN_ID_MESSAGE},
];
// Logic does not read display text: a message or an issue says what happened in its kind or fields.
const NO_MESSAGE_PREFIXES = [
  {
    selector: "CallExpression[callee.property.name='startsWith'][callee.object.property.name=/^(text|message)$/]",
    message: 'Logic does not read display text: give the message (or issue) a kind or a field to test instead.',
  },
];

export default tseslint.config(
  {ignores: ['dist/', 'node_modules/', 'coverage/']},
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        URL: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        performance: 'readonly',
        queueMicrotask: 'readonly',
        structuredClone: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', {argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none'}],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-constant-condition': ['error', {checkLoops: false}],
    },
  },

  // Hooks: only the two classic rules (not the React Compiler set).
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    plugins: {'react-hooks': reactHooks},
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },

  // Layers. The UI sits on top: nothing below it imports src/ui/, React or Ink.
  ...layer('api', {
    forbid: ['ui', 'state', 'wireguard'],
    patterns: NO_UI_PACKAGES,
    why: 'src/api/ is the HTTP client: it must not import src/ui/, src/state/ or src/wireguard/.',
  }),
  ...layer('state', {
    forbid: ['ui'],
    patterns: [
      ...NO_UI_PACKAGES,
      // Handlers take the ConsoleContext (src/state/core/context.ts); only the UI builds the Controller.
      {
        regex: '(^|/)controller(\\.js)?$',
        message: 'Only the UI imports the Controller (the composition root): depend on ConsoleContext from src/state/core/context.ts.',
      },
    ],
    why: 'src/state/ is plain logic under the UI: it must not import src/ui/.',
  }),
  ...layer('wireguard', {
    forbid: ['ui', 'state'],
    patterns: NO_UI_PACKAGES,
    why: 'src/wireguard/ must not import src/ui/ or src/state/.',
  }),
  ...layer('config', {
    forbid: ['ui'],
    patterns: NO_UI_PACKAGES,
    why: 'src/config/ must not import src/ui/.',
  }),
  // Shared with the sandbox, so it may import nothing of the console.
  ...layer('common', {
    only: [],
    patterns: NO_UI_PACKAGES,
    why: 'src/common/ is shared by the console and the sandbox: it may import only src/common/.',
  }),
  // The sandbox is a separate server: src/sandbox/ and src/common/ only (plus node: and npm packages).
  ...layer('sandbox', {
    only: ['common'],
    patterns: NO_UI_PACKAGES,
    why: 'src/sandbox/ may import only src/sandbox/ and src/common/ (and node: / npm packages).',
  }),
  ...layer('ui', {
    patterns: [{regex: '^undici(/|$)', message: 'No direct HTTP from the UI: go through src/api/ (FirezoneClient).'}],
    // Every string reaches the terminal through the display boundary (docs/architecture.md, "Untrusted text").
    paths: [{name: 'ink', importNames: ['Text'], message: 'Use Text from src/ui/SafeText.tsx: it makes server text display-safe.'}],
  }),
  // One rule, four file sets: flat config does not merge the options of two blocks.
  {files: ['src/state/**/*.ts'], rules: {'no-restricted-syntax': ['error', ...NO_SCREEN_IDS, ...NO_MESSAGE_PREFIXES]}},
  // The screens own their ids; the commands `:devices` and `:users` are named after the screens they open.
  {files: ['src/state/screens/**/*.ts', 'src/state/commands/**/*.ts'], rules: {'no-restricted-syntax': ['error', ...NO_MESSAGE_PREFIXES]}},
  {files: ['src/ui/**/*.ts', 'src/ui/**/*.tsx'], rules: {'no-restricted-syntax': ['error', ...NO_SCREEN_IDS]}},
  // The boundary itself wraps Ink's Text.
  {files: ['src/ui/SafeText.tsx'], rules: {'no-restricted-imports': ['error', {patterns: [{regex: '^undici(/|$)', message: 'No direct HTTP from the UI.'}]}]}},
);
