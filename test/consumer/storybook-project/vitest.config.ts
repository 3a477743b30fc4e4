import { storybookTest } from '@storybook/addon-vitest/vitest-plugin'
import { playwright } from '@vitest/browser-playwright'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        // Every story of .storybook/main.ts as a test: it renders, and its play function passes.
        plugins: [storybookTest({ configDir: '.storybook' })],
        test: {
          name: 'storybook',
          // A story's first search builds the generated world in the page: seconds on a busy machine.
          testTimeout: 60_000,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              // Debian's Chromium (no downloaded browser)
              launchOptions: {
                executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
                args: ['--no-sandbox'],
              },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
})
