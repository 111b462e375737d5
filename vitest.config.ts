import {defineConfig} from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    // A temporary working directory, HOME and XDG dirs per test file (nothing lands in the checkout).
    setupFiles: ['test/setup/no-ci-mode.ts', 'test/setup/workdir.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // The tmux end-to-end suites share one tmux server; keep files parallel but bounded for a 2-core machine.
    maxWorkers: 2,
  },
});
