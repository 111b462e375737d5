// Tests that render with real Ink (not ink-testing-library's debug mode) import it from
// node_modules, where is-in-ci reads CI and CONTINUOUS_INTEGRATION when Ink is first loaded. CI
// machines set CI, and Ink would then draw nothing until unmount. The console's bundle never
// takes that mode (scripts/esbuild-common.mjs, noInkCiMode); this makes the tests' Ink match it.
// It runs before each test file's imports, so before Ink is loaded in the worker.
process.env.CI = 'false';
delete process.env.CONTINUOUS_INTEGRATION;
