import { basename } from 'node:path'
import { playwright } from '@vitest/browser-playwright'
import { tmapsMock, tmapsRecorder } from 'tmaps-mock/vite'
import { defineConfig } from 'vitest/config'

// The recorded tests: their TMaps answers replayed from recordings/<test file>.har, and what a
// file lacks forwarded to TMaps with the real key and recorded. No TMAPS_KEY (CI): replayed only.
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
      record: { har: (testFile) => `recordings/${basename(testFile)}.har` },
    }),
  ],
  test: {
    include: ['src/**/*.recorded.ts'],
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
