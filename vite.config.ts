import { defineConfig } from 'vitest/config'

/** One config for Vite and Vitest. Browser-mode tests (`*.browser.test.ts`) get their own project later. */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/*.browser.test.ts', 'node_modules/**'],
    testTimeout: 20_000,
  },
})
