import { defineConfig } from 'vitest/config'

/**
 * One config for Vite and Vitest, three projects: `unit` (the library's own tests beside its code,
 * and the cross-runtime tests of `test/`), `e2e` (Chromium driving pages, `test/e2e/`) and
 * `consumer` (the packed tarball installed in fresh projects, `test/consumer/`). `npm run
 * test:quick` runs the type-check and `unit`, its files not isolated (`--no-isolate`: built data
 * shared by the files of a worker); `npm test` all three, every file isolated. Time limits are for a busy
 * laptop (a browser and an IDE beside `npm test`), not an idle CI machine: a test that hangs
 * still fails, a slow one does not. Clean-up hooks bound each of their own steps
 * (test/support/cleanup.ts) well inside `hookTimeout`.
 */
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    // expect.poll waits up to 15 s (default 1 s): one call of a browser's page on a busy machine can
    // take a second by itself (a Storybook test failed so with four spinning processes beside it).
    expect: { poll: { timeout: 15_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/*.test.ts'],
          exclude: ['**/*.browser.test.ts', 'node_modules/**'],
        },
      },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'consumer',
          // A consumer project's own tests (test/consumer/<project>/) run in that project, from the tarball.
          include: ['test/consumer/*.test.ts'],
          // One packed tarball a run, shared by every consumer test file.
          globalSetup: ['test/support/packed.ts'],
        },
      },
    ],
  },
})
