import { defineConfig } from 'vitest/config'

/** One config for Vite and Vitest. Consumer tests (`test/consumer/`) share one packed tarball a run. */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/*.browser.test.ts', 'node_modules/**'],
    globalSetup: ['test/support/packed.ts'],
    testTimeout: 20_000,
  },
})
