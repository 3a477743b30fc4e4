import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'mocks/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/*.browser.test.ts', 'node_modules/**'],
    testTimeout: 20_000,
  },
})
