import { playwright } from '@vitest/browser-playwright'
import { tmapsMock } from 'tmaps-mock/vite'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  // Under Vitest, the plugin serves msw's worker script to the test page (and does nothing more).
  plugins: [tmapsMock()],
  test: {
    browser: {
      enabled: true,
      headless: true,
      // The machine's own Chromium (never downloaded): Debian's, or CHROMIUM_PATH.
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
