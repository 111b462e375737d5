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

/** Bundled CommonJS dependencies call require(); ESM output needs one. */
export const requireShim = "import {createRequire as __fzCreateRequire} from 'node:module';\nconst require = __fzCreateRequire(import.meta.url);";

export const commonOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  jsx: 'automatic',
  legalComments: 'none',
  plugins: [noReactDevtools],
  logLevel: 'warning',
};
