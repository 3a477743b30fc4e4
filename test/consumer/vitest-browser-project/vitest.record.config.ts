import { relative } from 'node:path'
import { tmapsRecorder } from 'tmaps-mock/vite'
import { defineConfig, mergeConfig } from 'vitest/config'
import base from './vitest.config.ts'

// The recorded tests: the project's Vitest config (its browser, tmapsMock()) plus the recorder.
// Their TMaps answers are replayed from recordings/<test file>.har, and what a file lacks is
// forwarded to TMaps with the real key and recorded. No TMAPS_KEY (CI): replayed only.
export default mergeConfig(
  base,
  defineConfig({
    plugins: [
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
    // Recording waits for TMaps (at most 15 s): the tests' time limit leaves room for it.
    test: { include: ['src/**/*.recorded.ts'], testTimeout: 30_000 },
  }),
)
