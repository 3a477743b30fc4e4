import { relative } from 'node:path'
import { playwright } from '@vitest/browser-playwright'
import { tmapsMock, tmapsRecorder } from 'tmaps-mock/vite'
import { defineConfig } from 'vitest/config'

// The recorded tests: their TMaps answers replayed from recordings/<test file>.har, and what a
// file lacks forwarded to TMaps with the real key and recorded. No TMAPS_KEY (CI): replayed only.
// Recording waits for TMaps (at most 15 s): the tests' time limit leaves room for it.
export default defineConfig({
  plugins: [
    tmapsMock(),
    tmapsRecorder({
      upstream: {
        key: process.env.TMAPS_KEY,
        // The real hosts by default; the project's own test points these at a stand-in TMaps.
        api: process.env.TMAPS_API,
        tiles: process.env.TMAPS_TILES,
        ca: process.env.TMAPS_CA,
      },
      // One HAR per test file, named after its path under src/ (two files of one name never share one).
      record: { har: (testFile) => `recordings/${relative('src', testFile)}.har` },
    }),
  ],
  test: {
    include: ['src/**/*.recorded.ts'],
    testTimeout: 30_000,
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: ['--no-sandbox'],
        },
      }),
      instances: [{ browser: 'chromium' }],
    },
  },
})
