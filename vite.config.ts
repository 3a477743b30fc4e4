import { defineConfig } from 'vitest/config'

/**
 * One config for Vite and Vitest, three projects: `unit` (the library's own tests beside its code,
 * and the cross-runtime tests of `test/`), `e2e` (Chromium driving pages, `test/e2e/`) and
 * `consumer` (the packed tarball installed in fresh projects, `test/consumer/`). `npm run
 * test:quick` runs the type-check and `unit`; `npm test` all three. Time limits are for a busy
 * laptop (a browser and an IDE beside `npm test`), not an idle CI machine: a test that hangs
 * still fails, a slow one does not. Clean-up hooks bound each of their own steps
 * (test/support/cleanup.ts) well inside `hookTimeout`.
 */
/**
 * The projects run one after another (`groupOrder`), each with its own worker count: `unit` two
 * workers, its files sharing modules within a worker (`isolate: false`: the built data, geocoder
 * and map made once a worker, not once a file); `e2e` and `consumer` one worker, their files
 * isolated (Chromium and package installs use both cores by themselves: two files side by side
 * took as long as one after the other, each twice as slow, and a busy machine's timeouts nearer).
 */
const groupOf = (groupOrder: number, maxWorkers: number) => ({ sequence: { groupOrder }, maxWorkers })

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
          include: ['src/**/*.test.ts', 'test/*.test.ts', 'test/support/*.test.ts'],
          exclude: ['**/*.browser.test.ts', 'node_modules/**'],
          isolate: false,
          ...groupOf(0, 2),
        },
      },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], ...groupOf(1, 1) } },
      {
        extends: true,
        test: {
          name: 'consumer',
          ...groupOf(2, 1),
          // A consumer project's own tests (test/consumer/<project>/) run in that project, from the tarball.
          include: ['test/consumer/*.test.ts'],
          // One packed tarball a run, shared by every consumer test file; it and the projects'
          // installs are made in the background while `unit` and `e2e` run.
          globalSetup: ['test/support/consumer-setup.ts'],
        },
      },
    ],
  },
})
