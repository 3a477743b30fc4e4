import { defineConfig } from 'vitest/config'

/**
 * One config for Vite and Vitest. Consumer tests (`test/consumer/`) share one packed tarball a run.
 * Time limits are for a busy laptop (a browser and an IDE beside `npm test`), not an idle CI
 * machine: a test that hangs still fails, a slow one does not. Clean-up hooks bound each of their
 * own steps (test/support/cleanup.ts) well inside `hookTimeout`.
 */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // A consumer project's own tests (test/consumer/<project>/) run in that project, from the tarball.
    exclude: ['**/*.browser.test.ts', 'node_modules/**', 'test/consumer/*/**'],
    globalSetup: ['test/support/packed.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    // expect.poll waits up to 15 s (default 1 s): one call of a browser's page on a busy machine can
    // take a second by itself (a Storybook test failed so with four spinning processes beside it).
    expect: { poll: { timeout: 15_000 } },
  },
})
