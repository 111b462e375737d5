// The tests `npm run mutate` runs against each mutant: the group's own (FZ_MUTATE_TESTS, set by
// scripts/mutate.mjs from test/mutation/stryker.config.mjs), or every suite that holds a guard.
// Never the end-to-end suites (a mutant of src/ does not reach the built binary) nor the release
// checks (they build and pack).
import {defineConfig} from 'vitest/config';

export default defineConfig({
  test: {
    include: process.env.FZ_MUTATE_TESTS?.split(',') ?? ['test/{common,state,api,sandbox,wireguard}/**/*.test.ts', 'test/ui/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup/no-ci-mode.ts', 'test/setup/workdir.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
